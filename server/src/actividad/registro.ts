import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, numeroDe } from 'shared/domain';
import type { DocumentoTipo, TipoActividad } from 'shared/domain';
import { nowIso } from '../context.ts';
import type { DialectName } from '../db/index.ts';
import { cambiosDe } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { ENTIDADES, FLAGS, NUNCA, PARECE_SECRETO, clasificar } from './entidades.ts';
import type { EntidadAuditada } from './entidades.ts';

// biome-ignore lint/suspicious/noExplicitAny: the entity's table is chosen at run time, from ENTIDADES
type AnyDb = Kysely<any>;
type Fila = Record<string, unknown>;

/** What a handler tells the log beyond what the action's name and input say (see `auditar`). */
export type Detalle = {
  tipo?: TipoActividad;
  entidad?: string | null;
  entidad_id?: number | null;
  numero?: string | null;
  /** Who, when the action is public (a login). */
  usuario?: { id: number; nombre: string } | null;
  /** What the change did, for an entity without a row to compare (what «Empezar con mis datos» removed). */
  despues?: Fila;
  /** Written even when the transaction changed nothing else (a login refused while throttled). */
  siempre?: boolean;
};

/** One op.asp action being run: who, from where, which action, and what its current transaction said of itself. */
type Contexto = {
  usuario: { id: number; nombre: string } | null;
  ip: string | null;
  accion: string;
  tipo: TipoActividad;
  entidad: string | null;
  inputId: number | null;
  /** The action has answered: work it left behind (a timer) is not its own. */
  cerrado: boolean;
  /** Set while one of the action's transactions runs: the row it names as it was at the start, and what it said of itself. */
  tx: { idPrevio: number | null; previo: Fila | undefined; detalles: Detalle[] } | null;
};

const contexto = new AsyncLocalStorage<Contexto>();

/** The kinds of line that carry a master's or the configuration's fields before and after (a login doesn't). */
const CON_CAMPOS = new Set<TipoActividad>(['guardar', 'eliminar', 'certificado']);

/**
 * Runs a state-changing op.asp action with its audit context: every transaction it opens on the database writes
 * the action's line before it commits, when it changed anything (a rolled-back one takes its line with it).
 */
export function conActividad<T>(
  accion: string,
  datos: { usuario: { id: number; nombre: string } | null; ip: string | null; input: Record<string, unknown> },
  run: () => Promise<T>,
): Promise<T> {
  const { tipo, entidad } = clasificar(accion);
  const id = datos.input.id;
  const inputId = typeof id === 'number' && Number.isInteger(id) ? id : null;
  const ctx: Contexto = { usuario: datos.usuario, ip: datos.ip, accion, tipo, entidad, inputId, cerrado: false, tx: null };
  return contexto.run(ctx, async () => {
    try {
      return await run();
    } finally {
      ctx.cerrado = true;
    }
  });
}

/** Runs `fn` outside any action's audit context: background work an action only schedules (the VERI*FACTU sender's nudge). */
export const fueraDeActividad = <T>(fn: () => T): T => contexto.exit(fn);

/**
 * What the current transaction did, when the action's name and input don't say it all: the document or master it
 * changed (a create's new id), its number, another kind, the user of a login. Called inside the transaction; each
 * call with another entity adds a line. Outside an audited action it does nothing.
 */
export function auditar(detalle: Detalle): void {
  const ctx = contexto.getStore();
  if (ctx?.tx) ctx.tx.detalles.push(detalle);
}

/**
 * A further line for what the transaction did besides the action's own (an incidence an upload left, issue 23): the
 * action's line stays (an empty detail is added first when none was said yet), then this one.
 */
export function auditarTambien(detalle: Detalle): void {
  const ctx = contexto.getStore();
  if (!ctx?.tx) return;
  if (!ctx.tx.detalles.length) ctx.tx.detalles.push({});
  ctx.tx.detalles.push(detalle);
}

