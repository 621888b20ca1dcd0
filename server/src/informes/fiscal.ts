import { ESTADO_ENVIO_LABEL, IVA_RATE, RECARGO_RATE, claveRegimen, formatDecimal, formatMoney, numeroDocumento, operacionEfectiva, provinciaDeCodigoPostal } from 'shared/domain';
import type { DesgloseIva, EstadoEnvio, Operacion, TipoIva } from 'shared/domain';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { diaSiguiente, paginar, sumar } from './comun.ts';
import { TICKET_FUERA_DE_LIBROS } from './lineas-venta.ts';
import type { Fila, PaginaInforme, Respuesta } from './comun.ts';


/** '1T'..'4T' of a date. */
export const trimestre = (fecha: string) => `${Math.floor((Number(fecha.slice(5, 7)) - 1) / 3) + 1}T`;

const desglose = (json: string | null): DesgloseIva[] => {
  if (!json) return [];
  try {
    const d = JSON.parse(json) as DesgloseIva[];
    return Array.isArray(d) ? d : [];
  } catch {
    return [];
  }
};

const TIPOS_EXPEDIDAS = ['factura', 'rectificativa', 'ticket'];

type DocFiscal = {
  id: number;
  tipo: string;
  fecha: string;
  ejercicio: number;
  numero: number | null;
  serie: string | null;
  tipo_factura: string | null;
  cliente_id: number | null;
  nif: string | null;
  nombre: string | null;
  total: number;
  base: number;
  iva: number;
  recargo: number;
  retencion: number;
  retencion_importe: number;
  desglose: string | null;
  cobro_fecha: string | null;
  cobro_forma: string | null;
  factura_id: number | null;
  modo_rectificacion: string | null;
  fecha_operacion: string | null;
};

/**
 * The issued invoices of a period: facturas and rectificativas emitted (anuladas never were), tickets not cancelled
 * and not replaced by a full invoice (a Facturado ticket: its F3 carries the sale, counted once).
 */
async function expedidas(app: AppContext, desde: string, hasta: string, serieId?: number | null): Promise<DocFiscal[]> {
  const rows = await app.db
    .selectFrom('documentos as d')
    .leftJoin('clientes as c', 'c.id', 'd.cliente_id')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .select([
      'd.id', 'd.tipo', 'd.fecha', 'd.ejercicio', 'd.numero', 's.codigo as serie', 'd.tipo_factura', 'd.cliente_id', 'c.nif', 'c.razon_social as nombre',
      'd.total', 'd.base', 'd.iva', 'd.recargo', 'd.retencion', 'd.retencion_importe', 'd.desglose', 'd.cobro_fecha', 'd.cobro_forma', 'd.factura_id', 'd.modo_rectificacion',
      'd.fecha_operacion',
    ])
    .where('d.tipo', 'in', TIPOS_EXPEDIDAS)
    .where((eb) => eb.or([eb('d.estado', '=', 'emitida'), eb.and([eb('d.tipo', '=', 'ticket'), eb('d.estado', 'not in', [...TICKET_FUERA_DE_LIBROS])])]))
    .where('d.fecha', '>=', desde)
    .where('d.fecha', '<=', hasta)
    .$if(!!serieId, (q) => q.where('d.serie_id', '=', serieId!))
    .orderBy('d.fecha')
    .orderBy('s.codigo')
    .orderBy('d.numero')
    .execute();
  return rows.map((r) => ({
    ...r,
    ejercicio: Number(r.ejercicio),
    total: Number(r.total),
    base: Number(r.base),
    iva: Number(r.iva),
    recargo: Number(r.recargo),
    retencion: Number(r.retencion),
    retencion_importe: Number(r.retencion_importe),
    tipo_factura: r.tipo_factura ?? null,
    factura_id: r.factura_id ?? null,
    modo_rectificacion: r.modo_rectificacion ?? null,
    fecha_operacion: r.fecha_operacion ?? null,
    cobro_fecha: r.cobro_fecha ?? null,
    cobro_forma: r.cobro_forma ?? null,
  })) as DocFiscal[];
}

/**
 * Libro registro de facturas expedidas, as the AEAT's layout: one row per invoice and IVA rate (an invoice with two
 * rates has two rows repeating its identification and total), amounts in cents, rates in hundredths of a percent.
 */
