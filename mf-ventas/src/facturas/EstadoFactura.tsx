import { Link } from 'react-router';
import styled from 'styled-components';
import { Callout, estadoEnvioLabel, formaPagoLabel, formatDate, formatMoney, hoyIso, rutaDocumento, type Documento } from 'shared';
import { paths } from '../paths';
import { situacionCobro, textosCobro } from './datos';
import { Huella, horaRegistro } from './registros/Huella';

const StyledEstado = styled.section`
  display: flex;
  flex-wrap: wrap;
  gap: 6px 18px;
  align-items: baseline;
  padding: 10px 12px;
  margin-bottom: 16px;
  border: 1px solid ${({ theme }) => theme.gray[200]};
  border-radius: ${({ theme }) => theme.radius};
  background: #fff;
  font-size: 14px;
  min-width: 0;
  .k { font-size: 13px; color: ${({ theme }) => theme.gray[500]}; margin-right: 4px; }
  .item { min-width: 0; overflow-wrap: anywhere; }
  a { font-weight: 600; color: ${({ theme }) => theme.primary[700]}; }
  .cobrada { color: #166534; font-weight: 600; }
  .vencida { color: ${({ theme }) => theme.danger}; font-weight: 600; }
  .pendiente { color: #92400e; font-weight: 600; }
  .correcto { color: #166534; font-weight: 600; }
  .aceptado_con_errores { color: #92400e; font-weight: 600; }
  .incorrecto { color: ${({ theme }) => theme.danger}; font-weight: 600; }
`;

/** The AEAT refused the invoice's record, or accepted it with errors: what it said, and where to correct it. */
function AvisoEnvio({ registro: r }: { registro: NonNullable<Documento['registro']> }) {
  if (r.estado_envio !== 'incorrecto' && r.estado_envio !== 'aceptado_con_errores') return null;
  const rechazado = r.estado_envio === 'incorrecto';
  const respuesta = [r.codigo_error, r.descripcion_error].filter(Boolean).join(' · ');
  return (
    <Callout $tone={rechazado ? 'danger' : 'warning'} role={rechazado ? 'alert' : 'status'} style={{ marginBottom: 12 }}>
      <p>
        {rechazado ? 'La AEAT ha rechazado el registro de facturación de esta factura' : 'La AEAT ha aceptado con errores el registro de facturación de esta factura'}
        {respuesta ? `: ${respuesta}.` : '.'}
      </p>
      <p>
        {r.tipo === 'alta' ? 'Hay que subsanarlo con un registro nuevo: ' : 'Revise el registro: '}
        <Link to={`${paths.registros}?registro=${r.id}`}>ir al registro</Link>.
      </p>
    </Callout>
  );
}

/**
 * The invoice it corrects, as a link to its record (a factura, or a rectificativa corrected again); an F3, the ticket
 * it replaces (issue 23: it corrects nothing, it never says «Rectifica»).
 */
function FacturaRectificada({ d }: { d: Documento }) {
  if (!d.factura_id) return null;
  const padre = d.padres?.find((p) => p.id === d.factura_id);
  const sustituye = d.tipo === 'factura' && d.tipo_factura === 'F3';
  const to = rutaDocumento(padre?.tipo ?? (sustituye ? 'ticket' : 'factura'), d.factura_id) ?? paths.factura(d.factura_id);
  return (
    <span className="item">
      <span className="k">{sustituye ? 'Sustituye a la factura simplificada' : 'Rectifica'}</span>
      <Link to={to}>{d.factura_numero ?? padre?.numero ?? `#${d.factura_id}`}</Link>
    </span>
  );
}

/**
 * What an invoice's record shows once it has a number: its registro de facturación (type, timestamp and
 * huella), where it stands with its payment (a rectificativa: its refund) and, for a rectificativa, the invoice it corrects. Issue 9: the
 * record's submission state, and a warning when the AEAT refused it or accepted it with errors.
 */
export function EstadoFactura({ documento: d }: { documento: Documento }) {
  const cobro = situacionCobro(d, hoyIso());
  const textos = textosCobro(d.tipo);
  // A rectificativa settled with its invoice's cobro, not by a refund of its own.
  const descontada = d.tipo === 'rectificativa' && !!d.cuenta && !d.cuenta.cobros.some((c) => c.documento_id === d.id);
  if (!d.registro && !cobro && !d.factura_id) return null;
  return (
    <>
      {d.registro && <AvisoEnvio registro={d.registro} />}
      <StyledEstado aria-label="Situación fiscal">
        <FacturaRectificada d={d} />
        {d.registro && (
          <>
            <span className="item">
              <span className="k">Registro de facturación</span>
              <Link to={paths.registros}>{d.registro.tipo === 'anulacion' ? 'Anulación' : 'Alta'}</Link> del {horaRegistro(d.registro.fecha_hora_huso)}
            </span>
            <span className="item">
              <span className="k">Huella</span>
              <Huella valor={d.registro.huella} />
            </span>
            {d.registro.estado_envio && (
              <span className="item" data-testid="envio">
                <span className="k">Envío a la AEAT</span>
                <span className={d.registro.estado_envio}>{estadoEnvioLabel(d.registro.estado_envio)}</span>
              </span>
            )}
          </>
        )}
        {cobro && (
          <span className="item" data-testid="cobro">
            <span className="k">{textos.titulo}</span>
            {cobro.estado === 'cobrada' && descontada ? (
              <span className="cobrada">
                Descontada de la factura {d.cuenta!.factura_numero}, cobrada el {formatDate(d.cobro_fecha)}
              </span>
            ) : cobro.estado === 'cobrada' ? (
              <span className="cobrada">
                {textos.estados.cobrada} el {formatDate(d.cobro_fecha)}
                {d.cobro_forma ? ` (${formaPagoLabel(d.cobro_forma) || d.cobro_forma})` : ''}
              </span>
            ) : cobro.estado === 'descontada' ? (
              <span className="cobrada">
                {d.cuenta && d.cuenta.factura_id !== d.id ? `Descontada de la factura ${d.cuenta.factura_numero}` : 'Sin importe pendiente'}
              </span>
            ) : (
              <span className={cobro.estado}>
                {cobro.estado === 'vencida' ? textos.estados.vencida : `Pendiente de ${textos.nombre}`} {formatMoney(cobro.queda)}
                {d.tipo === 'factura' && d.cuenta && d.cuenta.cobrado > 0 && ` de ${formatMoney(d.cuenta.importe)}`}
                {cobro.vencimientos.length > 0 && ` · vence${cobro.vencimientos.length > 1 ? 'n' : ''} ${cobro.vencimientos.map(formatDate).join(', ')}`}
              </span>
            )}
          </span>
        )}
      </StyledEstado>
    </>
  );
}
