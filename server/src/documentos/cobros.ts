import type { Kysely } from 'kysely';
import { MESSAGES, esAlContado, formatMoney, plazosCubiertos, plazosDe } from 'shared/domain';
import type { Cobro, Plazo } from 'shared/domain';
import { fail } from '../errors.ts';
import { numeroDeTipo } from './lectura.ts';

/**
 * Cobros of facturas and refunds of rectificativas (issue 17; shared/domain/cobros.ts, docs/cobros-pagos.md «Cobros»). An invoice and
 * the rectificativas that correct it are one account: what is owed is the invoice's total plus each rectificativa by
 * differences (a rectificativa by substitution replaces it), less the cobros of all of them (refunds are negative
 * cobros). What is left is kept on the documents (`por_cobrar`): on the invoice when the customer owes, on its latest
 * rectificativa (negative) when the shop owes a refund; `plazos_cubiertos` says which instalment is due next and
 * `cobro_fecha` / `cobro_forma` the last cobro once the account is settled. Every change of the account (a cobro, an
 * emission, an annulment) recomputes it in its own transaction.
 */

// biome-ignore lint/suspicious/noExplicitAny: the migration runs it too, on an untyped database
type AnyDb = Kysely<any>;

type DocCuenta = {
  id: number;
  tipo: string;
  estado: string;
  fecha: string;
  forma_pago: string | null;
  total: number;
  modo_rectificacion: string | null;
  factura_id: number | null;
};

export type Cuenta = {
  /** The invoice the account belongs to. */
  factura_id: number;
  /** What is owed: the invoice netting its rectificativas (cents). */
  importe: number;
  /** Σ cobros less refunds. */
  cobrado: number;
  /** importe − cobrado: > 0 the customer owes, < 0 the shop owes a refund. */
  saldo: number;
  plazos: Plazo[];
  cobros: Cobro[];
};

/** The invoice at the head of a document's account (a rectificativa's, through the ones it corrects). */
async function raizDe(db: AnyDb, id: number): Promise<number | null> {
  let actual = id;
  for (let i = 0; i < 50; i++) {
    const d = await db.selectFrom('documentos').select(['id', 'tipo', 'factura_id']).where('id', '=', actual).executeTakeFirst();
    if (!d) return null;
    if (d.tipo === 'factura') return d.id;
    if (d.tipo !== 'rectificativa' || !d.factura_id) return null;
    actual = d.factura_id;
  }
  return null;
}

/** The invoice and every rectificativa under it, oldest first. */
async function documentosDe(db: AnyDb, raiz: number): Promise<DocCuenta[]> {
  const cols = ['id', 'tipo', 'estado', 'fecha', 'forma_pago', 'total', 'modo_rectificacion', 'factura_id'] as const;
  const out = (await db.selectFrom('documentos').select([...cols]).where('id', '=', raiz).execute()) as DocCuenta[];
  let frente = [raiz];
  while (frente.length) {
    const hijos = (await db.selectFrom('documentos').select([...cols]).where('tipo', '=', 'rectificativa').where('factura_id', 'in', frente).execute()) as DocCuenta[];
    out.push(...hijos);
    frente = hijos.map((h) => h.id);
  }
  const [cabeza, ...resto] = out;
  resto.sort((a, b) => (a.fecha === b.fecha ? a.id - b.id : a.fecha < b.fecha ? -1 : 1));
  return cabeza ? [cabeza, ...resto] : [];
}

async function cobrosDe(db: AnyDb, ids: number[]): Promise<Cobro[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('cobros')
    .select(['id', 'documento_id', 'fecha', 'importe', 'forma', 'creado'])
    .where('documento_id', 'in', ids)
    .orderBy('fecha')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, importe: Number(r.importe) })) as Cobro[];
}

/** The account of the document's invoice as it stands (null: a document without one, a draft's). */
export async function cuentaDe(db: AnyDb, id: number): Promise<(Cuenta & { docs: DocCuenta[] }) | null> {
  const raiz = await raizDe(db, id);
  if (raiz === null) return null;
  const docs = await documentosDe(db, raiz);
  const factura = docs[0];
  if (!factura) return null;
  const cobros = await cobrosDe(db, docs.map((d) => d.id));
  let importe = factura.estado === 'emitida' ? Number(factura.total) : 0;
  for (const r of docs.slice(1)) {
    if (r.estado !== 'emitida') continue;
    importe = r.modo_rectificacion === 'sustitucion' ? Number(r.total) : importe + Number(r.total);
  }
  const cobrado = cobros.reduce((s, c) => s + c.importe, 0);
  return { factura_id: raiz, importe, cobrado, saldo: importe - cobrado, plazos: plazosDe(factura.fecha, factura.forma_pago, Math.max(0, importe), cobrado), cobros, docs };
}

/** Recomputes and stores what is left on every document of the account of `id`. */
export async function recalcularCuenta(db: AnyDb, id: number): Promise<Cuenta | null> {
  const c = await cuentaDe(db, id);
  if (!c) return null;
  const emitidas = c.docs.filter((d) => d.estado === 'emitida');
  const ultimaRect = [...emitidas].reverse().find((d) => d.tipo === 'rectificativa');
  const ultimo = c.cobros.at(-1);
  const saldada = c.saldo === 0 && (ultimo !== undefined || c.importe === 0);
  for (const d of c.docs) {
    let porCobrar = 0;
    if (d.estado === 'emitida') {
      if (d.id === c.factura_id && c.saldo > 0) porCobrar = c.saldo;
      // A refund owed is the latest rectificativa's (the one that made it so).
      if (c.saldo < 0 && d.id === ultimaRect?.id) porCobrar = c.saldo;
    }
    const set = {
      por_cobrar: porCobrar,
      plazos_cubiertos: d.id === c.factura_id ? plazosCubiertos(c.plazos) : 0,
      cobro_fecha: saldada && d.estado === 'emitida' ? (ultimo?.fecha ?? d.fecha) : null,
      cobro_forma: saldada && d.estado === 'emitida' ? (ultimo?.forma ?? null) : null,
    };
    await db.updateTable('documentos').set(set).where('id', '=', d.id).execute();
  }
  return c;
}

