import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { fileURLToPath } from 'node:url';
import { MESSAGES, fechaAeat, importeAeat, isValidNif, normalizeNif } from 'shared/domain';
import type { HuellaAlta, HuellaAnulacion, TipoFactura } from 'shared/domain';
import {
  NS_LR,
  NS_SF,
  encadenamientoXml,
  el,
  fechaHoraHuso,
  huellaDe,
  txt,
  xmlAlta as xmlAltaCon,
  xmlAnulacion as xmlAnulacionCon,
} from 'shared/fiscal';
import type { Anterior, DatosAlta, Emisor, FacturaRef } from 'shared/fiscal';
import { fail } from '../errors.ts';
import { nowIso } from '../context.ts';
import { compiledQuery } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';

/**
 * VERI*FACTU records (docs/fiscal.md; the AEAT's SuministroLR.xsd / SuministroInformacion.xsd and the hash
 * specification in docs/fuentes/aeat/): the registro de alta an issued invoice writes and the registro de
 * anulación of an invoice that should never have existed. Each record is chained to the previous one of the same
 * chain (its huella is part of the next one's hash input) and stored with its XML, a whole
 * RegFactuSistemaFacturacion document (Cabecera + one RegistroFactura) valid against SuministroLR.xsd. The pure parts
 * (huella, XML, SHA-256) live in shared/fiscal, which the till runs too when it issues a ticket offline (docs/tpv.md).
 *
 * Chains: one per issuer for the back office (key: the NIF) and one per TPV terminal, each its own installation
 * (key: `NIF:numero_instalacion`, claveCadena). `registros_facturacion.emisor` and `registros_cadena.emisor` hold
 * the key; the record's IDEmisorFactura is its NIF (nifDeCadena).
 *
 * The chain's head (registros_cadena: last orden and huella per chain) is advanced by an `update … returning`
 * in the caller's transaction, which locks the row until it ends: two instances on one PostgreSQL never give two
 * records the same place, and a failed emission leaves no record and no gap.
 */

export { NS_LR, NS_SF, fechaHoraHuso, huellaDe };
export type { DatosAlta, Emisor, FacturaRef };

/** The product's version (the root package.json), as SistemaInformatico/Version says it. */
const VERSION = (() => {
  try {
    return String(JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version ?? '0');
  } catch {
    return '0';
  }
})();

/**
 * The invoicing system (SistemaInformatico). The producer's name and NIF are the issuer's own until the product
 * is registered by a producer with a NIF of its own (a system an obligado uses for itself names itself).
 */
export const SISTEMA = { nombre: 'Manager TPV', id: 'MT', version: VERSION } as const;

/**
 * The producer of the system (issue 16): set by whoever distributes the installation, by MANAGER_PRODUCTOR_NOMBRE and
 * MANAGER_PRODUCTOR_NIF or by `productor: { nombre, nif }` in deploy.json (DEPLOY_FILE, or the repository's). Without
 * one (or with a NIF that is not a valid Spanish one) the records name the issuer, as a system an obligado makes for
 * itself does. Read on every call: the environment wins over the file, which is read once.
 */
let productorDelFichero: Emisor | null | undefined;
export function productor(): Emisor | null {
  const valido = (nombre: unknown, nif: unknown): Emisor | null => {
    const n = typeof nombre === 'string' ? nombre.trim() : '';
    const id = typeof nif === 'string' ? normalizeNif(nif) : '';
    return n && id.length === 9 && isValidNif(id) ? { nombre: n, nif: id } : null;
  };
  const env = valido(process.env.MANAGER_PRODUCTOR_NOMBRE, process.env.MANAGER_PRODUCTOR_NIF);
  if (env) return env;
  if (productorDelFichero === undefined) {
    try {
      const file = process.env.DEPLOY_FILE ?? fileURLToPath(new URL('../../../deploy.json', import.meta.url));
      const p = (JSON.parse(fs.readFileSync(file, 'utf8')) as { productor?: { nombre?: unknown; nif?: unknown } }).productor;
      productorDelFichero = p ? valido(p.nombre, p.nif) : null;
    } catch {
      productorDelFichero = null;
    }
  }
  return productorDelFichero;
}

/**
 * SistemaInformatico of every record, the back office's and each till's (issue 22): the product and its producer. The
 * till receives it whole in terminaltpv (its offline records name the same producer) and the server re-makes an offline
 * record with it.
 */
