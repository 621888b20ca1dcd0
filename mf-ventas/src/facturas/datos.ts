import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { MESSAGES, SERIE_TIPO_LABEL, operacionDelCliente, useListOptions, useShell, vencimientos, type ArticuloLinea, type Cliente, type Documento, type Operacion, type SelectOption, type Serie, type SerieTipo } from 'shared';

const POR_CODIGO = { orden: 'codigo', dir: 'asc' } as const;

/**
 * The series of some kinds (normal and simplificada for invoices, rectificativa) for the serie select:
 * the active ones, plus the one the document already has. `porDefecto` is the first active one of the
 * first kind (a new invoice starts in the normal serie).
 */
/**
 * A serie as its select offers it: 'A · Serie general', with its kind when several kinds are offered and its
 * description does not already say it ('T · Tickets (facturas simplificadas)', never «… (simplificada (tickets))»).
 */
export function serieLabel(s: Pick<Serie, 'codigo' | 'descripcion' | 'tipo' | 'activo'>, conTipo: boolean): string {
  const descripcion = s.descripcion?.trim() || SERIE_TIPO_LABEL[s.tipo];
  const plano = (t: string) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const dice = plano(descripcion).includes(plano(s.tipo));
  return `${s.codigo} · ${descripcion}${conTipo && !dice ? ` (${SERIE_TIPO_LABEL[s.tipo].toLowerCase()})` : ''}${s.activo ? '' : ' (inactiva)'}`;
}

export function useSeries(tipos: readonly SerieTipo[], actual?: string) {
  const list = useListOptions<Serie>('listadoseries', { params: POR_CODIGO, toOption: (s) => ({ value: String(s.id), label: s.codigo }) });
  const { rows, loading } = list;
  return useMemo(() => {
    const delTipo = rows.filter((s) => tipos.includes(s.tipo));
    // A TPV terminal's series are the till's own (issue 23): a back-office document is never numbered in them (the
    // lists still filter by them: `rows`).
    const propias = delTipo.filter((s) => !s.terminal || String(s.id) === actual);
    const options: SelectOption[] = propias
      .filter((s) => s.activo === 1 || String(s.id) === actual)
      .map((s) => ({
        value: String(s.id),
        label: serieLabel(s, tipos.length > 1),
      }));
    const activas = propias.filter((s) => s.activo === 1);
    const primera = tipos.map((t) => activas.find((s) => s.tipo === t)).find(Boolean);
    return { rows: delTipo, options, loading, porDefecto: primera ? String(primera.id) : '' };
  }, [rows, loading, tipos, actual]);
}

/**
 * A new document's required choice starts with the screen's value (its serie) whenever it is empty: the
 * form's starting value while nothing was touched (leaving asks nothing), else a change like the clerk's.
 */
export function useValorInicial(
  form: { values: Record<string, string>; dirty: boolean; reset: (v: Record<string, string>) => void; set: (campo: string, v: string) => void },
  isNew: boolean,
  campo: string,
  valor: string,
): void {
  const { values, dirty, reset, set } = form;
  useLayoutEffect(() => {
    if (!isNew || values[campo] || !valor) return;
    if (dirty) set(campo, valor);
    else reset({ ...values, [campo]: valor });
  }, [isNew, dirty, values, campo, valor, reset, set]);
}

/** What a sale's new lines take from its customer: the tariff's price, the discount, recargo de equivalencia. */
export type CondicionesCliente = Pick<
  Cliente,
  'id' | 'razon_social' | 'tarifa' | 'descuento' | 'recargo' | 'forma_pago' | 'retencion' | 'email' | 'operacion' | 'pais' | 'tipo_id' | 'codigo_postal'
>;

/** The operation a customer's new lines start with: its record's, else where it is (issue 25; the server decides the same). */
export function useOperacionCliente(c: CondicionesCliente | null): Operacion | null {
  const impuesto = useShell().config?.impuesto ?? 'iva';
  return c ? operacionDelCliente(c, impuesto) : null;
}

/** The price of an article in a customer's tariff (1: precio de venta, 2 and 3: its other tariffs). */
export function precioTarifa(a: ArticuloLinea, tarifa: number | null | undefined): bigint | undefined {
  const p = tarifa === 2 ? a.tarifa_2 : tarifa === 3 ? a.tarifa_3 : a.precio_venta;
  return p === undefined || p === null ? undefined : BigInt(p);
}

