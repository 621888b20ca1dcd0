import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithShell } from '../testing';
import { RecordActions, type RecordActionsProps } from './form';

afterEach(cleanup);

const deletion = { title: 'Eliminar serie', text: 'Se eliminará la serie «A».' };

function editor(over: Partial<RecordActionsProps['editor']> = {}): RecordActionsProps['editor'] {
  return { isNew: false, form: { dirty: false }, saving: false, removing: false, remove: vi.fn(async () => true), ...over };
}

describe('RecordActions', () => {
  it('a new record, or one without deletion, has no Eliminar', () => {
    const { unmount } = renderWithShell(<RecordActions editor={editor({ isNew: true })} deletion={deletion} />);
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    unmount();
    renderWithShell(<RecordActions editor={editor()} />);
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeTruthy();
  });

  it('Eliminar asks first; Cancelar deletes nothing', () => {
    const ed = editor();
    renderWithShell(<RecordActions editor={ed} deletion={deletion} cancelTo="/series" />);
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = screen.getByRole('dialog', { name: 'Eliminar serie' });
    expect(within(dialog).getByText('Se eliminará la serie «A».')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(ed.remove).not.toHaveBeenCalled();
  });

  it('a refused delete closes the dialog; a done one leaves it to the screen', async () => {
    const refused = editor({ remove: vi.fn(async () => false) });
    const { unmount } = renderWithShell(<RecordActions editor={refused} deletion={deletion} />);
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' })));
    expect(refused.remove).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    unmount();

    const done = editor();
    renderWithShell(<RecordActions editor={done} deletion={deletion} />);
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' })));
    expect(done.remove).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('shows the unsaved changes and waits while saving', () => {
    renderWithShell(<RecordActions editor={editor({ form: { dirty: true }, saving: true })} deletion={deletion} />);
    expect(screen.getByText('Guardando…')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
