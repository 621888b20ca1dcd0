import { sql } from 'kysely';
import { puede, tiene } from 'shared/domain';
import type { Area, Derechos, FlagName, ModuleFlags, PendienteInicio } from 'shared/domain';
import { todayIn } from '../context.ts';
import { condicionesCobro } from '../documentos/facturas.ts';
import { finDeSemana, vencimientosPendientes } from './compras/pagos.ts';
import { defineAction } from './registry.ts';

/**
 * Issue 26: what is waiting, on the home page. Each item is a count (and an amount where money is waiting) with the
 * address of the filtered list that shows it; an item appears only while something waits, and only where the user's
 * role may see that list and its module is on.
 */
type Pendiente = PendienteInicio;

// biome-ignore lint/suspicious/noExplicitAny: the summary reads across tables with raw SQL.
type AnyDb = any;

const visible = (flags: ModuleFlags, derechos: Derechos | null | undefined, area: Area, ...modulos: FlagName[]) =>
  modulos.every((f) => flags[f] === 1) && puede(derechos, area, 'ver');

async function porEstado(db: AnyDb, tipo: string, estado: string): Promise<{ n: number; total: number }> {
  const r = await db
    .selectFrom('documentos')
    .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(total), 0)`.as('total')])
    .where('tipo', '=', tipo)
    .where('estado', '=', estado)
    .executeTakeFirst();
  return { n: Number(r?.n ?? 0), total: Number(r?.total ?? 0) };
}

export const inicioActions = [
  defineAction({
    name: 'resumeninicio',
    method: 'GET',
    async handler({ app, user }) {
      const flags = await app.config.flags();
      const derechos = user?.rol?.derechos;
      const db = app.db as AnyDb;
      const hoy = todayIn(app.timeZone);
      const out: Pendiente[] = [];

      if (visible(flags, derechos, 'facturas', 'ventas', 'ventas_facturas')) {
        const vencidas = sql.join([sql`d.tipo = 'factura'`, ...condicionesCobro('vencida', hoy)], sql` and `);
        const { rows } = await sql<{ cliente_id: number; nombre: string; n: number; importe: number }>`
          select d.cliente_id, c.razon_social as nombre, count(*) as n, sum(d.por_cobrar) as importe
          from documentos d join clientes c on c.id = d.cliente_id
          where ${vencidas}
          group by d.cliente_id, c.razon_social
          order by sum(d.por_cobrar) desc, c.razon_social`.execute(db);
        if (rows.length) {
          out.push({
            clave: 'cobros_vencidos',
            titulo: 'Cobros vencidos',
            documentos: rows.reduce((s, r) => s + Number(r.n), 0),
            importe: rows.reduce((s, r) => s + Number(r.importe), 0),
            ruta: '/ventas/facturas?cobro=vencida',
            detalle: rows.slice(0, 3).map((r) => ({ nombre: r.nombre, importe: Number(r.importe) })),
          });
        }
      }
      if (visible(flags, derechos, 'ventas', 'ventas', 'ventas_pedidos')) {
        for (const [estado, titulo] of [['confirmado', 'Pedidos de venta por servir'], ['enviado_parcial', 'Pedidos de venta servidos en parte']] as const) {
          const p = await porEstado(db, 'pedidoventa', estado);
          if (p.n) out.push({ clave: `pedidoventa_${estado}`, titulo, documentos: p.n, importe: p.total, ruta: `/ventas/pedidos?estado=${estado}` });
        }
      }
      if (visible(flags, derechos, 'compras', 'compras', 'compras_pedidos')) {
        for (const [estado, titulo] of [['enviado', 'Pedidos de compra por recibir'], ['recibido_parcial', 'Pedidos de compra recibidos en parte']] as const) {
          const p = await porEstado(db, 'pedidocompra', estado);
          if (p.n) out.push({ clave: `pedidocompra_${estado}`, titulo, documentos: p.n, importe: p.total, ruta: `/compras/pedidos?estado=${estado}` });
        }
      }
      // What the shop owes its suppliers, due by Sunday (overdue apart): purchase amounts, only with «ver costes».
      if (visible(flags, derechos, 'compras', 'compras', 'hcp') && tiene(derechos, 'ver_costes')) {
        const domingo = finDeSemana(hoy);
        const plazos = (await vencimientosPendientes(db)).filter((v) => v.fecha <= domingo);
        for (const [clave, titulo, estado, elegidos] of [
          ['pagos_vencidos', 'Pagos a proveedores vencidos', 'vencido', plazos.filter((v) => v.fecha < hoy)],
          ['pagos_semana', 'Pagos a proveedores de esta semana', 'semana', plazos.filter((v) => v.fecha >= hoy)],
        ] as const) {
          if (elegidos.length) {
            out.push({ clave, titulo, documentos: elegidos.length, importe: elegidos.reduce((s, v) => s + v.pendiente, 0), ruta: `/compras/pagos?estado=${estado}` });
          }
        }
      }
      if (visible(flags, derechos, 'almacenes', 'almacenes') && puede(derechos, 'informes', 'ver')) {
        const r = await db
          .selectFrom('articulos')
          .select(sql<number>`count(*)`.as('n'))
          .where('activo', '=', 1)
          .where('stock_minimo', '>', 0)
          .where(sql<boolean>`stock_total < stock_minimo`)
          .executeTakeFirst();
        const n = Number(r?.n ?? 0);
        if (n) out.push({ clave: 'bajo_minimo', titulo: 'Artículos bajo su stock mínimo', documentos: n, importe: null, ruta: '/informes/info-inventario?vista=bajo_minimo' });
      }
      if (visible(flags, derechos, 'facturas', 'ventas', 'ventas_facturas')) {
        // A refused record already corrected by a later one (its subsanación) waits for nothing.
        const { rows } = await sql<{ pendientes: number; fallidos: number }>`
          select sum(case when r.estado_envio = 'pendiente' then 1 else 0 end) as pendientes,
            sum(case when r.estado_envio in ('incorrecto', 'aceptado_con_errores')
              and not exists (select 1 from registros_facturacion s where s.subsana_id = r.id) then 1 else 0 end) as fallidos
          from registros_facturacion r`.execute(db);
        const r = rows[0];
        const pendientes = Number(r?.pendientes ?? 0);
        const fallidos = Number(r?.fallidos ?? 0);
        if (pendientes) out.push({ clave: 'registros_pendientes', titulo: 'Registros de facturación sin enviar', documentos: pendientes, importe: null, ruta: '/ventas/registros?estado_envio=pendiente' });
        if (fallidos) out.push({ clave: 'registros_fallidos', titulo: 'Registros rechazados o con errores', documentos: fallidos, importe: null, ruta: '/ventas/registros?estado_envio=incorrecto' });
      }
      return { RESULT: '0', data: out };
    },
  }),
];
