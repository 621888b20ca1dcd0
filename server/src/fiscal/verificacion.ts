import type { Kysely } from 'kysely';
import {
  DOCUMENTO_TIPOS,
  DOCUMENTO_TIPOS_FISCALES,
  RECARGO_RATE,
  calcularTotales,
  conArticulo,
  divRound,
  fechaAeat,
  importeAeat,
  impuestoDe,
  numeroDe,
  totalesTicket,
} from 'shared/domain';
import type { ComprobacionCadena, DesgloseIva, DocumentoTipo, EmisionDocumento, HuellaAlta, HuellaAnulacion, Impuesto, TipoFactura, TipoIva } from 'shared/domain';
import { desgloseXml } from 'shared/fiscal';
import type { Database } from '../db/schema.ts';
import { huellaDe, nifDeCadena } from './registro.ts';

/**
 * The one check of the billing records and the documents they record (docs/verifactu.md «Comprobar la cadena» and
 * «Restaurar una copia»; FAQ 15 of the AEAT's developers' questions). Run by `comprobarregistrosfacturacion` on the live
 * database and by `restaurarcopia` on the backup it is about to restore, before anything is deleted:
 *
 * - every issuer's records in their order: each one's huella recomputed from its stored columns and the previous
 *   record's huella, its XML read back for the same fields, and the chain's head compared with the last record;
 * - every issued fiscal document against its records (every alta of it, the subsanaciones too): its number, date, kind,
 *   per-rate desglose (base, tipo, cuota, recargo) and totals as the record's XML says them, its `emision` (issuer and
 *   recipient as printed) as the record names them, its customer the one the record names, its lines adding up to its
 *   desglose, an anulación naming it and its state «anulada»; and an issued fiscal document has a registro de alta.
 *
 * The first difference is reported in Spanish, naming the record or the document. Records are read a page at a time
 * from the database, so 20.000 of them take little memory. What the record cannot tell apart is not checked: two
 * sets of lines with the same per-rate bases and cuotas, the description text, a customer's later edits.
 */

export type RegistroFila = {
  id: number;
  emisor: string;
  orden: number;
  tipo: string;
  documento_id: number;
  num_serie: string;
  fecha_expedicion: string;
  tipo_factura: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  huella_anterior: string;
  huella: string;
  fecha_hora_huso: string;
  xml: string;
};

export type DocumentoFila = {
  id: number;
  tipo: string;
  serie_id: number | null;
  numero: number | null;
  ejercicio: number;
  fecha: string;
  estado: string;
  total: number;
  base: number;
  iva: number;
  recargo: number;
  retencion: number;
  retencion_importe: number;
  con_recargo: number;
  desglose: string | null;
  emision: string | null;
  tipo_factura: string | null;
  serie_codigo: string | null;
  cliente_id: number | null;
  /** The invoice a rectificativa corrects, or the ticket an F3 replaces. */
  factura_id: number | null;
};

export type LineaFila = {
  documento_id: number;
  tipo_iva: string;
  cantidad: number;
  precio: number;
  descuento: number;
  operacion: string | null;
  precio_iva: number | null;
};

/** What a document's check looks up beyond its own rows: its serie's code, and customers by id and by identifier. */
export type Terceros = {
  serie(id: number | null): string | null;
  nifCliente(id: number): string | null;
  clientePorNif(nif: string): number | null;
  /** Another document (the one a rectificativa corrects), when the check has it. */
  documento(id: number): DocumentoFila | undefined;
};

export type Rotura = NonNullable<ComprobacionCadena['rotura']>;
/** A document that is not what its records say: the record it is checked against (null: it has none) and why. */
export type Diferencia = { documento: DocumentoFila; nombre: { documento: string; numero: string }; registro: RegistroFila | null; motivo: string };

export const DOCUMENTO_COLUMNAS = [
  'id', 'tipo', 'serie_id', 'numero', 'ejercicio', 'fecha', 'estado', 'total', 'base', 'iva', 'recargo', 'retencion', 'retencion_importe', 'con_recargo',
  'desglose', 'emision', 'tipo_factura', 'serie_codigo', 'cliente_id', 'factura_id',
] as const;
export const LINEA_COLUMNAS = ['documento_id', 'tipo_iva', 'cantidad', 'precio', 'descuento', 'operacion', 'precio_iva'] as const;
export const REGISTRO_COLUMNAS = [
  'id', 'emisor', 'orden', 'tipo', 'documento_id', 'num_serie', 'fecha_expedicion', 'tipo_factura', 'cuota_total', 'importe_total', 'huella_anterior', 'huella',
  'fecha_hora_huso', 'xml',
] as const;