/**
 * The customer of a document: the one picked on the screen, else read by its id (a saved draft gets
 * new lines at the customer's prices too).
 */
export function useCliente(id: string, elegido: CondicionesCliente | null) {
  const { api } = useShell();
  const [leido, setLeido] = useState<CondicionesCliente | null>(null);
  const falta = id !== '' && elegido?.id !== Number(id) && leido?.id !== Number(id);
  useEffect(() => {
    if (!falta) return;
    let live = true;
    api
      .get<Cliente>('listadoclientes', { id })
      .then((res) => {
        if (live && res.RESULT === '0' && res.data?.[0]) setLeido(res.data[0]);
      })
      .catch(() => {
        // Without it, new lines start at the article's first tariff.
      });
    return () => {
      live = false;
    };
  }, [api, id, falta]);
  if (elegido && String(elegido.id) === id) return elegido;
  return leido && String(leido.id) === id ? leido : null;
}

/**
 * Where an emitted invoice stands with its payment (issue 17: what is left of its account): paid, overdue (the next
 * unpaid instalment's date passed), pending, or — a rectificativa whose credit is taken from what its invoice asks —
 * netted. `queda`: cents left (a refund owed, positive too).
 */
export type SituacionCobro = { estado: 'cobrada' | 'vencida' | 'pendiente' | 'descontada'; vencimientos: string[]; queda: number } | null;

export function situacionCobro(
  d: Pick<Documento, 'estado' | 'fecha' | 'forma_pago' | 'cobro_fecha' | 'total'> & Partial<Pick<Documento, 'por_cobrar' | 'plazos_cubiertos'>>,
  hoy: string,
): SituacionCobro {
  if (d.estado !== 'emitida') return null;
  const due = vencimientos(d.fecha, d.forma_pago);
  const queda = Math.abs(d.por_cobrar ?? (d.cobro_fecha ? 0 : d.total));
  if (d.cobro_fecha) return { estado: 'cobrada', vencimientos: due, queda: 0 };
  if (queda === 0) return { estado: 'descontada', vencimientos: due, queda };
  // Without a payment method it falls due on its date; the next instalment not yet paid.
  const limite = due[d.plazos_cubiertos ?? 0] ?? due.at(-1) ?? d.fecha;
  return { estado: limite < hoy ? 'vencida' : 'pendiente', vencimientos: due, queda };
}

/**
 * How a document's payment reads: an invoice's is its cobro; a rectificativa's, the refund paid out to the customer
 * (the same `cobro_fecha` / `cobro_forma`, `cobrarfactura` and list filter `cobro`).
 */
export type TextosCobro = {
  /** 'cobro' | 'reembolso', as a sentence says it. */
  nombre: string;
  titulo: string;
  estados: Record<NonNullable<SituacionCobro>['estado'], string>;
  /** The list filter's options. */
  filtro: { pendiente: string; vencida: string; cobrada: string };
  registrar: string;
  quitar: string;
  registrado: string;
};

export const TEXTOS_COBRO: Record<'factura' | 'rectificativa', TextosCobro> = {
  factura: {
    nombre: 'cobro',
    titulo: 'Cobro',
    estados: { cobrada: 'Cobrada', pendiente: 'Pendiente', vencida: 'Vencida', descontada: 'Sin importe' },
    filtro: { pendiente: 'Pendientes de cobro', vencida: 'Vencidas', cobrada: 'Cobradas' },
    registrar: 'Registrar cobro',
    quitar: 'Quitar cobro',
    registrado: MESSAGES.cobroRegistrado,
  },
  rectificativa: {
    nombre: 'reembolso',
    titulo: 'Reembolso',
    estados: { cobrada: 'Reembolsada', pendiente: 'Pendiente', vencida: 'Vencida', descontada: 'Descontada' },
    filtro: { pendiente: 'Pendientes de reembolso', vencida: 'Vencidas', cobrada: 'Reembolsadas' },
    registrar: 'Reembolsar',
    quitar: 'Quitar reembolso',
    registrado: MESSAGES.reembolsoRegistrado,
  },
};

export const textosCobro = (tipo: string): TextosCobro => (tipo === 'rectificativa' ? TEXTOS_COBRO.rectificativa : TEXTOS_COBRO.factura);
