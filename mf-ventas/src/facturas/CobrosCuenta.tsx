import { useState } from 'react';
import styled from 'styled-components';
import { Button, ConfirmDialog, formaPagoLabel, formatDate, formatMoney, useAction, type Cobro, type Documento } from 'shared';

const StyledCuenta = styled.section`
  margin-bottom: 16px;
  font-size: 14px;
  h3 { font-size: 14px; margin: 0 0 6px; }
  table { border-collapse: collapse; width: 100%; max-width: 720px; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid ${({ theme }) => theme.gray[200]}; }
  th { font-size: 13px; color: ${({ theme }) => theme.gray[500]}; font-weight: 500; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  .pendiente { color: #92400e; }
  .pagado { color: #166534; }
`;

type CobrosCuentaProps = {
  documento: Documento;
  /** The user may remove a cobro (eliminarcobro). */
  puedeQuitar: boolean;
  onCambio: (d: Documento | null) => void;
};

/**
 * An issued invoice's account (issue 17): what is owed netting its rectificativas, its instalments with what is left
 * of each, and the history of cobros and refunds, each one removable (a cobro entered by mistake).
 */
export function CobrosCuenta({ documento: d, puedeQuitar, onCambio }: CobrosCuentaProps) {
  const { run, busy } = useAction();
  const [quitar, setQuitar] = useState<Cobro | null>(null);
  const c = d.cuenta;
  if (!c || d.estado !== 'emitida') return null;
  const conRectificativas = c.rectificativas.length > 0;
  if (!c.cobros.length && c.plazos.length < 2 && !conRectificativas) return null;

  const confirmar = async () => {
    if (!quitar) return;
    const outcome = await run<Documento>('eliminarcobro', { id: quitar.id });
    setQuitar(null);
    if (outcome.ok) onCambio(outcome.data[0] ?? null);
  };

  return (
    <StyledCuenta aria-label="Cobros">
      {conRectificativas && (
        <p>
          Factura {c.factura_numero}
          {c.rectificativas.map((r) => ` ${r.modo === 'sustitucion' ? 'sustituida por' : '·'} ${r.numero} ${formatMoney(r.total)}`).join('')}: a cobrar{' '}
          <strong>{formatMoney(c.importe)}</strong>.
        </p>
      )}
      {c.plazos.length > 1 && (
        <>
          <h3>Vencimientos</h3>
          <table>
            <thead>
              <tr>
                <th>Vence</th>
                <th className="num">Importe</th>
                <th className="num">Pendiente</th>
              </tr>
            </thead>
            <tbody>
              {c.plazos.map((p) => (
                <tr key={p.fecha}>
                  <td>{formatDate(p.fecha)}</td>
                  <td className="num">{formatMoney(p.importe)}</td>
                  <td className={`num ${p.pendiente ? 'pendiente' : 'pagado'}`}>{p.pendiente ? formatMoney(p.pendiente) : 'Pagado'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {c.cobros.length > 0 && (
        <>
          <h3>Cobros y reembolsos</h3>
          <table>
            <thead>
              <tr>
                <th>Fecha</th>
                <th>Documento</th>
                <th>Forma</th>
                <th className="num">Importe</th>
                {puedeQuitar && <th />}
              </tr>
            </thead>
            <tbody>
              {c.cobros.map((x) => (
                <tr key={x.id}>
                  <td>{formatDate(x.fecha)}</td>
                  <td>{x.documento_numero}</td>
                  <td>{formaPagoLabel(x.forma) || x.forma || ''}</td>
                  <td className="num">{x.importe < 0 ? `Reembolso ${formatMoney(-x.importe)}` : formatMoney(x.importe)}</td>
                  {puedeQuitar && (
                    <td>
                      <Button type="button" $variant="secondary" disabled={busy} onClick={() => setQuitar(x)} aria-label={`Quitar el cobro del ${formatDate(x.fecha)}`}>
                        Quitar
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <ConfirmDialog
        open={quitar !== null}
        title="Quitar el cobro"
        text={quitar ? `Se quitará el ${quitar.importe < 0 ? 'reembolso' : 'cobro'} de ${formatMoney(Math.abs(quitar.importe))} del ${formatDate(quitar.fecha)}; lo cobrado volverá a estar pendiente.` : ''}
        confirmLabel="Quitar el cobro"
        busy={busy}
        onConfirm={() => void confirmar()}
        onCancel={() => setQuitar(null)}
      />
    </StyledCuenta>
  );
}
