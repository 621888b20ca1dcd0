import {
  Fragment,
  memo,
  useCallback,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type Dispatch,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import styled from 'styled-components';
import { useShell } from '../context';
import { usePermisos } from '../hooks/usePermisos';
import type { ListParams } from '../domain/api';
import { IMPUESTO_NOMBRE, TIPOS_POR_IMPUESTO, TIPO_IVA_LABEL, type Impuesto, type TipoIva } from '../domain/catalogo';
import { parseDecimal } from '../domain/decimal';
import { MOTIVOS_PERDIDA, MOTIVO_PERDIDA_LABEL, type DesgloseIva, type LineaModo, type MotivoPerdida, type Totales } from '../domain/documentos';
import { OPERACIONES, OPERACION_CORTA, OPERACION_LABEL, nombreGrupo, operacionEfectiva, operacionPorDefecto, type Operacion } from '../domain/operaciones';
import { decimalesPrecio, formatDecimal, formatMoney, formatPrecio } from '../domain/format';
import { MESSAGES } from '../domain/messages';
import type { SelectOption } from '../ui/fields';
import { decimalInputText } from '../ui/inputs';
import type { Theme } from '../ui/theme';
import {
  esModoAlmacen,
  esPegadoDeLineas,
  erroresPorLinea,
  importeLinea,
  lineaDesdeArticulo,
  parsearPegado,
  precioPorDefecto,
  totalesLineas,
  type ArticuloLinea,
  type DecimalValue,
  type LineaEditable,
  type LineasAction,
} from './lineas';

type T = { theme: Theme };

export type EditorLineasProps = {
  /** Column set: 'coste' (movimientos), 'recuento' (inventarios), 'perdida', 'venta', 'compra'. */
  modo: LineaModo;
  /** The lines and their reducer's dispatch (`useLineas` or `useDocumentEditor`). */
  lineas: LineaEditable[];
  dispatch: Dispatch<LineasAction>;
  /** The document can't be changed in its state: the lines show as text. */
  readOnly?: boolean;
  /** Locations offered per line (those of the document's warehouse); no column without them. */
  ubicaciones?: SelectOption[];
  /** Location of a new line (an inventory restricted to one location). */
  ubicacionPorDefecto?: number | null;
  /** Stock available of an article (thousandths) shown beside the quantity; keep it stable (useCallback). */
  disponible?: (articuloId: number) => number | null | undefined;
  /** Recuento: the 'Teórico' and 'Diferencia' columns. Default: when some line has its theoretical stock. */
  mostrarTeorico?: boolean;
  /** Errors keyed as the server's 400 (`lineas.3.cantidad`, `lineas`). */
  errores?: Record<string, string>;
  /** Fixed filters of the article search (activo: 1). */
  params?: ListParams;
  /** Unit price of a new line (the customer's tariff, the supplier's last price); default by mode. */
  precioArticulo?: (a: ArticuloLinea) => bigint | undefined;
  /** Discount of a new line, hundredths of a percent (the customer's); default 0. */
  descuentoPorDefecto?: number;
  /** Sales (issue 16): the customer's operation, a new line's unless its article has one. */
  operacionPorDefecto?: Operacion | null;
  /** Options of the totals (sales and purchases). */
  opcionesTotales?: { retencion?: number; recargo?: boolean };
  /**
   * The totals as the document stored them, shown instead of the lines' sum: a ticket's come from its prices with IVA
   * (`totalesTicket`), which the lines' net prices, rounded, may miss by a cent. Only for a read-only document.
   */
  totalesFijos?: Totales;
  /** Accessible name of the lines table. */
  titulo?: string;
};

const PHONE = '@media (max-width: 639px)';
/** Room below a focused field for the form's sticky action bar (two rows of buttons on a phone). */
const STICKY_BAR = '132px';

const StyledEditor = styled.div`
  display: flex;
  flex-direction: column;
  gap: 10px;
  min-width: 0;
  .wrap { overflow-x: auto; border: 1px solid ${({ theme }: T) => theme.gray[200]}; border-radius: ${({ theme }: T) => theme.radius}; background: #fff; }
  table { width: 100%; border-collapse: collapse; font-size: 14px; }
  th, td { padding: 6px 8px; border-bottom: 1px solid ${({ theme }: T) => theme.gray[100]}; text-align: left; vertical-align: top; }
  th { background: ${({ theme }: T) => theme.gray[50]}; font-size: 12px; text-transform: uppercase; letter-spacing: 0.03em; color: ${({ theme }: T) => theme.gray[600]}; white-space: nowrap; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  .n { width: 32px; color: ${({ theme }: T) => theme.gray[500]}; }
  .art .cod { font-weight: 600; }
  .art .desc { color: ${({ theme }: T) => theme.gray[600]}; font-size: 13px; }
  input, select { scroll-margin: 64px 0 ${STICKY_BAR}; font: inherit; padding: 5px 7px; min-height: 34px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; background: #fff; box-sizing: border-box; }
  input.dec { width: 96px; text-align: right; font-variant-numeric: tabular-nums; }
  select.operacion { width: 7.5em; }
  input[aria-invalid='true'], select[aria-invalid='true'] { border-color: ${({ theme }: T) => theme.danger}; }
  input:focus, select:focus { outline: 2px solid ${({ theme }: T) => theme.primary[300]}; border-color: ${({ theme }: T) => theme.primary[500]}; }
  .disp { display: block; font-size: 12px; color: ${({ theme }: T) => theme.gray[500]}; }
  .disp.neg { color: ${({ theme }: T) => theme.danger}; }
  .err { display: block; color: ${({ theme }: T) => theme.danger}; font-size: 12px; white-space: normal; }
  .acts { white-space: nowrap; text-align: right; }
  .acts button { font: inherit; min-width: 32px; min-height: 32px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; background: #fff; cursor: pointer; }
  .acts button:disabled { opacity: 0.35; cursor: default; }
  .acts button.del { color: ${({ theme }: T) => theme.danger}; border-color: #fecaca; }
  tr.nueva td { background: ${({ theme }: T) => theme.primary[50]}; }
  .empty { text-align: center; padding: 18px; color: ${({ theme }: T) => theme.gray[500]}; }
  ${PHONE} {
    .wrap { border: 0; background: transparent; overflow: visible; }
    thead { display: none; }
    table, tbody, tr, td { display: block; }
    tbody tr:not(.nueva) { border: 1px solid ${({ theme }: T) => theme.gray[200]}; border-radius: ${({ theme }: T) => theme.radius}; background: #fff; margin-bottom: 8px; padding: 6px 8px; }
    td { border: 0; padding: 4px 0; display: flex; justify-content: space-between; align-items: center; gap: 8px; text-align: right; }
    td[data-label]::before { content: attr(data-label); font-size: 12px; font-weight: 600; color: ${({ theme }: T) => theme.gray[600]}; text-align: left; }
    td.art { display: block; text-align: left; }
    td.n { display: none; }
    input.dec { width: 120px; }
  }
`;

const StyledEntry = styled.div`
  position: relative;
  input { width: 100%; min-height: 40px; scroll-margin: 64px 0 ${STICKY_BAR}; }
  .hint { font-size: 12px; color: ${({ theme }: T) => theme.gray[500]}; margin-top: 4px; }
  .popup { position: absolute; z-index: 20; left: 0; right: 0; margin: 4px 0 0; padding: 4px; background: #fff; border: 1px solid ${({ theme }: T) => theme.gray[300]}; border-radius: 6px; box-shadow: 0 10px 24px rgb(15 23 42 / 0.12); max-height: 300px; overflow-y: auto; }
  .option { padding: 7px 10px; border-radius: 4px; cursor: pointer; font-size: 14px; display: flex; gap: 10px; }
  .option[aria-selected='true'], .option:hover { background: ${({ theme }: T) => theme.primary[50]}; }
  .option .cod { font-weight: 600; min-width: 90px; }
  .option .nombre { flex: 1; }
  .option .cifra { white-space: nowrap; font-variant-numeric: tabular-nums; text-align: right; }
  .option .stock { color: ${({ theme }: T) => theme.gray[600]}; min-width: 80px; }
`;

const StyledTotals = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 6px 20px;
  font-size: 14px;
  color: ${({ theme }: T) => theme.gray[700]};
  dl { display: grid; grid-template-columns: auto auto; gap: 2px 14px; margin: 0; }
  dt { color: ${({ theme }: T) => theme.gray[500]}; }
  dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
  .total { font-weight: 700; color: ${({ theme }: T) => theme.gray[900]}; }
`;

const StyledMessage = styled.div<{ $tone: 'ok' | 'warning' }>`
  font-size: 14px;
  border-radius: 6px;
  padding: 8px 10px;
  ${({ $tone }) => ($tone === 'ok' ? 'background:#f0fdf4;border:1px solid #bbf7d0;color:#166534;' : 'background:#fffbeb;border:1px solid #fde68a;color:#78350f;')}
`;

type Campo = 'cantidad' | 'precio' | 'descuento' | 'tipo_iva' | 'operacion' | 'motivo' | 'ubicacion_id';

/** The editable fields of a line, in Tab order, by mode. */
function camposDe(modo: LineaModo, conUbicacion: boolean, precioFijo = false, sinImportes = false): Campo[] {
  const u: Campo[] = conUbicacion ? ['ubicacion_id'] : [];
  // A purchase line without ver_costes: no price nor discount to type (the server keeps the saved ones).
  if (modo === 'compra' && sinImportes) return [...u, 'cantidad', 'tipo_iva'];
  // A sale line's operation (issue 16) is reached with Tab, not Intro: typing S1 lines stays code, quantity, price.
  if (modo === 'venta' || modo === 'compra') return [...u, 'cantidad', ...(precioFijo ? [] : ['precio' as const]), 'descuento', 'tipo_iva'];
  if (modo === 'perdida') return [...u, 'cantidad', 'motivo'];
  return [...u, 'cantidad'];
}

const qty = (v: number | bigint) => formatDecimal(v, 3, 0);
const precio4 = (v: DecimalValue) => (typeof v === 'bigint' ? formatPrecio(v) : '');

type RowContext = {
  modo: LineaModo;
  readOnly: boolean;
  /** The user's role can't change a line's price (cambiar_precio): it shows, not typed. */
  precioFijo: boolean;
  /** Issue 24: a document at cost (purchases, the warehouse's) for a role without ver_costes: no price, discount, amount. */
  sinImportes: boolean;
  ubicaciones?: SelectOption[];
  mostrarTeorico: boolean;
  conPendiente: boolean;
  conDisponible: boolean;
  total: number;
  dispatch: Dispatch<LineasAction>;
  onKeyDown: (e: KeyboardEvent<HTMLElement>, key: string, campo: Campo) => void;
};

type NumCellProps = {
  value: DecimalValue;
  scale: number;
  minFraction: number;
  label: string;
  invalid: boolean;
  describedBy?: string;
  lineKey: string;
  campo: Campo;
  onValue: (v: DecimalValue) => void;
  onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => void;
};

/** A number typed the Spanish way inside a line, kept as a scaled integer (as DecimalField, without its label box). */
function NumCell({ value, scale, minFraction, label, invalid, describedBy, lineKey, campo, onValue, onKeyDown }: NumCellProps) {
  const [text, setText] = useState(() => decimalInputText(value, scale, minFraction));
  const [seen, setSeen] = useState(value);
  // A value changed from outside (a second scan adds 1) shows at once, unless the text already means it.
  if (value !== seen) {
    setSeen(value);
    if (typeof value !== 'string') {
      const typed = text.trim() === '' ? null : parseDecimal(text, scale);
      if (typed !== value) setText(decimalInputText(value, scale, minFraction));
    }
  }
  return (
    <input
      className="dec"
      inputMode="decimal"
      autoComplete="off"
      aria-label={label}
      aria-invalid={invalid || (typeof value === 'string' && value.trim() !== '')}
      aria-describedby={describedBy}
      data-linea={lineKey}
      data-campo={campo}
      value={text}
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => {
        const t = e.target.value;
        setText(t);
        if (t.trim() === '') return onValue(null);
        const parsed = parseDecimal(t, scale);
        onValue(parsed === null ? t : parsed);
      }}
      onBlur={() => {
        if (typeof value !== 'string') setText(decimalInputText(value, scale, minFraction));
      }}
      onKeyDown={onKeyDown}
    />
  );
}

type LineaRowProps = { linea: LineaEditable; index: number; ctx: RowContext; errores?: Record<string, string>; disponible?: number | null };

/** One line: redrawn only when its own line, position, errors or the editor's settings change. */
/** The company's tax's types, and a line's own when it is another's (a document from before a change). */
function opcionesTipo(impuesto: Impuesto, actual: TipoIva): SelectOption[] {
  const tipos = TIPOS_POR_IMPUESTO[impuesto];
  return [...tipos, ...(tipos.includes(actual) ? [] : [actual])].map((t) => ({ value: t, label: TIPO_IVA_LABEL[t] ?? t }));
}

const LineaRow = memo(function LineaRow({ linea, index, ctx, errores, disponible }: LineaRowProps) {
  const n = index + 1;
  const errId = useId();
  const { modo, readOnly, dispatch } = ctx;
  // Issue 16: the company's tax (IVA, IGIC, IPSI) names the column and gives the types offered.
  const impuesto = useShell().config?.impuesto ?? 'iva';
  const set = (patch: Partial<LineaEditable>) => dispatch({ type: 'update', key: linea.key, patch });
  /** The server's error, else the one seen while typing: letters in a number say so, not only a red border. */
  const err = (campo: string) => {
    const servidor = errores?.[campo];
    if (servidor) return servidor;
    const v = (linea as Record<string, unknown>)[campo];
    return (campo === 'cantidad' || campo === 'precio' || campo === 'descuento') && typeof v === 'string' && v.trim() !== '' ? MESSAGES.invalidNumber : undefined;
  };
  const errText = (campo: string) => {
    const e = err(campo);
    return e ? (
      <span className="err" id={`${errId}-${campo}`} role="alert">
        {e}
      </span>
    ) : null;
  };
  const num = (campo: 'cantidad' | 'precio' | 'descuento', scale: number, minFraction: number, label: string) => {
    const v = linea[campo];
    // A price shows two decimals like the amounts, or its four when it has them (never three).
    const decimales = campo === 'precio' && typeof v === 'bigint' ? decimalesPrecio(v) : minFraction;
    return readOnly || (campo === 'precio' && ctx.precioFijo) ? (
      <span>{typeof v === 'bigint' ? formatDecimal(v, scale, decimales) : ''}</span>
    ) : (
      <NumCell
        value={v}
        scale={scale}
        minFraction={decimales}
        label={`${label} de la línea ${n}`}
        invalid={!!err(campo)}
        describedBy={err(campo) ? `${errId}-${campo}` : undefined}
        lineKey={linea.key}
        campo={campo}
        onValue={(nuevo) => set({ [campo]: nuevo })}
        onKeyDown={(e) => ctx.onKeyDown(e, linea.key, campo)}
      />
    );
  };
  const select = (campo: 'tipo_iva' | 'operacion' | 'motivo' | 'ubicacion_id', label: string, options: SelectOption[], value: string, placeholder?: string) =>
    readOnly ? (
      <span>{options.find((o) => o.value === value)?.label ?? ''}</span>
    ) : (
      <select
        aria-label={`${label} de la línea ${n}`}
        aria-invalid={!!err(campo)}
        aria-describedby={err(campo) ? `${errId}-${campo}` : undefined}
        data-linea={linea.key}
        data-campo={campo}
        value={value}
        className={campo === 'operacion' ? 'operacion' : undefined}
        title={campo === 'operacion' ? OPERACION_LABEL[value as Operacion] : undefined}
        onKeyDown={campo === 'operacion' ? undefined : (e) => ctx.onKeyDown(e, linea.key, campo)}
        onChange={(e) => {
          const v = e.target.value;
          if (campo === 'ubicacion_id') set({ ubicacion_id: v ? Number(v) : null });
          else if (campo === 'motivo') set({ motivo: (v || null) as MotivoPerdida | null });
          else if (campo === 'operacion') set({ operacion: v as Operacion });
          else set({ tipo_iva: v as TipoIva });
        }}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} title={campo === 'operacion' ? OPERACION_LABEL[o.value as Operacion] : undefined}>
            {o.label}
          </option>
        ))}
      </select>
    );
  const venta = modo === 'venta' || modo === 'compra';
  /** Whether an error of `campo` shows in a cell of its own on this row. */
  const conCelda = (campo: string) =>
    campo === 'articulo_id' ||
    campo === 'cantidad' ||
    (campo === 'ubicacion_id' && !!ctx.ubicaciones) ||
    (campo === 'motivo' && modo === 'perdida') ||
    ((campo === 'precio' || campo === 'descuento') && venta);
  const cantidadLabel = modo === 'recuento' ? 'Contado' : 'Cantidad';
  const diferencia = linea.teorico !== null && typeof linea.cantidad === 'bigint' ? linea.cantidad - BigInt(linea.teorico) : null;

  return (
    <tr data-testid={`linea-${n}`}>
      <td className="n">{n}</td>
      <td className="art">
        <div className="cod">{linea.codigo}</div>
        <div className="desc">{linea.descripcion}</div>
        {errText('articulo_id')}
        {/* Errors about what has no cell of its own (origen_linea_id: the line it comes from) stay in sight here. */}
        {Object.keys(errores ?? {})
          .filter((campo) => !conCelda(campo))
          .map((campo) => (
            <Fragment key={campo}>{errText(campo)}</Fragment>
          ))}
      </td>
      {ctx.ubicaciones && (
        <td data-label="Ubicación">
          {select('ubicacion_id', 'Ubicación', ctx.ubicaciones, linea.ubicacion_id ? String(linea.ubicacion_id) : '', 'Sin ubicación')}
          {errText('ubicacion_id')}
        </td>
      )}
      {modo === 'recuento' && ctx.mostrarTeorico && (
        <td className="num" data-label="Teórico">
          {linea.teorico === null ? '—' : qty(linea.teorico)}
        </td>
      )}
      <td className="num" data-label={cantidadLabel}>
        {num('cantidad', 3, 0, cantidadLabel)}
        {ctx.conDisponible && disponible !== undefined && disponible !== null && (
          <span className={disponible < 0 ? 'disp neg' : 'disp'}>Disponible: {qty(disponible)}</span>
        )}
        {errText('cantidad')}
      </td>
      {modo === 'recuento' && ctx.mostrarTeorico && (
        <td className="num" data-label="Diferencia">
          {diferencia === null ? '—' : `${diferencia > 0n ? '+' : ''}${qty(diferencia)}`}
        </td>
      )}
      {ctx.conPendiente && (
        <td className="num" data-label="Pendiente">
          {qty(linea.pendiente ?? 0)}
        </td>
      )}
      {modo === 'perdida' && (
        <td data-label="Motivo">
          {select(
            'motivo',
            'Motivo',
            MOTIVOS_PERDIDA.map((m) => ({ value: m, label: MOTIVO_PERDIDA_LABEL[m] })),
            linea.motivo ?? '',
            'Seleccione…',
          )}
          {errText('motivo')}
        </td>
      )}
      {venta ? (
        <>
          {!ctx.sinImportes && (
            <>
              <td className="num" data-label="Precio">
                {num('precio', 4, 2, 'Precio')}
                {errText('precio')}
              </td>
              <td className="num" data-label="Dto. %">
                {num('descuento', 2, 0, 'Descuento')}
                {errText('descuento')}
              </td>
            </>
          )}
          <td data-label={IMPUESTO_NOMBRE[impuesto]}>{select('tipo_iva', IMPUESTO_NOMBRE[impuesto], opcionesTipo(impuesto, linea.tipo_iva), linea.tipo_iva)}</td>
          {modo === 'venta' && (
            <td data-label="Operación">
              {select('operacion', 'Operación', OPCIONES_OPERACION, operacionEfectiva(linea))}
              {errText('operacion')}
            </td>
          )}
        </>
      ) : (
        modo !== 'recuento' &&
        !ctx.sinImportes && (
          <td className="num" data-label="Coste">
            {precio4(linea.precio)}
          </td>
        )
      )}
      {modo !== 'recuento' && !ctx.sinImportes && (
        <td className="num" data-label="Importe">
          {formatMoney(importeLinea(linea))}
        </td>
      )}
      {!readOnly && (
        <td className="acts">
          <button type="button" aria-label={`Subir la línea ${n}`} title="Subir (Alt+↑)" disabled={index === 0} onClick={() => dispatch({ type: 'move', key: linea.key, delta: -1 })}>
            ↑
          </button>{' '}
          <button
            type="button"
            aria-label={`Bajar la línea ${n}`}
            title="Bajar (Alt+↓)"
            disabled={index === ctx.total - 1}
            onClick={() => dispatch({ type: 'move', key: linea.key, delta: 1 })}
          >
            ↓
          </button>{' '}
          <button type="button" className="del" aria-label={`Eliminar la línea ${n}`} title="Eliminar" onClick={() => dispatch({ type: 'remove', key: linea.key })}>
            ✕
          </button>
        </td>
      )}
    </tr>
  );
});

type Foco = { key: string; campo: Campo } | 'entrada' | null;

/**
 * Focus and bring into view: each scan adds a row above the entry and pushes it down, under the
 * form's sticky action bar unless it scrolls (its `scroll-margin-bottom` keeps it above the bar).
 */
function enfocar(el: HTMLElement | null) {
  if (!el) return;
  el.focus({ preventScroll: true });
  el.scrollIntoView?.({ block: 'nearest' });
}

const MAX_PARALELO = 4;

/**
 * The operation of a sale line, short («E5 · Exenta art. 25 (intracomunitaria)» would make the select, and the row, as
 * wide as its longest option: at 1366 px Importe and the row's buttons went off screen); the full name is each
 * option's and the select's title.
 */
const OPCIONES_OPERACION: SelectOption[] = OPERACIONES.map((o) => ({ value: o, label: `${o} · ${OPERACION_CORTA[o]}` }));

/**
 * A new line's price, discount and (sales) operation from the screen's defaults: the customer's tarifa and descuento;
 * the article's operation, else the customer's, else S1 (E1 for «exento»), as the server decides.
 */
function porDefecto(p: EditorLineasProps, a: ArticuloLinea): Partial<LineaEditable> {
  const precio = p.precioArticulo?.(a);
  return {
    ...(precio !== undefined ? { precio } : {}),
    ...(p.descuentoPorDefecto ? { descuento: BigInt(p.descuentoPorDefecto) } : {}),
    ...(p.modo === 'venta' ? { operacion: operacionPorDefecto(a.operacion, p.operacionPorDefecto, a.tipo_iva) } : {}),
  };
}

/** The lines editor's implementation, loaded with the first document screen (see EditorLineas.tsx). */
export default function EditorLineasImpl(props: EditorLineasProps) {
  const { modo, lineas, dispatch, readOnly = false, ubicaciones, disponible, errores, titulo = 'Líneas' } = props;
  const { api } = useShell();
  const rootRef = useRef<HTMLDivElement>(null);
  const entryRef = useRef<HTMLInputElement>(null);
  const foco = useRef<Foco>(null);
  const latest = useRef(props);
  latest.current = props;
  const [mensaje, setMensaje] = useState<{ tone: 'ok' | 'warning'; text: string } | null>(null);

  const permisos = usePermisos();
  const precioFijo = !permisos.tiene('cambiar_precio');
  // Issue 24: purchases and the warehouse's documents are valued at cost — without ver_costes the server answers no
  // prices nor amounts, and no column shows them (docs/derechos.md, «Costes»).
  const sinImportes = modo !== 'venta' && !permisos.tiene('ver_costes');
  const campos = useMemo(() => camposDe(modo, !!ubicaciones, precioFijo, sinImportes), [modo, ubicaciones, precioFijo, sinImportes]);
  const camposRef = useRef(campos);
  camposRef.current = campos;

  // After the lines change, the focus goes where the last keystroke asked (the new line's quantity, the entry).
  useLayoutEffect(() => {
    const f = foco.current;
    if (!f) return;
    if (f === 'entrada') {
      foco.current = null;
      enfocar(entryRef.current);
      return;
    }
    const el = rootRef.current?.querySelector<HTMLElement>(`[data-linea="${f.key}"][data-campo="${f.campo}"]`);
    if (el) {
      foco.current = null;
      enfocar(el);
    }
  });

  const focusField = useCallback((key: string, campo: Campo) => {
    enfocar(rootRef.current?.querySelector<HTMLElement>(`[data-linea="${key}"][data-campo="${campo}"]`) ?? null);
  }, []);

  const handleFieldKey = useCallback(
    (e: KeyboardEvent<HTMLElement>, key: string, campo: Campo) => {
      if (e.key === 'Enter') {
        // Never submits the surrounding form: the next field, or the next line after the last one;
        // Ctrl+Intro (⌘+Intro): this line is done, straight to the next one.
        e.preventDefault();
        if (e.ctrlKey || e.metaKey) return enfocar(entryRef.current);
        const list = camposRef.current;
        const i = list.indexOf(campo);
        if (i >= 0 && i < list.length - 1) focusField(key, list[i + 1]);
        else enfocar(entryRef.current);
      } else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
        e.preventDefault();
        foco.current = { key, campo };
        latest.current.dispatch({ type: 'move', key, delta: e.key === 'ArrowUp' ? -1 : 1 });
      }
    },
    [focusField],
  );

  const mostrarTeorico = props.mostrarTeorico ?? lineas.some((l) => l.teorico !== null);
  const conPendiente = readOnly && lineas.some((l) => (l.pendiente ?? 0) > 0);
  const conDisponible = !!disponible;
  const ctx = useMemo<RowContext>(
    () => ({ modo, readOnly, precioFijo, sinImportes, ubicaciones, mostrarTeorico, conPendiente, conDisponible, total: lineas.length, dispatch, onKeyDown: handleFieldKey }),
    [modo, readOnly, precioFijo, sinImportes, ubicaciones, mostrarTeorico, conPendiente, conDisponible, lineas.length, dispatch, handleFieldKey],
  );
  const { general, porLinea } = useMemo(() => erroresPorLinea(errores ?? {}), [errores]);

  /** A new line from an article (recuento: a second scan adds 1 to its line); then the focus goes to the entry or to its quantity. */
  const addArticulo = useCallback(
    (a: ArticuloLinea, siguiente: 'entrada' | 'cantidad') => {
      const p = latest.current;
      const nueva = lineaDesdeArticulo(a, p.modo, { ubicacion_id: p.ubicacionPorDefecto ?? null, ...porDefecto(p, a) });
      const sumar = p.modo === 'recuento';
      const existente = sumar ? p.lineas.find((l) => l.articulo_id === a.id && l.ubicacion_id === nueva.ubicacion_id) : undefined;
      const key = existente?.key ?? nueva.key;
      foco.current = siguiente === 'entrada' ? 'entrada' : { key, campo: 'cantidad' };
      p.dispatch({ type: 'add', lineas: [nueva], sumar });
      setMensaje(null);
    },
    [],
  );

  const buscarExacto = useCallback(
    async (code: string): Promise<ArticuloLinea | null> => {
      // `barras` answers the one article (barcode, else code) without paging; a page size outside 10/25/50/100 is a 400.
      const res = await api.get<ArticuloLinea>('listadoarticulos', { barras: code });
      return res.RESULT === '0' && res.data?.[0] ? res.data[0] : null;
    },
    [api],
  );

  const handlePaste = useCallback(
    async (text: string) => {
      const filas = parsearPegado(text);
      const malas = filas.filter((f) => f.cantidad === null || f.cantidad < 0n);
      const buenas = filas.filter((f) => f.cantidad !== null && f.cantidad >= 0n);
      const codigos = [...new Set(buenas.map((f) => f.codigo))];
      const encontrados = new Map<string, ArticuloLinea | null>();
      setMensaje({ tone: 'ok', text: `Buscando ${codigos.length} código${codigos.length === 1 ? '' : 's'}…` });
      // A few requests at a time: 200 pasted rows don't flood the server.
      let next = 0;
      const worker = async () => {
        while (next < codigos.length) {
          const c = codigos[next++];
          try {
            encontrados.set(c, await buscarExacto(c));
          } catch {
            encontrados.set(c, null);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(MAX_PARALELO, codigos.length) }, worker));
      const p = latest.current;
      const nuevas = buenas.flatMap((f) => {
        const a = encontrados.get(f.codigo);
        if (!a) return [];
        return [lineaDesdeArticulo(a, p.modo, { cantidad: f.cantidad, ubicacion_id: p.ubicacionPorDefecto ?? null, ...porDefecto(p, a) })];
      });
      if (nuevas.length) p.dispatch({ type: 'add', lineas: nuevas, sumar: p.modo === 'recuento' });
      const desconocidos = codigos.filter((c) => !encontrados.get(c));
      const partes = [`Se ${nuevas.length === 1 ? 'ha añadido 1 línea' : `han añadido ${nuevas.length} líneas`}.`];
      if (desconocidos.length)
        partes.push(
          desconocidos.length === 1
            ? `No se ha encontrado el código ${desconocidos[0]}.`
            : `No se han encontrado ${desconocidos.length} códigos: ${desconocidos.join(', ')}.`,
        );
      if (malas.length) partes.push(`Cantidad no válida en ${malas.length === 1 ? 'la fila' : 'las filas'} ${malas.map((m) => m.fila).join(', ')}.`);
      setMensaje({ tone: desconocidos.length || malas.length ? 'warning' : 'ok', text: partes.join(' ') });
    },
    [buscarExacto],
  );

  const totales = useMemo(() => props.totalesFijos ?? totalesLineas(lineas, modo, props.opcionesTotales), [props.totalesFijos, lineas, modo, props.opcionesTotales]);
  const unidades = useMemo(() => lineas.reduce((s, l) => s + (typeof l.cantidad === 'bigint' ? l.cantidad : 0n), 0n), [lineas]);
  const venta = !esModoAlmacen(modo);

  return (
    <StyledEditor ref={rootRef}>
      {general && (
        <span className="err" role="alert">
          {general}
        </span>
      )}
      <div className="wrap">
        <table aria-label={titulo}>
          <thead>
            <tr>
              <th className="n">#</th>
              <th>Artículo</th>
              {ubicaciones && <th>Ubicación</th>}
              {modo === 'recuento' && mostrarTeorico && <th className="num">Teórico</th>}
              <th className="num">{modo === 'recuento' ? 'Contado' : 'Cantidad'}</th>
              {modo === 'recuento' && mostrarTeorico && <th className="num">Diferencia</th>}
              {conPendiente && <th className="num">Pendiente</th>}
              {modo === 'perdida' && <th>Motivo</th>}
              {venta ? (
                <>
                  {!sinImportes && (
                    <>
                      <th className="num">Precio</th>
                      <th className="num">Dto. %</th>
                    </>
                  )}
                  <th>IVA</th>
                  {modo === 'venta' && <th>Operación</th>}
                </>
              ) : (
                modo !== 'recuento' && !sinImportes && <th className="num">Coste</th>
              )}
              {modo !== 'recuento' && !sinImportes && <th className="num">Importe</th>}
              {!readOnly && (
                <th className="acts">
                  <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>Acciones</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {lineas.map((l, i) => (
              <LineaRow key={l.key} linea={l} index={i} ctx={ctx} errores={porLinea.get(i)} disponible={disponible?.(l.articulo_id)} />
            ))}
            {lineas.length === 0 && readOnly && (
              <tr>
                <td className="empty" colSpan={99}>
                  No hay líneas
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {!readOnly && (
        <ArticleEntry
          inputRef={entryRef}
          params={props.params}
          buscarExacto={buscarExacto}
          precioDe={(a) => {
            const p = latest.current;
            const precio = porDefecto(p, a).precio;
            return precio !== undefined ? precio : precioPorDefecto(a, p.modo);
          }}
          onPick={addArticulo}
          onPaste={handlePaste}
          onUp={() => {
            const last = latest.current.lineas.at(-1);
            if (last) focusField(last.key, 'cantidad');
          }}
        />
      )}
      {mensaje && (
        <StyledMessage $tone={mensaje.tone} role={mensaje.tone === 'ok' ? 'status' : 'alert'}>
          {mensaje.text}
        </StyledMessage>
      )}
      <StyledTotals role="group" aria-label="Totales">
        <dl>
          <dt>Líneas</dt>
          <dd>{lineas.length.toLocaleString('es-ES')}</dd>
          <dt>Unidades</dt>
          <dd>{qty(unidades)}</dd>
        </dl>
        {sinImportes ? null : venta ? (
          <dl>
            {totales.desglose.map((d) => (
              <FragmentRate key={`${d.operacion ?? ''}${d.tipo_iva}`} grupo={d} />
            ))}
            <dt>Base imponible</dt>
            <dd>{formatMoney(totales.base)}</dd>
            <dt>IVA</dt>
            <dd>{formatMoney(totales.iva)}</dd>
            {/* Negative too (a rectificativa by differences): every figure the total adds up is shown. */}
            {totales.recargo !== 0 && (
              <>
                <dt>Recargo de equivalencia</dt>
                <dd>{formatMoney(totales.recargo)}</dd>
              </>
            )}
            {totales.retencion_importe !== 0 && (
              <>
                <dt>Retención</dt>
                <dd>{totales.retencion_importe > 0 ? `−${formatMoney(totales.retencion_importe)}` : formatMoney(-totales.retencion_importe)}</dd>
              </>
            )}
            <dt className="total">Total</dt>
            <dd className="total" data-testid="total">
              {formatMoney(totales.total)}
            </dd>
          </dl>
        ) : (
          modo !== 'recuento' && (
            <dl>
              <dt className="total">Valor al coste</dt>
              <dd className="total" data-testid="total">
                {formatMoney(totales.total)}
              </dd>
            </dl>
          )
        )}
      </StyledTotals>
    </StyledEditor>
  );
}

/** One group of the totals: a rate (S1), or an operation that charges no tax (issue 16). */
function FragmentRate({ grupo }: { grupo: DesgloseIva }) {
  const { base, iva, recargo } = grupo;
  return (
    <>
      <dt>Base {nombreGrupo(grupo, (t) => TIPO_IVA_LABEL[t as TipoIva])}</dt>
      <dd>
        {formatMoney(base)} · IVA {formatMoney(iva)}
        {recargo ? ` · R.E. ${formatMoney(recargo)}` : ''}
      </dd>
    </>
  );
}

type ArticleEntryProps = {
  inputRef: RefObject<HTMLInputElement | null>;
  params?: ListParams;
  buscarExacto: (code: string) => Promise<ArticuloLinea | null>;
  /** The unit price a line of the article would take (shown beside each suggestion). */
  precioDe: (a: ArticuloLinea) => DecimalValue;
  onPick: (a: ArticuloLinea, siguiente: 'entrada' | 'cantidad') => void;
  onPaste: (text: string) => Promise<void>;
  onUp: () => void;
};

/** Pause after the last keystroke before suggesting (a scanner types a whole code well within it). */
const SUGERIR_MS = 250;

/**
 * The "next line" box: a barcode, a code or words of the description. Suggestions appear as the
 * user types (code, barcode, description, accents ignored by the server's search); Intro looks the
 * text up exactly first (a scanned barcode), then adds the only match or opens the list of several.
 */
function ArticleEntry({ inputRef, params, buscarExacto, precioDe, onPick, onPaste, onUp }: ArticleEntryProps) {
  const { api } = useShell();
  const id = useId();
  const listId = `${id}-lista`;
  const [text, setText] = useState('');
  const [rows, setRows] = useState<ArticuloLinea[]>([]);
  const [buscado, setBuscado] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  // Reached with the arrows: the list opens with its first option highlighted, and the first ↓ lands on it.
  const [navegado, setNavegado] = useState(false);
  // 'sugerencia': shown while typing (Intro still looks the text up exactly); 'intro': the answer to Intro.
  const [origen, setOrigen] = useState<'sugerencia' | 'intro'>('intro');
  const [busy, setBusy] = useState(false);
  const [aviso, setAviso] = useState<string | null>(null);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const open = buscado !== null && rows.length > 0;
  const paramsKey = JSON.stringify(params ?? {});

  useLayoutEffect(() => () => clearTimeout(timer.current), []);

  const close = () => {
    setRows([]);
    setBuscado(null);
  };

  const mostrar = (found: ArticuloLinea[], q: string, de: 'sugerencia' | 'intro') => {
    setRows(found);
    setBuscado(q);
    setActive(0);
    setNavegado(false);
    setOrigen(de);
  };

  const pick = (a: ArticuloLinea, siguiente: 'entrada' | 'cantidad') => {
    // A newer lookup number: an answer still on its way is ignored, and the search is over.
    clearTimeout(timer.current);
    seq.current++;
    setBusy(false);
    setText('');
    close();
    setAviso(null);
    onPick(a, siguiente);
  };

  const buscarTexto = async (q: string) => {
    // The best matches first: a code or a description that starts with the text («torn» → Tornillo…, then Destornillador).
    const res = await api.get<ArticuloLinea>('listadoarticulos', { ...(JSON.parse(paramsKey) as ListParams), q, orden: 'relevancia', pagina: 1, porPagina: 10 });
    return res.RESULT === '0' ? (res.data ?? []) : [];
  };

  /** Suggestions while typing: never adds a line by itself. */
  const sugerir = (t: string) => {
    clearTimeout(timer.current);
    const q = t.trim();
    const my = ++seq.current;
    if (q === '') {
      setBusy(false);
      close();
      return;
    }
    timer.current = setTimeout(async () => {
      if (my !== seq.current) return;
      setBusy(true);
      try {
        const found = await buscarTexto(q);
        if (my !== seq.current) return;
        if (found.length === 0) close();
        else mostrar(found, q, 'sugerencia');
      } catch {
        // Intro still searches and says so if it fails.
      } finally {
        if (my === seq.current) setBusy(false);
      }
    }, SUGERIR_MS);
  };

  /** Intro: an exact barcode or code first; else the suggestion highlighted for this text, or a search. */
  const lookup = async (q: string, siguiente: 'entrada' | 'cantidad', resaltada: ArticuloLinea | null = null) => {
    clearTimeout(timer.current);
    const my = ++seq.current;
    setBusy(true);
    setAviso(null);
    try {
      // A barcode or a code: the article at once.
      const exacto = await buscarExacto(q);
      if (my !== seq.current) return;
      if (exacto) return pick(exacto, siguiente);
      // A suggestion was on screen, highlighted, for exactly this text: Intro takes it the first time.
      if (resaltada) return pick(resaltada, siguiente);
      const found = await buscarTexto(q);
      if (my !== seq.current) return;
      if (found.length === 1) return pick(found[0], 'cantidad');
      if (found.length === 0) {
        setAviso(`No se ha encontrado ningún artículo con «${q}»`);
        close();
        return;
      }
      mostrar(found, q, 'intro');
    } catch {
      if (my === seq.current) setAviso('No se ha podido buscar el artículo');
    } finally {
      if (my === seq.current) setBusy(false);
    }
  };

  const handleKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const q = text.trim();
    if (e.key === 'ArrowDown' && open) {
      e.preventDefault();
      const reached = navegado;
      setNavegado(true);
      if (reached) setActive((a) => Math.min(rows.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      if (open) {
        e.preventDefault();
        setNavegado(true);
        setActive((a) => Math.max(0, a - 1));
      } else if (q === '') {
        e.preventDefault();
        onUp();
      }
    } else if (e.key === 'Escape') {
      clearTimeout(timer.current);
      seq.current++;
      setBusy(false);
      close();
    } else if (e.key === 'Enter' || (e.key === 'Tab' && !e.shiftKey && q !== '')) {
      // Intro never submits the document's form; Tab with a code picks it and goes to its quantity;
      // Ctrl+Intro (⌘+Intro) adds it and stays here, for the next line.
      e.preventDefault();
      if (q === '') return;
      const quedarse = e.key === 'Enter' && (e.ctrlKey || e.metaKey);
      const siguiente = quedarse ? 'entrada' : e.key === 'Tab' ? 'cantidad' : open ? 'cantidad' : 'entrada';
      const vigente = open && buscado === q;
      // A highlighted option the user chose (or the list Intro opened): taken. Suggestions shown while
      // typing: a scanned code is still looked up exactly first, else the highlighted one is taken.
      if (vigente && (navegado || origen === 'intro')) return pick(rows[active], siguiente);
      void lookup(q, siguiente, vigente ? rows[active] : null);
    }
  };

  const handlePaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const clip = e.clipboardData.getData('text');
    if (!esPegadoDeLineas(clip)) return;
    e.preventDefault();
    void onPaste(clip);
  };

  return (
    <StyledEntry>
      <input
        ref={inputRef}
        type="search"
        role="combobox"
        aria-label="Añadir artículo"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        aria-describedby={`${id}-hint`}
        aria-busy={busy}
        placeholder="Código de barras, código o descripción del artículo…"
        autoComplete="off"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setAviso(null);
          sugerir(e.target.value);
        }}
        onKeyDown={handleKey}
        onPaste={handlePaste}
        onBlur={() => {
          clearTimeout(timer.current);
          close();
        }}
      />
      <div className="hint" id={`${id}-hint`}>
        {busy
          ? 'Buscando…'
          : 'Intro añade el artículo y sigue aquí; Tab lo añade y pasa a su cantidad; Ctrl+Intro, desde la lista o una línea, añade y sigue aquí. Puede pegar filas «código ⇥ cantidad» de una hoja de cálculo.'}
      </div>
      {aviso && (
        <div className="err" role="alert">
          {aviso}
        </div>
      )}
      {open && (
        <div className="popup" id={listId} role="listbox" aria-label="Artículos encontrados">
          {rows.map((r, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard users pick from the combobox input (arrows and Intro); the click is the pointer's way.
            // biome-ignore lint/a11y/useFocusableInteractive: options of an aria-activedescendant combobox never take the focus (WAI-ARIA combobox pattern).
            <div
              key={r.id}
              id={`${listId}-${i}`}
              role="option"
              className="option"
              aria-selected={i === active}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(r, 'cantidad')}
            >
              <span className="cod">{r.codigo}</span>
              <span className="nombre">{r.descripcion}</span>
              <span className="cifra" title="Precio unitario">
                {precio4(precioDe(r))}
              </span>
              {r.stock_total !== undefined && r.stock_total !== null && (
                <span className="cifra stock" title="Stock">
                  Stock {qty(r.stock_total)}
                </span>
              )}
            </div>
          ))}
        </div>
      )}
    </StyledEntry>
  );
}
