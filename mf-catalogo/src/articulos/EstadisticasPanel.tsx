import { Fragment } from 'react';
import { FormSection, Muted, type Articulo } from 'shared';
import styled from 'styled-components';
import { formatCantidad, formatPrecio } from '../formato';
import { UbicacionesHabituales } from './UbicacionesHabituales';

const StyledStats = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(180px, 1fr));
  gap: 12px 16px;
  margin: 0 0 16px;
  div { background: ${({ theme }) => theme.gray[50]}; border-radius: 6px; padding: 10px 12px; }
  dt { font-size: 12px; color: ${({ theme }) => theme.gray[500]}; }
  dd { margin: 4px 0 0; font-size: 18px; font-weight: 600; font-variant-numeric: tabular-nums; }
`;

const StyledStock = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;
  th, td { padding: 6px 8px; border-bottom: 1px solid ${({ theme }) => theme.gray[100]}; text-align: left; }
  th { font-size: 12px; color: ${({ theme }) => theme.gray[500]}; font-weight: 600; }
  .right { text-align: right; font-variant-numeric: tabular-nums; }
  tfoot td { font-weight: 600; }
  tr.ubicacion td { color: ${({ theme }) => theme.gray[700]}; font-size: 13px; padding-left: 24px; }
  tr.ubicacion td.right { padding-left: 8px; }
  caption { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

/** Read-only figures derived from documents: average prices, units bought and sold, stock per warehouse. */
export function EstadisticasPanel({ articulo, almacenes = false, costes = true }: { articulo: Articulo; almacenes?: boolean; costes?: boolean }) {
  const stock = articulo.stock ?? [];
  const total = stock.reduce((s, a) => s + BigInt(a.stock ?? 0), 0n);
  const transito = stock.reduce((s, a) => s + BigInt(a.en_transito ?? 0), 0n);
  // A BigInt 0n would render as text in JSX: compare, don't test it.
  const conTransito = transito > 0n;
  return (
    <FormSection title="Compras, ventas y existencias" description="Se calculan a partir de los documentos; no se escriben a mano.">
      <StyledStats>
        {/* A cost: only for a role that sees them (the server doesn't answer it otherwise). */}
        {costes && (
          <div>
            <dt>Precio medio de compra</dt>
            <dd>{formatPrecio(articulo.precio_medio_compra)}</dd>
          </div>
        )}
        <div>
          <dt>Precio medio de venta</dt>
          <dd>{formatPrecio(articulo.precio_medio_venta)}</dd>
        </div>
        <div>
          <dt>Unidades compradas</dt>
          <dd>{formatCantidad(articulo.unidades_compradas)}</dd>
        </div>
        <div>
          <dt>Unidades vendidas</dt>
          <dd>{formatCantidad(articulo.unidades_vendidas)}</dd>
        </div>
      </StyledStats>
      {stock.length === 0 ? (
        <Muted>Sin existencias en ningún almacén.</Muted>
      ) : (
        <StyledStock>
          <caption>Stock por almacén</caption>
          <thead>
            <tr>
              <th>Almacén</th>
              <th className="right">Stock</th>
              {conTransito && <th className="right">En tránsito hacia él</th>}
            </tr>
          </thead>
          <tbody>
            {stock.map((s) => (
              <Fragment key={s.almacen_id}>
                <tr>
                  <td>{s.almacen_nombre}</td>
                  <td className="right">{formatCantidad(s.stock)}</td>
                  {conTransito && <td className="right">{s.en_transito ? formatCantidad(s.en_transito) : ''}</td>}
                </tr>
                {/* Stock per location, where the warehouse has them. */}
                {(s.ubicaciones ?? [])
                  .filter((u) => u.ubicacion_id !== null)
                  .map((u) => (
                    <tr key={`${s.almacen_id}-${u.ubicacion_id}`} className="ubicacion">
                      <td>Ubicación {u.ubicacion_codigo}</td>
                      <td className="right">{formatCantidad(u.stock)}</td>
                      {conTransito && <td />}
                    </tr>
                  ))}
              </Fragment>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td>Total</td>
              <td className="right">{formatCantidad(total)}</td>
              {conTransito && <td className="right">{formatCantidad(transito)}</td>}
            </tr>
          </tfoot>
        </StyledStock>
      )}
      {almacenes && <UbicacionesHabituales articulo={articulo} />}
    </FormSection>
  );
}
