import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { cantidadNoEntera, descuentoPermitido, formatDecimal, formatMoney, parseDecimal, tiene } from 'shared';
import type { ArticuloTpv } from '../datos/catalogo';
import { superaLimite, useCaja, type LineaVenta } from '../caja/estado';
import { Aviso, TouchButton, Campo, TouchDialog, Fila, Fondo } from '../caja/estilos';
import { importeLinea, totalesTicket } from './importes';

const Cobro = lazy(() => import('./Cobro'));
const TicketImpreso = lazy(() => import('./TicketImpreso'));
const Devolucion = lazy(() => import('../caja/Devolucion'));
const FacturaCompleta = lazy(() => import('../caja/FacturaCompleta'));
const FacturaVenta = lazy(() => import('./FacturaVenta'));
const Movimiento = lazy(() => import('../caja/Movimiento'));
const Cierre = lazy(() => import('../caja/Cierre'));

const Rejilla = styled.div`
  flex: 1;
  min-height: 0;
  display: grid;
  grid-template-columns: minmax(0, 5fr) minmax(0, 6fr);
  gap: 10px;
  padding: 10px;
  /* A phone: the articles on top, the ticket below with its total and Cobrar always in reach. */
  @media (max-width: 760px) {
    grid-template-columns: 1fr;
    grid-template-rows: minmax(0, 45fr) minmax(0, 55fr);
    padding: 6px;
    gap: 6px;
    .derecha { order: -1; }
  }
`;
const Panel = styled.section`
  background: #fff;
  border-radius: 12px;
  box-shadow: 0 1px 3px rgb(15 23 42 / 0.12);
  display: flex;
  flex-direction: column;
  min-height: 0;
  overflow: hidden;
`;
const Lineas = styled.div`
  flex: 1;
  overflow: auto;
  & > div {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: 2px 8px;
    padding: 8px 10px;
    border-bottom: 1px solid #e2e8f0;
    cursor: pointer;
    min-height: 44px;
  }
  & > div[aria-selected='true'] { background: #dbeafe; }
  @media (max-width: 760px) { & > div { padding: 4px 8px; min-height: 0; } }
  .nombre { font-weight: 600; }
  .detalle { color: #475569; font-size: 14px; }
  .importe { font-weight: 700; text-align: right; font-variant-numeric: tabular-nums; }
`;
const Total = styled.div`
  display: flex;
  justify-content: space-between;
  align-items: baseline;
  padding: 10px 12px;
  border-top: 2px solid #0f172a;
  font-size: 28px;
  font-weight: 800;
  @media (max-width: 760px) { font-size: 22px; padding: 6px 10px; }
  font-variant-numeric: tabular-nums;
`;
const Botonera = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(112px, 1fr));
  @media (max-width: 760px) { grid-template-columns: repeat(auto-fill, minmax(96px, 1fr)); gap: 6px; padding: 6px; }
  gap: 8px;
  padding: 8px;
  overflow: auto;
  align-content: start;
  flex: 1;
`;
const BotonArticulo = styled.button<{ $color?: string | null }>`
  min-height: 64px;
  border-radius: 10px;
  border: 2px solid rgb(15 23 42 / 0.15);
  background: ${({ $color }) => $color || '#e0f2fe'};
  font-size: 15px;
  font-weight: 600;
  cursor: pointer;
  padding: 6px;
  touch-action: manipulation;
  span { display: block; font-weight: 400; font-size: 13px; }
`;
const Pestañas = styled.div`
  display: flex;
  gap: 6px;
  padding: 8px 8px 0;
  overflow-x: auto;
`;
const Acciones = styled.div`
  display: grid;
  grid-template-columns: repeat(4, minmax(0, 1fr));
  gap: 6px;
  padding: 8px;
  @media (max-width: 760px) { gap: 4px; padding: 6px; button { font-size: 13px; padding: 0 4px; min-height: 42px; } }
`;

const Herramientas = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(0, 1fr));
  grid-auto-flow: column;
  gap: 8px;
  padding: 8px;
  border-top: 1px solid #e2e8f0;
  button { padding: 0 6px; line-height: 1.1; }
  @media (max-width: 760px) {
    padding: 6px;
    gap: 6px;
    button { min-height: 40px; font-size: 13px; }
  }
`;

