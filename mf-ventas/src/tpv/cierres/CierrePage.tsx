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
  desgloseEfectivo,
  downloadInformeZPdf,
  empresaPdf,
  formatDate,
  formatDateTime,
  formatMoney,
  informeZDeCierre,
  linkColumn,
  useRecord,
  useShell,
  type DataColumn,
  type Documento,
  type Theme,
  type TipoIva,
} from 'shared';
import { paths } from '../../paths';
import { formaTpvLabel, type CierreTpv } from '../datos';
import { IncidenciasTpv } from '../Incidencias';
import { TablaCifras } from '../TablaCifras';
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
  a { color: ${({ theme }: T) => theme.primary[700]}; font-weight: 600; }
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
      await downloadInformeZPdf(informeZDeCierre(c), { fileName: `informe-z-${c.terminal_nombre.replace(/[^\w-]+/g, '-')}-${c.codigo}.pdf`, empresa: empresaPdf(config) });
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
            <dt>Cerró</dt>
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
          <TablaCifras
            label="Cómo se llega al efectivo esperado"
            sinCabecera
            columnas={[{ titulo: 'Concepto' }, { titulo: 'Importe', num: true }]}
            filas={[
              ...desgloseEfectivo(c).map((d) => ({
                key: d.label,
                celdas: [d.label, d.importe > 0 && d.label !== 'Fondo inicial' ? `+${formatMoney(d.importe)}` : formatMoney(d.importe)],
              })),
              { key: 'esperado', total: true, celdas: ['Esperado en caja', formatMoney(e.esperado)] },
            ]}
          />
          {billetes.length > 0 && (
            <div className="scroll" style={{ marginTop: 12 }}>
              <TablaCifras
                label="Recuento por billetes y monedas"
                columnas={[{ titulo: 'Billete o moneda' }, { titulo: 'Unidades', num: true }, { titulo: 'Importe', num: true }]}
                filas={billetes.map((b) => ({ key: b.valor, celdas: [formatMoney(b.valor), b.cantidad, formatMoney(b.valor * b.cantidad)] }))}
                pie={[{ celda: 'Contado', columnas: 2 }, formatMoney(billetes.reduce((a, b) => a + b.valor * b.cantidad, 0))]}
              />
            </div>
          )}
        </Card>
        <Card aria-labelledby="cierre-formas">
          <h2 id="cierre-formas">Por forma de pago</h2>
          <div className="scroll">
            <TablaCifras
              label="Por forma de pago"
              columnas={[{ titulo: 'Forma' }, { titulo: 'Esperado', num: true }, { titulo: 'Contado', num: true }, { titulo: 'Diferencia', num: true }]}
              filas={c.formas.map((f) => ({
                key: f.forma,
                celdas: [formaTpvLabel(f.forma), formatMoney(f.esperado), formatMoney(f.contado), <Diferencia key="d" cents={f.diferencia} />],
              }))}
              pie={c.formas.length > 1 && ['Total', formatMoney(sumaForma('esperado')), formatMoney(sumaForma('contado')), <Diferencia key="d" cents={sumaForma('diferencia')} />]}
            />
          </div>
        </Card>
        <Card aria-labelledby="cierre-ivas">
          <h2 id="cierre-ivas">Por tipo de IVA</h2>
          <div className="scroll">
            <TablaCifras
              label="Por tipo de IVA"
              columnas={[{ titulo: 'IVA' }, { titulo: 'Base', num: true }, { titulo: 'Cuota', num: true }, { titulo: 'Total', num: true }]}
              filas={c.impuestos.map((i) => ({ key: i.tipo_iva, celdas: [ivaLabel(i.tipo_iva), formatMoney(i.base), formatMoney(i.iva), formatMoney(i.total)] }))}
              pie={c.impuestos.length > 1 && ['Total', formatMoney(suma('base')), formatMoney(suma('iva')), formatMoney(suma('total'))]}
            />
          </div>
        </Card>
        {/* Issue 23: every cashier who sold in the caja (a handover at the till keeps the caja open). */}
        {!!c.cajeros?.length && (
          <Card aria-labelledby="cierre-cajeros">
            <h2 id="cierre-cajeros">Por cajero</h2>
            <div className="scroll">
              <TablaCifras
                label="Por cajero"
                columnas={[{ titulo: 'Cajero' }, { titulo: 'Tickets', num: true }, { titulo: 'Devoluciones', num: true }, { titulo: 'Total', num: true }]}
                filas={c.cajeros.map((x) => ({ key: `${x.usuario_id ?? 'sin'}`, celdas: [x.nombre, x.tickets, x.devoluciones, formatMoney(x.total)] }))}
              />
            </div>
          </Card>
        )}
        {c.movimientos.length > 0 && (
          <Card aria-labelledby="cierre-movimientos" className="wide">
            <h2 id="cierre-movimientos">Entradas y salidas de caja</h2>
            <div className="scroll">
              <TablaCifras
                label="Entradas y salidas de caja"
                cabeceraDeFila={false}
                columnas={[{ titulo: 'Hora' }, { titulo: 'Motivo' }, { titulo: 'Usuario', className: 'fuera-movil' }, { titulo: 'Importe', num: true }]}
                filas={c.movimientos.map((m) => ({
                  key: `${m.fecha_hora}${m.importe}${m.motivo}`,
                  celdas: [formatDateTime(m.fecha_hora), m.motivo, m.usuario_nombre ?? '', m.importe > 0 ? `+${formatMoney(m.importe)}` : formatMoney(m.importe)],
                }))}
              />
            </div>
          </Card>
        )}
        <IncidenciasTpv incidencias={c.incidencias} id="cierre-incidencias" />
        <div className="wide">
          <h2>Tickets del cierre</h2>
          <TicketsDelCierre cajaId={c.caja_id} />
        </div>
      </StyledCierre>
    </>
  );
}