/** Whether the transaction wrote anything so far (a refused action commits nothing and logs nothing). */
async function cambio(trx: Transaction<Database>, dialect: DialectName, antes: number | null, cambios: (() => number) | undefined) {
  if (dialect === 'sqlite') return cambios!() !== antes;
  const { rows } = await sql<{ x: string | null }>`select txid_current_if_assigned()::text as x`.execute(trx);
  return rows[0]?.x !== null && rows[0]?.x !== undefined;
}

/**
 * Makes every transaction of `db` write the audit line of the action it runs in (see conActividad): the entity's row
 * is read before the handler's work and after it, inside the same transaction, and the line goes in before the commit.
 * `antesDeConfirmar`, when given, runs last in each such transaction that changed anything (the reports' aggregates
 * catch up with the sales it wrote: informes/agregados.ts).
 */
export function instalarActividad(db: Kysely<Database>, dialect: DialectName, antesDeConfirmar?: (trx: Transaction<Database>) => Promise<unknown>): void {
  const cambios = cambiosDe(db);
  const transaction = db.transaction.bind(db);
  type Builder = ReturnType<typeof transaction>;
  const envolver = (builder: Builder): Builder =>
    new Proxy(builder, {
      get(target, prop, receiver) {
        if (prop === 'execute') {
          return <T>(cb: (trx: Transaction<Database>) => Promise<T>) => target.execute((trx) => auditada(trx, cb));
        }
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        // setIsolationLevel / setAccessMode return a new builder: it stays audited.
        return (...args: unknown[]) => {
          const out = value.apply(target, args);
          return out && typeof out === 'object' && 'execute' in out ? envolver(out as Builder) : out;
        };
      },
    });
  db.transaction = () => envolver(transaction());

  async function auditada<T>(trx: Transaction<Database>, cb: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const ctx = contexto.getStore();
    if (!ctx || ctx.tx || ctx.cerrado) return cb(trx);
    const tx: NonNullable<Contexto['tx']> = { idPrevio: null, previo: undefined, detalles: [] };
    ctx.tx = tx;
    try {
      const meta = ctx.entidad ? ENTIDADES[ctx.entidad] : undefined;
      tx.idPrevio = ctx.inputId ?? meta?.idFijo ?? (meta?.primero ? await primerId(trx, meta) : null);
      if (meta && tx.idPrevio !== null) tx.previo = await leer(trx, meta, tx.idPrevio);
      const marca = dialect === 'sqlite' ? cambios!() : null;
      const result = await cb(trx);
      if (tx.detalles.some((d) => d.siempre) || (await cambio(trx, dialect, marca, cambios))) {
        if (antesDeConfirmar) await antesDeConfirmar(trx);
        await escribir(trx, ctx, tx, result);
      }
      return result;
    } finally {
      ctx.tx = null;
    }
  }
}

