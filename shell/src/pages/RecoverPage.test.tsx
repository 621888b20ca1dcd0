import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ThemeProvider } from 'styled-components';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTheme, MESSAGES } from 'shared';
import { RecoverPage } from './RecoverPage';

const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function renderRecover(route: string) {
  render(
    <ThemeProvider theme={makeTheme()}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path="/recuperar-psswd" element={<RecoverPage />} />
        </Routes>
      </MemoryRouter>
    </ThemeProvider>,
  );
}

const bodies = (fetchMock: ReturnType<typeof vi.fn>) => fetchMock.mock.calls.map(([, init]) => JSON.parse(String((init as RequestInit).body)));

describe('RecoverPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks for the link: validates, sends, and shows what the server says', async () => {
    const fetchMock = vi.fn(async () => reply({ RESULT: '0' }));
    vi.stubGlobal('fetch', fetchMock);
    renderRecover('/recuperar-psswd');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'ana@demo.es' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect((await screen.findByRole('status')).textContent).toBe(MESSAGES.recoverySent);
    expect(bodies(fetchMock)).toEqual([{ email: 'ana@demo.es' }]);
  });

  it('shows a refusal, then the field errors of an HTTP 400', async () => {
    const fetchMock = vi.fn(async () => reply({ RESULT: '1', message: 'Demasiadas solicitudes' }));
    vi.stubGlobal('fetch', fetchMock);
    renderRecover('/recuperar-psswd');
    fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'ana@demo.es' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect(await screen.findByText('Demasiadas solicitudes')).toBeTruthy();

    fetchMock.mockImplementation(async () => reply({ RESULT: '1', errors: { email: 'Correo no admitido' } }, 400));
    fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect(await screen.findByText('Correo no admitido')).toBeTruthy();
    expect(screen.queryByText('Demasiadas solicitudes')).toBeNull();
  });

  it('sets the new password: both must match, a bad link says so', async () => {
    const fetchMock = vi.fn(async () => reply({ RESULT: '2' }));
    vi.stubGlobal('fetch', fetchMock);
    renderRecover('/recuperar-psswd?token=abc');
    fireEvent.change(screen.getByLabelText('Contraseña nueva'), { target: { value: 'secreta-123' } });
    fireEvent.change(screen.getByLabelText('Repita la contraseña'), { target: { value: 'secreta-124' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByText(MESSAGES.passwordsDiffer)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Repita la contraseña'), { target: { value: 'secreta-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByText(MESSAGES.recoveryInvalid)).toBeTruthy();
    expect(bodies(fetchMock)).toEqual([{ token: 'abc', password: 'secreta-123' }]);

    fetchMock.mockImplementation(async () => reply({ RESULT: '0' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect((await screen.findByRole('status')).textContent).toBe(MESSAGES.passwordChanged);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it("a common password (or the user's e-mail) refused by the server shows on the password field (issue 24)", async () => {
    const fetchMock = vi.fn(async () => reply({ RESULT: '1', message: MESSAGES.invalidFields, errors: { password: MESSAGES.passwordComun } }, 400));
    vi.stubGlobal('fetch', fetchMock);
    renderRecover('/recuperar-psswd?token=abc');
    fireEvent.change(screen.getByLabelText('Contraseña nueva'), { target: { value: 'iloveyou' } });
    fireEvent.change(screen.getByLabelText('Repita la contraseña'), { target: { value: 'iloveyou' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByText(MESSAGES.passwordComun)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
