import { useState } from 'react';
import styled from 'styled-components';

const StyledHuella = styled.span`
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 12px;
  overflow-wrap: anywhere;
  button {
    font: inherit;
    font-family: inherit;
    border: 0;
    background: none;
    padding: 0;
    color: ${({ theme }) => theme.primary[700]};
    cursor: pointer;
    text-align: left;
  }
`;

/** A huella shortened ('3C464DAF…2F60'), whole on hover and on a click (a second one shortens it again). */
export function Huella({ valor }: { valor: string }) {
  const [entera, setEntera] = useState(false);
  if (!valor) return <StyledHuella>—</StyledHuella>;
  const corta = valor.length > 14 ? `${valor.slice(0, 8)}…${valor.slice(-4)}` : valor;
  return (
    <StyledHuella>
      <button
        type="button"
        title={valor}
        aria-expanded={entera}
        aria-label={entera ? `Huella ${valor}` : `Huella ${corta}: ver entera`}
        onClick={(e) => {
          // Inside a clickable row: only the huella opens.
          e.stopPropagation();
          setEntera((v) => !v);
        }}
      >
        {entera ? valor : corta}
      </button>
    </StyledHuella>
  );
}

/** A record's timestamp as it was written (Madrid time, with its offset): '02/03/2026 10:00:00 (+01:00)'. */
export function horaRegistro(s: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})([+-]\d{2}:\d{2})?/.exec(s ?? '');
  if (!m) return s ?? '';
  return `${m[3]}/${m[2]}/${m[1]} ${m[4]}${m[5] ? ` (${m[5]})` : ''}`;
}
