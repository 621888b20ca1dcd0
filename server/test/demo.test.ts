import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { lastMonths } from '../src/actions/grafico.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list } from './catalogo-fixtures.ts';
import { enviar, guardar } from './documentos-fixtures.ts';

const HOY = todayIn('Europe/Madrid');
/** A year ago, and the few days the oldest orders of the year's first deliveries were placed before. */
const HACE_UN_ANO = (() => {
  const d = new Date(`${HOY}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 372);
  return d.toISOString().slice(0, 10);
})();

/** The demo on: as `pnpm start` with MANAGER_DEMO unset (the demo's warehouses, parties and its generated year). */
const DEMO = { demo: true, demoStock: true } as const;

const contar = async (t: SuiteApp, tabla: string, where = sql`1 = 1`) =>
  Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(tabla)} where ${where}`.execute(t.app.manager.db)).rows[0].n);

/** A real invoice of today, emitted: its number. */
async function facturaReal(t: SuiteApp): Promise<string> {
  const db = t.app.manager.db;
  const serie = await db.selectFrom('series').select('id').where('codigo', '=', 'A').executeTakeFirstOrThrow();
  const cliente = await db.selectFrom('clientes').select('id').where('codigo', '=', 'C0001').executeTakeFirstOrThrow();
  const articulo = await db.selectFrom('articulos').select('id').orderBy('id').executeTakeFirstOrThrow();
  const almacen = await db.selectFrom('almacenes').select('id').where('codigo', '=', 'PRINCIPAL').executeTakeFirstOrThrow();
  const borrador = await guardar(t, 'editarfactura', {
    fecha: HOY, cliente_id: cliente.id, almacen_id: almacen.id, serie_id: serie.id, lineas: [{ articulo_id: articulo.id, cantidad: 1_000 }],
  });
  const emitida = await guardar<{ numero: string }>(t, 'emitirfactura', { id: borrador.id });
  return emitida.numero;
}

/** Per document, what its lines say the ledger must hold (thousandths, signed), by the engine's rules of each type. */
async function stockEsperado(t: SuiteApp): Promise<{ esperado: Map<string, number>; libro: Map<string, number> }> {
  const db = t.app.manager.db;
  const lineas = await sql<{ documento_id: number; tipo: string; estado: string; almacen_id: number; almacen_destino_id: number | null; articulo_id: number; cantidad: number; pendiente: number; teorico: number | null; origen: number }>`
    select d.id as documento_id, d.tipo, d.estado, d.almacen_id, d.almacen_destino_id, l.articulo_id, l.cantidad, l.pendiente, l.teorico,
      (select count(*) from documento_enlaces e where e.linea_id = l.id) as origen
    from documento_lineas l join documentos d on d.id = l.documento_id`.execute(db);
  const esperado = new Map<string, number>();
  const suma = (doc: number, almacen: number, articulo: number, q: number) => {
    const k = `${doc}|${almacen}|${articulo}`;
    esperado.set(k, (esperado.get(k) ?? 0) + q);
  };
  for (const l of lineas.rows) {
    const [q, p] = [Number(l.cantidad), Number(l.pendiente)];
    if (l.tipo === 'albarancompra') suma(l.documento_id, l.almacen_id, l.articulo_id, q);
    else if (l.tipo === 'devolucioncompra' || l.tipo === 'albaranventa' || l.tipo === 'perdida') suma(l.documento_id, l.almacen_id, l.articulo_id, -q);
    else if (l.tipo === 'factura' && l.estado === 'emitida' && Number(l.origen) === 0) suma(l.documento_id, l.almacen_id, l.articulo_id, -q);
    else if (l.tipo === 'rectificativa' || l.tipo === 'ticket') suma(l.documento_id, l.almacen_id, l.articulo_id, -q);
    else if (l.tipo === 'inventario') suma(l.documento_id, l.almacen_id, l.articulo_id, q - Number(l.teorico));
    else if (l.tipo === 'movimiento') {
      suma(l.documento_id, l.almacen_id, l.articulo_id, -q);
      suma(l.documento_id, l.almacen_destino_id!, l.articulo_id, q - p);
    }
  }
  for (const [k, v] of esperado) if (v === 0) esperado.delete(k);
  const filas = await sql<{ documento_id: number; almacen_id: number; articulo_id: number; q: number }>`
    select documento_id, almacen_id, articulo_id, sum(cantidad) as q from stock_movimientos where documento_id is not null
    group by documento_id, almacen_id, articulo_id having sum(cantidad) <> 0`.execute(db);
  const libro = new Map(filas.rows.map((r) => [`${r.documento_id}|${r.almacen_id}|${r.articulo_id}`, Number(r.q)]));
  return { esperado, libro };
}

describe.each(backends())('the demo company’s past ($name)', (backend) => {
  describe('a start with the demo', () => {
    const t = useTestApp(backend, DEMO);

    it('holds a year of purchases, sales, transfers, counts and losses, ending today', async () => {
      const db = t.app.manager.db;
      const porTipo = Object.fromEntries(
        (await db.selectFrom('documentos').select(['tipo', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('tipo').execute()).map((r) => [r.tipo, Number(r.n)]),
      );
      expect(porTipo.factura).toBeGreaterThanOrEqual(500);
      expect(porTipo.albaranventa).toBeGreaterThanOrEqual(500);
      expect(porTipo.rectificativa).toBeGreaterThan(0);
      expect(porTipo.albarancompra + porTipo.pedidocompra + porTipo.devolucioncompra).toBeGreaterThanOrEqual(200);
      expect(porTipo.movimiento).toBeGreaterThan(0);
      expect(porTipo.inventario).toBeGreaterThan(0);
      expect(porTipo.perdida).toBeGreaterThan(0);
      // The shop's till: tickets from Monday to Saturday, a caja a day closed by its Z (cierres de TPV has them).
      expect(porTipo.ticket).toBeGreaterThanOrEqual(1_200);
      expect(await contar(t, 'tpv_cierres')).toBeGreaterThanOrEqual(250);
      expect(await contar(t, 'tpv_cajas', sql`cierre_id is null`)).toBe(0);
      const cierres = (await t.op('informecierrestpv', { cookie: t.cookie, query: { desde: '2000-01-01', hasta: HOY } })).json();
      expect(cierres.totales.tickets).toBe(porTipo.ticket);
      const fechas = await db.selectFrom('documentos').select([(eb) => eb.fn.min('fecha').as('desde'), (eb) => eb.fn.max('fecha').as('hasta')]).executeTakeFirstOrThrow();
      expect(fechas.desde >= HACE_UN_ANO && fechas.desde <= `${lastMonths(HOY, 12)[0]}-01`, String(fechas.desde)).toBe(true);
      expect(fechas.hasta).toBe(HOY);
      expect(await contar(t, 'proveedores')).toBeGreaterThanOrEqual(20);
      expect(await contar(t, 'clientes')).toBeGreaterThanOrEqual(40);
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ presente: true, facturas: expect.any(Number), bloqueo: null });
    });

    it('stock per warehouse is what the ledger says each document moved, and never below zero; stock_total = Σ ledger', async () => {
      const { esperado, libro } = await stockEsperado(t);
      expect(libro.size).toBeGreaterThan(1000);
      expect(Object.fromEntries(libro)).toEqual(Object.fromEntries(esperado));
      const negativos = await sql`select articulo_id, almacen_id from stock_movimientos group by articulo_id, almacen_id having sum(cantidad) < 0`.execute(t.app.manager.db);
      expect(negativos.rows).toEqual([]);
      expect((await enviar(t, 'recalcularstock', { aplicar: 0 })).body).toMatchObject({ RESULT: '0', data: [] });
    });

    it('invoices are numbered per serie and year in date order, their counters at the last number', async () => {
      const rows = await sql<{ tipo: string; serie_id: number; ejercicio: number; numero: number; fecha: string }>`
        select tipo, serie_id, ejercicio, numero, fecha from documentos where tipo in ('factura', 'rectificativa') order by tipo, serie_id, ejercicio, numero`.execute(t.app.manager.db);
      const grupos = new Map<string, { numero: number; fecha: string }[]>();
      for (const r of rows.rows) grupos.set(`${r.tipo}|${r.serie_id}|${r.ejercicio}`, [...(grupos.get(`${r.tipo}|${r.serie_id}|${r.ejercicio}`) ?? []), { numero: Number(r.numero), fecha: r.fecha }]);
      for (const [k, fs] of grupos) {
        expect(fs.map((f) => f.numero), k).toEqual(fs.map((_, i) => i + 1));
        expect(fs.map((f) => f.fecha), k).toEqual([...fs.map((f) => f.fecha)].sort());
        const [tipo, serie, ejercicio] = k.split('|').map((x, i) => (i ? Number(x) : x));
        const c = await t.app.manager.db.selectFrom('contadores').select('ultimo').where('tipo', '=', tipo as string).where('serie_id', '=', serie as number).where('ejercicio', '=', ejercicio as number).executeTakeFirst();
        expect(Number(c?.ultimo), k).toBe(fs.length);
      }
    });

    it('issue 23: the demo\'s till has series of its own (T, and TR for its returns); the back office\'s invoices and rectificativas are never in them', async () => {
      const { rows } = await sql<{ serie: string; rect: string }>`select s.codigo as serie, r.codigo as rect from tpv_terminales t
        join series s on s.id = t.serie_id join series r on r.id = t.serie_rectificativa_id`.execute(t.app.manager.db);
      expect(rows).toEqual([{ serie: 'T', rect: 'TR' }]);
      const ajenos = await sql`select d.id from documentos d join series s on s.id = d.serie_id
        where s.codigo in ('T', 'TR') and not exists (select 1 from tpv_tickets tt where tt.documento_id = d.id)`.execute(t.app.manager.db);
      expect(ajenos.rows).toEqual([]);
    });

    it('the VERI*FACTU chain is correct and none of its records will ever be sent', async () => {
      const registros = await contar(t, 'registros_facturacion');
      expect(registros).toBeGreaterThanOrEqual(500);
      const body = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).body as { data: { total: number; correcto: boolean }[] };
      // Two chains: the company's invoices and the till's tickets.
      expect(body.data).toHaveLength(2);
      expect(body.data.every((c) => c.correcto)).toBe(true);
      expect(body.data.reduce((s, c) => s + c.total, 0)).toBe(registros);
      expect(await contar(t, 'registros_facturacion', sql`estado_envio <> 'demo'`)).toBe(0);
      expect(await contar(t, 'registros_facturacion', sql`tipo = 'anulacion'`)).toBeGreaterThan(0);
    });

    it('the home chart has purchases and sales in each of its 12 months', async () => {
      const meses = (await list(t, t.cookie, 'graficoinicio')).rows as unknown as { mes: string; compras: number; ventas: number }[];
      expect(meses.map((m) => m.mes)).toEqual(lastMonths(HOY, 12));
      for (const m of meses) {
        expect(m.compras, m.mes).toBeGreaterThan(0);
        expect(m.ventas, m.mes).toBeGreaterThan(0);
      }
    });

    it('a backup carries what is demo, so a restored installation can still remove it', async () => {
      const res = await t.op('copiaseguridad', { cookie: t.cookie });
      const tablas = (JSON.parse(res.body) as { tablas: Record<string, { tabla: string }[]> }).tablas;
      expect(tablas.demo_datos.map((r) => r.tabla).sort()).toEqual([
        'clientes', 'documento_acciones', 'documento_enlaces', 'documento_lineas', 'documentos', 'proveedores', 'registros_facturacion', 'stock_movimientos', 'tpv_cajas', 'tpv_cierres',
      ]);
    });

    it('removing it leaves the company as MANAGER_DEMO=0 does, and the next invoice is A <year>/000001', async () => {
      const res = await enviar(t, 'eliminardemo', {});
      expect(res.body).toMatchObject({ RESULT: '0', message: MESSAGES.demoEliminada });
      const tablas = ['documentos', 'documento_lineas', 'documento_enlaces', 'documento_acciones', 'registros_facturacion', 'registros_cadena', 'contadores', 'demo_datos'];
      for (const tabla of [...tablas, 'tpv_tickets', 'tpv_pagos', 'tpv_cajas', 'tpv_cierres']) {
        expect(await contar(t, tabla), tabla).toBe(0);
      }
      expect(await contar(t, 'stock_movimientos', sql`causa <> 'inicial'`)).toBe(0);
      expect(await contar(t, 'proveedores')).toBe(3);
      expect(await contar(t, 'clientes')).toBe(5);
      // The till stays, as configuration.
      expect(await contar(t, 'tpv_terminales')).toBe(1);
      expect((await enviar(t, 'recalcularstock', { aplicar: 0 })).body).toMatchObject({ RESULT: '0', data: [] });
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ presente: false });
      expect((await enviar(t, 'eliminardemo', {})).body).toMatchObject({ RESULT: '3', message: MESSAGES.demoNoHay });
      const log = await t.app.manager.db.selectFrom('actividad').select(['tipo', 'entidad']).where('accion', '=', 'eliminardemo').execute();
      expect(log[0]).toEqual({ tipo: 'eliminar', entidad: 'demo' });

      expect(await facturaReal(t)).toBe(`A ${HOY.slice(0, 4)}/000001`);
      const body = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).body as { data: { total: number; correcto: boolean }[] };
      expect(body.data).toEqual([expect.objectContaining({ total: 1, correcto: true })]);
    });
  });

  describe('after a real invoice', () => {
    const t = useTestApp(backend, DEMO);

    it('the demo can no longer be removed, and nothing is removed', async () => {
      const numero = await facturaReal(t);
      expect(numero).not.toBe(`A ${HOY.slice(0, 4)}/000001`);
      const antes = { documentos: await contar(t, 'documentos'), registros: await contar(t, 'registros_facturacion'), demo: await contar(t, 'demo_datos') };
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ presente: true, bloqueo: MESSAGES.demoFacturaReal });
      expect((await enviar(t, 'eliminardemo', {})).body).toMatchObject({ RESULT: '2', message: MESSAGES.demoFacturaReal });
      expect({ documentos: await contar(t, 'documentos'), registros: await contar(t, 'registros_facturacion'), demo: await contar(t, 'demo_datos') }).toEqual(antes);
      // The real record goes to the sender's queue; the demo's never do.
      expect(await contar(t, 'registros_facturacion', sql`estado_envio = 'pendiente'`)).toBe(1);
    });
  });

  describe('MANAGER_DEMO=0', () => {
    const t = useTestApp(backend, { demo: false, demoStock: true });

    it('starts with the demo company and its catalogue, parties and warehouses, but no past', async () => {
      for (const tabla of ['documentos', 'registros_facturacion', 'contadores', 'demo_datos']) expect(await contar(t, tabla), tabla).toBe(0);
      expect(await contar(t, 'articulos')).toBe(32);
      expect(await contar(t, 'proveedores')).toBe(3);
      expect(await contar(t, 'clientes')).toBe(5);
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ presente: false });
      expect(await facturaReal(t)).toBe(`A ${HOY.slice(0, 4)}/000001`);
    });
  });
});
