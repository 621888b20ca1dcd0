import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import styled from 'styled-components';
import {
  Card,
  DOCUMENTO_TIPOS,
  EstadoBadge,
  Muted,
  formatDate,
  formatMoney,
  isEntryVisible,
  useShell,
  type DocumentoFila,
  type DocumentoTipoDef,
  type FlagName,
  type Proveedor,
} from 'shared';
import { PANTALLAS } from '../documentos/pantallas';

const StyledPanel = styled(Card)`
  margin-top: 16px;
  h2 { font-size: 16px; margin: 0 0 10px; }
  h3 { font-size: 14px; margin: 14px 0 6px; }
  table { width: 100%; border-collapse: collapse; font-size: 14px; }
  th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid ${({ theme }) => theme.gray[100]}; }
  th { font-size: 12px; color: ${({ theme }) => theme.gray[600]}; background: ${({ theme }) => theme.gray[50]}; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  a { color: ${({ theme }) => theme.primary[700]}; font-weight: 600; }
`;

/** Purchases per year from real documents (albaranes − devoluciones), as the record answers them. */
export function ProveedorCompras({ proveedor }: { proveedor: Proveedor }) {
  const rows = proveedor.compras_por_ejercicio ?? [];
  return (
    <StyledPanel as="section" aria-labelledby="compras-ejercicio">
      <h2 id="compras-ejercicio">Compras por ejercicio</h2>
      {rows.length === 0 ? (
        <Muted>Todavía no hay compras de este proveedor.</Muted>
      ) : (
        <table aria-label="Compras por ejercicio">
          <thead>
            <tr>
              <th>Ejercicio</th>
              <th className="num">Base imponible</th>
              <th className="num">Total</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.ejercicio}>
                <td>{r.ejercicio}</td>
                <td className="num">{formatMoney(r.base)}</td>
                <td className="num">{formatMoney(r.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </StyledPanel>
  );
}

const ULTIMOS = 10;

/** The latest documents of one type for this supplier, each a link to its record. */
function DocumentosDeTipo({ def, proveedorId, record, list }: { def: DocumentoTipoDef; proveedorId: number; record: (id: number) => string; list: string }) {
  const { api } = useShell();
  const [rows, setRows] = useState<DocumentoFila[] | null>(null);
  const [total, setTotal] = useState(0);

  useEffect(() => {
    let live = true;
    api
      .get<DocumentoFila>(`listado${def.plural}`, { proveedor_id: proveedorId, pagina: 1, porPagina: ULTIMOS, orden: 'fecha', dir: 'desc' })
      .then((res) => {
        if (!live) return;
        setRows(res.RESULT === '0' ? (res.data ?? []) : []);
        setTotal(res.total ?? 0);
      })
      .catch(() => live && setRows([]));
    return () => {
      live = false;
    };
  }, [api, def.plural, proveedorId]);

  return (
    <>
      <h3>{def.pluralLabel}</h3>
      {rows === null ? (
        <Muted>Cargando…</Muted>
      ) : rows.length === 0 ? (
        <Muted>No hay {def.pluralLabel.toLowerCase()}.</Muted>
      ) : (
        <table aria-label={def.pluralLabel}>
          <thead>
            <tr>
              <th>Número</th>
              <th>Fecha</th>
              <th>Estado</th>
              <th className="num">Total</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link to={record(d.id)}>{d.numero}</Link>
                </td>
                <td>{formatDate(d.fecha)}</td>
                <td>
                  <EstadoBadge def={def} estado={d.estado} />
                </td>
                <td className="num">{formatMoney(d.total ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {total > ULTIMOS && (
        <Muted>
          Se muestran los {ULTIMOS} más recientes de {total.toLocaleString('es-ES')}: <Link to={list}>ver todos en {def.pluralLabel.toLowerCase()}</Link>.
        </Muted>
      )}
    </>
  );
}

/** The supplier's pedidos, albaranes and devoluciones (those whose flag is on). */
export function ProveedorDocumentos({ proveedorId }: { proveedorId: number }) {
  const { flags } = useShell();
  const pantallas = Object.values(PANTALLAS).filter((p) => isEntryVisible({ module: p.flag as FlagName }, flags));
  if (pantallas.length === 0) return null;
  return (
    <StyledPanel as="section" aria-labelledby="documentos-proveedor">
      <h2 id="documentos-proveedor">Documentos del proveedor</h2>
      {pantallas.map((p) => (
        <DocumentosDeTipo key={p.def.tipo} def={DOCUMENTO_TIPOS[p.def.tipo]} proveedorId={proveedorId} record={p.record} list={p.list} />
      ))}
    </StyledPanel>
  );
}