type Dialogos = 'cobro' | 'ticket' | 'linea' | 'aparcados' | 'devolucion' | 'factura' | 'facturaVenta' | 'movimiento' | 'cierre' | null;

const cantidadTexto = (c: number) => formatDecimal(c, 3, 0);

export function Venta() {
  const { indice, paginas, lineas, seleccion, aparcados, sesion, ultimo, terminal, online } = useCaja();
  const { añadir, añadirArticulo, cambiarLinea, quitarLinea, anularTicket, aparcar, recuperar, set } = useCaja.getState();
  const [texto, setTexto] = useState('');
  const [activo, setActivo] = useState(0);
  const [aviso, setAviso] = useState<string | null>(null);
  const [pagina, setPagina] = useState(0);
  const [dialogo, setDialogo] = useState<Dialogos>(null);
  // «Factura completa»: of the ticket just sold (its number), or of one typed or scanned (null).
  const [facturaDe, setFacturaDe] = useState<string | null>(null);
  const buscador = useRef<HTMLInputElement>(null);
  const totales = useMemo(() => totalesTicket(lineas), [lineas]);
  // Over the simplified invoice's limit the sale is stopped before payment, with the reason and the way out (issue 23):
  // a full invoice (F1) to the customer, here, online; offline the stop says that it needs the connection.
  const limite = superaLimite(terminal, totales.total, online);
  const cobrar = () => {
    if (!lineas.length) return;
    if (limite) setAviso(limite);
    else setDialogo('cobro');
  };
  // The search follows the typing at its own pace (a scanner's burst of digits never waits for it); Enter reads the
  // text as it is.
  const buscado = useDeferredValue(texto);
  const resultados = useMemo(
    () => (buscado.trim().length >= 2 && !/^\d{8,}$/.test(buscado.trim()) ? indice.buscar(buscado.replace(/^\d+\*/, ''), 40) : []),
    [indice, buscado],
  );
  const derechos = sesion?.user.rol?.derechos;
  const sinRol = !derechos;
  const puedePrecio = sinRol || tiene(derechos, 'cambiar_precio');
  const maxDescuento = sinRol ? 10000 : descuentoPermitido(derechos);

  // The search box keeps the focus (the scanner types into it) whenever no dialog is open.
  const enfocar = () => {
    // At once, not on the next frame: a page the browser doesn't paint (behind another window) gets no frames.
    if (!dialogo) buscador.current?.focus();
  };
  useEffect(enfocar, [dialogo]);

  const vender = (a: ArticuloTpv, cantidad = 1000) => {
    // Issue 23: an article by the unit is sold in whole units.
    const fraccion = cantidadNoEntera(a.unidad_medida, cantidad, a.nombre);
    if (fraccion) {
      setAviso(fraccion);
      return;
    }
    añadir({ articulo: a, cantidad });
    setTexto('');
    setAviso(null);
    setActivo(0);
  };

  const alIntro = () => {
    const t = texto.trim();
    if (!t) {
      cobrar();
      return;
    }
    // «3*código»: three of it.
    const m = /^(\d+(?:[.,]\d+)?)\*(.+)$/.exec(t);
    const cantidad = m ? Number(parseDecimal(m[1], 3)) : null;
    const codigo = m ? m[2] : t;
    const lectura = indice.leer(codigo);
    if (lectura) {
      const leida = cantidad ? { ...lectura, cantidad } : lectura;
      const fraccion = cantidadNoEntera(leida.articulo.unidad_medida, leida.cantidad, leida.articulo.nombre);
      if (fraccion) {
        setAviso(fraccion);
        setTexto('');
        return;
      }
      añadir(leida);
      setTexto('');
      setAviso(null);
      return;
    }
    // The list on screen when it is the text's (the arrows chose in it), else the text searched now.
    const alDia = buscado === texto && resultados.length > 0;
    const lista = alDia ? resultados : indice.buscar(codigo, 2);
    if (lista.length === 1 || (alDia && activo < lista.length)) {
      vender(lista[lista.length === 1 ? 0 : activo], cantidad ?? 1000);
      return;
    }
    setAviso(`No se encuentra «${codigo}» en el catálogo.`);
    setTexto('');
  };

  /**
   * The search box's own keys: Enter sells (or pays with the box empty), the arrows move in the results or the
   * lines, + / − / Supr act on the chosen line. The till's function keys are handled at the document (below).
   */
  const alTeclear = (e: KeyboardEvent<HTMLInputElement>) => {
    const vacio = texto === '';
    const sel = seleccion;
    if (e.key === 'Enter') {
      e.preventDefault();
      alIntro();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const d = e.key === 'ArrowDown' ? 1 : -1;
      if (resultados.length) setActivo((a) => Math.max(0, Math.min(resultados.length - 1, a + d)));
      else if (lineas.length) set({ seleccion: Math.max(0, Math.min(lineas.length - 1, (sel ?? lineas.length) + d)) });
    } else if (vacio && sel !== null && (e.key === '+' || e.key === '-')) {
      e.preventDefault();
      const l = lineas[sel];
      const c = l.cantidad + (e.key === '+' ? 1000 : -1000);
      if (c > 0) cambiarLinea(sel, { cantidad: c });
    } else if (vacio && sel !== null && e.key === 'Delete') {
      e.preventDefault();
      quitarLinea(sel);
    } else if (e.key === 'Escape') {
      setTexto('');
      setAviso(null);
    }
  };

  /**
   * The till's keys are the till's wherever the focus is (a product button just tapped, a line, the page itself),
   * except inside an open dialog, whose own fields and keys rule there. A key that types (the scanner's digits)
   * outside any field goes to the search box.
   */
  const teclaDeCaja = useRef<(e: globalThis.KeyboardEvent) => void>(() => undefined);
  teclaDeCaja.current = (e) => {
    if (dialogo || e.defaultPrevented || e.isComposing) return;
    const el = e.target instanceof Element ? e.target : null;
    if (el?.closest('[role=dialog]')) return;
    const sel = seleccion;
    const teclas = ['F2', 'F3', 'F8', 'F9', 'F12'];
    if (teclas.includes(e.key)) {
      // F3, F12… are the browser's too (search, developer tools): the till's here, done or not.
      e.preventDefault();
      if (e.key === 'F2' && sel !== null) setDialogo('linea');
      else if (e.key === 'F3') {
        setFacturaDe(null);
        setDialogo('factura');
      } else if (e.key === 'F8') void aparcar();
      else if (e.key === 'F9') setDialogo('aparcados');
      else if (e.key === 'F12' && lineas.length) cobrar();
      return;
    }
    const enCampo = !!el?.closest('input,select,textarea,[contenteditable=true]');
    if (enCampo || e.ctrlKey || e.metaKey || e.altKey) return;
    const box = buscador.current;
    if (!box) return;
    // A button, a tab or a line reached with the keyboard keeps its own Enter, space and arrows (it is pressed, not
    // scanned); what the scanner types moves the focus to the box first, so its Enter lands there.
    const interactivo = !!el?.closest('button,a[href],[role=button],[role=tab],[role=option],[role=radio]');
    if (interactivo && (e.key === ' ' || e.key.length !== 1)) return;
    if (e.key.length === 1 || e.key === 'Enter' || e.key === 'Delete' || e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      // Back to the box: what is typed lands there, and Enter / Supr / the arrows do what they do in it.
      if (e.key.length !== 1) {
        e.preventDefault();
        box.focus();
        box.dispatchEvent(new globalThis.KeyboardEvent('keydown', { key: e.key, bubbles: true, cancelable: true }));
      } else box.focus();
    }
  };
  useEffect(() => {
    const h = (e: globalThis.KeyboardEvent) => teclaDeCaja.current(e);
    document.addEventListener('keydown', h);
    return () => document.removeEventListener('keydown', h);
  }, []);

  const pag = paginas[pagina];
  // A family page shows the family's articles (the catalogue holds the active ones), by name; else its own buttons.
  const botones = useMemo(
    () =>
      !pag
        ? []
        : pag.familia_id
          ? indice.articulos
              .filter((a) => a.familia_id === pag.familia_id)
              .sort((x, y) => x.nombre.localeCompare(y.nombre, 'es'))
              .map((a, posicion) => ({ b: { posicion, articulo_id: a.id, color: pag.color, etiqueta: null }, a }))
          : [...pag.botones].sort((a, b) => a.posicion - b.posicion).map((b) => ({ b, a: indice.get(b.articulo_id) })).filter((x) => x.a),
    [pag, indice],
  );
  const cerrar = () => setDialogo(null);
  // Stable, so a scan re-renders only the new line and the one that lost the selection, not the whole ticket.
  const elegirLinea = useCallback((i: number) => set({ seleccion: i }), [set]);
  const editarLinea = useCallback(() => setDialogo('linea'), []);

  return (
    <Rejilla onPointerUp={(e) => !(e.target as HTMLElement).closest('input,select,textarea,[role=dialog]') && enfocar()}>
      <Panel aria-label="Ticket">
        {/* A list of its lines; empty, only the hint (a listbox without options is not one). */}
        <Lineas {...(lineas.length ? { role: 'listbox', 'aria-label': 'Líneas del ticket' } : {})}>
          {lineas.length === 0 && <p style={{ color: '#64748b', margin: 10 }}>Escanee o busque un artículo.</p>}
          {lineas.map((l, i) => (
            <FilaLinea key={l.key} linea={l} indice={i} elegida={i === seleccion} onElegir={elegirLinea} onEditar={editarLinea} />
          ))}
        </Lineas>
        <Total>
          <span>Total</span>
          <output aria-label="Total del ticket">{formatMoney(totales.total)}</output>
        </Total>
        <Acciones>
          <TouchButton disabled={seleccion === null} onClick={() => seleccion !== null && lineas[seleccion].cantidad > 1000 && cambiarLinea(seleccion, { cantidad: lineas[seleccion].cantidad - 1000 })} aria-label="−1: una menos" title="Una menos">−1</TouchButton>
          <TouchButton disabled={seleccion === null} onClick={() => seleccion !== null && cambiarLinea(seleccion, { cantidad: lineas[seleccion].cantidad + 1000 })} aria-label="+1: una más" title="Una más">+1</TouchButton>
          <TouchButton disabled={seleccion === null} onClick={() => setDialogo('linea')}>Editar<kbd>F2</kbd></TouchButton>
          <TouchButton disabled={seleccion === null} onClick={() => seleccion !== null && quitarLinea(seleccion)}>Quitar</TouchButton>
          <TouchButton disabled={!lineas.length} onClick={() => void aparcar()}>Aparcar<kbd>F8</kbd></TouchButton>
          <TouchButton disabled={!aparcados.length} onClick={() => setDialogo('aparcados')}>Aparcados ({aparcados.length})</TouchButton>
          <TouchButton $tono="peligro" disabled={!lineas.length} onClick={() => window.confirm('¿Anular el ticket entero?') && anularTicket()}>Anular</TouchButton>
          <TouchButton $tono="ok" disabled={!lineas.length || !!limite} onClick={cobrar}>Cobrar<kbd>F12</kbd></TouchButton>
        </Acciones>
        {limite && <Aviso data-testid="supera-limite">{limite}</Aviso>}
        {limite && online && (
          <TouchButton $tono="primario" style={{ margin: '0 8px 8px' }} onClick={() => setDialogo('facturaVenta')}>
            Factura completa (F1)
          </TouchButton>
        )}
      </Panel>
      <Panel className="derecha" aria-label="Artículos">
        <div style={{ padding: 8 }}>
          <Campo
            ref={buscador}
            aria-label="Escanear o buscar artículo"
            placeholder="Escanear, código o nombre…"
            autoComplete="off"
            autoFocus
            value={texto}
            onChange={(e) => {
              setTexto(e.target.value);
              setActivo(0);
            }}
            onKeyDown={alTeclear}
          />
          {aviso && <Aviso>{aviso}</Aviso>}
        </div>
        {resultados.length > 0 ? (
          <Botonera role="listbox" aria-label="Resultados de la búsqueda">
            {resultados.map((a, i) => (
              <BotonArticulo key={a.id} role="option" aria-selected={i === activo} $color={i === activo ? '#fde68a' : '#f8fafc'} onClick={() => vender(a)}>
                {a.nombre}
                <span>{a.codigo} · {formatMoney(Math.round(a.precio / 100))}</span>
              </BotonArticulo>
            ))}
          </Botonera>
        ) : (
          <>
            {paginas.length > 1 && (
              <Pestañas role="tablist" aria-label="Páginas de botones">
                {paginas.map((p, i) => (
                  <TouchButton key={p.id ?? i} role="tab" aria-selected={i === pagina} $tono={i === pagina ? 'primario' : 'neutro'} onClick={() => setPagina(i)} style={{ background: i === pagina ? undefined : p.color ?? undefined }}>
                    {p.nombre}
                  </TouchButton>
                ))}
              </Pestañas>
            )}
            <Botonera aria-label={pag ? `Botones: ${pag.nombre}` : 'Botones'}>
              {botones.map(({ b, a }) => (
                <BotonArticulo key={b.posicion} $color={b.color} onClick={() => añadirArticulo(a!)}>
                  {b.etiqueta || a!.nombre}
                  <span>{formatMoney(Math.round(a!.precio / 100))}</span>
                </BotonArticulo>
              ))}
              {!botones.length && (
                <p style={{ color: '#64748b', margin: 8 }}>
                  {pag?.familia_id ? 'La familia no tiene artículos activos.' : 'Sin botones: se configuran en la gestión (Ventas › Botones TPV).'}
                </p>
              )}
            </Botonera>
          </>
        )}
        <Herramientas>
          <TouchButton onClick={() => setDialogo('devolucion')}>Devolución</TouchButton>
          <TouchButton
            onClick={() => {
              setFacturaDe(null);
              setDialogo('factura');
            }}
          >
            Factura completa<kbd>F3</kbd>
          </TouchButton>
          <TouchButton onClick={() => setDialogo('movimiento')}>Entrada / salida de caja</TouchButton>
          <TouchButton onClick={() => setDialogo('cierre')}>Cerrar caja</TouchButton>
          {ultimo && <TouchButton onClick={() => setDialogo('ticket')}>Último ticket</TouchButton>}
        </Herramientas>
      </Panel>
      <Suspense fallback={null}>
        {dialogo === 'cobro' && <Cobro total={totales.total} onCancelar={cerrar} onCobrado={() => setDialogo('ticket')} />}
        {dialogo === 'ticket' && ultimo && (
          <TicketImpreso
            ticket={ultimo}
            onCerrar={cerrar}
            onFacturar={(numero) => {
              setFacturaDe(numero);
              setDialogo('factura');
            }}
          />
        )}
        {dialogo === 'linea' && seleccion !== null && lineas[seleccion] && (
          <EditarLinea linea={lineas[seleccion]} unidad={indice.get(lineas[seleccion].articulo_id)?.unidad_medida} puedePrecio={puedePrecio} maxDescuento={maxDescuento} onGuardar={(p) => {
              cambiarLinea(seleccion, p);
              cerrar();
            }} onCancelar={cerrar} />
        )}
        {dialogo === 'aparcados' && (
          <Fondo onClick={cerrar}>
            <TouchDialog aria-label="Tickets aparcados" onClick={(e) => e.stopPropagation()}>
              <h2>Tickets aparcados</h2>
              {aparcados.length === 0 && <p>No hay tickets aparcados.</p>}
              <Fila>
                {aparcados.map((a) => (
                  <TouchButton key={a.id} autoFocus onClick={() => void recuperar(a.id).then(cerrar)}>
                    {new Date(a.fecha).toLocaleTimeString('es-ES', { hour: '2-digit', minute: '2-digit' })} · {a.lineas.length} líneas · {formatMoney(a.total)}
                  </TouchButton>
                ))}
              </Fila>
              <TouchButton style={{ marginTop: 12 }} onClick={cerrar}>Cerrar</TouchButton>
            </TouchDialog>
          </Fondo>
        )}
        {dialogo === 'devolucion' && <Devolucion onCerrar={cerrar} />}
        {dialogo === 'factura' && <FacturaCompleta numeroInicial={facturaDe} onCerrar={cerrar} />}
        {dialogo === 'facturaVenta' && <FacturaVenta onCerrar={cerrar} />}
        {dialogo === 'movimiento' && <Movimiento onCerrar={cerrar} />}
        {dialogo === 'cierre' && <Cierre onCerrar={cerrar} />}
      </Suspense>
    </Rejilla>
  );
}

