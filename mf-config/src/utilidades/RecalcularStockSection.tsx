import { useState } from 'react';
import { Button, Callout, FormSection, Row, formatDecimal, useAction, type DiferenciaStock } from 'shared';
import styled from 'styled-components';

const StyledTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;
  margin-top: 12px;
  th, td { padding: 6px 8px; border-bottom: 1px solid ${({ theme }) => theme.gray[100]}; text-align: left; }
  th { font-size: 12px; color: ${({ theme }) => theme.gray[700]}; font-weight: 600; }
  .right { text-align: right; font-variant-numeric: tabular-nums; }
`;

const cantidad = (n: number) => formatDecimal(BigInt(n), 3, 0);
/** An average cost (ten-thousandths) in euros; «—» before any valued entry. */
const coste = (n: number | null) => (n === null ? '—' : `${formatDecimal(BigInt(n), 4, 2)} €`);

/**
 * Utilidades › Recalcular stock: compares every article's stored stock with the sum of its ledger, and its average
 * cost with the ledger replayed (`recalcularstock`, aplicar 0), lists what differs and repairs it all in one
 * transaction (aplicar 1).
 */
export function RecalcularStockSection() {
  const { run, busy } = useAction();
  const [diferencias, setDiferencias] = useState<DiferenciaStock[] | null>(null);
  const [reparados, setReparados] = useState<number | null>(null);

  const comprobar = async () => {
    setReparados(null);
    const outcome = await run<DiferenciaStock>('recalcularstock', { aplicar: 0 }, { quiet: true });
    if (outcome.ok) setDiferencias(outcome.data);
  };

  const reparar = async () => {
    const outcome = await run<{ reparados: number }>('recalcularstock', { aplicar: 1 });
    if (outcome.ok) {
      setReparados(outcome.data[0]?.reparados ?? 0);
      setDiferencias([]);
    }
  };

  return (
    <FormSection
      title="Recalcular stock"
      description="Comprueba que el stock de cada artículo es la suma de sus movimientos y su coste medio el que resulta de ellos, y corrige las diferencias."
    >
      <Row>
        <Button type="button" $variant="secondary" disabled={busy} onClick={() => void comprobar()}>
          Comprobar stock
        </Button>
        {diferencias && diferencias.length > 0 && (
          <Button type="button" disabled={busy} onClick={() => void reparar()}>
            Corregir {diferencias.length === 1 ? 'la diferencia' : `las ${diferencias.length.toLocaleString('es-ES')} diferencias`}
          </Button>
        )}
      </Row>
      {reparados !== null && (
        <Callout role="status" style={{ marginTop: 12 }}>
          Stock corregido en {reparados.toLocaleString('es-ES')} {reparados === 1 ? 'artículo' : 'artículos'}.
        </Callout>
      )}
      {diferencias && diferencias.length === 0 && reparados === null && (
        <Callout role="status" style={{ marginTop: 12 }}>
          El stock y el coste medio de todos los artículos coinciden con sus movimientos.
        </Callout>
      )}
      {diferencias && diferencias.length > 0 && (
        <StyledTable>
          <caption style={{ textAlign: 'left', fontWeight: 600, marginBottom: 4 }}>
            {diferencias.length.toLocaleString('es-ES')} {diferencias.length === 1 ? 'artículo con diferencias' : 'artículos con diferencias'}
          </caption>
          <thead>
            <tr>
              <th>Código</th>
              <th>Descripción</th>
              <th className="right">Stock guardado</th>
              <th className="right">Suma de movimientos</th>
              <th className="right">Coste medio guardado</th>
              <th className="right">Coste medio de los movimientos</th>
            </tr>
          </thead>
          <tbody>
            {diferencias.map((d) => (
              <tr key={d.articulo_id}>
                <td>{d.codigo}</td>
                <td>{d.descripcion}</td>
                <td className="right">{cantidad(d.guardado)}</td>
                <td className="right">{cantidad(d.libro)}</td>
                <td className="right">{coste(d.coste_guardado)}</td>
                <td className="right">{coste(d.coste_libro)}</td>
              </tr>
            ))}
          </tbody>
        </StyledTable>
      )}
    </FormSection>
  );
}
