import type { Kysely } from 'kysely';
import { MESSAGES, MOTIVO_DEVOLUCION_CODIGOS, esReciboDomiciliado, ibanValido } from 'shared/domain';
import type { ReciboPendiente, ReciboRemesa, Remesa, Schema } from 'shared/domain';
import { nowIso, todayIn } from '../../context.ts';
import { cuentaDe, recalcularCuenta, registrarCobro } from '../../documentos/cobros.ts';
import { numeroDeTipo } from '../../documentos/lectura.ts';
import { pain008 } from '../../fiscal/sepa.ts';
import { listSchema, paging } from '../comun.ts';
import { FileDownload, defineAction, fail, invalidFields } from '../registry.ts';

// biome-ignore lint/suspicious/noExplicitAny: raw queries over the sales' tables
type AnyDb = Kysely<any>;

/**
 * Remesas SEPA (issue 26; docs/cobros-pagos.md «Remesas SEPA»): the due, uncollected instalments of the invoices paid by «Recibo
 * domiciliado» gathered into a remesa (`editarremesa`), its pain.008.001.02 file for the bank (`descargarremesa`), the
 * remesa marked paid — each receipt's cobro recorded on its invoice (`pagarremesa`) — and a receipt the bank returned
 * (`devolverrecibo`, with its date and R-transaction reason code) reopening its instalment. Each receipt freezes what
 * the file said: its amount, its mandate, its IBAN and its sequence type — FRST for the mandate's first collection,
 * RCUR once the mandate has a receipt that was not returned (or the customer's mandate was marked recurrent).
 */

const FLAGS = ['ventas' as const, 'ventas_facturas' as const];

type Candidato = ReciboPendiente & {
  iban: string | null;
  bic: string | null;
  mandato_referencia: string | null;
  mandato_fecha: string | null;
  mandato_secuencia: string | null;
  mandato_esquema: string | null;
};

/** Receipts of an unpaid remesa, not returned: their instalments are taken. */
async function plazosEnRemesa(db: AnyDb): Promise<Set<string>> {
  const rows = await db
    .selectFrom('remesa_recibos as r')
    .innerJoin('remesas as m', 'm.id', 'r.remesa_id')
    .select(['r.documento_id', 'r.plazo'])
    .where('m.estado', '=', 'emitida')
    .where('r.devuelto_fecha', 'is', null)
    .execute();
  return new Set(rows.map((r) => `${r.documento_id}:${r.plazo}`));
}

/** The due (on or before `hasta`), uncollected instalments of issued invoices paid by direct debit, oldest first. */
async function candidatos(db: AnyDb, hasta: string): Promise<Candidato[]> {
  const facturas = await db
    .selectFrom('documentos as d')
    .innerJoin('clientes as c', 'c.id', 'd.cliente_id')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .select(['d.id', 'd.tipo', 'd.ejercicio', 'd.numero', 'd.forma_pago', 's.codigo as serie_codigo', 'c.id as cliente_id', 'c.razon_social'])
    .select(['c.iban', 'c.bic', 'c.mandato_referencia', 'c.mandato_fecha', 'c.mandato_secuencia', 'c.mandato_esquema'])
    .where('d.tipo', '=', 'factura')
    .where('d.estado', '=', 'emitida')
    .where('d.por_cobrar', '>', 0)
    .where('d.forma_pago', 'like', 'recibo%')
    .orderBy('d.id')
    .execute();
  const ocupados = await plazosEnRemesa(db);
  const out: Candidato[] = [];
  for (const f of facturas) {
    if (!esReciboDomiciliado(f.forma_pago)) continue;
    const c = await cuentaDe(db, f.id);
    if (!c) continue;
    const problema = !ibanValido(f.iban) || !f.mandato_referencia || !f.mandato_fecha ? MESSAGES.clienteSinMandato : null;
    c.plazos.forEach((p, i) => {
      const clave = `${f.id}:${i}`;
      if (p.pendiente <= 0 || p.fecha > hasta || ocupados.has(clave)) return;
      out.push({
        clave, documento_id: f.id, documento_numero: numeroDeTipo(f.tipo, f), cliente_id: f.cliente_id, cliente_nombre: f.razon_social, plazo: i, vencimiento: p.fecha,
        importe: p.pendiente, forma_pago: f.forma_pago, problema, iban: f.iban, bic: f.bic, mandato_referencia: f.mandato_referencia, mandato_fecha: f.mandato_fecha,
        mandato_secuencia: f.mandato_secuencia, mandato_esquema: f.mandato_esquema,
      });
    });
  }
  return out.sort((a, b) => (a.vencimiento === b.vencimiento ? a.documento_id - b.documento_id || a.plazo - b.plazo : a.vencimiento < b.vencimiento ? -1 : 1));
}