const unesc = (v: string) => v.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** The text of the first `<sf:name>` inside `xml` (unescaped), or null. */
function valor(xml: string, name: string): string | null {
  const m = new RegExp(`<sf:${name}>([^<]*)</sf:${name}>`).exec(xml);
  return m ? unesc(m[1]) : null;
}

function bloque(xml: string, name: string): string {
  return new RegExp(`<sf:${name}>([\\s\\S]*?)</sf:${name}>`).exec(xml)?.[1] ?? '';
}

/** Whether the record's XML says what its columns say (the fields of the hash, the link and its own huella). */
function xmlCoincide(r: RegistroFila): boolean {
  const emisor = nifDeCadena(r.emisor);
  const alta = r.tipo === 'alta';
  const id = bloque(r.xml, 'IDFactura');
  const sufijo = alta ? '' : 'Anulada';
  const enc = bloque(r.xml, 'Encadenamiento');
  const propia = /<sf:TipoHuella>01<\/sf:TipoHuella><sf:Huella>([^<]*)<\/sf:Huella>/.exec(r.xml)?.[1];
  const checks: [string | null | undefined, string | null][] = [
    [valor(id, `IDEmisorFactura${sufijo}`), emisor],
    [valor(id, `NumSerieFactura${sufijo}`), r.num_serie],
    [valor(id, `FechaExpedicionFactura${sufijo}`), r.fecha_expedicion],
    [valor(enc, 'Huella') ?? '', r.huella_anterior],
    [valor(r.xml, 'FechaHoraHusoGenRegistro'), r.fecha_hora_huso],
    [propia, r.huella],
  ];
  if (alta) {
    // TipoFactura / CuotaTotal / ImporteTotal appear once, outside the blocks read above.
    checks.push([valor(r.xml, 'TipoFactura'), r.tipo_factura], [valor(r.xml, 'CuotaTotal'), r.cuota_total], [valor(r.xml, 'ImporteTotal'), r.importe_total]);
  } else if (r.tipo !== 'anulacion') return false;
  return checks.every(([a, b]) => a === b);
}

function huellaRecalculada(r: RegistroFila): string {
  const emisor = nifDeCadena(r.emisor);
  if (r.tipo === 'alta') {
    const c: HuellaAlta = {
      IDEmisorFactura: emisor,
      NumSerieFactura: r.num_serie,
      FechaExpedicionFactura: r.fecha_expedicion,
      TipoFactura: (r.tipo_factura ?? '') as TipoFactura,
      CuotaTotal: r.cuota_total ?? '',
      ImporteTotal: r.importe_total ?? '',
      Huella: r.huella_anterior,
      FechaHoraHusoGenRegistro: r.fecha_hora_huso,
    };
    return huellaDe(c);
  }
  const c: HuellaAnulacion = {
    IDEmisorFacturaAnulada: emisor,
    NumSerieFacturaAnulada: r.num_serie,
    FechaExpedicionFacturaAnulada: r.fecha_expedicion,
    Huella: r.huella_anterior,
    FechaHoraHusoGenRegistro: r.fecha_hora_huso,
  };
  return huellaDe(c);
}

/** Why record `r` does not follow `previa` in its chain, or is not what its columns and XML say; null when it is right. */
export function roturaDeRegistro(r: RegistroFila, previa: Pick<RegistroFila, 'orden' | 'huella'> | null): string | null {
  const esperado = (previa?.orden ?? 0) + 1;
  if (r.orden !== esperado) return `Falta el registro número ${esperado} de la cadena: tras el ${esperado - 1} viene el ${r.orden}`;
  if (r.huella_anterior !== (previa?.huella ?? '')) return 'La huella anterior del registro no es la huella del registro anterior';
  if (!/^[0-9A-F]{64}$/.test(r.huella) || huellaRecalculada(r) !== r.huella) return 'La huella no corresponde a los datos del registro: el registro se ha modificado';
  if (!xmlCoincide(r)) return 'El XML del registro no coincide con sus datos: el registro se ha modificado';
  return null;
}