export async function libroExpedidas(app: AppContext, f: { desde: string; hasta: string; serie_id?: number | null }, paging: PaginaInforme): Promise<Respuesta> {
  const docs = await expedidas(app, f.desde, f.hasta, f.serie_id);
  const filas: Fila[] = [];
  for (const d of docs) {
    const partes = desglose(d.desglose);
    const lineas = partes.length ? partes : [{ tipo_iva: 'exento' as TipoIva, base: d.base, iva: d.iva, recargo: d.recargo }];
    lineas.forEach((p, i) => {
      filas.push({
        clave: `${d.id}-${i + 1}`,
        documento_id: d.id,
        tipo: d.tipo,
        ejercicio: Number(d.fecha.slice(0, 4)),
        periodo: trimestre(d.fecha),
        fecha_expedicion: d.fecha,
        fecha_operacion: d.fecha_operacion ?? d.fecha,
        serie: d.serie,
        numero: d.numero,
        numero_factura: numeroDocumento(d.serie ?? '', d.ejercicio, d.numero),
        tipo_factura: d.tipo_factura,
        concepto: d.tipo === 'rectificativa' ? 'Rectificación' : 'Venta de bienes',
        estado: 'Emitida',
        nif_destinatario: d.nif,
        nombre_destinatario: d.nombre,
        // Issue 16: the group's operation and the ClaveRegimen it takes, as the record says them.
        clave_operacion: claveRegimen(operacionEfectiva(p)),
        calificacion: operacionEfectiva(p),
        total: d.base + d.iva + d.recargo,
        base: p.base,
        tipo_iva: Number(IVA_RATE[p.tipo_iva] ?? 0n),
        iva: p.iva,
        tipo_recargo: p.recargo ? Number(RECARGO_RATE[p.tipo_iva] ?? 0n) : 0,
        recargo: p.recargo,
        tipo_retencion: i === 0 ? d.retencion : 0,
        retencion: i === 0 ? d.retencion_importe : 0,
        cobro_fecha: d.cobro_fecha,
        cobro_importe: d.cobro_fecha && i === 0 ? d.total : null,
        cobro_medio: d.cobro_fecha ? d.cobro_forma : null,
      });
    });
  }
  // Issue 25: the cancelled invoices' numbers, so the correlative numbering shows whole: «Anulada», amounts 0, with
  // their anulación record (its date and state). Then every row in the book's order again (date, serie, number).
  const anuladas = await anuladasDe(app, f.desde, f.hasta, f.serie_id);
  for (const a of anuladas) filas.push(a);
  if (anuladas.length) {
    const k = (r: Fila) => `${r.fecha_expedicion}|${r.serie ?? ''}`;
    filas.sort((x, y) => (k(x) < k(y) ? -1 : k(x) > k(y) ? 1 : Number(x.numero ?? 0) - Number(y.numero ?? 0)));
  }
  const totales = {
    ...sumar(filas, ['base', 'iva', 'recargo', 'retencion']),
    total: docs.reduce((s, d) => s + d.base + d.iva + d.recargo, 0),
    documentos: docs.length,
    anuladas: anuladas.filter((r) => r.estado === 'Anulada').length,
    sustituidas: anuladas.filter((r) => r.estado === 'Sustituida').length,
  };
  // Page in the book's order (date, serie, number) unless asked otherwise (sorting the quarter's rows only then).
  if (!paging.orden) {
    const start = ((paging.pagina ?? 1) - 1) * (paging.porPagina ?? 50);
    return { RESULT: '0', data: filas.slice(start, start + (paging.porPagina ?? 50)), total: filas.length, totales };
  }
  const { data, total } = paginar(filas, paging, { orden: 'clave', dir: 'asc' });
  return { RESULT: '0', data, total, totales };
}

/** The numbered fiscal documents (facturas, rectificativas, tickets) of a serie and year. */
const TIPOS_NUMERADOS = ['factura', 'rectificativa', 'ticket'];
const ANULADA = ['anulada', 'anulado'];

/**
 * The cancelled invoices and tickets of a period that had a number (issued, then cancelled) as libro rows: «Anulada»,
 * every amount 0, with their anulación record (`anulacion_fecha`, its date; `anulacion_estado`, its submission state);
 * and the tickets replaced by a full invoice (Facturado): «Sustituida», every amount 0 (the F3 carries the sale), with
 * the F3's number (`sustituida_por`).
 */
async function anuladasDe(app: AppContext, desde: string, hasta: string, serieId?: number | null): Promise<Fila[]> {
  const docs = await app.db
    .selectFrom('documentos as d')
    .leftJoin('clientes as c', 'c.id', 'd.cliente_id')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .select(['d.id', 'd.tipo', 'd.estado', 'd.fecha', 'd.ejercicio', 'd.numero', 's.codigo as serie', 'd.serie_codigo', 'd.tipo_factura', 'c.nif', 'c.razon_social as nombre'])
    .where('d.tipo', 'in', TIPOS_NUMERADOS)
    .where((eb) => eb.or([eb('d.estado', 'in', ANULADA), eb.and([eb('d.tipo', '=', 'ticket'), eb('d.estado', '=', 'facturado')])]))
    .where('d.numero', 'is not', null)
    .where('d.fecha', '>=', desde)
    .where('d.fecha', '<=', hasta)
    .$if(!!serieId, (q) => q.where('d.serie_id', '=', serieId!))
    .execute();
  if (!docs.length) return [];
  const registros = new Map<number, { fecha: string; estado: string }>();
  const ids = docs.map((d) => d.id);
  // A Facturado ticket: the F3 (emitted) that replaces it carries the sale; its number is listed with the F3's.
  const sustitutas = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const fs = await app.db
      .selectFrom('documentos as f')
      .leftJoin('series as s', 's.id', 'f.serie_id')
      .select(['f.factura_id', 'f.ejercicio', 'f.numero', 's.codigo as serie'])
      .where('f.tipo', '=', 'factura')
      .where('f.estado', '=', 'emitida')
      .where('f.factura_id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const f of fs) if (f.factura_id) sustitutas.set(f.factura_id, numeroDocumento(f.serie ?? '', Number(f.ejercicio), f.numero));
  }
  for (let i = 0; i < ids.length; i += 500) {
    const rs = await app.db
      .selectFrom('registros_facturacion')
      .select(['documento_id', 'fecha_hora_huso', 'estado_envio'])
      .where('tipo', '=', 'anulacion')
      .where('documento_id', 'in', ids.slice(i, i + 500))
      .orderBy('id')
      .execute();
    for (const r of rs) registros.set(r.documento_id, { fecha: String(r.fecha_hora_huso).slice(0, 10), estado: r.estado_envio });
  }
  return docs.map((d) => {
    const serie = d.serie ?? d.serie_codigo ?? null;
    const r = registros.get(d.id);
    const f3 = d.tipo === 'ticket' && !ANULADA.includes(String(d.estado)) ? (sustitutas.get(d.id) ?? '') : null;
    return {
      clave: `${d.id}-anulada`,
      documento_id: d.id,
      tipo: d.tipo,
      ejercicio: Number(d.fecha.slice(0, 4)),
      periodo: trimestre(d.fecha),
      fecha_expedicion: d.fecha,
      fecha_operacion: null,
      serie,
      numero: d.numero,
      numero_factura: numeroDocumento(serie ?? '', Number(d.ejercicio), d.numero),
      tipo_factura: d.tipo_factura ?? null,
      concepto: f3 !== null ? `Sustituida por ${f3 || 'su factura completa'}` : 'Anulada',
      estado: f3 !== null ? 'Sustituida' : 'Anulada',
      sustituida_por: f3 || null,
      nif_destinatario: d.nif ?? null,
      nombre_destinatario: d.nombre ?? null,
      clave_operacion: null,
      calificacion: null,
      total: 0,
      base: 0,
      tipo_iva: null,
      iva: 0,
      tipo_recargo: 0,
      recargo: 0,
      tipo_retencion: 0,
      retencion: 0,
      cobro_fecha: null,
      cobro_importe: null,
      cobro_medio: null,
      anulacion_fecha: r?.fecha ?? null,
      anulacion_estado: r ? (ESTADO_ENVIO_LABEL[r.estado as EstadoEnvio] ?? r.estado) : null,
    };
  });
}

