import type { Kysely } from 'kysely';

/**
 * FROZEN — history, never edited (server/README.md, «Migrations»). Cobros in parts as migration 0016_cobros computed them
 * for the documents that existed: copied on 2026-11-29 from server/src/documentos/cobros.ts at commit 9ad9f41 (the
 * account of an invoice and its rectificativas, `cobrosDesdeFechas`), with the instalments from
 * shared/src/domain/cobros.ts (`plazosDe`, `fechasDePlazos`, `plazosEn`, `plazosCubiertos`) and the due days of each forma
 * de pago from shared/src/domain/terceros.ts (`FORMAS_PAGO`) at the same commit, unchanged but for the imports.
 */

/** The due days of each forma de pago (shared/src/domain/terceros.ts FORMAS_PAGO, their ids and days). */
const FORMAS_PAGO = [
  { id: 'contado', dias: [0] },
  { id: 'transferencia', dias: [0] },
  { id: 'transferencia_30', dias: [30] },
  { id: 'transferencia_60', dias: [60] },
  { id: 'recibo_30', dias: [30] },
  { id: 'recibo_30_60', dias: [30, 60] },
  { id: 'recibo_30_60_90', dias: [30, 60, 90] },
  { id: 'confirming_60', dias: [60] },
  { id: 'tarjeta', dias: [0] },
  { id: 'efectivo', dias: [0] },
] as const;

/** One cobro (or, negative, a refund paid out): cents. */
type Cobro = {
  id: number;
  documento_id: number;
  fecha: string;
  importe: number;
  forma: string | null;
  creado?: string;
};

/** One instalment: its due date, its amount and what of it is still unpaid (cents). */
type Plazo = { fecha: string; importe: number; pendiente: number };

function plazosDe(fecha: string, forma: string | null | undefined, importe: number, cobrado = 0): Plazo[] {
  return plazosEn(fechasDePlazos(fecha, forma), importe, cobrado);
}
function fechasDePlazos(fecha: string, forma: string | null | undefined): string[] {
  const dias = FORMAS_PAGO.find((f) => f.id === forma)?.dias ?? [0];
  return dias.map((d) => {
    const t = new Date(`${fecha}T00:00:00Z`);
    t.setUTCDate(t.getUTCDate() + d);
    return t.toISOString().slice(0, 10);
  });
}
function plazosEn(fechas: readonly string[], importe: number, cobrado = 0): Plazo[] {
  const n = Math.max(1, fechas.length);
  const parte = Math.floor(importe / n);
  let queda = Math.max(0, cobrado);
  return fechas.map((fecha, i) => {
    const cuota = i === 0 ? importe - parte * (n - 1) : parte;
    const pagado = Math.min(queda, cuota);
    queda -= pagado;
    return { fecha, importe: cuota, pendiente: cuota - pagado };
  });
}

const plazosCubiertos = (plazos: readonly Plazo[]) => {
  const i = plazos.findIndex((p) => p.pendiente > 0);
  return i < 0 ? plazos.length : i;
};

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

type Cuenta = {
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
async function cuentaDe(db: AnyDb, id: number): Promise<(Cuenta & { docs: DocCuenta[] }) | null> {
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
async function recalcularCuenta(db: AnyDb, id: number): Promise<Cuenta | null> {
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

/** Every invoice's account (the migration; a restore of a backup made before cobros existed). */
async function recalcularCuentas(db: AnyDb, desdeId = 0): Promise<void> {
  const facturas = await db.selectFrom('documentos').select('id').where('tipo', '=', 'factura').where('id', '>', desdeId).orderBy('id').execute();
  for (const f of facturas) await recalcularCuenta(db, f.id);
}

/**
 * Before cobros in parts (a migration; a restored backup made before them) each document had one cobro, its
 * `cobro_fecha` and `cobro_forma`: it becomes its row of `cobros` (the whole total), then every account is computed.
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
