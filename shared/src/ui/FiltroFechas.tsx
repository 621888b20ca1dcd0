import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from './primitives';
import type { Theme } from './theme';

type T = { theme: Theme };

const StyledFechas = styled.div`
  display: flex;
  gap: 8px;
  flex-wrap: wrap;
  align-items: center;
  margin-bottom: 8px;
  font-size: 14px;
  color: ${({ theme }: T) => theme.gray[700]};
  label { display: inline-flex; gap: 6px; align-items: center; }
  input, select { font: inherit; padding: 6px 8px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; min-height: 36px; max-width: 100%; }
`;

export type FiltroFechasProps = {
  /** 'YYYY-MM-DD' or ''. */
  desde: string;
  hasta: string;
  onChange: (name: 'desde' | 'hasta', value: string) => void;
  onClear: () => void;
  /** More filters in the same row (a party, a user). */
  children?: ReactNode;
};

/** «Desde» / «Hasta» above a list, with «Quitar fechas» while one is set: documents, the activity log. */
export function FiltroFechas({ desde, hasta, onChange, onClear, children }: FiltroFechasProps) {
  return (
    <StyledFechas role="group" aria-label="Fechas">
      <label>
        Desde
        <input type="date" aria-label="Desde" value={desde} max={hasta || undefined} onChange={(e) => onChange('desde', e.target.value)} />
      </label>
      <label>
        Hasta
        <input type="date" aria-label="Hasta" value={hasta} min={desde || undefined} onChange={(e) => onChange('hasta', e.target.value)} />
      </label>
      {(desde || hasta) && (
        <Button type="button" $variant="ghost" $small onClick={onClear}>
          Quitar fechas
        </Button>
      )}
      {children}
    </StyledFechas>
  );
}