/** Whether the mandate has a receipt that was not returned (its history): then its next one is RCUR. */
async function mandatoUsado(db: AnyDb, clienteId: number, referencia: string): Promise<boolean> {
  const r = await db
    .selectFrom('remesa_recibos')
    .select('id')
    .where('cliente_id', '=', clienteId)
    .where('mandato_referencia', '=', referencia)
    .where('devuelto_fecha', 'is', null)
    .executeTakeFirst();
  return !!r;
}

async function empresa(db: AnyDb) {
  const conf = await db.selectFrom('configuracion').select(['razon_social', 'nif', 'iban', 'bic', 'acreedor_sepa']).orderBy('id').limit(1).executeTakeFirst();
  if (!conf?.acreedor_sepa) throw fail(MESSAGES.empresaSinAcreedor, '1', 400);
  if (!conf.iban || !ibanValido(conf.iban)) throw fail(MESSAGES.empresaSinIban, '1', 400);
  return conf as { razon_social: string; nif: string; iban: string; bic: string | null; acreedor_sepa: string };
}

async function recibosDe(db: AnyDb, remesaId: number): Promise<ReciboRemesa[]> {
  const rows = await db
    .selectFrom('remesa_recibos as r')
    .innerJoin('documentos as d', 'd.id', 'r.documento_id')
    .innerJoin('clientes as c', 'c.id', 'r.cliente_id')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .selectAll('r')
    .select(['d.tipo', 'd.ejercicio', 'd.numero', 's.codigo as serie_codigo', 'c.razon_social as cliente_nombre'])
    .where('r.remesa_id', '=', remesaId)
    .orderBy('r.id')
    .execute();
  return rows.map(({ tipo, ejercicio, numero, serie_codigo, ...r }) => ({ ...r, importe: Number(r.importe), documento_numero: numeroDeTipo(tipo, { ejercicio, numero, serie_codigo }) })) as ReciboRemesa[];
}

async function leerRemesa(db: AnyDb, id: number, conRecibos: boolean): Promise<Remesa | undefined> {
  const m = await db.selectFrom('remesas').selectAll().where('id', '=', id).executeTakeFirst();
  if (!m) return undefined;
  const recibos = await recibosDe(db, id);
  const vivos = recibos.filter((r) => !r.devuelto_fecha);
  return {
    ...m,
    num_recibos: recibos.length,
    total: recibos.reduce((s, r) => s + r.importe, 0),
    devueltos: recibos.length - vivos.length,
    ...(conRecibos ? { recibos } : {}),
  } as Remesa;
}

const claves = (v: unknown): string[] | null => {
  if (v === undefined || v === null || v === '') return [];
  if (!Array.isArray(v)) return null;
  const out = v.map(String);
  return out.every((x) => /^\d+:\d+$/.test(x)) ? [...new Set(out)] : null;
};

