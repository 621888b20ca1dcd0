import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import styled from 'styled-components';
import {
  ApiHttpError,
  Button,
  Card,
  ListView,
  NotFoundPanel,
  PageHeader,
  Spinner,
  TIPO_IVA_LABEL,
  downloadInformeZPdf,
  empresaPdf,
  formatDate,
  formatDateTime,
  formatMoney,
  linkColumn,
  useRecord,
  useShell,
  type DataColumn,
  type Documento,
  type InformeZ,
  type Theme,
  type TipoIva,
} from 'shared';
import { paths } from '../../paths';
import { formaTpvLabel, type CierreTpv } from '../datos';
import { Diferencia } from './Diferencia';

type T = { theme: Theme };

const StyledCierre = styled.div`
  display: grid;
  gap: 16px;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr));
  align-items: start;
  h2 { font-size: 16px; margin: 0 0 10px; }
  .wide { grid-column: 1 / -1; min-width: 0; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 6px 16px; margin: 0; font-size: 14px; }
  dt { color: ${({ theme }: T) => theme.gray[500]}; }
  dd { margin: 0; font-variant-numeric: tabular-nums; }
  .scroll { overflow-x: auto; }
  table { width: 100%; border-collapse: collapse; font-size: 14px; }
  th, td { padding: 6px 8px; border-bottom: 1px solid ${({ theme }: T) => theme.gray[100]}; text-align: left; }
  thead th { font-size: 12px; color: ${({ theme }: T) => theme.gray[600]}; background: ${({ theme }: T) => theme.gray[50]}; }
  tbody th { font-weight: 500; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tfoot td, tfoot th, tr.total td, tr.total th { font-weight: 700; border-top: 2px solid ${({ theme }: T) => theme.gray[200]}; }
  a { color: ${({ theme }: T) => theme.primary[700]}; font-weight: 600; }
  ${({ theme }: T) => theme.phone} { .fuera-movil { display: none; } }
`;

const StyledCaja = styled.div<{ $tone: 'ok' | 'falta' | 'sobra' }>`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(96px, 1fr));
  gap: 8px;
  margin-bottom: 12px;
  .cifra .v span { white-space: normal; }
  .cifra { border-radius: 8px; padding: 10px; background: ${({ theme }: T) => theme.gray[50]}; min-width: 0; }
  .cifra .k { display: block; font-size: 12px; color: ${({ theme }: T) => theme.gray[600]}; }
  .cifra .v { display: block; font-size: clamp(15px, 4.2vw, 22px); font-weight: 700; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
  .cifra.dif {
    background: ${({ $tone }) => ($tone === 'ok' ? '#f0fdf4' : $tone === 'falta' ? '#fef2f2' : '#fffbeb')};
    border: 2px solid ${({ $tone }) => ($tone === 'ok' ? '#86efac' : $tone === 'falta' ? '#fca5a5' : '#fcd34d')};
  }
`;

const ivaLabel = (t: string) => TIPO_IVA_LABEL[t as TipoIva] ?? `${t} %`;
const tono = (cents: number) => (cents === 0 ? 'ok' : cents < 0 ? 'falta' : 'sobra');

/** How the expected cash is made, signed: what the Z report and the screen list above «Esperado». */
function desgloseEfectivo(c: CierreTpv): { label: string; importe: number }[] {
  const e = c.efectivo;
  if (!e) return [];
  return [
    { label: 'Fondo inicial', importe: e.fondo },
    { label: 'Cobrado en efectivo', importe: e.cobrado },
    { label: 'Cambio devuelto', importe: -e.cambio },
    { label: 'Reembolsos en efectivo', importe: -e.devuelto },
    { label: 'Entradas de caja', importe: e.entradas },
    { label: 'Salidas de caja', importe: -e.salidas },
  ].filter((d, i) => i === 0 || d.importe !== 0);
}

