import { FormSection, Muted, type Articulo } from 'shared';
import styled from 'styled-components';
import { formatCantidad, formatPrecio } from '../formato';

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
  caption { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

/** Read-only figures derived from documents: average prices, units bought and sold, stock per warehouse. */
export function EstadisticasPanel({ articulo }: { articulo: Articulo }) {
  const stock = articulo.stock ?? [];
  const total = stock.reduce((s, a) => s + BigInt(a.stock ?? 0), 0n);
  return (
    <FormSection title="Compras, ventas y existencias" description="Se calculan a partir de los documentos; no se escriben a mano.">
      <StyledStats>
        <div>
          <dt>Precio medio de compra</dt>
          <dd>{formatPrecio(articulo.precio_medio_compra)}</dd>
        </div>
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
            </tr>
          </thead>
          <tbody>
            {stock.map((s) => (
              <tr key={s.almacen_id}>
                <td>{s.almacen_nombre}</td>
                <td className="right">{formatCantidad(s.stock)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td>Total</td>
              <td className="right">{formatCantidad(total)}</td>
            </tr>
          </tfoot>
        </StyledStock>
      )}
    </FormSection>
  );
}
