import styled from 'styled-components';
import type { DocumentoTipoDef, EstadoDef } from '../domain/documentos';

const TONES: Record<EstadoDef['tone'], string> = {
  info: 'background:#e0f2fe;color:#075985;',
  ok: 'background:#dcfce7;color:#166534;',
  off: 'background:#f1f5f9;color:#475569;',
  warning: 'background:#fef3c7;color:#92400e;',
};

const StyledBadge = styled.span<{ $tone: EstadoDef['tone'] }>`
  display: inline-block;
  padding: 2px 10px;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 600;
  white-space: nowrap;
  ${({ $tone }) => TONES[$tone]}
`;

/** A document's state as the table names it ('Recibido parcial'), coloured by its tone. */
export function EstadoBadge({ def, estado }: { def: DocumentoTipoDef; estado: string }) {
  const e = def.estados.find((x) => x.id === estado);
  return <StyledBadge $tone={e?.tone ?? 'off'}>{e?.label ?? estado}</StyledBadge>;
}