/** One line of the ticket; memoised: its props change only when that line does (or its selection). */
const FilaLinea = memo(function FilaLinea(props: { linea: LineaVenta; indice: number; elegida: boolean; onElegir(i: number): void; onEditar(): void }) {
  const { linea: l, indice, onElegir, onEditar } = props;
  return (
    <div
      role="option"
      tabIndex={-1}
      aria-selected={props.elegida}
      onClick={() => onElegir(indice)}
      onDoubleClick={onEditar}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        onEditar();
      }}
    >
      <span className="nombre">{l.nombre}</span>
      <span className="importe">{formatMoney(importeLinea(l))}</span>
      <span className="detalle">
        {cantidadTexto(l.cantidad)} × {formatMoney(Math.round(l.precio / 100))}
        {l.descuento ? ` − ${formatDecimal(l.descuento, 2, 0)} %` : ''}
      </span>
    </div>
  );
});

function EditarLinea(props: {
  linea: LineaVenta;
  /** The article's unit of measure: by the unit («ud»), whole quantities only. */
  unidad?: string;
  puedePrecio: boolean;
  maxDescuento: number;
  onGuardar(p: Partial<Pick<LineaVenta, 'cantidad' | 'descuento' | 'precio'>>): void;
  onCancelar(): void;
}) {
  const { linea, puedePrecio, maxDescuento } = props;
  const [cantidad, setCantidad] = useState(formatDecimal(linea.cantidad, 3, 0));
  const [descuento, setDescuento] = useState(formatDecimal(linea.descuento, 2, 0));
  const [precio, setPrecio] = useState(formatDecimal(linea.precio, 4, 2));
  const [error, setError] = useState<string | null>(null);
  const guardar = () => {
    const c = parseDecimal(cantidad, 3);
    const d = parseDecimal(descuento || '0', 2);
    const p = parseDecimal(precio, 4);
    if (c === null || c <= 0n) return setError('La cantidad debe ser mayor que cero.');
    const fraccion = cantidadNoEntera(props.unidad, c, linea.nombre);
    if (fraccion) return setError(fraccion);
    if (d === null || d < 0n || d > 10000n) return setError('El descuento va de 0 a 100 %.');
    if (Number(d) > maxDescuento) return setError(`Su rol permite un descuento de hasta ${formatDecimal(maxDescuento, 2, 0)} %.`);
    if (p === null || p < 0n) return setError('Escriba un precio válido.');
    props.onGuardar({ cantidad: Number(c), descuento: Number(d), ...(puedePrecio ? { precio: Number(p) } : {}) });
  };
  return (
    <Fondo onClick={props.onCancelar}>
      <TouchDialog aria-label={`Editar ${linea.nombre}`} onClick={(e) => e.stopPropagation()} onKeyDown={(e) => {
          if (e.key === 'Escape') props.onCancelar();
          else if (e.key === 'Enter') {
            e.preventDefault();
            guardar();
          }
        }}
      >
        <h2>{linea.nombre}</h2>
        <label htmlFor="tpv-cantidad">Cantidad</label>
        <Campo id="tpv-cantidad" inputMode="decimal" autoFocus value={cantidad} onChange={(e) => setCantidad(e.target.value)} onFocus={(e) => e.target.select()} />
        <label htmlFor="tpv-descuento">Descuento (%)</label>
        <Campo id="tpv-descuento" inputMode="decimal" value={descuento} onChange={(e) => setDescuento(e.target.value)} onFocus={(e) => e.target.select()} />
        <label htmlFor="tpv-precio">Precio (€, IVA incluido)</label>
        <Campo id="tpv-precio" inputMode="decimal" value={precio} disabled={!puedePrecio} title={puedePrecio ? undefined : 'Su rol no permite cambiar el precio'} onChange={(e) => setPrecio(e.target.value)} onFocus={(e) => e.target.select()} />
        {!puedePrecio && <p style={{ color: '#64748b', margin: '4px 0 0' }}>Su rol no permite cambiar el precio.</p>}
        {error && <Aviso>{error}</Aviso>}
        <Fila style={{ marginTop: 14 }}>
          <TouchButton $tono="primario" onClick={guardar}>Aceptar</TouchButton>
          <TouchButton onClick={props.onCancelar}>Cancelar</TouchButton>
        </Fila>
      </TouchDialog>
    </Fondo>
  );
}