/** Why the chain's head does not point at its last record; null when it does. */
export function roturaDeCabeza(cabeza: { ultimo_orden: number; ultima_huella: string } | undefined, ultimo: RegistroFila | null): Rotura | null {
  if (!cabeza || (Number(cabeza.ultimo_orden) === (ultimo?.orden ?? 0) && cabeza.ultima_huella === (ultimo?.huella ?? ''))) return null;
  return {
    id: ultimo?.id ?? 0,
    orden: Number(cabeza.ultimo_orden),
    num_serie: ultimo?.num_serie ?? '',
    motivo: `La cadena termina en el registro ${ultimo?.orden ?? 0} pero su cabecera dice ${cabeza.ultimo_orden}: faltan registros o se han modificado`,
  };
}

/** 'la factura', 'A 2026/000001': how a message names a document. */
export function nombreDocumento(d: Pick<DocumentoFila, 'tipo' | 'ejercicio' | 'numero' | 'serie_codigo' | 'serie_id'>, serie: Terceros['serie']) {
  const def = DOCUMENTO_TIPOS[d.tipo as DocumentoTipo];
  if (!def) return { documento: 'el documento', numero: String(d.numero ?? '') };
  return { documento: conArticulo(def), numero: numeroDe(def, { ejercicio: Number(d.ejercicio), numero: d.numero, serie_codigo: d.serie_codigo ?? serie(d.serie_id) }) };
}