export const sistemaInformatico = () => ({ ...SISTEMA, productor: productor() });
const sistemaConProductor = sistemaInformatico;

/**
 * What the declaración responsable says of its producer and signature beyond the name and NIF (Orden HAC/1177/2024
 * art. 15: the producer's full postal address, the date and place it is signed): set by the distributor with
 * MANAGER_PRODUCTOR_DIRECCION, MANAGER_PRODUCTOR_LUGAR and MANAGER_PRODUCTOR_FECHA (aaaa-mm-dd), or `direccion`,
 * `lugar`, `fecha` in deploy.json's `productor`. Only with a configured producer (productor()); else null (the company
 * declares for itself, with its own address: infoVerifactu).
 */
export function firmaProductor(): { direccion: string; lugar: string; fecha: string } | null {
  if (!productor()) return null;
  let fichero: Record<string, unknown> = {};
  try {
    const file = process.env.DEPLOY_FILE ?? fileURLToPath(new URL('../../../deploy.json', import.meta.url));
    fichero = ((JSON.parse(fs.readFileSync(file, 'utf8')) as { productor?: Record<string, unknown> }).productor ?? {}) as Record<string, unknown>;
  } catch {
    fichero = {};
  }
  const valor = (env: string | undefined, clave: string) => (env?.trim() || (typeof fichero[clave] === 'string' ? String(fichero[clave]).trim() : ''));
  const fecha = valor(process.env.MANAGER_PRODUCTOR_FECHA, 'fecha');
  return {
    direccion: valor(process.env.MANAGER_PRODUCTOR_DIRECCION, 'direccion'),
    lugar: valor(process.env.MANAGER_PRODUCTOR_LUGAR, 'lugar'),
    fecha: /^\d{4}-\d{2}-\d{2}$/.test(fecha) ? fecha : '',
  };
}

/**
 * A TPV terminal's NumeroInstalacion by default (issue 22): the company installation's own unique number
 * (numeroInstalacion) and the terminal's id, so two installations of the same company never name a till alike
 * (FAQ 4: an installation number never repeats among the obligado's installations).
 */
export const instalacionDeTerminal = (instalacion: string, terminalId: number) => `${instalacion}-TPV${String(terminalId).padStart(3, '0')}`;

/** The chain key of a TPV terminal (its own installation) — the company's own chain is keyed by the NIF alone. */
export const claveCadena = (nif: string, instalacion: string) => `${nif}:${instalacion}`;
/** The issuer's NIF of a chain key. */
export const nifDeCadena = (clave: string) => {
  const i = clave.indexOf(':');
  return i < 0 ? clave : clave.slice(0, i);
};

/** The RegistroAlta document of `d`, chained after `anterior`, stamped `ts`, with its `huella` (this product's SistemaInformatico). */
export const xmlAlta = (d: DatosAlta, anterior: Anterior | null, ts: string, huella: string, instalacion: string) =>
  xmlAltaCon(d, anterior, ts, huella, instalacion, sistemaConProductor());

/** The RegistroAnulacion document of the invoice `f`. */
export const xmlAnulacion = (emisor: Emisor, f: FacturaRef, anterior: Anterior | null, ts: string, huella: string, instalacion: string) =>
  xmlAnulacionCon(emisor, f, anterior, ts, huella, instalacion, sistemaConProductor());

const avanzarCadena = compiledQuery((db, p: { emisor: string }) => ({
  compile: () =>
    sql<{ ultimo_orden: number }>`update registros_cadena set ultimo_orden = ultimo_orden + 1 where emisor = ${p.emisor} returning ultimo_orden`.compile(db),
}));

const leerAnterior = compiledQuery((db, p: { emisor: string; orden: number }) =>
  db
    .selectFrom('registros_facturacion')
    .select(['emisor as id_emisor', 'num_serie', 'fecha_expedicion', 'huella', 'fecha_hora_huso'])
    .where('emisor', '=', p.emisor)
    .where('orden', '=', p.orden),
);

/** Per transaction and issuer, the last record it wrote in the chain (what the next one chains to). */
const ESCRITOS = new WeakMap<Transaction<Database>, Map<string, { orden: number; registro: Anterior }>>();