/** The closing as the Z report prints it. */
export function informeZ(c: CierreTpv): InformeZ {
  return {
    terminal: c.terminal_nombre,
    codigo: c.codigo,
    cajero: c.usuario_nombre,
    apertura: c.apertura,
    cierre: c.cierre,
    tickets: c.tickets,
    devoluciones: c.devoluciones,
    total: c.total,
    fondo: c.fondo,
    esperado: c.efectivo.esperado,
    contado: c.efectivo.contado,
    diferencia: c.efectivo.diferencia,
    desgloseEfectivo: desgloseEfectivo(c),
    numeros: c.primer_numero && c.ultimo_numero ? { primero: c.primer_numero, ultimo: c.ultimo_numero } : null,
    formas: c.formas.map((f) => ({ label: formaTpvLabel(f.forma), esperado: f.esperado, contado: f.contado, diferencia: f.diferencia })),
    ivas: c.impuestos.map((i) => ({ label: ivaLabel(i.tipo_iva), base: i.base, iva: i.iva, total: i.total })),
    billetes: c.denominaciones?.filter((b) => b.cantidad > 0) ?? undefined,
    movimientos: c.movimientos.map((m) => ({ fecha_hora: m.fecha_hora, label: m.importe < 0 ? 'Salida' : 'Entrada', importe: m.importe, concepto: m.motivo })),
  };
}

type TicketFila = Documento & { fecha_hora?: string | null };

/** The ticket's time when the list gives it, else its date. */
const cuando = (t: TicketFila) => (t.fecha_hora ? formatDateTime(t.fecha_hora) : formatDate(t.fecha));

const TICKET_COLUMNS: DataColumn<TicketFila>[] = [
  linkColumn('numero', 'Número', (t) => t.numero, (t) => paths.ticket(t.id)),
  { id: 'fecha_hora', header: 'Fecha', cell: (t) => cuando(t), text: (t) => cuando(t) },
  { id: 'cliente', header: 'Cliente', hideOnPhone: true, cell: (t) => t.cliente_nombre ?? '', text: (t) => t.cliente_nombre ?? '' },
  { id: 'total', header: 'Total', numeric: true, align: 'right', cell: (t) => formatMoney(t.total), text: (t) => formatMoney(t.total) },
];

/** The tickets of the closing's till session, each a link to its record. */
function TicketsDelCierre({ cajaId }: { cajaId: number }) {
  const navigate = useNavigate();
  const params = useMemo(() => ({ caja_id: cajaId }), [cajaId]);
  return (
    <ListView<TicketFila>
      title="Tickets del cierre"
      ac="listadotickets"
      listKey="ventas-cierre-tickets"
      exportName="tickets-cierre"
      columns={TICKET_COLUMNS}
      rowKey={(t) => t.id}
      onRowClick={(t) => navigate(paths.ticket(t.id))}
      params={params}
      defaultSort={{ orden: 'numero', dir: 'asc' }}
      empty="Este cierre no tiene tickets"
    />
  );
}