/** «n, a–b» of a sorted list of numbers (runs of consecutive ones joined). */
function tramos(ns: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length; ) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j]! + 1) j++;
    out.push(j === i ? String(ns[i]) : `${ns[i]}–${ns[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/**
 * Issue 25, «every number accounted for»: per serie and year (`ejercicio`), the correlative numbering of its invoices
 * and tickets — the first and last number given, how many stand issued, which were cancelled («Anulada» in the libro)
 * and which numbers no document holds (a gap: there should be none) —, one row per serie.
 */
export async function numeracionFacturas(app: AppContext, f: { ejercicio: number; serie_id?: number | null }, paging: PaginaInforme): Promise<Respuesta> {
  const { rows } = await sql<{ serie_id: number | null; serie: string | null; numero: number | string; estado: string }>`
    select d.serie_id, coalesce(s.codigo, d.serie_codigo) as serie, d.numero, d.estado
    from documentos d left join series s on s.id = d.serie_id
    where d.tipo in (${sql.join(TIPOS_NUMERADOS.map((t) => sql`${t}`))}) and d.ejercicio = ${f.ejercicio} and d.numero is not null
      ${f.serie_id ? sql`and d.serie_id = ${f.serie_id}` : sql``}`.execute(app.db);
  const series = new Map<string, { serie_id: number | null; serie: string | null; numeros: Map<number, number>; anuladas: number[] }>();
  for (const r of rows) {
    const k = String(r.serie_id ?? r.serie ?? '');
    const g = series.get(k) ?? { serie_id: r.serie_id, serie: r.serie, numeros: new Map<number, number>(), anuladas: [] as number[] };
    const n = Number(r.numero);
    g.numeros.set(n, (g.numeros.get(n) ?? 0) + 1);
    if (ANULADA.includes(r.estado)) g.anuladas.push(n);
    series.set(k, g);
  }
  const filas: Fila[] = [...series.values()].map((g) => {
    const ns = [...g.numeros.keys()].sort((a, b) => a - b);
    const ultimo = ns.at(-1) ?? 0;
    const huecos: number[] = [];
    for (let n = 1; n <= ultimo; n++) if (!g.numeros.has(n)) huecos.push(n);
    const anuladas = [...g.anuladas].sort((a, b) => a - b);
    return {
      clave: `${g.serie_id ?? g.serie}-${f.ejercicio}`,
      serie_id: g.serie_id,
      serie: g.serie,
      nombre: g.serie,
      ejercicio: f.ejercicio,
      primero: ns[0] ?? null,
      ultimo,
      numeros: ns.length,
      emitidas: ns.length - anuladas.length,
      anuladas: anuladas.length,
      numeros_anulados: tramos(anuladas),
      huecos: huecos.length,
      numeros_huecos: tramos(huecos),
      repetidos: [...g.numeros.values()].filter((c) => c > 1).length,
    };
  });
  const { data, total } = paginar(filas, paging, { orden: 'serie', dir: 'asc' });
  return { RESULT: '0', data, total, totales: sumar(filas, ['numeros', 'emitidas', 'anuladas', 'huecos', 'repetidos']) };
}

type FacturaRecibida = { id: number; proveedor_id: number; numero_proveedor: string; fecha: string; creado: string; total: number; base: number; iva: number; nif: string; nombre: string };

async function recibidas(app: AppContext, desde: string, hasta: string, proveedorId?: number | null) {
  const facturas = (await app.db
    .selectFrom('facturas_proveedor as fp')
    .innerJoin('proveedores as p', 'p.id', 'fp.proveedor_id')
    .select(['fp.id', 'fp.proveedor_id', 'fp.numero_proveedor', 'fp.fecha', 'fp.creado', 'fp.total', 'fp.base', 'fp.iva', 'p.nif', 'p.razon_social as nombre'])
    .where('fp.fecha', '>=', desde)
    .where('fp.fecha', '<=', hasta)
    .$if(!!proveedorId, (q) => q.where('fp.proveedor_id', '=', proveedorId!))
    .orderBy('fp.fecha')
    .orderBy('fp.id')
    .execute()) as FacturaRecibida[];
  // Each invoice's rates: its documents' desgloses (devoluciones negative).
  const porFactura = new Map<number, Map<TipoIva, { base: number; iva: number }>>();
  const ids = facturas.map((f) => f.id);
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await app.db
      .selectFrom('facturas_proveedor_documentos as fd')
      .innerJoin('documentos as d', 'd.id', 'fd.documento_id')
      .select(['fd.factura_id', 'd.tipo', 'd.desglose'])
      .where('fd.factura_id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const s = r.tipo === 'devolucioncompra' ? -1 : 1;
      const m = porFactura.get(r.factura_id) ?? new Map<TipoIva, { base: number; iva: number }>();
      for (const p of desglose(r.desglose)) {
        const e = m.get(p.tipo_iva) ?? { base: 0, iva: 0 };
        m.set(p.tipo_iva, { base: e.base + s * p.base, iva: e.iva + s * p.iva });
      }
      porFactura.set(r.factura_id, m);
    }
  }
  return facturas.map((f) => ({ ...f, total: Number(f.total), base: Number(f.base), iva: Number(f.iva), tipos: porFactura.get(f.id) ?? new Map() }));
}

/** Libro registro de facturas recibidas: the supplier invoices hcp recorded, one row per invoice and IVA rate. */
export async function libroRecibidas(app: AppContext, f: { desde: string; hasta: string; proveedor_id?: number | null }, paging: PaginaInforme): Promise<Respuesta> {
  const facturas = await recibidas(app, f.desde, f.hasta, f.proveedor_id);
  const filas: Fila[] = [];
  for (const fr of facturas) {
    const tipos = [...fr.tipos.entries()];
    const lineas: [TipoIva, { base: number; iva: number }][] = tipos.length ? tipos : [['21', { base: fr.base, iva: fr.iva }]];
    lineas.forEach(([tipo, v], i) => {
      filas.push({
        clave: `${fr.id}-${i + 1}`,
        factura_id: fr.id,
        proveedor_id: fr.proveedor_id,
        ejercicio: Number(fr.fecha.slice(0, 4)),
        periodo: trimestre(fr.fecha),
        numero_registro: fr.id,
        fecha_expedicion: fr.fecha,
        fecha_operacion: fr.fecha,
        fecha_registro: fr.creado.slice(0, 10),
        numero_factura: fr.numero_proveedor,
        nif_emisor: fr.nif,
        nombre_emisor: fr.nombre,
        clave_operacion: '01',
        total: fr.total,
        base: v.base,
        tipo_iva: Number(IVA_RATE[tipo] ?? 0n),
        iva: v.iva,
        iva_deducible: v.iva,
      });
    });
  }
  const totales = { ...sumar(filas, ['base', 'iva', 'iva_deducible']), total: facturas.reduce((s, x) => s + x.total, 0), documentos: facturas.length };
  const porPagina = paging.porPagina ?? 50;
  if (!paging.orden) {
    const start = ((paging.pagina ?? 1) - 1) * porPagina;
    return { RESULT: '0', data: filas.slice(start, start + porPagina), total: filas.length, totales };
  }
  const { data, total } = paginar(filas, paging, { orden: 'clave', dir: 'asc' });
  return { RESULT: '0', data, total, totales };
}

/** The quarter (or months) asked: `ejercicio` + `periodo` (1T-4T, or 01-12), else desde/hasta. */
export function periodoFiscal(ejercicio: number, periodo: string): { desde: string; hasta: string } {
  if (/^[1-4]T$/.test(periodo)) {
    const q = Number(periodo[0]);
    const m1 = (q - 1) * 3 + 1;
    const ultimo = new Date(Date.UTC(ejercicio, m1 + 2, 0)).toISOString().slice(0, 10);
    return { desde: `${ejercicio}-${String(m1).padStart(2, '0')}-01`, hasta: ultimo };
  }
  const m = Number(periodo);
  return { desde: `${ejercicio}-${String(m).padStart(2, '0')}-01`, hasta: new Date(Date.UTC(ejercicio, m, 0)).toISOString().slice(0, 10) };
}

type CasillaAdicional = '59' | '60' | '120' | '122';
/**
 * The «Información adicional» box of each operation that charges no IVA, as the 303 numbers them since Orden
 * HAC/646/2021 (which split the old box 61 into 120-124): [59] entregas intracomunitarias (E5, art. 25), [60]
 * exportaciones y operaciones asimiladas (E2-E4, arts. 21-24), [120] no sujetas por reglas de localización (N2),
 * [122] sujetas con inversión del sujeto pasivo (S2, the supplier's side). E1, E6 and N1 have no box.
 */
const CASILLA_ADICIONAL: Partial<Record<Operacion, CasillaAdicional>> = { E5: '59', E2: '60', E3: '60', E4: '60', N2: '120', S2: '122' };

const BOXES_IVA: Record<string, [string, string, string]> = { '4': ['01', '02', '03'], '10': ['04', '05', '06'], '21': ['07', '08', '09'] };
const BOXES_RECARGO: Record<string, [string, string, string]> = { '4': ['16', '17', '18'], '10': ['19', '20', '21'], '21': ['22', '23', '24'] };
type Bases = { base: number; iva: number; recargo: number; baseRecargo: number };
/** The 21 % boxes' base and IVA with tobacco's (issue 16: IVA 21 %, recargo 1,75 %). */
const conTabaco = (tipo: string, e: Bases, tabaco: Bases | undefined): Bases =>
  tipo === '21' && tabaco ? { ...e, base: e.base + tabaco.base, iva: e.iva + tabaco.iva } : e;

/**
 * Modelo 303 (régimen general), its boxes as the form numbers them: IVA devengado by rate [01]-[09] from the invoices
 * and tickets of the period, recargo de equivalencia [16]-[24], the rectificativas as «modificación de bases y cuotas»
 * [14]/[15] (and of recargo [25]/[26]; a rectificativa by substitution counts its difference with the invoice it
 * replaces), total devengado [27]; IVA deducible in current domestic operations [28]/[29] from the supplier invoices
 * recorded (hcp), total a deducir [45]; resultado [46] = [27] − [45], [64] = [46], [66] = [64] × 100 %, [69] = [66],
 * [71] = [69] (no compensations nor previous results are kept here). Información adicional (issue 16): the bases of
 * the lines that charge no IVA, by operation — [59] E5, [60] E2-E4, [120] N2, [122] S2 —, the rectificativas netted
 * into the same box; E1, E6 and N1 in one row without a box. Amounts in cents, rates in hundredths.
 */
export async function modelo303(app: AppContext, f: { desde: string; hasta: string }, incluirCompras: boolean): Promise<Respuesta> {
  const docs = await expedidas(app, f.desde, f.hasta);
  const bases = new Map<string, { base: number; iva: number; recargo: number; baseRecargo: number }>();
  let modBase = 0;
  let modCuota = 0;
  let modBaseRecargo = 0;
  let modRecargo = 0;
  // Issue 16: the operations that charge no IVA go to the «Información adicional» boxes they belong to.
  const adicional: Record<CasillaAdicional, number> = { '59': 0, '60': 0, '120': 0, '122': 0 };
  let sinCasilla = 0;
  // The invoices replaced by substitution rectificativas of the period.
  const sustituidas = docs.filter((d) => d.tipo === 'rectificativa' && d.modo_rectificacion === 'sustitucion' && d.factura_id).map((d) => d.factura_id!);
  const originales = new Map<number, string | null>();
  if (sustituidas.length) {
    const rs = await app.db.selectFrom('documentos').select(['id', 'desglose']).where('id', 'in', sustituidas).execute();
    for (const r of rs) originales.set(r.id, r.desglose);
  }
  /** A group without IVA charged: its box (netted by sign), or the total of those the 303 has no box for. */
  const sinIva = (p: DesgloseIva, s: number): boolean => {
    const op = operacionEfectiva(p);
    if (op === 'S1') return false;
    const c = CASILLA_ADICIONAL[op];
    if (c) adicional[c] += s * p.base;
    else sinCasilla += s * p.base;
    return true;
  };
  for (const d of docs) {
    const partes = desglose(d.desglose);
    if (d.tipo === 'rectificativa') {
      const sign = (ps: DesgloseIva[], s: number) => {
        for (const p of ps) {
          if (sinIva(p, s)) continue;
          modBase += s * p.base;
          modCuota += s * p.iva;
          if (p.recargo) {
            modBaseRecargo += s * p.base;
            modRecargo += s * p.recargo;
          }
        }
      };
      sign(partes, 1);
      if (d.modo_rectificacion === 'sustitucion' && d.factura_id) sign(desglose(originales.get(d.factura_id) ?? null), -1);
      continue;
    }
    for (const p of partes) {
      if (sinIva(p, 1)) continue;
      const e = bases.get(p.tipo_iva) ?? { base: 0, iva: 0, recargo: 0, baseRecargo: 0 };
      e.base += p.base;
      e.iva += p.iva;
      if (p.recargo) {
        e.baseRecargo += p.base;
        e.recargo += p.recargo;
      }
      bases.set(p.tipo_iva, e);
    }
  }
  const data: Fila[] = [];
  const casilla = (c: string, concepto: string, importe: number | null, porcentaje: number | null = null) =>
    data.push({ clave: c, casilla: c, concepto, importe, porcentaje });
  let devengado = 0;
  for (const tipo of ['4', '10', '21'] as const) {
    const [b, t, q] = BOXES_IVA[tipo]!;
    // Tobacco is IVA at 21 % (its recargo, 1,75 %, has boxes of its own, below).
    const e = conTabaco(tipo, bases.get(tipo) ?? { base: 0, iva: 0, recargo: 0, baseRecargo: 0 }, bases.get('tabaco'));
    casilla(b, `Régimen general ${tipo} %: base imponible`, e.base);
    casilla(t, `Régimen general ${tipo} %: tipo`, null, Number(IVA_RATE[tipo]));
    casilla(q, `Régimen general ${tipo} %: cuota`, e.iva);
    devengado += e.iva;
  }
  casilla('14', 'Modificación de bases y cuotas: base imponible', modBase);
  casilla('15', 'Modificación de bases y cuotas: cuota', modCuota);
  devengado += modCuota;
  for (const tipo of ['4', '10', '21'] as const) {
    const [b, t, q] = BOXES_RECARGO[tipo]!;
    const e = bases.get(tipo) ?? { base: 0, iva: 0, recargo: 0, baseRecargo: 0 };
    // In Spanish: «0,5 %», «5,2 %» (never «0.5 %»).
    const pct = formatDecimal(BigInt(RECARGO_RATE[tipo]), 2, 0);
    casilla(b, `Recargo de equivalencia ${pct} %: base imponible`, e.baseRecargo);
    casilla(t, `Recargo de equivalencia ${pct} %: tipo`, null, Number(RECARGO_RATE[tipo]));
    casilla(q, `Recargo de equivalencia ${pct} %: cuota`, e.recargo);
    devengado += e.recargo;
  }
  const tabaco = bases.get('tabaco');
  if (tabaco?.recargo) {
    casilla('156', 'Recargo de equivalencia 1,75 %: base imponible', tabaco.baseRecargo);
    casilla('157', 'Recargo de equivalencia 1,75 %: tipo', null, Number(RECARGO_RATE.tabaco));
    casilla('158', 'Recargo de equivalencia 1,75 %: cuota', tabaco.recargo);
    devengado += tabaco.recargo;
  }
  casilla('25', 'Modificación de bases y cuotas del recargo de equivalencia: base imponible', modBaseRecargo);
  casilla('26', 'Modificación de bases y cuotas del recargo de equivalencia: cuota', modRecargo);
  devengado += modRecargo;
  casilla('27', 'Total cuota devengada', devengado);
  let baseSoportada = 0;
  let cuotaSoportada = 0;
  if (incluirCompras) {
    for (const fr of await recibidas(app, f.desde, f.hasta)) {
      baseSoportada += fr.base;
      cuotaSoportada += fr.iva;
    }
  }
  casilla('28', 'Por cuotas soportadas en operaciones interiores corrientes: base', baseSoportada);
  casilla('29', 'Por cuotas soportadas en operaciones interiores corrientes: cuota', cuotaSoportada);
  casilla('45', 'Total a deducir', cuotaSoportada);
  const resultado = devengado - cuotaSoportada;
  casilla('46', 'Resultado régimen general', resultado);
  casilla('64', 'Suma de resultados', resultado);
  casilla('66', 'Atribuible a la Administración del Estado (100 %)', resultado);
  casilla('69', 'Resultado', resultado);
  casilla('71', 'Resultado de la liquidación', resultado);
  // Información adicional.
  casilla('59', 'Entregas intracomunitarias de bienes y servicios', adicional['59']);
  casilla('60', 'Exportaciones y operaciones asimiladas', adicional['60']);
  casilla('120', 'Operaciones no sujetas por reglas de localización (excepto las incluidas en la casilla 123)', adicional['120']);
  casilla('122', 'Operaciones sujetas con inversión del sujeto pasivo', adicional['122']);
  // Exempt under art. 20 or other causes (E1, E6) and not subject under arts. 7 and 14 (N1): no box of the 303 takes them.
  if (sinCasilla) data.push({ clave: 'sin-casilla', casilla: null, concepto: 'Exentas (art. 20 y otras causas) y no sujetas (arts. 7 y 14): sin casilla en el modelo 303', importe: sinCasilla, porcentaje: null });
  // Issue 25: purchases received in the period that no supplier invoice records yet deduct nothing (box 29 takes the
  // supplier invoices, hcp): the screen warns with how many there are and the IVA they carry (their stored amounts;
  // devoluciones negative).
  const sinFactura = (await sql<{ n: number | string; base: number | string | null; iva: number | string | null }>`
    select count(*) as n, sum(case when d.tipo = 'devolucioncompra' then -d.base else d.base end) as base,
      sum(case when d.tipo = 'devolucioncompra' then -d.iva else d.iva end) as iva
    from documentos d
    where d.tipo in ('albarancompra', 'devolucioncompra') and d.fecha >= ${f.desde} and d.fecha <= ${f.hasta}
      and not exists (select 1 from facturas_proveedor_documentos fd where fd.documento_id = d.id)`.execute(app.db)).rows[0];
  const albaranesSinFactura = Number(sinFactura?.n ?? 0);
  const ivaSinFactura = Number(sinFactura?.iva ?? 0);
  const message = albaranesSinFactura
    ? `El periodo tiene ${albaranesSinFactura === 1 ? '1 albarán de compra' : `${albaranesSinFactura.toLocaleString('es-ES')} albaranes de compra`} sin factura de proveedor registrada (base ${formatMoney(Number(sinFactura?.base ?? 0))}, IVA ${formatMoney(ivaSinFactura)}): ese IVA no se deduce en las casillas 28, 29 y 45 hasta registrar sus facturas en Compras › Facturas de proveedor.`
    : undefined;
  const baseDevengada = [...bases.values()].reduce((s, e) => s + e.base, 0) + modBase;
  const ivaDevengado = [...bases.values()].reduce((s, e) => s + e.iva, 0) + modCuota;
  const recargo = [...bases.values()].reduce((s, e) => s + e.recargo, 0) + modRecargo;
  return {
    RESULT: '0',
    data,
    total: data.length,
    totales: {
      base: baseDevengada, iva: ivaDevengado, recargo, devengado, deducible: cuotaSoportada, resultado,
      entregas_ue: adicional['59'], exportaciones: adicional['60'], no_sujetas_localizacion: adicional['120'], inversion_sujeto_pasivo: adicional['122'],
      exento: adicional['59'] + adicional['60'] + sinCasilla, sin_casilla: sinCasilla, desde: f.desde, hasta: f.hasta,
      albaranes_sin_factura: albaranesSinFactura, iva_sin_factura: ivaSinFactura,
    },
    ...(message ? { message } : {}),
  };
}

export const UMBRAL_347 = 300_506;

/**
 * Modelo 347: parties whose operations of the year exceed 3.005,06 € (IVA included), by quarter. Clave B (entregas):
 * customers' facturas and rectificativas (by substitution: the difference with the invoice replaced) emitted in the
 * year — not simplified ones (tickets, F2, R5), which name no recipient —, base + IVA + recargo; clave A (adquisiciones): the supplier invoices recorded (hcp), their
 * total as typed. NIF, name, province (the party's, else from its postcode) and its code (the postcode's first two digits).
 */
export async function modelo347(app: AppContext, f: { ejercicio: number; clave?: string | null }, paging: PaginaInforme, flags: { ventas: boolean; compras: boolean }): Promise<Respuesta> {
  const desde = `${f.ejercicio}-01-01`;
  const hasta = `${f.ejercicio}-12-31`;
  type Acc = { tipo: 'A' | 'B'; id: number; t: [number, number, number, number] };
  const acc = new Map<string, Acc>();
  const add = (tipo: 'A' | 'B', id: number, fecha: string, importe: number) => {
    const k = `${tipo}|${id}`;
    const a = acc.get(k) ?? { tipo, id, t: [0, 0, 0, 0] };
    a.t[Number(trimestre(fecha)[0]) - 1]! += importe;
    acc.set(k, a);
  };
  // Summed by party and month in the database (a year's invoices are read once, through the (tipo, fecha) index), the
  // quarters made here: the same documents and amounts as the libro de expedidas / recibidas count.
  const porMes = (r: { id: number | string; mes: string; importe: number | string }) => [Number(r.id), `${desde.slice(0, 4)}-${String(r.mes).padStart(2, '0')}-01`, Number(r.importe)] as const;
  if (flags.ventas && f.clave !== 'A') {
    // Simplified invoices (tickets, F2, and their R5) name no recipient the 347 could declare; a rectificativa by
    // substitution counts its difference with the invoice it replaces.
    const { rows } = await sql<{ id: number; mes: string; importe: number | string }>`
      select d.cliente_id as id, substr(d.fecha, 6, 2) as mes,
        sum(d.base + d.iva + d.recargo - (case when d.tipo = 'rectificativa' and d.modo_rectificacion = 'sustitucion' and o.id is not null then o.base + o.iva + o.recargo else 0 end)) as importe
      from documentos d left join documentos o on o.id = d.factura_id
      where d.tipo in ('factura', 'rectificativa') and d.estado = 'emitida' and d.fecha >= ${desde} and d.fecha <= ${hasta}
        and d.cliente_id is not null and (d.tipo_factura is null or d.tipo_factura not in ('F2', 'R5'))
      group by d.cliente_id, substr(d.fecha, 6, 2)`.execute(app.db);
    for (const r of rows) add('B', ...porMes(r));
  }
  if (flags.compras && f.clave !== 'B') {
    const { rows } = await sql<{ id: number; mes: string; importe: number | string }>`
      select proveedor_id as id, substr(fecha, 6, 2) as mes, sum(total) as importe from facturas_proveedor
      where fecha >= ${desde} and fecha <= ${hasta} group by proveedor_id, substr(fecha, 6, 2)`.execute(app.db);
    for (const r of rows) add('A', ...porMes(r));
  }
  const declarados = [...acc.values()].filter((a) => Math.abs(a.t.reduce((s, x) => s + x, 0)) > UMBRAL_347);
  const datos = new Map<string, { nif: string; nombre: string; provincia: string | null; codigo_postal: string | null }>();
  for (const [tabla, tipo] of [['clientes', 'B'], ['proveedores', 'A']] as const) {
    const ids = declarados.filter((a) => a.tipo === tipo).map((a) => a.id);
    for (let i = 0; i < ids.length; i += 500) {
      const rs = await app.db.selectFrom(tabla).select(['id', 'nif', 'razon_social', 'provincia', 'codigo_postal']).where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rs) datos.set(`${tipo}|${r.id}`, { nif: r.nif, nombre: r.razon_social, provincia: r.provincia, codigo_postal: r.codigo_postal });
    }
  }
  const filas: Fila[] = declarados.map((a) => {
    const d = datos.get(`${a.tipo}|${a.id}`);
    const cp = d?.codigo_postal ?? null;
    return {
      clave: `${a.tipo}|${a.id}`,
      clave_operacion: a.tipo,
      tercero: a.tipo === 'A' ? 'proveedor' : 'cliente',
      [a.tipo === 'A' ? 'proveedor_id' : 'cliente_id']: a.id,
      nif: d?.nif ?? null,
      nombre: d?.nombre ?? null,
      provincia: d?.provincia || provinciaDeCodigoPostal(cp),
      codigo_provincia: cp && /^\d{5}$/.test(cp) ? cp.slice(0, 2) : null,
      importe: a.t.reduce((s, x) => s + x, 0),
      t1: a.t[0],
      t2: a.t[1],
      t3: a.t[2],
      t4: a.t[3],
    };
  });
  const { data, total } = paginar(filas, paging, { orden: 'nombre', dir: 'asc' });
  const suma = (t: string) => filas.filter((r) => r.clave_operacion === t).reduce((s, r) => s + Number(r.importe), 0);
  // Issue 25: the totals row carries every column the rows have — the quarters too, which add up to the year.
  const porTrimestre = (k: 't1' | 't2' | 't3' | 't4') => filas.reduce((s, r) => s + Number(r[k]), 0);
  return {
    RESULT: '0',
    data,
    total,
    totales: {
      declarados: filas.length, importe: suma('A') + suma('B'), compras: suma('A'), ventas: suma('B'), umbral: UMBRAL_347,
      t1: porTrimestre('t1'), t2: porTrimestre('t2'), t3: porTrimestre('t3'), t4: porTrimestre('t4'),
    },
  };
}

/**
 * VERI*FACTU records of a period (by when they were written) as a control report: by state of submission (and kind),
 * or record by record with the AEAT's answer.
 */
export async function informeRegistros(
  app: AppContext,
  f: { desde: string; hasta: string; estado?: string | null; agrupar: 'estado' | 'registro' },
  paging: PaginaInforme,
): Promise<Respuesta> {
  const base = app.db
    .selectFrom('registros_facturacion as r')
    .where('r.creado', '>=', f.desde)
    .where('r.creado', '<', diaSiguiente(f.hasta))
    .$if(!!f.estado, (q) => q.where('r.estado_envio', '=', f.estado!));
  const cents = (v: string | null) => (v === null ? 0 : Math.round(Number(v) * 100));
  if (f.agrupar === 'registro') {
    const rows = await base
      .leftJoin('documentos as d', 'd.id', 'r.documento_id')
      .select(['r.id', 'r.documento_id', 'd.tipo as documento_tipo', 'r.tipo', 'r.num_serie', 'r.fecha_expedicion', 'r.tipo_factura', 'r.importe_total', 'r.cuota_total', 'r.estado_envio', 'r.codigo_error', 'r.descripcion_error', 'r.enviado', 'r.csv', 'r.creado'])
      .orderBy('r.id')
      .execute();
    const filas: Fila[] = rows.map((r) => ({
      clave: String(r.id),
      registro_id: r.id,
      documento_id: r.documento_id,
      documento_tipo: r.documento_tipo,
      tipo: r.tipo,
      num_serie: r.num_serie,
      fecha_expedicion: r.fecha_expedicion,
      tipo_factura: r.tipo_factura,
      importe: r.tipo === 'alta' ? cents(r.importe_total) : 0,
      cuota: r.tipo === 'alta' ? cents(r.cuota_total) : 0,
      estado: r.estado_envio,
      estado_nombre: ESTADO_ENVIO_LABEL[r.estado_envio as EstadoEnvio] ?? r.estado_envio,
      codigo_error: r.codigo_error ?? null,
      descripcion_error: r.descripcion_error ?? null,
      enviado: r.enviado ?? null,
      csv: r.csv ?? null,
      creado: r.creado,
    }));
    const { data, total } = paginar(filas, paging, { orden: 'registro_id', dir: 'asc' });
    return { RESULT: '0', data, total, totales: { registros: filas.length, altas: filas.filter((r) => r.tipo === 'alta').length, anulaciones: filas.filter((r) => r.tipo === 'anulacion').length, importe: filas.reduce((s, r) => s + Number(r.importe), 0) } };
  }
  // Summed in the base from the index of migration 0030 (a year of records read whole is their XML: 0,3 s at 90.000).
  // ImporteTotal is always written with two decimals (importeAeat), so its digits are its cents, exactly.
  const entero = app.dialect === 'postgres' ? sql`bigint` : sql`integer`;
  const rows = await base
    .select([
      'r.estado_envio',
      'r.tipo',
      sql<number>`count(*)`.as('n'),
      sql<string | number | null>`sum(cast(replace(r.importe_total, '.', '') as ${entero}))`.as('importe'),
    ])
    .groupBy(['r.estado_envio', 'r.tipo'])
    .execute();
  const grupos = new Map<string, Fila>();
  for (const r of rows) {
    const g = grupos.get(r.estado_envio) ?? { clave: r.estado_envio, estado: r.estado_envio, nombre: ESTADO_ENVIO_LABEL[r.estado_envio as EstadoEnvio] ?? r.estado_envio, registros: 0, altas: 0, anulaciones: 0, importe: 0 };
    g.registros = Number(g.registros) + Number(r.n);
    if (r.tipo === 'alta') {
      g.altas = Number(g.altas) + Number(r.n);
      g.importe = Number(g.importe) + Number(r.importe ?? 0);
    } else g.anulaciones = Number(g.anulaciones) + Number(r.n);
    grupos.set(r.estado_envio, g);
  }
  const filas = [...grupos.values()];
  const { data, total } = paginar(filas, paging, { orden: 'estado', dir: 'asc' });
  return { RESULT: '0', data, total, totales: sumar(filas, ['registros', 'altas', 'anulaciones', 'importe']) };
}