/**
 * The next place in `emisor`'s chain: the head row advanced and locked (created on the first record), and the
 * previous record it points to (null for the first).
 */
export async function siguienteEnCadena(trx: Transaction<Database>, emisor: string): Promise<{ orden: number; anterior: Anterior | null }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const rows = await avanzarCadena(trx, { emisor });
    if (rows[0]) {
      const orden = Number(rows[0].ultimo_orden);
      if (orden === 1) return { orden, anterior: null };
      // The record this transaction just wrote at the head (hfa issues many): the head row is locked by it since.
      const propio = ESCRITOS.get(trx)?.get(emisor);
      if (propio?.orden === orden - 1) return { orden, anterior: propio.registro };
      const [anterior] = await leerAnterior(trx, { emisor, orden: orden - 1 });
      // The head points past a record that is not there: the chain was tampered with; nothing is chained to it.
      if (!anterior) throw fail(MESSAGES.cadenaRota, '2');
      return { orden, anterior: { ...anterior, id_emisor: nifDeCadena(anterior.id_emisor) } };
    }
    await trx
      .insertInto('registros_cadena')
      .values({ emisor, ultimo_orden: 0, ultima_huella: '' })
      .onConflict((oc) => oc.column('emisor').doNothing())
      .execute();
  }
  throw new Error('registros_cadena');
}

/**
 * The clock records are stamped with: the system's, replaceable by the tests (`reloj.ahora = () => …`) to put it
 * back and see the emission refused.
 */
export const reloj = { ahora: (): number => Date.now() };

/**
 * The record's timestamp: now. A clock that went back (now earlier than the previous record of the chain) refuses
 * the emission with a message about the system clock: a record is never stamped before the one it chains to, and
 * never with a time the clock does not say (issue 16). The same second as the previous one is fine (hfa issues many).
 */
export function marcaDeTiempo(anterior: Anterior | null, timeZone: string, { tpv = false } = {}): string {
  const ahora = new Date(Math.floor(reloj.ahora() / 1000) * 1000);
  const previo = anterior ? Date.parse(anterior.fecha_hora_huso) : Number.NaN;
  // A till's chain (registrarAltaGenerada): its offline records carry the till's clock, which may have run ahead of
  // the server's. The record is stamped with the true time all the same — never frozen at the previous one's — and
  // the caller (tpv/tickets.ts) leaves an incidence «reloj» for the manager (issue 23).
  if (tpv) return fechaHoraHuso(ahora, timeZone);
  if (Number.isFinite(previo) && previo > ahora.getTime()) {
    const legible = (d: Date) => d.toLocaleString('es-ES', { timeZone, dateStyle: 'short', timeStyle: 'medium' });
    throw fail(MESSAGES.relojAtrasado.replace('{ahora}', legible(ahora)).replace('{anterior}', legible(new Date(previo))), '1', 400);
  }
  return fechaHoraHuso(ahora, timeZone);
}

/**
 * Incidencia (issues 16 and 22; SuministroInformacion.xsd RemisionVoluntaria/Incidencia, a property of the whole
 * submission: envio.ts sends such records in batches of their own, Cabecera Incidencia = S). A record leaves late
 * because of an incident when it is made
 * - while the submission is failing (the sender counted a transport failure and is backing off);
 * - by a live company while sending is off (verifactu.activo 0; a demo company's records never go to production);
 * - before the failure was noticed: made after the last answered submission and still pending when a failure is
 *   counted (envio.ts marks them then);
 * - by a till offline and uploaded later than its generation by more than the sending cadence (the AEAT's
 *   TiempoEsperaEnvio, verifactu.tiempo_espera, 60 s by default): registrarAltaGenerada.
 * The rule and its source: docs/verifactu.md.
 */
/**
 * What a record is made for (issue 22, migration 0031), read once per transaction with Incidencia: the demo company's
 * records are demo and made for «Pruebas»; a live company's for «Producción»; `verifactu` is 1 when sending is on (a
 * VERI*FACTU record, «Factura verificable»). Stored on the record, so every print and reprint uses it, never the
 * setting of the day (shared/domain/fiscal.ts presentacionQr).
 */
