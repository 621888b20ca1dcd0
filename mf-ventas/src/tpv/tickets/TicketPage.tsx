import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import styled from 'styled-components';
import {
  Button,
  Card,
  DocumentRecordPage,
  QrCode,
  TITULO_QR,
  downloadBlob,
  formatDateTime,
  formatMoney,
  presentacionQr,
  useAlmacenes,
  useDocumentEditor,
  useImprimirDocumento,
  usePermisos,
  useShell,
  type Documento,
  type IncidenciaTpv,
  type Theme,
} from 'shared';
import { paths } from '../../paths';
import { EstadoFactura } from '../../facturas/EstadoFactura';
import { formaTpvLabel } from '../datos';
import { IncidenciasTpv } from '../Incidencias';
import { TablaCifras } from '../TablaCifras';
import { FacturaCompletaDialog } from './FacturaCompletaDialog';
import { TICKET, ticketSchema } from './pantalla';

type T = { theme: Theme };

/** A ticket as `listadotickets&id=` answers it. */
type Ticket = Documento & {
  terminal_id?: number | null;
  uuid?: string | null;
  fecha_hora?: string | null;
  cambio?: number | null;
  offline?: 0 | 1;
  /** Issue 23: a payment by vale names it and the balance it left (`vale`, `vale_saldo`). */
  pagos?: { forma: string; importe: number; entregado: number; vale?: string; vale_saldo?: number }[];
  devoluciones?: { id: number; numero: string; total: number }[];
  incidencias?: IncidenciaTpv[];
};

const StyledTicket = styled.div`
  display: grid;
  gap: 16px;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 300px), 1fr));
  align-items: start;
  margin-bottom: 16px;
  h2 { font-size: 16px; margin: 0 0 10px; }
  .qr { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  .qr p { margin: 0 0 6px; font-size: 13px; color: ${({ theme }: T) => theme.gray[600]}; }
  .qr a, a { color: ${({ theme }: T) => theme.primary[700]}; font-weight: 600; overflow-wrap: anywhere; }
  .xml { font: inherit; font-size: 14px; border: 0; background: none; padding: 0; cursor: pointer; color: ${({ theme }: T) => theme.primary[700]}; font-weight: 600; }
  ul { margin: 0; padding-left: 18px; }
`;

/** Payments, the QR and its record, the returns: what a ticket has beyond an invoice's screen. */
function DatosTicket({ t }: { t: Ticket }) {
  const pagos = t.pagos ?? [];
  const r = t.registro;
  return (
    <StyledTicket>
      <Card aria-labelledby="ticket-pagos">
        <h2 id="ticket-pagos">Pagos</h2>
        <TablaCifras
          label="Pagos"
          columnas={[{ titulo: 'Forma' }, { titulo: 'Importe', num: true }, { titulo: 'Entregado', num: true }]}
          filas={[
            ...pagos.map((p) => ({
              key: `${p.forma}${p.vale ?? ''}${p.importe}${p.entregado}`,
              celdas: [
                p.vale ? `${formaTpvLabel(p.forma)} ${p.vale}${p.vale_saldo !== undefined ? ` (le quedan ${formatMoney(p.vale_saldo)})` : ''}` : formaTpvLabel(p.forma),
                formatMoney(p.importe),
                formatMoney(p.entregado),
              ],
            })),
            ...((t.cambio ?? 0) > 0 ? [{ key: 'cambio', celdas: ['Cambio', { celda: formatMoney(t.cambio ?? 0), columnas: 2 }] }] : []),
          ]}
        />
        <p style={{ fontSize: 13, margin: '10px 0 0' }}>
          {t.fecha_hora ? `Vendido el ${formatDateTime(t.fecha_hora)}` : null}
          {t.offline ? ' · hecho sin conexión: la caja generó su registro y el servidor lo comprobó' : ''}
        </p>
        {(t.devoluciones?.length ?? 0) > 0 && (
          <>
            <h2 style={{ marginTop: 14 }}>Devoluciones</h2>
            <ul>
              {t.devoluciones!.map((d) => (
                <li key={d.id}>
                  <Link to={paths.rectificativa(d.id)}>{d.numero}</Link> ({formatMoney(d.total)})
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
      <IncidenciasTpv incidencias={t.incidencias} id="ticket-incidencias" />
      {r?.qr_url && (
        <Card aria-labelledby="ticket-qr">
          <h2 id="ticket-qr">{TITULO_QR.replace(/:$/, '')}</h2>
          <div className="qr">
            <QrCode texto={r.qr_url} label={`QR tributario del ticket ${t.numero}`} />
            <div style={{ minWidth: 0, flex: 1 }}>
              {/* Issue 22: the legend of what its record was made for, as the printed ticket says it. */}
              {presentacionQr(r).leyenda && <p data-testid="ticket-leyenda">{presentacionQr(r).leyenda}</p>}
              <p>
                <a href={r.qr_url} target="_blank" rel="noreferrer">
                  Cotejar en la AEAT
                </a>
              </p>
              {r.xml && (
                <button type="button" className="xml" onClick={() => downloadBlob(new Blob([r.xml!], { type: 'application/xml' }), `registro-${t.numero.replace(/[^\w-]+/g, '-')}.xml`)}>
                  Descargar XML del registro
                </button>
              )}
            </div>
          </div>
        </Card>
      )}
    </StyledTicket>
  );
}

/** /ventas/ticket/:id: a ticket of the till, read only — its lines, payments, VERI*FACTU record and QR; «Imprimir». */
export function TicketPage({ id }: { id?: string }) {
  const editor = useDocumentEditor(TICKET.def, id, { schema: ticketSchema, empty: {} });
  const almacenes = useAlmacenes();
  const pdf = useImprimirDocumento(TICKET.def);
  const t = editor.documento as Ticket | null;
  const { flags } = useShell();
  const permisos = usePermisos();
  const [facturando, setFacturando] = useState(false);
  // A full invoice replaces an issued ticket without returns (the server refuses the others too).
  const facturable = t?.estado === 'emitido' && !(t.devoluciones?.length ?? 0) && flags.ventas_facturas === 1 && permisos.accion('facturarticket');
  const totalesFijos = useMemo(
    () => (t ? { base: t.base, iva: t.iva, recargo: t.recargo, retencion_importe: t.retencion_importe, total: t.total, desglose: t.desglose ?? [] } : null),
    [t],
  );
  return (
    <DocumentRecordPage
      pantalla={TICKET}
      editor={editor}
      almacenes={almacenes}
      working={pdf.working}
      description={t ? [t.cliente_nombre, t.almacen_nombre].filter(Boolean).join(' · ') || undefined : undefined}
      imprimir={{ onClick: () => t && void pdf.imprimir(t) }}
      actions={
        facturable && (
          <Button type="button" $variant="secondary" onClick={() => setFacturando(true)}>
            Factura completa…
          </Button>
        )
      }
      // Its totals are the ticket's (from the prices with IVA the till showed), not the sum of rounded net prices.
      lineas={{ totalesFijos: totalesFijos ?? undefined }}
      secciones={
        t && (
          <>
            <EstadoFactura documento={t} />
            <DatosTicket t={t} />
          </>
        )
      }
    >
      {facturando && t && <FacturaCompletaDialog ticket={t} onCancel={() => setFacturando(false)} />}
    </DocumentRecordPage>
  );
}
