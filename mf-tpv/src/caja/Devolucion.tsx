import { useState, type FormEvent } from 'react';
import { cantidadNoEntera, formatDecimal, formatMoney, MESSAGES_TPV, parseDecimal, reembolsoComoSePago, textoTpv, tiene } from 'shared';
import { importeLinea, totalesTicket } from '../venta/importes';
import { FORMA_PAGO_LABEL, type FormaPago, type Pago } from '../venta/importes';
import { buscarLocal, deServidor, guardarVisto, type LineaDevolucion, type TicketDevolucion } from './devolucionLocal';
import { colaDe, useCaja } from './estado';
import { Aviso, TouchButton, Campo, TouchDialog, Fila, Fondo } from './estilos';
import { CodigoBarras } from '../impresion/CodigoBarras';
import { guardarNumeroR } from './registro';
import { fechaTicket } from './registroFiscal';
import * as srv from './servidor';

type Hecha = { numero: string; total: number; enCola: boolean; pagos: Pago[]; vales?: { codigo: string; importe: number }[] };

/**
 * Returns: the ticket by its number (typed or scanned), the lines and quantities, refunded by its method → R5.
 * Without the server (or with things still queued) a ticket this till knows (sold here, or looked up earlier) is
 * returned here: its R5 made by the till and queued after everything before it (issue 13).
 */