/** Every invoice's account (a restore of a backup made before cobros existed; migration 0016 runs a frozen copy). */
export async function recalcularCuentas(db: AnyDb, desdeId = 0): Promise<void> {
  const facturas = await db.selectFrom('documentos').select('id').where('tipo', '=', 'factura').where('id', '>', desdeId).orderBy('id').execute();
  for (const f of facturas) await recalcularCuenta(db, f.id);
}

/**
 * Before cobros in parts (a restored backup made before them; migration 0016 runs a frozen copy) each document had
 * one cobro, its `cobro_fecha` and `cobro_forma`: it becomes its row of `cobros` (the whole total), then every account
 * is computed.
 */
export async function cobrosDesdeFechas(db: AnyDb, desdeId = 0): Promise<void> {
  const pagados = await db
    .selectFrom('documentos')
    .select(['id', 'cobro_fecha', 'cobro_forma', 'total', 'modificado', 'modificado_por'])
    .where('tipo', 'in', ['factura', 'rectificativa'])
    .where('cobro_fecha', 'is not', null)
    .where('id', '>', desdeId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('cobros as c').select('c.id').whereRef('c.documento_id', '=', 'documentos.id'))))
    .orderBy('id')
    .execute();
  for (let i = 0; i < pagados.length; i += 200) {
    await db
      .insertInto('cobros')
      .values(
        pagados.slice(i, i + 200).map((d) => ({
          documento_id: d.id, fecha: d.cobro_fecha, importe: d.total, forma: d.cobro_forma, creado: d.modificado ?? `${d.cobro_fecha}T00:00:00.000Z`, creado_por: d.modificado_por,
        })),
      )
      .execute();
  }
  await recalcularCuentas(db, desdeId);
}

/**
 * Records a cobro on an issued factura (money in, while the customer owes) or a refund on a rectificativa (money out,
 * stored negative, while the shop owes): `importe` (cents, > 0) or, absent, everything left; never more than that.
 */
export async function registrarCobro(
  db: AnyDb,
  doc: { id: number; tipo: string },
  p: { fecha: string; forma: string | null; importe: number | null; usuarioId: number | null; creado: string },
): Promise<Cobro> {
  const c = await cuentaDe(db, doc.id);
  // An invoice collects what the customer owes; a rectificativa refunds what the shop owes (its credit otherwise
  // nets into what the invoice asks).
  const rect = doc.tipo === 'rectificativa';
  if (!c || (rect ? c.saldo >= 0 : c.saldo <= 0)) throw fail(doc.tipo === 'rectificativa' ? MESSAGES.rectificativaSinReembolso : MESSAGES.facturaSinPendiente, '1', 400);
  const queda = Math.abs(c.saldo);
  const importe = p.importe ?? queda;
  if (importe > queda) throw fail(MESSAGES.cobroSuperaPendiente.replace('{importe}', formatMoney(queda)), '1', 400);
  const valor = c.saldo > 0 ? importe : -importe;
  const row = await db
    .insertInto('cobros')
    .values({ documento_id: doc.id, fecha: p.fecha, importe: valor, forma: p.forma, creado: p.creado, creado_por: p.usuarioId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recalcularCuenta(db, doc.id);
  return { id: row.id, documento_id: doc.id, fecha: p.fecha, importe: valor, forma: p.forma };
}

/**
 * An invoice issued with a forma de pago paid at the counter (contado, efectivo, tarjeta) is paid on issue: what its
 * account is left owing, that day, that way (a rectificativa's refund likewise, when the shop owes one).
 */
export async function cobrarAlEmitir(db: AnyDb, doc: { id: number; tipo: string; fecha: string; forma_pago: string | null }, usuarioId: number | null, creado: string) {
  const c = await recalcularCuenta(db, doc.id);
  if (!c || !esAlContado(doc.forma_pago)) return;
  const aCobrar = doc.tipo === 'factura' ? c.saldo > 0 : c.saldo < 0;
  if (aCobrar) await registrarCobro(db, doc, { fecha: doc.fecha, forma: doc.forma_pago, importe: null, usuarioId, creado });
}

/** The account as a document's record shows it: its cobros and refunds with their documents' numbers, its instalments. */
export async function cuentaParaLeer(db: AnyDb, id: number) {
  const c = await cuentaDe(db, id);
  if (!c) return null;
  const numeros = new Map<number, string>();
  const rows = await db
    .selectFrom('documentos as d')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .select(['d.id', 'd.tipo', 'd.ejercicio', 'd.numero', 's.codigo as serie_codigo'])
    .where('d.id', 'in', c.docs.map((d) => d.id))
    .execute();
  for (const r of rows) numeros.set(r.id, numeroDeTipo(r.tipo, r));
  return {
    factura_id: c.factura_id,
    factura_numero: numeros.get(c.factura_id) ?? '',
    importe: c.importe,
    cobrado: c.cobrado,
    saldo: c.saldo,
    plazos: c.plazos,
    cobros: c.cobros.map((x) => ({ ...x, documento_numero: numeros.get(x.documento_id) ?? '' })),
    rectificativas: c.docs
      .filter((d) => d.tipo === 'rectificativa' && d.estado === 'emitida')
      .map((d) => ({ id: d.id, numero: numeros.get(d.id) ?? '', total: Number(d.total), modo: d.modo_rectificacion })),
  };
}
