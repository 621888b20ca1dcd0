import type { Kysely } from 'kysely';
import { FORMAS_COBRO_ADMITIDAS, MESSAGES, ibanValido } from 'shared/domain';
import type { Schema, VencimientoProveedor } from 'shared/domain';
import { nowIso, todayIn } from '../../context.ts';
import { cuentaProveedorDe, recalcularCuentaProveedor, registrarPago } from '../../documentos/pagos.ts';
import { pain001 } from '../../fiscal/sepa.ts';
import { listSchema, paging } from '../comun.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';
import { leerFactura } from './hcp.ts';

// biome-ignore lint/suspicious/noExplicitAny: raw queries over the purchases' tables
type AnyDb = Kysely<any>;

const FLAGS = ['compras' as const, 'hcp' as const];


/** The Sunday that ends the week (Monday to Sunday) of `hoy`. */
export function finDeSemana(hoy: string): string {
  const d = new Date(`${hoy}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + ((7 - d.getUTCDay()) % 7));
  return d.toISOString().slice(0, 10);
}

/** Every unpaid instalment of the invoices the shop owes (por_pagar > 0), oldest due first. */
export async function vencimientosPendientes(db: AnyDb, f: { proveedor_id?: number | null } = {}): Promise<VencimientoProveedor[]> {
  let q = db
    .selectFrom('facturas_proveedor as f')
    .innerJoin('proveedores as p', 'p.id', 'f.proveedor_id')
    .select(['f.id', 'f.numero_proveedor', 'f.proveedor_id', 'p.razon_social', 'p.iban'])
    .where('f.por_pagar', '>', 0);
  if (f.proveedor_id) q = q.where('f.proveedor_id', '=', f.proveedor_id);
  const out: VencimientoProveedor[] = [];
  for (const r of await q.execute()) {
    // The instalments of what the account owes, paid in order: only what is left is due (the account's own maths).
    const plazos = (await cuentaProveedorDe(db, r.id))?.plazos ?? [];
    plazos.forEach((p, i) => {
      if (p.pendiente <= 0) return;
      out.push({
        clave: `${r.id}:${i}`, factura_id: r.id, numero_proveedor: r.numero_proveedor, proveedor_id: r.proveedor_id, proveedor_nombre: r.razon_social,
        proveedor_iban: r.iban, iban_valido: ibanValido(r.iban), plazo: i, fecha: p.fecha, importe: p.importe, pendiente: p.pendiente,
      });
    });
  }
  return out.sort((a, b) => (a.fecha === b.fecha ? a.factura_id - b.factura_id || a.plazo - b.plazo : a.fecha < b.fecha ? -1 : 1));
}

/** Totals of a list of instalments: overdue (before today), due this week (today … Sunday), all, and by supplier. */
export function resumenVencimientos(rows: VencimientoProveedor[], hoy: string) {
  const domingo = finDeSemana(hoy);
  const porProveedor = new Map<number, { proveedor_id: number; proveedor_nombre: string; pendiente: number; vencido: number; semana: number }>();
  let vencido = 0;
  let semana = 0;
  let total = 0;
  for (const r of rows) {
    const e = porProveedor.get(r.proveedor_id) ?? { proveedor_id: r.proveedor_id, proveedor_nombre: r.proveedor_nombre, pendiente: 0, vencido: 0, semana: 0 };
    e.pendiente += r.pendiente;
    total += r.pendiente;
    if (r.fecha < hoy) {
      e.vencido += r.pendiente;
      vencido += r.pendiente;
    } else if (r.fecha <= domingo) {
      e.semana += r.pendiente;
      semana += r.pendiente;
    }
    porProveedor.set(r.proveedor_id, e);
  }
  return { hoy, fin_semana: domingo, vencido, semana, total, por_proveedor: [...porProveedor.values()].sort((a, b) => b.pendiente - a.pendiente) };
}

const claves = (v: unknown): { factura: number; plazo: number }[] | null => {
  if (!Array.isArray(v) || !v.length) return null;
  const out = v.map((x) => /^(\d+):(\d+)$/.exec(String(x)));
  if (out.some((m) => !m)) return null;
  return [...new Set(out.map((m) => m![0]))].map((k) => {
    const [a, b] = k.split(':');
    return { factura: Number(a), plazo: Number(b) };
  });
};

/** Issue 26: paying suppliers — payments in parts and their undo, the instalments due, the SEPA transfer file. */
export const pagoProveedorActions = [
  defineAction({
    name: 'pagarfacturaproveedor',
    method: 'POST',
    flags: FLAGS,
    input: {
      id: { type: 'int', required: true, min: 1 },
      fecha: { type: 'date', required: true },
      // How it was paid (a medio, as for a cobro); absent, the invoice's forma de pago.
      forma: { type: 'enum', values: FORMAS_COBRO_ADMITIDAS },
      // Cents of a partial payment; absent, everything left.
      importe: { type: 'int', min: 1 },
    } as const satisfies Schema,
    async handler({ input, app, user }) {
      await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        const f = await db
          .selectFrom('facturas_proveedor')
          .select(['id', 'forma_pago'])
          .where('id', '=', input.id)
          .$if(app.dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        if (!f) throw fail(MESSAGES.notFound, '3');
        await registrarPago(db, f.id, { fecha: input.fecha, forma: input.forma ?? f.forma_pago ?? null, importe: input.importe, usuarioId: user!.id, creado: nowIso() });
      });
      return { RESULT: '0', message: MESSAGES.pagoRegistrado, data: [await leerFactura(app.db as AnyDb, input.id)] };
    },
  }),

  /** The undo of a payment entered by mistake (or of one a transfer file recorded that the bank did not make). */
  defineAction({
    name: 'eliminarpagoproveedor',
    method: 'POST',
    flags: FLAGS,
    input: { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, app }) {
      const facturaId = await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        const p = await db.selectFrom('pagos_proveedor').select(['id', 'factura_id']).where('id', '=', input.id).executeTakeFirst();
        if (!p) throw fail(MESSAGES.notFound, '3');
        await db.deleteFrom('pagos_proveedor').where('id', '=', p.id).execute();
        await recalcularCuentaProveedor(db, p.factura_id);
        return p.factura_id as number;
      });
      return { RESULT: '0', message: MESSAGES.pagoEliminado, data: [await leerFactura(app.db as AnyDb, facturaId)] };
    },
  }),

  /** Compras › Pagos: the unpaid instalments (overdue, this week, all), with totals overall and by supplier. */
  defineAction({
    name: 'listadovencimientosproveedor',
    method: 'GET',
    flags: FLAGS,
    input: {
      ...listSchema(['fecha'] as const),
      proveedor_id: { type: 'int', min: 1 },
      estado: { type: 'enum', values: ['vencido', 'semana', 'pendiente'] },
    } as const satisfies Schema,
    async handler({ input, app }) {
      const hoy = todayIn(app.timeZone);
      const todos = await vencimientosPendientes(app.db as AnyDb, { proveedor_id: input.proveedor_id });
      const domingo = finDeSemana(hoy);
      const q = (input.q ?? '').trim().toLowerCase();
      const rows = todos
        .filter((r) => (input.estado === 'vencido' ? r.fecha < hoy : input.estado === 'semana' ? r.fecha >= hoy && r.fecha <= domingo : true))
        .filter((r) => !q || r.proveedor_nombre.toLowerCase().includes(q) || r.numero_proveedor.toLowerCase().includes(q));
      const p = paging(input);
      if (p.dir === 'desc') rows.reverse();
      // The totals are of every unpaid instalment (overdue, this week, all, by supplier); the rows, of the filter's page.
      return { RESULT: '0', data: rows.slice(p.offset, p.offset + p.limit), total: rows.length, resumen: resumenVencimientos(todos, hoy) };
    },
  }),

  /**
   * The SEPA credit transfer file (pain.001.001.03) of the chosen instalments, executed on `fecha`: each supplier's IBAN
   * must be valid (mod 97), the company's IBAN configured. Making it records each instalment's payment (forma
   * «transferencia», that date) in the same transaction: the file is the order the bank executes; a payment the bank
   * did not make is undone with eliminarpagoproveedor. Answered as JSON: the file's name and its XML.
   */
  defineAction({
    name: 'transferenciaproveedores',
    method: 'POST',
    flags: FLAGS,
    input: { fecha: { type: 'date', required: true } } as const satisfies Schema,
    async handler({ input, raw, app, user }) {
      const elegidos = claves(raw.plazos);
      if (!elegidos) throw invalidFields({ plazos: MESSAGES.sinPlazos });
      const hoy = todayIn(app.timeZone);
      if (input.fecha < hoy) throw invalidFields({ fecha: MESSAGES.fechaEjecucionPasada });
      const conf = await app.db.selectFrom('configuracion').select(['razon_social', 'nif', 'iban', 'bic']).orderBy('id').limit(1).executeTakeFirst();
      if (!conf?.iban || !ibanValido(conf.iban)) throw fail(MESSAGES.empresaSinIban, '1', 400);
      const creado = nowIso();
      const xml = await app.db.transaction().execute(async (trx) => {
        const db = trx as unknown as AnyDb;
        const ids = [...new Set(elegidos.map((e) => e.factura))];
        if (app.dialect === 'postgres') await db.selectFrom('facturas_proveedor').select('id').where('id', 'in', ids).forUpdate().execute();
        const pendientes = new Map((await vencimientosPendientes(db)).map((v) => [v.clave, v]));
        const lista = elegidos.map((e) => pendientes.get(`${e.factura}:${e.plazo}`));
        if (lista.some((v) => !v)) throw fail(MESSAGES.plazoNoPendiente, '1', 400);
        const malo = lista.find((v) => !v!.iban_valido);
        if (malo) throw fail(MESSAGES.proveedorSinIban.replace('{nombre}', malo.proveedor_nombre), '1', 400);
        for (const v of lista) await registrarPago(db, v!.factura_id, { fecha: input.fecha, forma: 'transferencia', importe: v!.pendiente, usuarioId: user!.id, creado });
        const texto = pain001({
          mensajeId: `TRF-${creado.replace(/\D/g, '').slice(0, 17)}`,
          creado: creado.slice(0, 19),
          fecha: input.fecha,
          empresa: { razon_social: conf.razon_social, nif: conf.nif, iban: conf.iban!, bic: conf.bic ?? null },
          pagos: lista.map((v) => ({
            referencia: `F${v!.factura_id}-${v!.plazo + 1}`,
            importe: v!.pendiente,
            nombre: v!.proveedor_nombre,
            iban: v!.proveedor_iban!,
            concepto: `Factura ${v!.numero_proveedor} vencimiento ${v!.fecha}`,
          })),
        });
        return { texto, total: lista.reduce((s, v) => s + v!.pendiente, 0) };
      });
      // JSON (the screens' client): the file's name and text, which the browser saves; the payments are recorded.
      return {
        RESULT: '0',
        message: MESSAGES.transferenciaGenerada.replace('{n}', String(elegidos.length)),
        data: [{ nombre: `transferencias-${input.fecha}.xml`, xml: xml.texto, pagos: elegidos.length, total: xml.total }],
      };
    },
  }),
];
