import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiHttpError, MESSAGES } from 'shared';
import { createFakeApi, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';

const backup = () => new File(['{"formato":"manager-tpv-backup"}'], 'manager-tpv-2026-11-21.json', { type: 'application/json' });

describe('Utilidades', () => {
  it('the backup is a plain download of copiaseguridad', async () => {
    renderSection(Section, menu.prefix, '/config/utilidades');
    const link = screen.getByRole('link', { name: 'Descargar copia de seguridad' });
    expect(link.getAttribute('href')).toBe('/api/op.asp?ac=copiaseguridad');
    expect(link.hasAttribute('download')).toBe(true);
    expect(screen.getByText(/SQLite como con PostgreSQL/)).toBeTruthy();
  });

  it('restoring asks for confirmation first, warning that everything is replaced; then uploads and re-reads the configuration', async () => {
    const fake = createFakeApi({
      restaurarcopia: () => ({ RESULT: '0', message: MESSAGES.backupRestored, data: [{ usuarios: 3, series: 2 }] }),
    });
    const reloadConfig = vi.fn(async () => {});
    const { toasts } = renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api, reloadConfig });
    const restore = screen.getByRole('button', { name: 'Restaurar copia…' }) as HTMLButtonElement;
    expect(restore.disabled).toBe(true);

    await userEvent.upload(screen.getByLabelText('Archivo de copia (.json)'), backup());
    expect(screen.getByText(/manager-tpv-2026-11-21\.json/)).toBeTruthy();
    await userEvent.click(restore);

    const dialog = screen.getByRole('dialog', { name: 'Restaurar copia de seguridad' });
    expect(within(dialog).getByText(/Se reemplazarán todos los datos actuales/)).toBeTruthy();
    expect(fake.calls).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Restaurar' }));
    await waitFor(() => expect(reloadConfig).toHaveBeenCalledTimes(1));
    expect(fake.calls.map((c) => [c.method, c.ac])).toEqual([['UPLOAD', 'restaurarcopia']]);
    expect((fake.calls[0].body as File).name).toBe('manager-tpv-2026-11-21.json');
    expect(toasts).toContain(`success:${MESSAGES.backupRestored}`);
    expect(screen.getByText('Usuarios: 3 · Series: 2')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cancelling the confirmation uploads nothing', async () => {
    const fake = createFakeApi({ restaurarcopia: () => ({ RESULT: '0', data: [] }) });
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api });
    await userEvent.upload(screen.getByLabelText('Archivo de copia (.json)'), backup());
    await userEvent.click(screen.getByRole('button', { name: 'Restaurar copia…' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    expect(fake.calls).toHaveLength(0);
  });

  it('a file that is not a backup shows the server message and changes nothing here', async () => {
    const fake = createFakeApi({
      restaurarcopia: () => {
        throw new ApiHttpError(400, { RESULT: '1', message: MESSAGES.invalidBackup });
      },
    });
    const reloadConfig = vi.fn(async () => {});
    const { toasts } = renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api, reloadConfig });
    await userEvent.upload(screen.getByLabelText('Archivo de copia (.json)'), backup());
    await userEvent.click(screen.getByRole('button', { name: 'Restaurar copia…' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restaurar' }));
    expect(await screen.findByText(MESSAGES.invalidBackup)).toBeTruthy();
    expect(toasts).toContain(`error:${MESSAGES.invalidBackup}`);
    expect(reloadConfig).not.toHaveBeenCalled();
  });
});
