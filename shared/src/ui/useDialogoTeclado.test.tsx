import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDialogoTeclado } from './useDialogoTeclado';

afterEach(cleanup);

function Dialogo({ onEscape, ocupado = false }: { onEscape: () => void; ocupado?: boolean }) {
  const caja = useRef<HTMLFormElement>(null);
  useDialogoTeclado({ foco: caja, onEscape, ocupado });
  return (
    <form ref={caja}>
      <input aria-label="Fecha" />
      <input aria-label="Importe" />
    </form>
  );
}

describe('useDialogoTeclado', () => {
  it('the first field takes the focus on opening, and keeps away once the user moved on, whatever re-renders behind', () => {
    const { rerender } = render(<Dialogo onEscape={() => {}} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Fecha'));
    screen.getByLabelText('Importe').focus();
    // The page behind re-renders: a new callback each time, as inline arrows are.
    rerender(<Dialogo onEscape={() => {}} />);
    rerender(<Dialogo onEscape={() => {}} ocupado />);
    expect(document.activeElement).toBe(screen.getByLabelText('Importe'));
  });

  it('Escape calls the latest callback, and nothing while busy', () => {
    const primero = vi.fn();
    const ultimo = vi.fn();
    const { rerender } = render(<Dialogo onEscape={primero} />);
    rerender(<Dialogo onEscape={ultimo} ocupado />);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(ultimo).not.toHaveBeenCalled();
    rerender(<Dialogo onEscape={ultimo} />);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(ultimo).toHaveBeenCalledTimes(1);
    expect(primero).not.toHaveBeenCalled();
  });
});
