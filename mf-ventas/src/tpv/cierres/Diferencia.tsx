import styled from 'styled-components';
import { formatMoney, type Theme } from 'shared';

type T = { theme: Theme };

const StyledDif = styled.span<{ $tone: 'ok' | 'falta' | 'sobra' }>`
  font-weight: 600;
  font-variant-numeric: tabular-nums;
  white-space: nowrap;
  color: ${({ theme, $tone }: T & { $tone: string }) => ($tone === 'ok' ? theme.gray[600] : $tone === 'falta' ? theme.danger : '#b45309')};
`;

/** A cash difference: zero in grey, missing money in red, money over in amber, with its sign and a word for who can't see colour. */
export function Diferencia({ cents, palabra = false }: { cents: number; palabra?: boolean }) {
  const tone = cents === 0 ? 'ok' : cents < 0 ? 'falta' : 'sobra';
  const texto = cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents);
  return (
    <StyledDif $tone={tone} data-tone={tone}>
      {texto}
      {palabra && cents !== 0 && <> ({tone === 'falta' ? 'falta' : 'sobra'})</>}
    </StyledDif>
  );
}
