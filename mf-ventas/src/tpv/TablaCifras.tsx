import type { Key, ReactNode } from 'react';
import styled from 'styled-components';
import type { Theme } from 'shared';

type T = { theme: Theme };

/** A column: its header, right-aligned figures (`num`), and a class for its cells (`fuera-movil`). */
export type ColumnaCifras = { titulo: ReactNode; num?: boolean; className?: string };
/** A cell, or a cell spanning columns. */
export type CeldaCifras = ReactNode | { celda: ReactNode; columnas: number };
/** A row: its cells in column order; `total` draws it as a total line. */
export type FilaCifras = { key: Key; celdas: CeldaCifras[]; total?: boolean };

const StyledTabla = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;
  th, td { padding: 6px 8px; border-bottom: 1px solid ${({ theme }: T) => theme.gray[100]}; text-align: left; }
  thead th { font-size: 12px; color: ${({ theme }: T) => theme.gray[600]}; background: ${({ theme }: T) => theme.gray[50]}; }
  tbody th { font-weight: 500; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tfoot td, tfoot th, tr.total td, tr.total th { font-weight: 700; border-top: 2px solid ${({ theme }: T) => theme.gray[200]}; }
  ${({ theme }: T) => theme.phone} { .fuera-movil { display: none; } }
`;

const esSpan = (c: CeldaCifras): c is { celda: ReactNode; columnas: number } => typeof c === 'object' && c !== null && 'columnas' in c && 'celda' in c;

function Celdas({ columnas, celdas, cabeceraDeFila }: { columnas: ColumnaCifras[]; celdas: CeldaCifras[]; cabeceraDeFila: boolean }) {
  let col = 0;
  return (
    <>
      {celdas.map((c, i) => {
        const columna = columnas[col];
        const span = esSpan(c) ? c.columnas : 1;
        col += span;
        const className = [columna?.num ? 'num' : '', columna?.className ?? ''].filter(Boolean).join(' ') || undefined;
        const contenido = esSpan(c) ? c.celda : c;
        const colSpan = span > 1 ? span : undefined;
        return i === 0 && cabeceraDeFila ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
          <th key={i} scope="row" className={className} colSpan={colSpan}>
            {contenido}
          </th>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
          <td key={i} className={className} colSpan={colSpan}>
            {contenido}
          </td>
        );
      })}
    </>
  );
}

/**
 * The back office's small tables of figures (a closing's totals by payment method and IVA, its count by
 * denomination, its cash movements, a ticket's payments): a header row, rows whose first cell names them
 * (`cabeceraDeFila`, a row header), figures right-aligned, an optional total row at the foot.
 */
export function TablaCifras(props: {
  label: string;
  columnas: ColumnaCifras[];
  filas: FilaCifras[];
  /** The foot's total row, when there is one. */
  pie?: CeldaCifras[] | null | false;
  /** Without the header row (a breakdown whose rows say what they are). */
  sinCabecera?: boolean;
  /** The first cell of each row is its header (default). */
  cabeceraDeFila?: boolean;
}) {
  const { columnas, cabeceraDeFila = true } = props;
  return (
    <StyledTabla aria-label={props.label}>
      {!props.sinCabecera && (
        <thead>
          <tr>
            {columnas.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
              <th key={i} scope="col" className={[c.num ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ') || undefined}>
                {c.titulo}
              </th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>
        {props.filas.map((f) => (
          <tr key={f.key} className={f.total ? 'total' : undefined}>
            <Celdas columnas={columnas} celdas={f.celdas} cabeceraDeFila={cabeceraDeFila} />
          </tr>
        ))}
      </tbody>
      {props.pie && (
        <tfoot>
          <tr>
            <Celdas columnas={columnas} celdas={props.pie} cabeceraDeFila />
          </tr>
        </tfoot>
      )}
    </StyledTabla>
  );
}
