import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDialogKeyboard } from './useDialogKeyboard';

afterEach(cleanup);

function FormDialog({ onEscape, ocupado = false }: { onEscape: () => void; ocupado?: boolean }) {
  const caja = useRef<HTMLFormElement>(null);
  useDialogKeyboard({ foco: caja, onEscape, ocupado });
  return (
    <form ref={caja}>
      <input aria-label="Fecha" />
      <input aria-label="Importe" />
    </form>
  );
}

function Pagina({ abierto }: { abierto: boolean }) {
  return (
    <div>
      <button type="button">Abrir</button>
      <aside>
        <a href="/otra">Otra página</a>
      </aside>
      <main>
        <p>Contenido</p>
        {abierto && (
          <div role="dialog" aria-modal="true" aria-label="Cobrar">
            <FormDialog onEscape={() => {}} />
          </div>
        )}
      </main>
    </div>
  );
}

describe('useDialogKeyboard', () => {
  it('the first field takes the focus on opening, and keeps away once the user moved on, whatever re-renders behind', () => {
    const { rerender } = render(<FormDialog onEscape={() => {}} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Fecha'));
    screen.getByLabelText('Importe').focus();
    // The page behind re-renders: a new callback each time, as inline arrows are.
    rerender(<FormDialog onEscape={() => {}} />);
    rerender(<FormDialog onEscape={() => {}} ocupado />);
    expect(document.activeElement).toBe(screen.getByLabelText('Importe'));
  });

  it('holds the focus: the page behind is inert, Tab goes round its fields, and on closing all comes back', () => {
    const { rerender } = render(<Pagina abierto={false} />);
    const abrir = screen.getByRole('button', { name: 'Abrir' });
    abrir.focus();
    rerender(<Pagina abierto />);
    const fecha = screen.getByLabelText('Fecha');
    const importe = screen.getByLabelText('Importe');
    expect(document.activeElement).toBe(fecha);
    // Everything beside the dialog, at every level, is inert; the dialog itself is not.
    expect(abrir.hasAttribute('inert')).toBe(true);
    expect(screen.getByText('Otra página').closest('aside')?.hasAttribute('inert')).toBe(true);
    expect(screen.getByText('Contenido').hasAttribute('inert')).toBe(true);
    expect(screen.getByRole('dialog').closest('[inert]')).toBeNull();
    // Tab past the last field comes back to the first; Mayús+Tab before the first goes to the last.
    importe.focus();
    fireEvent.keyDown(importe, { key: 'Tab' });
    expect(document.activeElement).toBe(fecha);
    fireEvent.keyDown(fecha, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(importe);
    // Closed: nothing is left inert, and the focus is back on what opened it.
    rerender(<Pagina abierto={false} />);
    expect(document.querySelectorAll('[inert]')).toHaveLength(0);
    expect(document.activeElement).toBe(abrir);
  });

  it('leaves inert what already was', () => {
    render(
      <div>
        <section inert>Ya inerte</section>
        <div role="dialog" aria-modal="true" aria-label="Aviso">
          <FormDialog onEscape={() => {}} />
        </div>
      </div>,
    );
    cleanup();
    expect(document.querySelectorAll('[inert]')).toHaveLength(0);
  });

  it('Escape calls the latest callback, and nothing while busy', () => {
    const primero = vi.fn();
    const ultimo = vi.fn();
    const { rerender } = render(<FormDialog onEscape={primero} />);
    rerender(<FormDialog onEscape={ultimo} ocupado />);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(ultimo).not.toHaveBeenCalled();
    rerender(<FormDialog onEscape={ultimo} />);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(ultimo).toHaveBeenCalledTimes(1);
    expect(primero).not.toHaveBeenCalled();
  });
});