/** Upper-case letters and digits: how two spellings of one identifier compare (a country prefix aside). */
const limpio = (v: string | null | undefined) => (v ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
const mismoId = (a: string, b: string) => {
  const x = limpio(a);
  const y = limpio(b);
  return x === y || (x.length > 2 && x.slice(2) === y) || (y.length > 2 && y.slice(2) === x);
};
const corto = (v: string | null | undefined, max: number) => (v ?? '').trim().slice(0, max);

const IMPUESTOS: Record<string, Impuesto> = { '01': 'iva', '02': 'ipsi', '03': 'igic' };

/** A desglose as compared: its groups' rate, operation and amounts. */
const grupos = (d: readonly DesgloseIva[]) =>
  JSON.stringify(d.map((g) => [g.tipo_iva, g.operacion ?? null, Number(g.base), Number(g.iva), Number(g.recargo)]).sort());

/** The ticket's groups with the recargo a full invoice of it charges (facturarticket: half-up per group on each base). */
const conRecargoDe = (d: readonly DesgloseIva[]) =>
  d.map((p) => ({ ...p, recargo: (!p.operacion || p.operacion === 'S1') && p.iva !== 0 ? Number(divRound(BigInt(p.base) * RECARGO_RATE[p.tipo_iva], 10000n)) : 0 }));

/** Whether the lines make the stored desglose: as the back office totals them (net prices), or as the till does (prices with IVA). */
function lineasCuadran(d: DocumentoFila, lineas: readonly LineaFila[], desglose: readonly DesgloseIva[]): boolean {
  const esperado = grupos(desglose);
  const netas = lineas.map((l) => ({ ...l, tipo_iva: l.tipo_iva as TipoIva, operacion: (l.operacion ?? null) as never }));
  if (grupos(calcularTotales(netas, { retencion: Number(d.retencion ?? 0), recargo: Number(d.con_recargo) === 1 }).desglose) === esperado) return true;
  if (lineas.length && lineas.every((l) => l.precio_iva !== null && l.precio_iva !== undefined)) {
    const t = totalesTicket(lineas.map((l) => ({ ...l, tipo_iva: l.tipo_iva as TipoIva, precio: Number(l.precio_iva) }))).desglose;
    if (grupos(t) === esperado || grupos(conRecargoDe(t)) === esperado) return true;
  }
  return false;
}

const parse = <T>(json: string | null): T | null => {
  if (!json) return null;
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
};

/**
 * Why the issued document `d` is not what its records say (its altas and anulaciones, `registros`), or null. `lineas`:
 * all of its lines.
 */
export function diferenciaDeDocumento(d: DocumentoFila, lineas: readonly LineaFila[], registros: readonly RegistroFila[], t: Terceros): string | null {
  const altas = registros.filter((r) => r.tipo === 'alta');
  const anulaciones = registros.filter((r) => r.tipo === 'anulacion');
  if (!altas.length) return 'no tiene su registro de alta';
  const { numero } = nombreDocumento(d, t.serie);
  const desglose = parse<DesgloseIva[]>(d.desglose);
  if (!Array.isArray(desglose)) return 'su desglose de impuestos no se puede leer';
  const base = Number(d.base);
  const cuota = Number(d.iva) + Number(d.recargo);
  const suma = (k: 'base' | 'iva' | 'recargo') => desglose.reduce((s, g) => s + Number(g[k] ?? 0), 0);
  if (suma('base') !== base || suma('iva') !== Number(d.iva) || suma('recargo') !== Number(d.recargo)) return 'sus importes no son la suma de su desglose de impuestos';
  if (Number(d.total) !== base + cuota - Number(d.retencion_importe)) return 'su total no es base más impuestos menos retención';
  if (!lineasCuadran(d, lineas, desglose)) return 'sus líneas no suman su desglose de impuestos';
  const emision = parse<EmisionDocumento>(d.emision);
  for (const r of altas) {
    if (r.num_serie !== numero) return `su número no es el de su registro (${r.num_serie})`;
    if (r.fecha_expedicion !== fechaAeat(d.fecha)) return `su fecha no es la de su registro (${r.fecha_expedicion})`;
    if (d.tipo_factura && r.tipo_factura !== d.tipo_factura) return `su tipo de factura no es el de su registro (${r.tipo_factura})`;
    if (r.cuota_total !== importeAeat(cuota) || r.importe_total !== importeAeat(base + cuota)) return 'sus importes no son los de su registro';
    const impuesto = IMPUESTOS[valor(r.xml, 'Impuesto') ?? '01'] ?? 'iva';
    const esperado = desgloseXml({ desglose, conRecargo: Number(d.con_recargo) === 1, impuesto: impuestoDe(desglose, impuesto) });
    if (esperado !== `<sf:Desglose>${bloque(r.xml, 'Desglose')}</sf:Desglose>`) return 'su desglose de impuestos (bases, tipos, cuotas o recargo) no es el de su registro';
    const dest = bloque(r.xml, 'IDDestinatario');
    const idDest = dest ? (valor(dest, 'NIF') ?? valor(dest, 'ID') ?? '') : '';
    if (emision) {
      const em = emision.partes?.emisor ?? emision.emisor;
      if ((em.nif && limpio(em.nif) !== limpio(nifDeCadena(r.emisor))) || corto(em.nombre, 120) !== corto(valor(r.xml, 'NombreRazonEmisor'), 120)) {
        return 'el emisor que imprime no es el de su registro';
      }
      const receptor = emision.partes?.destinatario ?? emision.destinatario;
      if (dest) {
        if (!receptor || corto(receptor.nombre, 120) !== corto(valor(dest, 'NombreRazon'), 120) || !mismoId(receptor.nif ?? '', idDest)) {
          return 'el cliente que imprime no es el de su registro';
        }
      } else if (emision.destinatario?.nif) return 'el cliente que imprime no es el de su registro';
    }
    // The invoice it corrects (or the ticket it replaces): one the record names.
    const ref = d.factura_id === null ? undefined : t.documento(d.factura_id);
    const nombradas = [...r.xml.matchAll(/<sf:IDFactura(?:Rectificada|Sustituida)>([\s\S]*?)<\/sf:IDFactura(?:Rectificada|Sustituida)>/g)].map((m) => valor(m[1], 'NumSerieFactura'));
    if (ref && nombradas.length && !nombradas.includes(nombreDocumento(ref, t.serie).numero)) return 'la factura que rectifica o sustituye no es la que dice su registro';
    // The customer it is filed under: the one with the record's identifier, when the data hold one (a customer's NIF
    // corrected after the invoice, held by nobody else, is no difference).
    if (dest && d.cliente_id !== null) {
      const suyo = t.nifCliente(d.cliente_id);
      const otro = limpio(idDest) ? t.clientePorNif(limpio(idDest)) : null;
      if (!mismoId(suyo ?? '', idDest) && otro !== null && otro !== d.cliente_id) return 'su cliente no es el de su registro';
    }
  }
  for (const r of anulaciones) {
    if (r.num_serie !== numero || r.fecha_expedicion !== fechaAeat(d.fecha)) return `su registro de anulación es de otra factura (${r.num_serie})`;
  }
  if (anulaciones.length && d.estado !== 'anulada') return 'tiene registro de anulación y no está anulada';
  if (!anulaciones.length && d.estado === 'anulada') return 'está anulada y no tiene registro de anulación';
  return null;
}

const esFiscal = (d: Pick<DocumentoFila, 'tipo' | 'numero'>) => d.numero !== null && (DOCUMENTO_TIPOS_FISCALES as readonly string[]).includes(d.tipo);

/** The check of every chain and every issued document, from wherever the rows come (the database, a backup). */
type Fuente = {
  emisores(): Promise<string[]>;
  cabeza(emisor: string): Promise<{ ultimo_orden: number; ultima_huella: string } | undefined>;
  total(emisor: string): Promise<number>;
  /** Records of `emisor` after `desde`, in order, at most `limite`. */
  registros(emisor: string, desde: number, limite: number): Promise<RegistroFila[]>;
  /** The documents with these ids, their lines and all their records. */
  documentos(ids: number[]): Promise<{ docs: DocumentoFila[]; lineas: LineaFila[]; registros: RegistroFila[] }>;
  /** Issued fiscal documents without any registro de alta. */
  sinAlta(): Promise<DocumentoFila[]>;
  terceros: Terceros;
  /** The company's NIF (where a document without records is reported). */
  nif(): Promise<string>;
};

export type Comprobacion = ComprobacionCadena & { emisor: string; diferencia?: Diferencia };

const PAGINA = 2000;

function agrupar<T, K>(rows: readonly T[], clave: (r: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const r of rows) {
    const k = clave(r);
    const l = m.get(k);
    if (l) l.push(r);
    else m.set(k, [r]);
  }
  return m;
}

async function comprobarEmisor(f: Fuente, emisor: string, vistos: Set<number>): Promise<Comprobacion> {
  const total = await f.total(emisor);
  const cabeza = await f.cabeza(emisor);
  const resultado = (rotura: Rotura | null, diferencia?: Diferencia): Comprobacion => ({ emisor, total, correcto: rotura === null, rotura, ...(diferencia ? { diferencia } : {}) });
  let previa: RegistroFila | null = null;
  let desde = 0;
  for (;;) {
    const filas = await f.registros(emisor, desde, PAGINA);
    for (const r of filas) {
      const motivo = roturaDeRegistro(r, previa);
      if (motivo) return resultado({ id: r.id, orden: r.orden, num_serie: r.num_serie, motivo });
      previa = r;
    }
    // The documents these records are of, each once, against all of its records.
    const ids = [...new Set(filas.map((r) => r.documento_id))].filter((id) => !vistos.has(id));
    if (ids.length) {
      const { docs, lineas, registros } = await f.documentos(ids);
      const porDoc = agrupar(lineas, (l) => Number(l.documento_id));
      const regs = agrupar(registros, (r) => Number(r.documento_id));
      const encontrados = new Set(docs.map((d) => Number(d.id)));
      const huerfano = filas.find((r) => !encontrados.has(r.documento_id) && !vistos.has(r.documento_id));
      if (huerfano) return resultado({ id: huerfano.id, orden: huerfano.orden, num_serie: huerfano.num_serie, motivo: 'El registro es de un documento que no existe' });
      for (const d of [...docs].sort((a, b) => a.id - b.id)) {
        vistos.add(Number(d.id));
        const suyos = regs.get(Number(d.id)) ?? [];
        const motivo = esFiscal(d) ? diferenciaDeDocumento(d, porDoc.get(Number(d.id)) ?? [], suyos, f.terceros) : 'no es una factura emitida';
        if (motivo) {
          const nombre = nombreDocumento(d, f.terceros.serie);
          const r = suyos.find((x) => x.emisor === emisor) ?? suyos[0];
          const texto = `${nombre.documento.charAt(0).toUpperCase()}${nombre.documento.slice(1)} ${nombre.numero} no es lo que dice su registro: ${motivo}`;
          return resultado({ id: r.id, orden: r.orden, num_serie: r.num_serie, motivo: texto }, { documento: d, nombre, registro: r, motivo });
        }
      }
    }
    if (filas.length < PAGINA) break;
    desde = filas[filas.length - 1].orden;
  }
  // The head must point at the last record: records missing at the end (or a head moved by hand) show here.
  return resultado(roturaDeCabeza(cabeza, previa));
}

async function comprobarTodo(f: Fuente): Promise<Comprobacion[]> {
  const out: Comprobacion[] = [];
  const vistos = new Set<number>();
  for (const e of await f.emisores()) out.push(await comprobarEmisor(f, e, vistos));
  const [sinAlta] = (await f.sinAlta()).sort((a, b) => a.id - b.id);
  if (sinAlta) {
    const nif = await f.nif();
    const nombre = nombreDocumento(sinAlta, f.terceros.serie);
    const motivo = 'no tiene su registro de alta';
    const rotura = { id: 0, orden: 0, num_serie: nombre.numero, motivo: `${nombre.documento.charAt(0).toUpperCase()}${nombre.documento.slice(1)} ${nombre.numero} ${motivo}` };
    const diferencia = { documento: sinAlta, nombre, registro: null, motivo };
    const suya = out.find((c) => c.emisor === nif && c.correcto);
    if (suya) Object.assign(suya, { correcto: false, rotura, diferencia });
    else if (!out.some((c) => !c.correcto)) out.push({ emisor: nif, total: 0, correcto: false, rotura, diferencia });
  }
  return out;
}

const numeros = <T extends Record<string, unknown>>(r: T, cols: readonly string[]) => {
  const x = { ...r } as Record<string, unknown>;
  for (const c of cols) if (x[c] !== null && x[c] !== undefined) x[c] = Number(x[c]);
  return x as T;
};
const NUM_DOC = ['id', 'serie_id', 'numero', 'ejercicio', 'total', 'base', 'iva', 'recargo', 'retencion', 'retencion_importe', 'con_recargo', 'cliente_id', 'factura_id'];
const NUM_LINEA = ['documento_id', 'cantidad', 'precio', 'descuento', 'precio_iva'];
const NUM_REG = ['id', 'orden', 'documento_id'];

/** Every issuer's chain and every issued document in the live database (`comprobarregistrosfacturacion`). */
export async function comprobarCadenas(db: Kysely<Database>): Promise<(ComprobacionCadena & { emisor: string })[]> {
  const series = new Map((await db.selectFrom('series').select(['id', 'codigo']).execute()).map((s) => [Number(s.id), s.codigo]));
  const clientes = await db.selectFrom('clientes').select(['id', 'nif']).execute();
  const nifs = new Map(clientes.map((c) => [Number(c.id), c.nif]));
  const porNif = new Map(clientes.map((c) => [limpio(c.nif), Number(c.id)]));
  const referidos = new Map<number, DocumentoFila>();
  const fuente: Fuente = {
    async emisores() {
      const cabezas = await db.selectFrom('registros_cadena').select('emisor').execute();
      const conRegistros = await db.selectFrom('registros_facturacion').select('emisor').distinct().execute();
      return [...new Set([...cabezas, ...conRegistros].map((r) => r.emisor))].sort();
    },
    cabeza: (emisor) => db.selectFrom('registros_cadena').select(['ultimo_orden', 'ultima_huella']).where('emisor', '=', emisor).executeTakeFirst(),
    async total(emisor) {
      const { n } = await db.selectFrom('registros_facturacion').select((eb) => eb.fn.countAll<number>().as('n')).where('emisor', '=', emisor).executeTakeFirstOrThrow();
      return Number(n);
    },
    async registros(emisor, desde, limite) {
      const rows = await db.selectFrom('registros_facturacion').select(REGISTRO_COLUMNAS).where('emisor', '=', emisor).where('orden', '>', desde).orderBy('orden').limit(limite).execute();
      return rows.map((r) => numeros(r, NUM_REG) as RegistroFila);
    },
    async documentos(ids) {
      const docs: DocumentoFila[] = [];
      const lineas: LineaFila[] = [];
      const registros: RegistroFila[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const parte = ids.slice(i, i + 500);
        const estos = (await db.selectFrom('documentos').select(DOCUMENTO_COLUMNAS).where('id', 'in', parte).execute()).map((d) => numeros(d, NUM_DOC) as DocumentoFila);
        docs.push(...estos);
        // The documents they correct or replace (their numbers).
        const refs = [...new Set(estos.map((d) => d.factura_id).filter((x): x is number => x !== null))];
        if (refs.length) {
          for (const d of await db.selectFrom('documentos').select(DOCUMENTO_COLUMNAS).where('id', 'in', refs).execute()) referidos.set(Number(d.id), numeros(d, NUM_DOC) as DocumentoFila);
        }
        lineas.push(
          ...(await db.selectFrom('documento_lineas').select(LINEA_COLUMNAS).where('documento_id', 'in', parte).orderBy('documento_id').orderBy('orden').execute()).map(
            (l) => numeros(l, NUM_LINEA) as LineaFila,
          ),
        );
        registros.push(
          ...(await db.selectFrom('registros_facturacion').select(REGISTRO_COLUMNAS).where('documento_id', 'in', parte).orderBy('id').execute()).map(
            (r) => numeros(r, NUM_REG) as RegistroFila,
          ),
        );
      }
      return { docs, lineas, registros };
    },
    async sinAlta() {
      const rows = await db
        .selectFrom('documentos as d')
        .select(DOCUMENTO_COLUMNAS.map((c) => `d.${c}` as const))
        .where('d.tipo', 'in', DOCUMENTO_TIPOS_FISCALES)
        .where('d.numero', 'is not', null)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('registros_facturacion as r').select('r.id').whereRef('r.documento_id', '=', 'd.id').where('r.tipo', '=', 'alta'))),
        )
        .orderBy('d.id')
        .limit(1)
        .execute();
      return rows.map((d) => numeros(d, NUM_DOC) as DocumentoFila);
    },
    terceros: {
      serie: (id) => (id === null ? null : (series.get(Number(id)) ?? null)),
      nifCliente: (id) => nifs.get(Number(id)) ?? null,
      clientePorNif: (n) => porNif.get(n) ?? null,
      documento: (id) => referidos.get(Number(id)),
    },
    async nif() {
      return (await db.selectFrom('configuracion').select('nif').orderBy('id').executeTakeFirst())?.nif ?? '';
    },
  };
  return (await comprobarTodo(fuente)).map(({ diferencia: _d, ...c }) => c);
}