export type Emision = { incidencia: number; entorno: 'produccion' | 'pruebas'; demo: number; verifactu: number };
const EMISION = new WeakMap<Transaction<Database>, { emision: Emision; cadenciaMs: number }>();
async function leerEmision(trx: Transaction<Database>): Promise<{ emision: Emision; cadenciaMs: number }> {
  let v = EMISION.get(trx);
  if (v === undefined) {
    const s = await trx.selectFrom('verifactu').select(['activo', 'fallos', 'demo', 'tiempo_espera']).where('id', '=', 1).executeTakeFirst();
    v = { emision: emisionDe(s), cadenciaMs: Math.max(1, Number(s?.tiempo_espera ?? 60) || 60) * 1000 };
    EMISION.set(trx, v);
  }
  return v;
}
export async function emisionActual(trx: Transaction<Database>): Promise<Emision> {
  return (await leerEmision(trx)).emision;
}

/** emisionActual's rules on the verifactu row (also what terminaltpv tells the till its records are made for). */
export function emisionDe(s: { activo?: number | null; fallos?: number | null; demo?: number | null } | undefined): Emision {
  const activo = Number(s?.activo ?? 0) === 1;
  const demo = Number(s?.demo ?? 0) === 1;
  // Incidencia (docs/verifactu.md): sending failing, or a live company's sending off — its records leave late.
  const incidencia = (activo && Number(s?.fallos ?? 0) > 0) || (!demo && !activo) ? 1 : 0;
  return { incidencia, entorno: demo ? 'pruebas' : 'produccion', demo: demo ? 1 : 0, verifactu: activo ? 1 : 0 };
}

/**
 * The installation's NumeroInstalacion (issue 16; FAQ 4): generated once by migration 0023 and kept; a database
 * without one (restored from an old backup) gets one now, never the same as another's.
 */
