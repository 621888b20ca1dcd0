import styled from 'styled-components';
import type { Documento, DocumentoTipoDef } from '../domain/documentos';
import { formatDateTime } from '../domain/format';
import type { Theme } from '../ui/theme';

type T = { theme: Theme };

const StyledHistorial = styled.details`
  margin-top: 8px;
  padding: 8px 12px;
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  border-radius: ${({ theme }: T) => theme.radius};
  background: #fff;
  font-size: 14px;
  summary { cursor: pointer; font-weight: 600; min-height: 24px; }
  ol { margin: 8px 0 0; padding-left: 20px; }
  li { margin: 2px 0; overflow-wrap: anywhere; }
  .s { color: ${({ theme }: T) => theme.gray[500]}; font-size: 13px; }
`;

type Paso = { key: string; que: string; fecha: string; quien: string | null | undefined; deshecha?: boolean };

/** The steps of a document with who did each: created, every action (undone ones marked), last change. */
export function pasosDocumento(def: DocumentoTipoDef, d: Documento): Paso[] {
  const pasos: Paso[] = [{ key: 'creado', que: def.femenino ? 'Creada' : 'Creado', fecha: d.creado, quien: d.creado_por_nombre }];
  for (const h of d.historial ?? []) {
    const que = def.acciones.find((a) => a.verbo === h.accion)?.label ?? h.accion;
    pasos.push({ key: `accion-${h.id}`, que, fecha: h.fecha, quien: h.usuario_nombre, deshecha: h.deshecha_por !== null });
  }
  const ultimo = pasos.at(-1)!;
  if (d.modificado && d.modificado > ultimo.fecha) pasos.push({ key: 'modificado', que: 'Última modificación', fecha: d.modificado, quien: d.modificado_por_nombre });
  return pasos;
}

/** «Historial»: the document's own steps, each with its date and the user who did it. */
export function DocumentHistory({ def, documento }: { def: DocumentoTipoDef; documento: Documento }) {
  const pasos = pasosDocumento(def, documento);
  return (
    <StyledHistorial>
      <summary>Historial ({pasos.length})</summary>
      <ol aria-label="Historial del documento">
        {pasos.map((p) => (
          <li key={p.key}>
            {p.que}
            {p.deshecha && <span className="s"> (deshecha)</span>} <span className="s">· {formatDateTime(p.fecha)} · {p.quien ?? 'usuario eliminado'}</span>
          </li>
        ))}
      </ol>
    </StyledHistorial>
  );
}