type Row = Record<string, unknown>;
export type CopiaVerificable = Record<'documentos' | 'documento_lineas' | 'registros_facturacion' | 'registros_cadena' | 'series' | 'clientes' | 'configuracion', Row[]>;

/** The same check of a backup's rows (restaurarcopia): the first chain break or document difference, or null. */
export async function comprobarCopia(copia: CopiaVerificable): Promise<Comprobacion | null> {
  const registros = copia.registros_facturacion.map((r) => numeros(r, NUM_REG) as unknown as RegistroFila);
  const porEmisor = agrupar(registros, (r) => r.emisor);
  for (const l of porEmisor.values()) l.sort((a, b) => a.orden - b.orden);
  const porDocumento = agrupar(registros, (r) => r.documento_id);
  const docs = new Map(copia.documentos.map((d) => [Number(d.id), numeros(d, NUM_DOC) as unknown as DocumentoFila]));
  const lineas = agrupar(
    copia.documento_lineas.map((l) => numeros(l, NUM_LINEA) as unknown as LineaFila),
    (l) => l.documento_id,
  );
  const series = new Map(copia.series.map((s) => [Number(s.id), String(s.codigo)]));
  const nifs = new Map(copia.clientes.map((c) => [Number(c.id), String(c.nif ?? '')]));
  const porNif = new Map(copia.clientes.map((c) => [limpio(String(c.nif ?? '')), Number(c.id)]));
  const cabezas = new Map(copia.registros_cadena.map((c) => [String(c.emisor), { ultimo_orden: Number(c.ultimo_orden), ultima_huella: String(c.ultima_huella) }]));
  const fuente: Fuente = {
    emisores: async () => [...new Set([...cabezas.keys(), ...porEmisor.keys()])].sort(),
    cabeza: async (e) => cabezas.get(e),
    total: async (e) => porEmisor.get(e)?.length ?? 0,
    registros: async (e, desde, limite) => (porEmisor.get(e) ?? []).filter((r) => r.orden > desde).slice(0, limite),
    async documentos(ids) {
      return {
        docs: ids.map((id) => docs.get(id)).filter((d): d is DocumentoFila => !!d),
        lineas: ids.flatMap((id) => lineas.get(id) ?? []),
        registros: ids.flatMap((id) => porDocumento.get(id) ?? []),
      };
    },
    sinAlta: async () => [...docs.values()].filter((d) => esFiscal(d) && !(porDocumento.get(d.id) ?? []).some((r) => r.tipo === 'alta')),
    terceros: {
      serie: (id) => (id === null ? null : (series.get(Number(id)) ?? null)),
      nifCliente: (id) => nifs.get(Number(id)) ?? null,
      clientePorNif: (n) => porNif.get(n) ?? null,
      documento: (id) => docs.get(Number(id)),
    },
    nif: async () => String(copia.configuracion[0]?.nif ?? ''),
  };
  return (await comprobarTodo(fuente)).find((c) => !c.correcto) ?? null;
}
