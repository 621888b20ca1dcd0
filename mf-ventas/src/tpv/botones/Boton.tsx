import styled from 'styled-components';
import { formatMoney } from 'shared';
import { colorBoton } from '../datos';

/** A button as the till paints it: its colour, its label (two lines at most) and its price. */
export const StyledBoton = styled.div<{ $fondo: string; $texto: string; $alto?: number }>`
  display: flex;
  flex-direction: column;
  justify-content: space-between;
  gap: 4px;
  min-height: ${({ $alto = 64 }) => $alto}px;
  padding: 8px;
  border-radius: 8px;
  background: ${({ $fondo }) => $fondo};
  color: ${({ $texto }) => $texto};
  font-size: 14px;
  font-weight: 600;
  line-height: 1.2;
  cursor: pointer;
  user-select: none;
  box-sizing: border-box;
  .t { overflow: hidden; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow-wrap: anywhere; }
  .p { font-size: 12px; font-weight: 500; opacity: 0.9; font-variant-numeric: tabular-nums; }
`;

export function Boton({ texto, color, precio, alto }: { texto: string; color: string | null | undefined; precio?: number | null; alto?: number }) {
  const c = colorBoton(color);
  return (
    <StyledBoton $fondo={c.fondo} $texto={c.texto} $alto={alto} aria-hidden>
      <span className="t">{texto}</span>
      {precio !== null && precio !== undefined && <span className="p">{formatMoney(precio)}</span>}
    </StyledBoton>
  );
}