/** The id a save's transaction answers: the new id, or a record with one. */
function idDe(result: unknown): number | null {
  if (typeof result === 'number') return result;
  const id = (result as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : null;
}

async function primerId(trx: Transaction<Database>, meta: EntidadAuditada): Promise<number | null> {
  const row = await (trx as unknown as AnyDb).selectFrom(meta.tabla).select('id').orderBy('id').limit(1).executeTakeFirst();
  return (row?.id as number | undefined) ?? null;
}

async function leer(trx: Transaction<Database>, meta: EntidadAuditada, id: number): Promise<Fila | undefined> {
  const row = (await (trx as unknown as AnyDb).selectFrom(meta.tabla).selectAll().where('id', '=', id).executeTakeFirst()) as Fila | undefined;
  if (row && meta.documento) {
    const serie = row.serie_id
      ? await trx.selectFrom('series').select('codigo').where('id', '=', row.serie_id as number).executeTakeFirst()
      : undefined;
    row.serie_codigo = serie?.codigo ?? null;
  }
  return row;
}

/** The number users see: a document's as its screens show it, a master's code. */
function numeroDeFila(entidad: string, meta: EntidadAuditada, row: Fila | undefined): string | null {
  if (!row) return null;
  if (meta.documento) {
    const r = row as { ejercicio: number; numero: number | null; serie_codigo?: string | null };
    return numeroDe(DOCUMENTO_TIPOS[entidad as DocumentoTipo], r);
  }
  const v = meta.numero ? row[meta.numero] : null;
  return v === null || v === undefined ? null : String(v);
}

/** The audited columns of a row, Buffers and secrets left out. */
function campos(meta: EntidadAuditada, row: Fila | undefined): Fila | null {
  if (!row) return null;
  const out: Fila = {};
  for (const [k, v] of Object.entries(row)) {
    if (NUNCA.has(k) || PARECE_SECRETO.test(k) || (meta.campos && !meta.campos.includes(k)) || k === 'serie_codigo') continue;
    if (v instanceof Uint8Array) continue;
    out[k] = v;
  }
  return out;
}

/** A handler's own detail without any field named like a secret. */
const sinSecretos = (f: Fila): Fila => Object.fromEntries(Object.entries(f).filter(([k]) => !PARECE_SECRETO.test(k)));

/** Before and after, with only the fields that changed (all of them on a create or delete). */
function diferencia(antes: Fila | null, despues: Fila | null): { antes: Fila | null; despues: Fila | null } {
  if (!antes || !despues) return { antes, despues };
  const a: Fila = {};
  const d: Fila = {};
  for (const k of new Set([...Object.keys(antes), ...Object.keys(despues)])) {
    if (String(antes[k] ?? '') === String(despues[k] ?? '')) continue;
    a[k] = antes[k] ?? null;
    d[k] = despues[k] ?? null;
  }
  return { antes: a, despues: d };
}

async function escribir(trx: Transaction<Database>, ctx: Contexto, tx: NonNullable<Contexto['tx']>, result: unknown): Promise<void> {
  const detalles: Detalle[] = tx.detalles.length ? tx.detalles : [{}];
  const fecha = nowIso();
  for (const d of detalles) {
    const entidad = d.entidad !== undefined ? d.entidad : ctx.entidad;
    const mismo = entidad === ctx.entidad;
    const id = d.entidad_id ?? (mismo ? (tx.idPrevio ?? idDe(result)) : null);
    const meta = entidad ? ENTIDADES[entidad] : undefined;
    let tipo = d.tipo ?? ctx.tipo;
    let numero = d.numero ?? null;
    let antes: Fila | null = null;
    let despues: Fila | null = null;
    if (meta && id !== null) {
      const ahora = await leer(trx, meta, id);
      const anterior = mismo && id === tx.idPrevio ? tx.previo : undefined;
      numero ??= numeroDeFila(entidad!, meta, ahora ?? anterior);
      if (meta.diff && CON_CAMPOS.has(tipo)) {
        ({ antes, despues } = diferencia(campos(meta, anterior), campos(meta, ahora)));
        // A new password shows as changed, never as its hash.
        if (anterior && ahora && anterior.password_hash !== ahora.password_hash && antes && despues) {
          antes.password = '(anterior)';
          despues.password = '(cambiada)';
        }
        if (tipo === 'guardar' && entidad === 'configuracion' && Object.keys(despues ?? {}).some((k) => FLAGS.has(k))) tipo = 'modulos';
      }
    }
    if (!despues && d.despues) despues = sinSecretos(d.despues);
    const usuario = d.usuario !== undefined ? d.usuario : ctx.usuario;
    await trx
      .insertInto('actividad')
      .values({
        fecha,
        usuario_id: usuario?.id ?? null,
        usuario_nombre: usuario?.nombre ?? null,
        ip: ctx.ip,
        accion: ctx.accion,
        tipo,
        entidad,
        entidad_id: id,
        numero,
        antes: antes && Object.keys(antes).length ? JSON.stringify(antes) : null,
        despues: despues && Object.keys(despues).length ? JSON.stringify(despues) : null,
      })
      .execute();
  }
}