export const remesaActions = [
  /** What a remesa up to `hasta` would gather (Ventas › Remesas › Nueva): each instalment, and why one can't go yet. */
  defineAction({
    name: 'listadorecibospendientes',
    method: 'GET',
    flags: FLAGS,
    input: { hasta: { type: 'date', required: true } } as const satisfies Schema,
    async handler({ input, app }) {
      const rows = (await candidatos(app.db as AnyDb, input.hasta)).map(({ iban, bic, mandato_secuencia, mandato_esquema, mandato_fecha, ...r }) => ({ ...r, mandato_fecha }));
      return { RESULT: '0', data: rows, total: rows.length };
    },
  }),

  defineAction({
    name: 'editarremesa',
    method: 'POST',
    flags: FLAGS,
    input: {
      fecha_cargo: { type: 'date', required: true },
      hasta: { type: 'date', required: true },
    } as const satisfies Schema,
    async handler({ input, raw, app, user }) {
      const elegidos = claves(raw.recibos);
      if (!elegidos) throw invalidFields({ recibos: MESSAGES.invalidList });
      if (input.fecha_cargo < todayIn(app.timeZone)) throw invalidFields({ fecha_cargo: MESSAGES.remesaFechaCargo });
      const id = await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        await empresa(db);
        const todos = await candidatos(db, input.hasta);
        let lista: Candidato[];
        if (elegidos.length) {
          const by = new Map(todos.map((c) => [c.clave, c]));
          if (elegidos.some((k) => !by.has(k))) throw fail(MESSAGES.plazoNoPendiente, '1', 400);
          lista = elegidos.map((k) => by.get(k)!);
          const malo = lista.find((c) => c.problema);
          if (malo) throw fail(`${malo.cliente_nombre}: ${malo.problema}`, '1', 400);
        } else lista = todos.filter((c) => !c.problema);
        if (!lista.length) throw fail(MESSAGES.remesaVacia, '1', 400);
        const creado = nowIso();
        const m = await db
          .insertInto('remesas')
          .values({ fecha_cargo: input.fecha_cargo, hasta: input.hasta, estado: 'emitida', pagada_fecha: null, creado, creado_por: user!.id })
          .returning('id')
          .executeTakeFirstOrThrow();
        const usados = new Map<string, boolean>();
        for (const c of lista) {
          const k = `${c.cliente_id}|${c.mandato_referencia}`;
          // The history before this remesa: receipts of the same new mandate in it are all its first collection.
          if (!usados.has(k)) usados.set(k, c.mandato_secuencia === 'RCUR' || (await mandatoUsado(db, c.cliente_id, c.mandato_referencia!)));
          await db
            .insertInto('remesa_recibos')
            .values({
              remesa_id: m.id, documento_id: c.documento_id, cliente_id: c.cliente_id, plazo: c.plazo, vencimiento: c.vencimiento, importe: c.importe,
              secuencia: usados.get(k) ? 'RCUR' : 'FRST', esquema: c.mandato_esquema ?? 'CORE', mandato_referencia: c.mandato_referencia!, mandato_fecha: c.mandato_fecha!,
              iban: c.iban!.toUpperCase().replace(/\s/g, ''), cobro_id: null, devuelto_fecha: null, devuelto_motivo: null,
            })
            .execute();
        }
        return m.id as number;
      });
      return { RESULT: '0', message: MESSAGES.remesaCreada, data: [await leerRemesa(app.db as AnyDb, id, true)] };
    },
  }),

  defineAction({
    name: 'listadoremesas',
    method: 'GET',
    flags: FLAGS,
    input: { ...listSchema(['fecha_cargo'] as const), estado: { type: 'enum', values: ['emitida', 'pagada'] } } as const satisfies Schema,
    async handler({ input, app }) {
      const db = app.db as AnyDb;
      if (input.id !== null) {
        const r = await leerRemesa(db, input.id, true);
        if (!r) throw fail(MESSAGES.notFound, '3');
        return { RESULT: '0', data: [r], total: 1 };
      }
      let q = db.selectFrom('remesas');
      if (input.estado) q = q.where('estado', '=', input.estado);
      // The search finds a remesa by its number.
      const buscado = (input.q ?? '').replace(/\D/g, '');
      if (input.q) q = q.where('id', '=', buscado ? Number(buscado) : 0);
      const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const p = paging(input);
      const ids = await q.select('id').orderBy('fecha_cargo', p.dir).orderBy('id', p.dir).limit(p.limit).offset(p.offset).execute();
      const data = [];
      for (const r of ids) data.push(await leerRemesa(db, r.id, false));
      return { RESULT: '0', data, total: Number(n) };
    },
  }),

  /** The pain.008.001.02 file of a remesa (its receipts not returned), for the bank. */
  defineAction({
    name: 'descargarremesa',
    method: 'GET',
    flags: FLAGS,
    input: { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, app }) {
      const db = app.db as AnyDb;
      const m = await db.selectFrom('remesas').selectAll().where('id', '=', input.id).executeTakeFirst();
      if (!m) throw fail(MESSAGES.notFound, '3');
      const conf = await empresa(db);
      const recibos = (await recibosDe(db, m.id)).filter((r) => !r.devuelto_fecha);
      if (!recibos.length) throw fail(MESSAGES.remesaVacia, '1', 400);
      const clientes = new Map(
        (await db.selectFrom('clientes').select(['id', 'bic']).where('id', 'in', [...new Set(recibos.map((r) => r.cliente_id))]).execute()).map((c) => [c.id, c.bic as string | null]),
      );
      const xml = pain008({
        mensajeId: `REM-${m.id}-${m.creado.replace(/\D/g, '').slice(0, 14)}`,
        creado: m.creado.slice(0, 19),
        fecha: m.fecha_cargo,
        empresa: conf,
        adeudos: recibos.map((r) => ({
          referencia: `R${r.id}-${r.documento_numero}`,
          importe: r.importe,
          secuencia: r.secuencia,
          esquema: r.esquema,
          mandato: r.mandato_referencia,
          mandatoFecha: r.mandato_fecha,
          nombre: r.cliente_nombre,
          iban: r.iban,
          bic: clientes.get(r.cliente_id) ?? null,
          concepto: `Factura ${r.documento_numero} vencimiento ${r.vencimiento}`,
        })),
      });
      return new FileDownload(`remesa-${m.id}-${m.fecha_cargo}.xml`, 'application/xml; charset=utf-8', xml);
    },
  }),

  /** The bank charged it: each receipt's cobro on its invoice (its amount, the charge date), in one transaction. */
  defineAction({
    name: 'pagarremesa',
    method: 'POST',
    flags: FLAGS,
    input: { id: { type: 'int', required: true, min: 1 }, fecha: { type: 'date' } } as const satisfies Schema,
    async handler({ input, app, user }) {
      await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        const m = await db.selectFrom('remesas').selectAll().where('id', '=', input.id).$if(app.dialect === 'postgres', (q) => q.forUpdate()).executeTakeFirst();
        if (!m) throw fail(MESSAGES.notFound, '3');
        if (m.estado === 'pagada') throw fail(MESSAGES.remesaPagada, '1', 400);
        const fecha = input.fecha ?? m.fecha_cargo;
        const creado = nowIso();
        const recibos = await db.selectFrom('remesa_recibos').selectAll().where('remesa_id', '=', m.id).where('devuelto_fecha', 'is', null).orderBy('id').execute();
        for (const r of recibos) {
          const d = await db.selectFrom('documentos').select(['id', 'tipo', 'forma_pago']).where('id', '=', r.documento_id).$if(app.dialect === 'postgres', (q) => q.forUpdate()).executeTakeFirstOrThrow();
          const c = await registrarCobro(db, d, { fecha, forma: d.forma_pago, importe: Number(r.importe), usuarioId: user!.id, creado });
          await db.updateTable('remesa_recibos').set({ cobro_id: c.id }).where('id', '=', r.id).execute();
          await db.updateTable('documentos').set({ modificado: creado, modificado_por: user!.id }).where('id', '=', d.id).execute();
        }
        await db.updateTable('remesas').set({ estado: 'pagada', pagada_fecha: fecha }).where('id', '=', m.id).execute();
      });
      return { RESULT: '0', message: MESSAGES.remesaMarcadaPagada, data: [await leerRemesa(app.db as AnyDb, input.id, true)] };
    },
  }),

  /** A receipt the bank returned: its cobro removed (the instalment is owed again, for a later remesa), its date and reason kept. */
  defineAction({
    name: 'devolverrecibo',
    method: 'POST',
    flags: FLAGS,
    input: {
      id: { type: 'int', required: true, min: 1 },
      fecha: { type: 'date', required: true },
      motivo: { type: 'enum', required: true, values: MOTIVO_DEVOLUCION_CODIGOS },
    } as const satisfies Schema,
    async handler({ input, app, user }) {
      const remesaId = await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        const r = await db.selectFrom('remesa_recibos').selectAll().where('id', '=', input.id).executeTakeFirst();
        if (!r) throw fail(MESSAGES.notFound, '3');
        if (r.devuelto_fecha) throw fail(MESSAGES.reciboYaDevuelto, '1', 400);
        const m = await db.selectFrom('remesas').select(['id', 'estado']).where('id', '=', r.remesa_id).executeTakeFirstOrThrow();
        if (m.estado !== 'pagada' || !r.cobro_id) throw fail(MESSAGES.remesaNoPagada, '1', 400);
        await db.updateTable('remesa_recibos').set({ cobro_id: null, devuelto_fecha: input.fecha, devuelto_motivo: input.motivo }).where('id', '=', r.id).execute();
        await db.deleteFrom('cobros').where('id', '=', r.cobro_id).execute();
        await recalcularCuenta(db, r.documento_id);
        await db.updateTable('documentos').set({ modificado: nowIso(), modificado_por: user!.id }).where('id', '=', r.documento_id).execute();
        return m.id as number;
      });
      return { RESULT: '0', message: MESSAGES.reciboDevuelto, data: [await leerRemesa(app.db as AnyDb, remesaId, true)] };
    },
  }),

  /** A remesa not yet paid is undone: its instalments are free for another. */
  defineAction({
    name: 'eliminarremesa',
    method: 'POST',
    flags: FLAGS,
    input: { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, app }) {
      await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        const m = await db.selectFrom('remesas').select(['id', 'estado']).where('id', '=', input.id).executeTakeFirst();
        if (!m) throw fail(MESSAGES.notFound, '3');
        if (m.estado === 'pagada') throw fail(MESSAGES.remesaPagada, '1', 400);
        await db.deleteFrom('remesa_recibos').where('remesa_id', '=', m.id).execute();
        await db.deleteFrom('remesas').where('id', '=', m.id).execute();
      });
      return { RESULT: '0', data: [{ id: input.id }] };
    },
  }),
];

/** A cobro a remesa recorded is undone by returning its receipt, not by removing the cobro. */
export async function cobroDeRemesa(db: AnyDb, cobroIds: number[]): Promise<string | null> {
  if (!cobroIds.length) return null;
  const r = await db.selectFrom('remesa_recibos').select(['remesa_id']).where('cobro_id', 'in', cobroIds).executeTakeFirst();
  return r ? MESSAGES.cobroDeRemesa.replace('{remesa}', String(r.remesa_id)) : null;
}