/** /ventas/cierre-tpv/:id: one closing, read only — by payment method and IVA, the cash expected and counted, its tickets, the Z report. */
export function CierrePage({ id }: { id: string }) {
  const { config, toast } = useShell();
  const { record: c, loading, notFound } = useRecord<CierreTpv>('listadocierrestpv', id);
  const [imprimiendo, setImprimiendo] = useState(false);
  const back = { to: paths.cierresTpv, label: 'Cierres TPV' };
  if (loading) return <Spinner />;
  if (notFound || !c) return <NotFoundPanel title="Cierre no encontrado" text="El cierre no existe." back={back} />;

  const imprimir = async () => {
    setImprimiendo(true);
    try {
      await downloadInformeZPdf(informeZ(c), { fileName: `informe-z-${c.terminal_nombre.replace(/[^\w-]+/g, '-')}-${c.codigo}.pdf`, empresa: empresaPdf(config) });
    } catch (e) {
      toast.error(e instanceof ApiHttpError ? e.body.message : undefined);
    } finally {
      setImprimiendo(false);
    }
  };
  const e = c.efectivo;
  const billetes = (c.denominaciones ?? []).filter((b) => b.cantidad > 0);
  const suma = (k: 'base' | 'iva' | 'total') => c.impuestos.reduce((a, i) => a + i[k], 0);
  const sumaForma = (k: 'esperado' | 'contado' | 'diferencia') => c.formas.reduce((a, f) => a + f[k], 0);

  return (
    <>
      <PageHeader
        back={back}
        title={`Cierre ${c.codigo} · ${c.terminal_nombre}`}
        description={`Cerrado el ${formatDateTime(c.cierre)}${c.usuario_nombre ? ` por ${c.usuario_nombre}` : ''}. Un cierre es definitivo: no se modifica.`}
        actions={
          <Button type="button" onClick={() => void imprimir()} disabled={imprimiendo} aria-busy={imprimiendo}>
            Informe Z
          </Button>
        }
      />
      <StyledCierre>
        <Card aria-labelledby="cierre-resumen">
          <h2 id="cierre-resumen">Resumen</h2>
          <dl>
            <dt>Terminal</dt>
            <dd>
              <Link to={paths.terminal(c.terminal_id)}>{c.terminal_nombre}</Link>
            </dd>
            <dt>Cajero</dt>
            <dd>{c.usuario_nombre ?? '—'}</dd>
            <dt>Apertura</dt>
            <dd>{formatDateTime(c.apertura)}</dd>
            <dt>Cierre</dt>
            <dd>{formatDateTime(c.cierre)}</dd>
            <dt>Tickets</dt>
            <dd>
              {c.tickets}
              {c.primer_numero && c.ultimo_numero ? ` (del ${c.primer_numero} al ${c.ultimo_numero})` : ''}
            </dd>
            <dt>Devoluciones</dt>
            <dd>{c.devoluciones}</dd>
            <dt>Total vendido</dt>
            <dd>
              <strong>{formatMoney(c.total)}</strong>
            </dd>
            <dt>Diferencia total</dt>
            <dd>
              <Diferencia cents={c.diferencia} palabra />
            </dd>
          </dl>
        </Card>
        <Card aria-labelledby="cierre-efectivo">
          <h2 id="cierre-efectivo">Efectivo</h2>
          <StyledCaja $tone={tono(e.diferencia)}>
            <div className="cifra">
              <span className="k">Esperado</span>
              <span className="v" data-testid="esperado">
                {formatMoney(e.esperado)}
              </span>
            </div>
            <div className="cifra">
              <span className="k">Contado</span>
              <span className="v" data-testid="contado">
                {formatMoney(e.contado)}
              </span>
            </div>
            <div className="cifra dif" role={e.diferencia < 0 ? 'alert' : undefined}>
              <span className="k">Diferencia</span>
              <span className="v" data-testid="diferencia">
                <Diferencia cents={e.diferencia} palabra />
              </span>
            </div>
          </StyledCaja>
          <table aria-label="Cómo se llega al efectivo esperado">
            <tbody>
              {desgloseEfectivo(c).map((d) => (
                <tr key={d.label}>
                  <th scope="row">{d.label}</th>
                  <td className="num">{d.importe > 0 && d.label !== 'Fondo inicial' ? `+${formatMoney(d.importe)}` : formatMoney(d.importe)}</td>
                </tr>
              ))}
              <tr className="total">
                <th scope="row">Esperado en caja</th>
                <td className="num">{formatMoney(e.esperado)}</td>
              </tr>
            </tbody>
          </table>
          {billetes.length > 0 && (
            <div className="scroll" style={{ marginTop: 12 }}>
              <table aria-label="Recuento por billetes y monedas">
                <thead>
                  <tr>
                    <th scope="col">Billete o moneda</th>
                    <th scope="col" className="num">
                      Unidades
                    </th>
                    <th scope="col" className="num">
                      Importe
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {billetes.map((b) => (
                    <tr key={b.valor}>
                      <th scope="row">{formatMoney(b.valor)}</th>
                      <td className="num">{b.cantidad}</td>
                      <td className="num">{formatMoney(b.valor * b.cantidad)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row" colSpan={2}>
                      Contado
                    </th>
                    <td className="num">{formatMoney(billetes.reduce((a, b) => a + b.valor * b.cantidad, 0))}</td>
                  </tr>
                </tfoot>
              </table>
            </div>
          )}
        </Card>
        <Card aria-labelledby="cierre-formas">
          <h2 id="cierre-formas">Por forma de pago</h2>
          <div className="scroll">
            <table aria-label="Por forma de pago">
              <thead>
                <tr>
                  <th scope="col">Forma</th>
                  <th scope="col" className="num">
                    Esperado
                  </th>
                  <th scope="col" className="num">
                    Contado
                  </th>
                  <th scope="col" className="num">
                    Diferencia
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.formas.map((f) => (
                  <tr key={f.forma}>
                    <th scope="row">{formaTpvLabel(f.forma)}</th>
                    <td className="num">{formatMoney(f.esperado)}</td>
                    <td className="num">{formatMoney(f.contado)}</td>
                    <td className="num">
                      <Diferencia cents={f.diferencia} />
                    </td>
                  </tr>
                ))}
              </tbody>
              {c.formas.length > 1 && (
                <tfoot>
                  <tr>
                    <th scope="row">Total</th>
                    <td className="num">{formatMoney(sumaForma('esperado'))}</td>
                    <td className="num">{formatMoney(sumaForma('contado'))}</td>
                    <td className="num">
                      <Diferencia cents={sumaForma('diferencia')} />
                    </td>
                  </tr>
                </tfoot>
              )}
            </table>
          </div>
        </Card>
        <Card aria-labelledby="cierre-ivas">
          <h2 id="cierre-ivas">Por tipo de IVA</h2>
          <div className="scroll">
            <table aria-label="Por tipo de IVA">
              <thead>
                <tr>
                  <th scope="col">IVA</th>
                  <th scope="col" className="num">
                    Base
                  </th>
                  <th scope="col" className="num">
                    Cuota
                  </th>
                  <th scope="col" className="num">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.impuestos.map((i) => (
                  <tr key={i.tipo_iva}>
                    <th scope="row">{ivaLabel(i.tipo_iva)}</th>
                    <td className="num">{formatMoney(i.base)}</td>
                    <td className="num">{formatMoney(i.iva)}</td>
                    <td className="num">{formatMoney(i.total)}</td>
                  </tr>
                ))}
              </tbody>
              {c.impuestos.length > 1 && (
                <tfoot>
                  <tr>
                    <th scope="row">Total</th>
                    <td className="num">{formatMoney(suma('base'))}</td>
                    <td className="num">{formatMoney(suma('iva'))}</td>
                    <td className="num">{formatMoney(suma('total'))}</td>
                  </tr>
                </tfoot>
              )}
            </table>
          </div>
        </Card>
        {c.movimientos.length > 0 && (
          <Card aria-labelledby="cierre-movimientos" className="wide">
            <h2 id="cierre-movimientos">Entradas y salidas de caja</h2>
            <div className="scroll">
              <table aria-label="Entradas y salidas de caja">
                <thead>
                  <tr>
                    <th scope="col">Hora</th>
                    <th scope="col">Motivo</th>
                    <th scope="col" className="fuera-movil">
                      Usuario
                    </th>
                    <th scope="col" className="num">
                      Importe
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {c.movimientos.map((m) => (
                    <tr key={`${m.fecha_hora}${m.importe}${m.motivo}`}>
                      <td>{formatDateTime(m.fecha_hora)}</td>
                      <td>{m.motivo}</td>
                      <td className="fuera-movil">{m.usuario_nombre ?? ''}</td>
                      <td className="num">{m.importe > 0 ? `+${formatMoney(m.importe)}` : formatMoney(m.importe)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
        )}
        <div className="wide">
          <h2>Tickets del cierre</h2>
          <TicketsDelCierre cajaId={c.caja_id} />
        </div>
      </StyledCierre>
    </>
  );
}