export default function Devolucion({ onCerrar }: { onCerrar(): void }) {
  const terminal = useCaja((s) => s.terminal)!;
  const devolverOffline = useCaja((s) => s.devolverOffline);
  const derechos = useCaja((s) => s.sesion?.user.rol?.derechos);
  const [numero, setNumero] = useState('');
  const [ticket, setTicket] = useState<TicketDevolucion | null>(null);
  const [sinConexion, setSinConexion] = useState(false);
  const [cantidades, setCantidades] = useState<Record<string, string>>({});
  const [hecha, setHecha] = useState<Hecha | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [uuid] = useState(() => crypto.randomUUID());
  // Issue 23: the other tickets whose number ends in the digits typed (the newest is shown).
  const [otros, setOtros] = useState<{ id: number; numero: string; fecha: string; total: number }[]>([]);
  // Issue 23: the refund by method as the cashier typed it (null: «como se pagó», in proportion).
  const [reparto, setReparto] = useState<Partial<Record<FormaPago, string>> | null>(null);
  // Issue 23: a return without a ticket, for a cashier with the right: the articles typed or scanned.
  const puedeSinTicket = !!derechos && tiene(derechos, 'devolver_sin_ticket');
  const [articulo, setArticulo] = useState('');
  const sinTicket = !!ticket?.sinTicket;

  const empezarSinTicket = () => {
    setError(null);
    setOtros([]);
    setCantidades({});
    setReparto(null);
    setSinConexion(false);
    setTicket({ origen: 'caja', ticket_id: null, ticket_uuid: null, numero: '', fecha: '', lineas: [], pagos: [], sinTicket: true });
  };

  /** An article brought back (scanned, its code or words of its name): a line at its price with IVA. */
  const añadirArticulo = (e: FormEvent) => {
    e.preventDefault();
    if (!ticket?.sinTicket) return;
    const indice = useCaja.getState().indice;
    const lectura = indice.leer(articulo) ?? (() => {
      const [a] = indice.buscar(articulo, 1);
      return a ? { articulo: a, cantidad: 1000 } : null;
    })();
    if (!lectura) return setError(`No hay ningún artículo «${articulo.trim()}».`);
    setError(null);
    const a = lectura.articulo;
    const previa = ticket.lineas.find((l) => l.articulo_id === a.id);
    if (previa) {
      const k = claveDe(previa);
      const antes = parseDecimal(cantidades[k] ?? '', 3) ?? 0n;
      setCantidades({ ...cantidades, [k]: formatDecimal(Number(antes) + lectura.cantidad, 3, 0) });
    } else {
      const orden = ticket.lineas.length + 1;
      const linea: LineaDevolucion = { orden, articulo_id: a.id, descripcion: a.nombre, cantidad: 0, precio: a.precio, descuento: 0, tipo_iva: a.tipo_iva, devuelto: 0 };
      setTicket({ ...ticket, lineas: [...ticket.lineas, linea] });
      setCantidades({ ...cantidades, [`o${orden}`]: formatDecimal(lectura.cantidad, 3, 0) });
    }
    setArticulo('');
  };

  const local = async (motivo: string) => {
    const t = await buscarLocal(numero, terminal);
    if (!t) {
      setError(`${motivo}: el ticket «${numero}» no está en esta caja, así que su devolución necesita conexión con el servidor.`);
      return null;
    }
    setSinConexion(true);
    return t;
  };

  const buscar = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    setTicket(null);
    setCantidades({});
    setOtros([]);
    try {
      let t: TicketDevolucion | null;
      const cola = colaDe(terminal, (c) => useCaja.setState({ cola: c }));
      if ((await cola.pendientes()).length > 0) t = await local('Hay operaciones por enviar');
      else {
        try {
          const s = await srv.buscarTicket(numero, terminal.id, setOtros);
          if (s) await guardarVisto(s);
          else setError(`No hay ningún ticket «${numero}».`);
          setSinConexion(false);
          t = s ? deServidor(s) : null;
        } catch (err) {
          if (!(err instanceof srv.SinConexion)) throw err;
          t = await local('Sin conexión con el servidor');
        }
      }
      mostrar(t);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const mostrar = (t: TicketDevolucion | null) => {
    // An earlier day's ticket needs «devolver tickets de días anteriores» (issue 23): the same rule as the server's,
    // with the cashier's rights, so an offline return never breaks it.
    const hoy = fechaTicket({ fecha_hora: new Date().toISOString() }, terminal);
    if (t && derechos && !tiene(derechos, 'devolver_anteriores') && t.fecha && t.fecha < hoy) {
      setError(MESSAGES_TPV.devolucionDiaAnterior);
      t = null;
    }
    setTicket(t);
  };

  /** Another of the tickets the digits matched, chosen from the list. */
  const elegirOtro = async (id: number) => {
    setError(null);
    setBusy(true);
    setCantidades({});
    try {
      const s = await srv.leerTicket(id);
      if (s) await guardarVisto(s);
      setSinConexion(false);
      setOtros(otros.filter((o) => o.id !== id).concat(ticket?.ticket_id ? [{ id: ticket.ticket_id, numero: ticket.numero, fecha: ticket.fecha, total: 0 }] : []).sort((a, b) => b.id - a.id));
      mostrar(s ? deServidor(s) : null);
    } catch (err) {
      setError(err instanceof srv.SinConexion ? 'Sin conexión con el servidor: escriba el número entero del ticket.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const claveDe = (l: LineaDevolucion) => String(l.id ?? `o${l.orden}`);
  const elegidas = (ticket?.lineas ?? [])
    .map((l) => ({ l, c: parseDecimal(cantidades[claveDe(l)] ?? '', 3) }))
    .filter((x): x is { l: LineaDevolucion; c: bigint } => x.c !== null && x.c > 0n);
  const importe = sinConexion || sinTicket
    ? -totalesTicket(elegidas.map(({ l, c }) => ({ cantidad: -Number(c), precio: l.precio, descuento: l.descuento, tipo_iva: l.tipo_iva }))).total
    : elegidas.reduce((a, { l, c }) => a + importeLinea({ cantidad: Number(c), precio: l.precio, descuento: l.descuento, tipo_iva: l.tipo_iva }), 0);
  // The methods a refund may take: the terminal's (cash always), those the ticket was paid with.
  // A store credit («vale», issue 23) only with the right «reembolso_vale» and the connection (the server issues it).
  const puedeVale = (sinTicket ? !!derechos && tiene(derechos, 'reembolso_vale') : !derechos || tiene(derechos, 'reembolso_vale')) && !sinConexion;
  const formas = [...new Set<FormaPago>(['efectivo', ...((terminal.formas_pago ?? []) as FormaPago[]), ...(ticket?.pagos ?? []).map((p) => p.forma), 'vale'])].filter(
    (f) => f !== 'vale' || puedeVale,
  );
  // Without a ticket there is no «como se pagó»: in cash unless the customer chooses otherwise.
  const comoSePago = sinTicket ? (importe > 0 ? [{ forma: 'efectivo' as FormaPago, importe }] : []) : reembolsoComoSePago(ticket?.pagos ?? [], importe);
  const pagos: Pago[] = reparto
    ? formas.map((f) => ({ forma: f, importe: (reparto[f] ?? '').trim() ? Number(parseDecimal(reparto[f] ?? '', 2) ?? -1n) : 0 })).filter((p) => p.importe !== 0)
    : comoSePago;
  const repartoMal = pagos.some((p) => p.importe < 0)
    ? 'Escriba importes válidos.'
    : pagos.reduce((a, p) => a + p.importe, 0) !== importe
      ? textoTpv(MESSAGES_TPV.devolucionPagos, { pagado: formatMoney(pagos.reduce((a, p) => a + p.importe, 0)), total: formatMoney(importe) })
      : null;
  const enTexto = (c: number) => formatDecimal(c, 2, 2);
  const todoEn = (f: FormaPago) => setReparto({ [f]: enTexto(importe) });

  const devolver = async () => {
    if (!ticket) return;
    for (const { l, c } of elegidas) {
      // Issue 23: an article by the unit is returned in whole units.
      const fraccion = cantidadNoEntera(useCaja.getState().indice.get(l.articulo_id)?.unidad_medida, c, l.descripcion);
      if (fraccion) return setError(fraccion);
      const queda = l.cantidad - l.devuelto;
      if (!sinTicket && Number(c) > queda) return setError(`De «${l.descripcion}» quedan por devolver ${formatDecimal(queda, 3, 0)}.`);
    }
    if (!elegidas.length) return setError('Elija qué líneas y cuánto se devuelve.');
    if (repartoMal) return setError(repartoMal);
    setBusy(true);
    setError(null);
    const offline = async () => {
      if (pagos.some((p) => p.forma === 'vale')) throw new Error(MESSAGES_TPV.valeSinConexion);
      // Without a ticket each line is what the customer brings back (no «sold», nothing returned before).
      const lineas = elegidas.map(({ l, c }) => ({ linea: sinTicket ? { ...l, cantidad: Number(c) } : l, cantidad: Number(c) }));
      const e = await devolverOffline(ticket, lineas, uuid, pagos);
      setHecha({ numero: e.registro!.num_serie, total: e.total, enCola: true, pagos });
    };
    try {
      if (sinTicket) {
        const cola = colaDe(terminal, (c) => useCaja.setState({ cola: c }));
        // Queued operations go first (the chain's order): then this one is made here too.
        if ((await cola.pendientes()).length > 0) await offline();
        else {
          try {
            const r = await srv.devolverSinTicket(terminal.id, elegidas.map(({ l, c }) => ({ articulo_id: l.articulo_id, cantidad: Number(c), precio: l.precio })), pagos, uuid);
            await guardarNumeroR(r.numero, terminal);
            setHecha({ numero: r.numero, total: r.total, enCola: false, pagos, vales: r.vales ?? [] });
          } catch (err) {
            if (!(err instanceof srv.SinConexion)) throw err;
            setSinConexion(true);
            await offline();
          }
        }
      } else if (sinConexion || ticket.origen !== 'servidor' || ticket.ticket_id === null) await offline();
      else {
        try {
          const r = await srv.devolverTicket(ticket.ticket_id, elegidas.map(({ l, c }) => ({ id: l.id!, cantidad: Number(c) })), pagos, uuid);
          await guardarNumeroR(r.numero, terminal);
          setHecha({ numero: r.numero, total: r.total, enCola: false, pagos, vales: r.vales ?? [] });
        } catch (err) {
          // The connection went between the lookup and the return: made here, as offline.
          if (!(err instanceof srv.SinConexion)) throw err;
          setSinConexion(true);
          await offline();
        }
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Fondo>
      <TouchDialog aria-label="Devolución" onKeyDown={(e) => e.key === 'Escape' && onCerrar()}>
        <h2>Devolución</h2>
        {hecha ? (
          <>
            <p role="status" style={{ fontSize: 18 }}>
              Rectificativa <strong data-testid="devolucion-numero">{hecha.numero}</strong>: devolver{' '}
              <span data-testid="devolucion-reembolso">{hecha.pagos.map((p) => `${formatMoney(p.importe)} en ${FORMA_PAGO_LABEL[p.forma].toLowerCase()}`).join(' y ')}</span>.
              {hecha.enCola && ' Hecha sin conexión: pendiente de envío (se envía sola al volver la conexión).'}
            </p>
            {hecha.vales?.map((v) => (
              <div key={v.codigo} data-testid="vale" className="impresion" style={{ textAlign: 'center', border: '1px dashed #94a3b8', padding: 8, margin: '8px 0' }}>
                <div style={{ fontWeight: 700 }}>Vale de {formatMoney(v.importe)}</div>
                <CodigoBarras texto={v.codigo} etiqueta="Código del vale" />
                <div data-testid="vale-codigo">{v.codigo}</div>
                <small>Se usa entero, una vez, como pago en esta tienda.</small>
              </div>
            ))}
            <Fila>
              {!!hecha.vales?.length && <TouchButton onClick={() => window.print()}>Imprimir el vale</TouchButton>}
              <TouchButton $tono="primario" $grande autoFocus onClick={onCerrar}>Terminar</TouchButton>
            </Fila>
          </>
        ) : (
          <>
            {sinTicket ? (
              <form onSubmit={añadirArticulo}>
                <p data-testid="devolucion-sin-ticket" style={{ margin: '0 0 6px', fontWeight: 600 }}>Devolución sin ticket: escanee o escriba los artículos que trae el cliente.</p>
                <label htmlFor="tpv-devolver-articulo">Artículo (código de barras, código o nombre)</label>
                <Fila>
                  <Campo id="tpv-devolver-articulo" autoFocus autoComplete="off" value={articulo} onChange={(e) => setArticulo(e.target.value)} style={{ flex: 1, width: 'auto' }} />
                  <TouchButton type="submit" disabled={busy || !articulo.trim()}>Añadir</TouchButton>
                  <TouchButton
                    type="button"
                    disabled={busy}
                    onClick={() => {
                      setTicket(null);
                      setCantidades({});
                      setReparto(null);
                      setError(null);
                    }}
                  >
                    Con ticket
                  </TouchButton>
                </Fila>
              </form>
            ) : (
              <form onSubmit={buscar}>
                <label htmlFor="tpv-devolver-numero">Número del ticket (escanéelo o escriba sus últimas cifras)</label>
                <Fila>
                  <Campo id="tpv-devolver-numero" autoFocus autoComplete="off" value={numero} onChange={(e) => setNumero(e.target.value)} style={{ flex: 1, width: 'auto' }} />
                  <TouchButton type="submit" disabled={busy}>Buscar</TouchButton>
                  {puedeSinTicket && (
                    <TouchButton type="button" disabled={busy} onClick={empezarSinTicket}>Sin ticket</TouchButton>
                  )}
                </Fila>
              </form>
            )}
            {ticket && !sinTicket && (
              <p data-testid="devolucion-ticket" style={{ margin: '8px 0 0', fontWeight: 600 }}>
                Ticket {ticket.numero}
                {ticket.fecha ? ` · ${ticket.fecha.split('-').reverse().join('/')}` : ''}
              </p>
            )}
            {otros.length > 0 && (
              <Fila aria-label={`Otros tickets que acaban en ${numero.trim()}`} style={{ marginTop: 6 }}>
                <span>También acaban en {numero.trim()}:</span>
                {otros.map((o) => (
                  <TouchButton key={o.id} type="button" disabled={busy} onClick={() => void elegirOtro(o.id)}>
                    {o.numero}
                  </TouchButton>
                ))}
              </Fila>
            )}
            {ticket && sinConexion && (
              <p role="status" data-testid="devolucion-sin-conexion" style={{ margin: '8px 0', color: '#92400e', fontWeight: 600 }}>
                Sin conexión: lo vendido y devuelto es lo que sabe esta caja; la rectificativa se hace aquí y se envía al volver la conexión.
              </p>
            )}
            {sinTicket && ticket.lineas.length > 0 && (
              <table aria-label="Artículos devueltos" style={{ marginTop: 10 }}>
                <thead>
                  <tr>
                    <th>Artículo</th>
                    <th className="n">Precio</th>
                    <th className="n">Devolver</th>
                  </tr>
                </thead>
                <tbody>
                  {ticket.lineas.map((l) => {
                    const k = claveDe(l);
                    return (
                      <tr key={k}>
                        <td>{l.descripcion}</td>
                        <td className="n">{formatMoney(Math.round(l.precio / 100))}</td>
                        <td className="n">
                          <Campo
                            aria-label={`Devolver de ${l.descripcion}`}
                            inputMode="decimal"
                            style={{ width: 90, fontSize: 16, padding: 6 }}
                            value={cantidades[k] ?? ''}
                            placeholder="0"
                            onChange={(e) => setCantidades({ ...cantidades, [k]: e.target.value })}
                          />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
            {ticket && !sinTicket && (
              <table aria-label="Líneas del ticket" style={{ marginTop: 10 }}>
                <thead>
                  <tr>
                    <th>Artículo</th>
                    <th className="n">Vendido</th>
                    <th className="n">Devuelto</th>
                    <th className="n">Devolver</th>
                  </tr>
                </thead>
                <tbody>
                  {ticket.lineas.map((l) => {
                    const queda = l.cantidad - l.devuelto;
                    const k = claveDe(l);
                    return (
                      <tr key={k}>
                        <td>{l.descripcion}</td>
                        <td className="n">{formatDecimal(l.cantidad, 3, 0)}</td>
                        <td className="n">{formatDecimal(l.devuelto, 3, 0)}</td>
                        <td className="n">
                          <Campo
                            aria-label={`Devolver de ${l.descripcion}`}
                            inputMode="decimal"
                            disabled={queda <= 0}
                            style={{ width: 90, fontSize: 16, padding: 6 }}
                            value={cantidades[k] ?? ''}
                            placeholder="0"
                            onChange={(e) => setCantidades({ ...cantidades, [k]: e.target.value })}
                          />
                          <TouchButton type="button" disabled={queda <= 0} onClick={() => setCantidades({ ...cantidades, [k]: formatDecimal(queda, 3, 0) })} style={{ marginLeft: 4 }}>
                            Todo
                          </TouchButton>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
            {ticket && (
              <p style={{ fontSize: 18, fontWeight: 700, marginBottom: 4 }}>
                A devolver: <span data-testid="devolucion-importe">{formatMoney(importe)}</span>
              </p>
            )}
            {ticket && importe > 0 && (
              <fieldset aria-label="Reembolso" style={{ border: '1px solid #e2e8f0', borderRadius: 8, padding: 8 }}>
                <legend>Reembolso {reparto ? '(elegido por el cliente)' : sinTicket ? '(en efectivo)' : '(como se pagó)'}</legend>
                <Fila>
                  {!sinTicket && <TouchButton type="button" $tono={reparto ? 'neutro' : 'primario'} onClick={() => setReparto(null)}>Como se pagó</TouchButton>}
                  {formas.map((f) => (
                    <TouchButton key={f} type="button" onClick={() => todoEn(f)}>Todo en {FORMA_PAGO_LABEL[f].toLowerCase()}</TouchButton>
                  ))}
                </Fila>
                <Fila style={{ marginTop: 6 }}>
                  {formas.map((f) => (
                    <div key={f} style={{ display: 'grid', gap: 2 }}>
                      <label htmlFor={`tpv-reembolso-${f}`}>{FORMA_PAGO_LABEL[f]} (€)</label>
                      <Campo
                        id={`tpv-reembolso-${f}`}
                        inputMode="decimal"
                        style={{ width: 110, fontSize: 16, padding: 6 }}
                        value={reparto ? (reparto[f] ?? '') : enTexto(comoSePago.find((p) => p.forma === f)?.importe ?? 0)}
                        onChange={(e) => setReparto({ ...(reparto ?? Object.fromEntries(comoSePago.map((p) => [p.forma, enTexto(p.importe)]))), [f]: e.target.value })}
                      />
                    </div>
                  ))}
                </Fila>
                {repartoMal && <small role="status" style={{ color: '#b91c1c' }}>{repartoMal}</small>}
              </fieldset>
            )}
            {error && <Aviso>{error}</Aviso>}
            <Fila style={{ marginTop: 12 }}>
              <TouchButton $tono="peligro" disabled={busy || !ticket || !elegidas.length || !!repartoMal} onClick={() => void devolver()}>Devolver</TouchButton>
              <TouchButton onClick={onCerrar}>Cancelar</TouchButton>
            </Fila>
          </>
        )}
      </TouchDialog>
    </Fondo>
  );
}