export async function numeroInstalacion(db: Kysely<Database> | Transaction<Database>): Promise<string> {
  const s = await db.selectFrom('verifactu').select('numero_instalacion').where('id', '=', 1).executeTakeFirst();
  if (s?.numero_instalacion) return s.numero_instalacion;
  const nuevo = `MT-${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  await db.updateTable('verifactu').set({ numero_instalacion: nuevo }).where('id', '=', 1).where('numero_instalacion', 'is', null).execute();
  const again = await db.selectFrom('verifactu').select('numero_instalacion').where('id', '=', 1).executeTakeFirst();
  return again?.numero_instalacion ?? nuevo;
}

export type Contexto = {
  trx: Transaction<Database>;
  timeZone: string;
  documentoId: number;
  instalacion: string;
  /** The chain's key (claveCadena): a TPV terminal's; default the issuer's NIF (the company's chain). */
  cadena?: string;
};

type NuevoRegistro = {
  emisor: string;
  orden: number;
  tipo: 'alta' | 'anulacion';
  num_serie: string;
  fecha_expedicion: string;
  tipo_factura: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  documento_id: number;
  huella_anterior: string;
  huella: string;
  fecha_hora_huso: string;
  xml: string;
  creado: string;
} & Emision;

const insertarRegistro = compiledQuery((db, p: NuevoRegistro) =>
  db
    .insertInto('registros_facturacion')
    .values({
      emisor: p.emisor, orden: p.orden, tipo: p.tipo, num_serie: p.num_serie, fecha_expedicion: p.fecha_expedicion, tipo_factura: p.tipo_factura,
      cuota_total: p.cuota_total, importe_total: p.importe_total, documento_id: p.documento_id, huella_anterior: p.huella_anterior, huella: p.huella,
      fecha_hora_huso: p.fecha_hora_huso, xml: p.xml, creado: p.creado, incidencia: p.incidencia, entorno: p.entorno, demo: p.demo, verifactu: p.verifactu,
    })
    .returning('id'),
);

const cambiarCabeza = compiledQuery((db, p: { huella: string; emisor: string }) =>
  db.updateTable('registros_cadena').set({ ultima_huella: p.huella }).where('emisor', '=', p.emisor),
);

async function guardar(
  c: Contexto,
  emisor: string,
  orden: number,
  row: { tipo: 'alta' | 'anulacion'; num_serie: string; fecha_expedicion: string; tipo_factura: string | null; cuota_total: string | null; importe_total: string | null },
  anterior: Anterior | null,
  ts: string,
  huella: string,
  xml: string,
  tarde = false,
): Promise<number> {
  const emision = await emisionActual(c.trx);
  const [created] = await insertarRegistro(c.trx, {
    emisor, orden, ...row, documento_id: c.documentoId, huella_anterior: anterior?.huella ?? '', huella, fecha_hora_huso: ts, xml, creado: nowIso(),
    ...emision, incidencia: tarde ? 1 : emision.incidencia,
  });
  await cambiarCabeza(c.trx, { huella, emisor });
  let escritos = ESCRITOS.get(c.trx);
  if (!escritos) {
    escritos = new Map();
    ESCRITOS.set(c.trx, escritos);
  }
  escritos.set(emisor, { orden, registro: { id_emisor: nifDeCadena(emisor), num_serie: row.num_serie, fecha_expedicion: row.fecha_expedicion, huella, fecha_hora_huso: ts } });
  return created.id;
}

/** Writes the registro de alta of an invoice being issued, chained to its issuer's last record. */
export async function registrarAlta(c: Contexto, d: DatosAlta): Promise<{ id: number; huella: string }> {
  const clave = c.cadena ?? d.emisor.nif;
  const { orden, anterior } = await siguienteEnCadena(c.trx, clave);
  const ts = marcaDeTiempo(anterior, c.timeZone);
  const campos: HuellaAlta = {
    IDEmisorFactura: d.emisor.nif,
    NumSerieFactura: d.numSerie,
    FechaExpedicionFactura: fechaAeat(d.fecha),
    TipoFactura: d.tipoFactura,
    CuotaTotal: importeAeat(d.cuotaTotal),
    ImporteTotal: importeAeat(d.importeTotal),
    Huella: anterior?.huella ?? '',
    FechaHoraHusoGenRegistro: ts,
  };
  const huella = huellaDe(campos);
  const xml = xmlAlta(d, anterior, ts, huella, c.instalacion);
  const id = await guardar(
    c,
    clave,
    orden,
    {
      tipo: 'alta', num_serie: d.numSerie, fecha_expedicion: campos.FechaExpedicionFactura, tipo_factura: d.tipoFactura, cuota_total: campos.CuotaTotal,
      importe_total: campos.ImporteTotal,
    },
    anterior,
    ts,
    huella,
    xml,
  );
  return { id, huella };
}

/**
 * What an anulación says about the AEAT's knowledge of the invoice (Validaciones §5.2): `sinRegistroPrevio` when the
 * AEAT has no alta of it (every alta sent was refused, or none was ever sent), `rechazoPrevio` when a previous
 * anulación of it was refused (the «anulación por rechazo»). Absent: the habitual anulación.
 */
export type MarcasAnulacion = { sinRegistroPrevio?: boolean; rechazoPrevio?: boolean };

/** Writes the registro de anulación of an issued invoice (`f` as its registro de alta named it), in `emisor`'s chain. */
export async function registrarAnulacion(c: Contexto, emisor: Emisor, f: FacturaRef, marcas: MarcasAnulacion = {}): Promise<{ id: number; huella: string }> {
  const { orden, anterior } = await siguienteEnCadena(c.trx, f.nif);
  const ts = marcaDeTiempo(anterior, c.timeZone);
  const campos: HuellaAnulacion = {
    IDEmisorFacturaAnulada: f.nif,
    NumSerieFacturaAnulada: f.numSerie,
    FechaExpedicionFacturaAnulada: fechaAeat(f.fecha),
    Huella: anterior?.huella ?? '',
    FechaHoraHusoGenRegistro: ts,
  };
  const huella = huellaDe(campos);
  let xml = xmlAnulacion(emisor, f, anterior, ts, huella, c.instalacion);
  // SinRegistroPrevio and RechazoPrevio follow IDFactura (and RefExterna, which the product never writes).
  const flags = (marcas.sinRegistroPrevio ? txt('SinRegistroPrevio', 'S') : '') + (marcas.rechazoPrevio ? txt('RechazoPrevio', 'S') : '');
  if (flags) {
    const fin = xml.indexOf('</sf:IDFactura>') + '</sf:IDFactura>'.length;
    xml = xml.slice(0, fin) + flags + xml.slice(fin);
  }
  const id = await guardar(
    c,
    f.nif,
    orden,
    { tipo: 'anulacion', num_serie: f.numSerie, fecha_expedicion: campos.FechaExpedicionFacturaAnulada, tipo_factura: null, cuota_total: null, importe_total: null },
    anterior,
    ts,
    huella,
    xml,
  );
  return { id, huella };
}

/**
 * Whether the AEAT holds an alta of the invoice `clave` names (its issuer's chain, NumSerieFactura, dd-mm-aaaa): one
 * of its altas was answered Correcto or AceptadoConErrores. `pendiente`: some alta of it is still waiting to leave
 * (it will reach the AEAT before anything written after it).
 */
export async function altaEnAeat(
  trx: Transaction<Database> | Kysely<Database>,
  clave: { emisor: string; num_serie: string; fecha_expedicion: string },
): Promise<{ registrada: boolean; pendiente: boolean; anulacionRechazada: boolean }> {
  const rows = await trx
    .selectFrom('registros_facturacion')
    .select(['tipo', 'estado_envio'])
    .where('emisor', '=', clave.emisor)
    .where('num_serie', '=', clave.num_serie)
    .where('fecha_expedicion', '=', clave.fecha_expedicion)
    .execute();
  return {
    registrada: rows.some((r) => r.tipo === 'alta' && ['correcto', 'aceptado_con_errores'].includes(r.estado_envio)),
    pendiente: rows.some((r) => r.tipo === 'alta' && ['pendiente', 'enviado'].includes(r.estado_envio)),
    anulacionRechazada: rows.some((r) => r.tipo === 'anulacion' && r.estado_envio === 'incorrecto'),
  };
}

/** A stored alta, as the subsanación needs it. */
export type AltaGuardada = {
  id: number;
  emisor: string;
  num_serie: string;
  fecha_expedicion: string;
  tipo_factura: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  xml: string;
};

/** The data a subsanación corrects (issue 16): what the record says and the invoice's figures do not depend on. */
export type Correccion = {
  /** DescripcionOperacion. */
  descripcion?: string;
  /** The recipient (F1, R1-R4): its name and a Spanish NIF, or IDOtro. */
  destinatario?: { nombre: string; nif: string; idOtro?: { codigoPais: string; idType: string; id: string } };
  /** FechaOperacion, aaaa-mm-dd (null: none). */
  fechaOperacion?: string | null;
};

/**
 * Subsanación (issue 9 and 16; Validaciones §5.1): a NEW registro de alta of the same invoice with the original's
 * data and the user's corrections, Subsanacion = S and RechazoPrevio = X when the AEAT has no alta of it («alta por
 * rechazo», «sin registro previo») or S when it has one and a later subsanación of it was refused («alta por rechazo
 * de subsanación»); chained at the head like any record. The original stays as it was. The huella's fields (the
 * invoice's number, date, kind and amounts) never change: those are corrected by a rectificativa.
 */
export async function registrarSubsanacion(
  c: Contexto,
  original: AltaGuardada,
  rechazoPrevio: 'X' | 'S' | null,
  correccion: Correccion = {},
): Promise<{ id: number; huella: string }> {
  const { orden, anterior } = await siguienteEnCadena(c.trx, original.emisor);
  const ts = marcaDeTiempo(anterior, c.timeZone);
  const campos: HuellaAlta = {
    IDEmisorFactura: nifDeCadena(original.emisor),
    NumSerieFactura: original.num_serie,
    FechaExpedicionFactura: original.fecha_expedicion,
    TipoFactura: (original.tipo_factura ?? '') as TipoFactura,
    CuotaTotal: original.cuota_total ?? '',
    ImporteTotal: original.importe_total ?? '',
    Huella: anterior?.huella ?? '',
    FechaHoraHusoGenRegistro: ts,
  };
  const huella = huellaDe(campos);
  const x = original.xml;
  const abre = x.indexOf('<sf:RegistroAlta>');
  const cierra = x.indexOf('</sf:RegistroAlta>');
  const enc = x.indexOf('<sf:Encadenamiento>');
  const finEnc = x.indexOf('</sf:Encadenamiento>');
  const fh = x.indexOf('<sf:FechaHoraHusoGenRegistro>');
  if (abre < 0 || cierra < 0 || enc < 0 || finEnc < 0 || fh < 0) throw new Error(`registro ${original.id}: not an alta document`);
  const marcas = txt('Subsanacion', 'S') + (rechazoPrevio ? txt('RechazoPrevio', rechazoPrevio) : '');
  let datos = x
    .slice(abre + '<sf:RegistroAlta>'.length, enc)
    .replace(/<sf:Subsanacion>[^<]*<\/sf:Subsanacion>|<sf:RechazoPrevio>[^<]*<\/sf:RechazoPrevio>/g, '')
    .replace('</sf:NombreRazonEmisor>', `</sf:NombreRazonEmisor>${marcas}`);
  datos = corregir(datos, correccion);
  const sistema = x.slice(finEnc + '</sf:Encadenamiento>'.length, fh);
  const registro = datos + encadenamientoXml(anterior) + sistema + txt('FechaHoraHusoGenRegistro', ts) + txt('TipoHuella', '01') + txt('Huella', huella);
  const xml = x.slice(0, abre) + el('RegistroAlta', registro) + x.slice(cierra + '</sf:RegistroAlta>'.length);
  const id = await guardar(
    c,
    original.emisor,
    orden,
    {
      tipo: 'alta', num_serie: original.num_serie, fecha_expedicion: original.fecha_expedicion, tipo_factura: original.tipo_factura,
      cuota_total: original.cuota_total, importe_total: original.importe_total,
    },
    anterior,
    ts,
    huella,
    xml,
  );
  await c.trx.updateTable('registros_facturacion').set({ subsana_id: original.id }).where('id', '=', id).execute();
  return { id, huella };
}

/** The record's data (RegistroAlta up to Encadenamiento) with the corrections in their places of the schema's sequence. */
function corregir(datos: string, k: Correccion): string {
  let out = datos;
  const descripcion = k.descripcion?.trim();
  if (descripcion) {
    out = out.replace(/<sf:DescripcionOperacion>[\s\S]*?<\/sf:DescripcionOperacion>/, txt('DescripcionOperacion', descripcion.slice(0, 500)));
  }
  if (k.fechaOperacion !== undefined) {
    out = out.replace(/<sf:FechaOperacion>[^<]*<\/sf:FechaOperacion>/, '');
    if (k.fechaOperacion) out = out.replace('<sf:DescripcionOperacion>', `${txt('FechaOperacion', fechaAeat(k.fechaOperacion))}<sf:DescripcionOperacion>`);
  }
  if (k.destinatario && out.includes('<sf:Destinatarios>')) {
    const d = k.destinatario;
    const id = d.idOtro
      ? el('IDOtro', txt('CodigoPais', d.idOtro.codigoPais) + txt('IDType', d.idOtro.idType) + txt('ID', d.idOtro.id.trim().slice(0, 20)))
      : txt('NIF', d.nif);
    out = out.replace(
      /<sf:Destinatarios>[\s\S]*?<\/sf:Destinatarios>/,
      el('Destinatarios', el('IDDestinatario', txt('NombreRazon', d.nombre.trim().slice(0, 120)) + id)),
    );
  }
  return out;
}

/**
 * A registro de alta made by `generar` at the next place of the chain `clave` (a TPV ticket's: online the server
 * makes it with shared/fiscal; offline `generar` checks the till's record against the chain's previous one and
 * answers it as received). Stored as generated; the caller's transaction rolls everything back if `generar` throws.
 */
export async function registrarAltaGenerada(
  c: Contexto,
  clave: string,
  generar: (anterior: Anterior | null, ts: string) => { campos: HuellaAlta; huella: string; xml: string },
): Promise<{ id: number; huella: string; xml: string; campos: HuellaAlta }> {
  const { orden, anterior } = await siguienteEnCadena(c.trx, clave);
  const { campos, huella, xml } = generar(anterior, marcaDeTiempo(anterior, c.timeZone, { tpv: true }));
  // A till's record uploaded later than it was made by more than the sending cadence (offline): Incidencia = S.
  const { cadenciaMs } = await leerEmision(c.trx);
  const tarde = reloj.ahora() - Date.parse(campos.FechaHoraHusoGenRegistro) > cadenciaMs;
  const id = await guardar(
    c,
    clave,
    orden,
    {
      tipo: 'alta', num_serie: campos.NumSerieFactura, fecha_expedicion: campos.FechaExpedicionFactura, tipo_factura: campos.TipoFactura,
      cuota_total: campos.CuotaTotal, importe_total: campos.ImporteTotal,
    },
    anterior,
    campos.FechaHoraHusoGenRegistro,
    huella,
    xml,
    tarde,
  );
  return { id, huella, xml, campos };
}
