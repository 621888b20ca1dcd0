import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import type { EstadoDemo, TerminalTpv, TicketSubido } from 'shared/domain';
import { TABLAS_MAESTROS, TABLAS_PRUEBA } from '../src/demo/index.ts';
import { todayIn } from '../src/context.ts';
import { lastMonths } from '../src/actions/grafico.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
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

/** An invoice of today, emitted: its id and number. */
async function facturaReal(t: SuiteApp): Promise<{ id: number; numero: string }> {
  const db = t.app.manager.db;
  const serie = await db.selectFrom('series').select('id').where('codigo', '=', 'A').executeTakeFirstOrThrow();
  const cliente = await db.selectFrom('clientes').select('id').where('codigo', '=', 'C0001').executeTakeFirstOrThrow();
  const articulo = await db.selectFrom('articulos').select('id').orderBy('id').executeTakeFirstOrThrow();
  const almacen = await db.selectFrom('almacenes').select('id').where('codigo', '=', 'PRINCIPAL').executeTakeFirstOrThrow();
  const borrador = await guardar(t, 'editarfactura', {
    fecha: HOY, cliente_id: cliente.id, almacen_id: almacen.id, serie_id: serie.id, lineas: [{ articulo_id: articulo.id, cantidad: 1_000 }],
  });
  const emitida = await guardar<{ id: number; numero: string }>(t, 'emitirfactura', { id: borrador.id });
  return { id: emitida.id, numero: emitida.numero };
}

/** The demo's till «Mostrador» paired (as a browser becomes it with the code Configuración › TPV gives): its cookie. */
async function emparejarMostrador(t: SuiteApp): Promise<string> {
  const terminal = await t.app.manager.db.selectFrom('tpv_terminales').select('id').where('nombre', '=', 'Mostrador').executeTakeFirstOrThrow();
  const { codigo } = (await save(t, t.cookie, 'codigoterminal', { id: terminal.id })) as unknown as { codigo: string };
  const par = await t.op('emparejarterminal', { body: { codigo } });
  expect(par.json().RESULT).toBe('0');
  return `mtpv_terminal=${par.cookies.find((x) => x.name === 'mtpv_terminal')!.value}`;
}

let uuids = 0;
/** A ticket sold at the paired till through its API (its caja opened first if none is): the server's answer. */
async function venderEnMostrador(t: SuiteApp, tpv: string): Promise<TicketSubido> {
  const terminal = (await t.op('terminaltpv', { cookie: tpv })).json().data[0] as TerminalTpv;
  if (!terminal.caja_abierta) await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
  let articulo = await t.app.manager.db.selectFrom('articulos').select('id').where('codigo', '=', 'MOSTRADOR').executeTakeFirst();
  articulo ??= await save(t, t.cookie, 'editararticulo', nuevoArticulo('MOSTRADOR', { precio_venta: 10_000 }));
  const res = await t.op('subirtickets', {
    cookie: t.cookie,
    body: {
      terminal_id: terminal.id,
      tickets: [{
        uuid: `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`, fecha_hora: new Date().toISOString(),
        lineas: [{ articulo_id: articulo.id, cantidad: 1_000, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: 500 }],
      }],
    },
  });
  expect(res.json().RESULT, res.body).toBe('0');
  return res.json().data[0] as TicketSubido;
}

/** Per count of listadodemo's `borra`, the table and rows it counts. */
const TABLA_DE = {
  documentos: ['documentos', sql`1 = 1`],
  facturas: ['documentos', sql`tipo in ('factura', 'rectificativa')`],
  tickets: ['documentos', sql`tipo = 'ticket'`],
  registros: ['registros_facturacion', sql`1 = 1`],
  cobros: ['cobros', sql`1 = 1`],
  movimientos: ['stock_movimientos', sql`1 = 1`],
  cajas: ['tpv_cajas', sql`1 = 1`],
  cierres: ['tpv_cierres', sql`1 = 1`],
  facturas_proveedor: ['facturas_proveedor', sql`1 = 1`],
  envios: ['verifactu_envios', sql`1 = 1`],
} as const;

/** The configuration «Empezar con mis datos» keeps, whatever the owner chooses. */
const CONFIGURACION = [
  'configuracion', 'usuarios', 'roles', 'series', 'archivos', 'almacenes', 'familias', 'subfamilias', 'marcas', 'materiales', 'procesos', 'ubicaciones',
  'tpv_terminales', 'tpv_paginas', 'tpv_botones',
];

/** Each table's rows, as they are (ids and every column), to compare before and after. */
async function foto(t: SuiteApp, tablas: readonly string[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const tabla of tablas) {
    const filas = (await sql<Record<string, unknown>>`select * from ${sql.table(tabla)}`.execute(t.app.manager.db)).rows;
    out[tabla] = filas.map((f) => JSON.stringify(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : String(v)])))).sort();
  }
  return out;
}

/**
 * After «Empezar con mis datos»: every table of the trial empty, and every table of the database is either one of
 * them, the configuration, a master or the audit trail (a new table with transactional rows must join TABLAS_PRUEBA).
 */
async function todoVacio(t: SuiteApp): Promise<void> {
  for (const tabla of TABLAS_PRUEBA) expect(await contar(t, tabla), tabla).toBe(0);
  const conocidas = new Set<string>([
    ...TABLAS_PRUEBA, ...TABLAS_MAESTROS, ...CONFIGURACION, 'actividad', 'sesiones', 'recuperaciones', 'intentos_login', 'verifactu', 'articulos_cuenta',
    // The scheduled backups' own state (which day was copied): the installation's, not the trial's.
    'copias_programadas',
    'kysely_migration', 'kysely_migration_lock',
  ]);
  const todas = (
    await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.app.manager.db).catch(async () =>
      sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.app.manager.db),
    )
  ).rows.map((r) => r.name);
  expect(todas.length).toBeGreaterThan(40);
  // SQLite's full-text index of the articles (a virtual table and its shadow tables) follows the articles.
  expect(todas.filter((x) => !conocidas.has(x) && !/^articulos_(fts|tri)/.test(x))).toEqual([]);
}

/** No sale, invoice, ticket, cobro or record in any list, report or book of the whole period. */
async function sinVentas(t: SuiteApp): Promise<void> {
  const q = { desde: '2000-01-01', hasta: HOY };
  for (const ac of ['listadofacturas', 'listadorectificativas', 'listadotickets', 'listadoalbaranesventa', 'listadoalbaranescompra', 'listadopedidoscompra']) {
    expect((await list(t, t.cookie, ac)).total, ac).toBe(0);
  }
  const ventas = (await t.op('informeventas', { cookie: t.cookie, query: q })).json();
  expect(ventas.RESULT).toBe('0');
  expect(ventas.data).toEqual([]);
  const libro = (await t.op('librofacturasexpedidas', { cookie: t.cookie, query: q })).json();
  expect(libro.RESULT).toBe('0');
  expect(libro.data).toEqual([]);
  const m303 = (await t.op('modelo303', { cookie: t.cookie, query: q })).json();
  expect(m303.RESULT).toBe('0');
  expect(m303.totales).toMatchObject({ base: 0, iva: 0, devengado: 0 });
  const cierres = (await t.op('informecierrestpv', { cookie: t.cookie, query: q })).json();
  expect(cierres.RESULT).toBe('0');
  expect(cierres.data).toEqual([]);
  expect(((await list(t, t.cookie, 'comprobarregistrosfacturacion')).body as { data: unknown[] }).data).toEqual([]);
  const meses = (await list(t, t.cookie, 'graficoinicio')).rows as unknown as { compras: number; ventas: number }[];
  expect(meses.every((m) => m.compras === 0 && m.ventas === 0)).toBe(true);
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
    /** The demo's till, paired while trying (its cookie). */
    let tpv: string;

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
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ demo: true, borra: { facturas: porTipo.factura + porTipo.rectificativa }, bloqueo: null });
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

    it('issue 23: the demo\'s till has a page of buttons per family, each with the family\'s articles, under readable TPV names', async () => {
      const terminal = await t.app.manager.db.selectFrom('tpv_terminales').select('id').where('nombre', '=', 'Mostrador').executeTakeFirstOrThrow();
      const [{ paginas }] = (await list(t, t.cookie, 'listadobotonestpv', { terminal_id: terminal.id })).rows as unknown as { paginas: { nombre: string; familia_id: number | null }[] }[];
      expect(paginas.map((p) => p.nombre)).toEqual(['Droguería', 'Electricidad', 'Ferretería', 'Jardín', 'Pintura']);
      expect(paginas.every((p) => p.familia_id !== null)).toBe(true);
      // What the till downloads: every family page has articles to show, by their short names, never the code.
      const { rows } = await list(t, t.cookie, 'articulostpv', { limite: 2000 });
      for (const p of paginas) expect(rows.filter((a) => a.familia_id === p.familia_id).length).toBeGreaterThan(0);
      const seed = rows.filter((a) => a.familia_id !== null);
      expect(seed.length).toBeGreaterThan(10);
      for (const a of seed) {
        expect(a.nombre).not.toBe(a.codigo);
        expect(String(a.nombre).length).toBeLessThanOrEqual(30);
      }
      expect(rows.find((a) => a.codigo === 'TOR-M4-20')?.nombre).toBe('Tornillo hex. M4 x 20 inox.');
      expect(rows.find((a) => a.codigo === 'ALI-180')?.nombre).toBe('Alicate universal 180 mm');
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
        'clientes', 'documento_acciones', 'documento_enlaces', 'documento_lineas', 'documentos', 'facturas_proveedor', 'proveedores', 'registros_facturacion', 'stock_movimientos', 'tpv_cajas', 'tpv_cierres',
      ]);
    });

    it('while trying: the session says demo, production sending is refused, and the trial adds an invoice, a cobro and a till ticket', async () => {
      expect((await t.op('sesion', { cookie: t.cookie })).json().demo).toBe(1);
      const prod = await enviar(t, 'editarverifactu', { entorno: 'produccion' });
      expect(prod.status).toBe(400);
      expect(prod.body).toMatchObject({ RESULT: '1', message: MESSAGES.demoSoloPruebas });
      expect((await t.app.manager.db.selectFrom('verifactu').select('entorno').executeTakeFirstOrThrow()).entorno).toBe('pruebas');

      const antes = (await list(t, t.cookie, 'listadodemo')).rows[0] as unknown as EstadoDemo;
      expect(antes).toMatchObject({ demo: true, bloqueo: null });
      const factura = await facturaReal(t);
      expect(factura.numero).not.toBe(`A ${HOY.slice(0, 4)}/000001`);
      const reg = await t.app.manager.db.selectFrom('registros_facturacion').select(['demo', 'entorno']).where('documento_id', '=', factura.id).executeTakeFirstOrThrow();
      expect(reg).toEqual({ demo: 1, entorno: 'pruebas' });
      expect((await enviar(t, 'cobrarfactura', { id: factura.id, fecha: HOY, forma: 'transferencia' })).body.RESULT).toBe('0');
      tpv = await emparejarMostrador(t);
      const ticket = await venderEnMostrador(t, tpv);
      expect(ticket.numero).toMatch(/^T \d{4}\/\d{6}$/);
      expect(ticket.numero).not.toBe(`T ${HOY.slice(0, 4)}/000001`);

      const estado = (await list(t, t.cookie, 'listadodemo')).rows[0] as unknown as EstadoDemo;
      expect(estado.borra).toMatchObject({
        documentos: antes.borra.documentos + 2,
        facturas: antes.borra.facturas + 1,
        tickets: antes.borra.tickets + 1,
        registros: antes.borra.registros + 2,
        cobros: antes.borra.cobros + 1,
        cajas: antes.borra.cajas + 1,
      });
      for (const [k, v] of Object.entries(estado.borra)) expect(v, k).toBe(await contar(t, TABLA_DE[k as keyof typeof TABLA_DE][0], TABLA_DE[k as keyof typeof TABLA_DE][1]));
      expect(estado.borra.movimientos).toBeGreaterThan(1_000);
      expect(estado.conserva).toMatchObject({ articulos: 33, clientes: await contar(t, 'clientes'), proveedores: await contar(t, 'proveedores'), terminales: 1 });
    });

    it('«Empezar con mis datos» keeping the masters: nothing of the trial in any list, report, book, stock or chain; live in production', async () => {
      const db = t.app.manager.db;
      const estado = (await list(t, t.cookie, 'listadodemo')).rows[0] as unknown as EstadoDemo;
      const maestros = { articulos: await contar(t, 'articulos'), clientes: await contar(t, 'clientes'), proveedores: await contar(t, 'proveedores') };
      const configuracion = await foto(t, CONFIGURACION);
      const res = await enviar(t, 'eliminardemo', { maestros: 'conservar' });
      expect(res.body).toMatchObject({ RESULT: '0', message: MESSAGES.demoEliminada, data: [{ ...estado.borra, maestros: 'conservar' }] });

      await todoVacio(t);
      // The configuration and the masters stay.
      expect(await foto(t, CONFIGURACION)).toEqual(configuracion);
      expect({ articulos: await contar(t, 'articulos'), clientes: await contar(t, 'clientes'), proveedores: await contar(t, 'proveedores') }).toEqual(maestros);
      // Stock and costs: what the ledger says — nothing.
      expect(await contar(t, 'articulos', sql`stock_total <> 0 or coste_medio is not null`)).toBe(0);
      expect((await enviar(t, 'recalcularstock', { aplicar: 0 })).body).toMatchObject({ RESULT: '0', data: [] });
      // Every list, report and book.
      await sinVentas(t);
      // Live, made for «Producción»; sending as it was (off).
      expect(await db.selectFrom('verifactu').select(['demo', 'entorno', 'activo']).executeTakeFirstOrThrow()).toEqual({ demo: 0, entorno: 'produccion', activo: 0 });
      expect((await t.op('sesion', { cookie: t.cookie })).json().demo).toBe(0);
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ demo: false, bloqueo: MESSAGES.demoEnVivo });
      // The audit trail says what went.
      const log = await db.selectFrom('actividad').select(['tipo', 'entidad', 'despues']).where('accion', '=', 'eliminardemo').execute();
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ tipo: 'eliminar', entidad: 'demo' });
      expect(JSON.parse(log[0].despues!)).toMatchObject({ documentos: estado.borra.documentos, registros: estado.borra.registros, maestros: 'conservar' });

      // The first real invoice: number 1, the chain's first record, for production.
      const primera = await facturaReal(t);
      expect(primera.numero).toBe(`A ${HOY.slice(0, 4)}/000001`);
      const r = await db.selectFrom('registros_facturacion').select(['xml', 'entorno', 'demo', 'huella_anterior']).where('documento_id', '=', primera.id).executeTakeFirstOrThrow();
      expect(r).toMatchObject({ entorno: 'produccion', demo: 0, huella_anterior: '' });
      expect(r.xml).toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');

      // The till paired during the demo: told where its chain and numbering start again, without a new pairing.
      const terminal = (await t.op('terminaltpv', { cookie: tpv })).json().data[0] as TerminalTpv;
      const { inicio } = await db.selectFrom('verifactu').select('inicio').executeTakeFirstOrThrow();
      expect(inicio).toBeTruthy();
      expect(terminal).toMatchObject({ ultimo: { numero: 0 }, cadena: null, caja_abierta: null, inicio, entorno: 'produccion' });
      const ticket = await venderEnMostrador(t, tpv);
      expect(ticket.numero).toBe(`T ${HOY.slice(0, 4)}/000001`);
      expect(ticket.xml).toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');
      const body = (await list(t, t.cookie, 'comprobarregistrosfacturacion')).body as { data: { total: number; correcto: boolean }[] };
      expect(body.data).toHaveLength(2);
      expect(body.data.every((c) => c.total === 1 && c.correcto)).toBe(true);

      // Once live, never again: refused, nothing removed.
      const otra = await enviar(t, 'eliminardemo', { maestros: 'ninguno' });
      expect(otra.body).toMatchObject({ RESULT: '2', message: MESSAGES.demoEnVivo });
      expect(await contar(t, 'documentos')).toBe(2);
    });
  });

  describe('refused, atomic, and starting without the masters', () => {
    const t = useTestApp(backend, DEMO);

    it('refused while one of the company\'s own records was accepted by the AEAT in production: nothing changes', async () => {
      const factura = await facturaReal(t);
      const db = t.app.manager.db;
      // A record of the company's own (not demo: typed before migration 0031 marked the demo's) accepted in production.
      await db.updateTable('registros_facturacion').set({ demo: 0, entorno: 'produccion', estado_envio: 'correcto', csv: 'A-TEST' }).where('documento_id', '=', factura.id).execute();
      const antes = await foto(t, [...TABLAS_PRUEBA, ...CONFIGURACION, 'articulos', 'clientes', 'proveedores']);
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ demo: true, bloqueo: MESSAGES.demoAceptadoProduccion });
      expect((await enviar(t, 'eliminardemo', { maestros: 'ninguno' })).body).toMatchObject({ RESULT: '2', message: MESSAGES.demoAceptadoProduccion });
      expect(await foto(t, [...TABLAS_PRUEBA, ...CONFIGURACION, 'articulos', 'clientes', 'proveedores'])).toEqual(antes);
      expect((await db.selectFrom('verifactu').select('demo').executeTakeFirstOrThrow()).demo).toBe(1);
      // Accepted in «Pruebas» only: it never counted, so it doesn't block.
      await db.updateTable('registros_facturacion').set({ entorno: 'pruebas' }).where('documento_id', '=', factura.id).execute();
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ bloqueo: null });
    });

    it('a failure midway leaves everything as it was', async () => {
      const db = t.app.manager.db;
      // Another module's row that names a document: the documents' removal fails after everything before it was deleted.
      await sql`create table prueba_ajena (documento_id integer not null references documentos (id))`.execute(db);
      await sql`insert into prueba_ajena (documento_id) select max(id) from documentos`.execute(db);
      const tablas = [...TABLAS_PRUEBA, ...CONFIGURACION, 'articulos', 'clientes', 'proveedores', 'actividad'];
      const antes = await foto(t, tablas);
      const stock = await db.selectFrom('articulos').select(['id', 'stock_total', 'coste_medio']).orderBy('id').execute();
      const res = await t.op('eliminardemo', { cookie: t.cookie, body: { maestros: 'ninguno' } });
      expect(res.json().RESULT).not.toBe('0');
      expect(await foto(t, tablas)).toEqual(antes);
      expect(await db.selectFrom('articulos').select(['id', 'stock_total', 'coste_medio']).orderBy('id').execute()).toEqual(stock);
      expect(await db.selectFrom('verifactu').select(['demo', 'entorno']).executeTakeFirstOrThrow()).toEqual({ demo: 1, entorno: 'pruebas' });
      await sql`drop table prueba_ajena`.execute(db);
    });

    it('without the masters: articles, customers and suppliers go too; the configuration stays', async () => {
      const db = t.app.manager.db;
      expect((await enviar(t, 'eliminardemo', { maestros: 'todos' })).status).toBe(400);
      const configuracion = await foto(t, CONFIGURACION.filter((x) => x !== 'tpv_botones'));
      // Pressed twice at once: one runs, the other then finds the company live.
      const [uno, dos] = await Promise.all([enviar(t, 'eliminardemo', { maestros: 'ninguno' }), enviar(t, 'eliminardemo', { maestros: 'ninguno' })]);
      const res = uno.body.RESULT === '0' ? uno : dos;
      expect(res.body).toMatchObject({ RESULT: '0', data: [{ maestros: 'ninguno' }] });
      expect((res === uno ? dos : uno).body).toMatchObject({ RESULT: '2', message: MESSAGES.demoEnVivo });
      await todoVacio(t);
      for (const tabla of ['articulos', 'clientes', 'proveedores', 'tpv_botones', 'articulo_ubicaciones', 'articulo_componentes']) expect(await contar(t, tabla), tabla).toBe(0);
      expect(await foto(t, CONFIGURACION.filter((x) => x !== 'tpv_botones'))).toEqual(configuracion);
      await sinVentas(t);
      // The owner's own first customer and article, and the first invoice: number 1, for production.
      await save(t, t.cookie, 'editarcliente', { codigo: 'C0001', nif: 'B12345674', razon_social: 'Primer Cliente, S.L.', forma_pago: 'contado' });
      await save(t, t.cookie, 'editararticulo', nuevoArticulo('PRIMERO', { precio_venta: 10_000 }));
      const primera = await facturaReal(t);
      expect(primera.numero).toBe(`A ${HOY.slice(0, 4)}/000001`);
      const r = await db.selectFrom('registros_facturacion').select(['xml', 'entorno', 'demo']).where('documento_id', '=', primera.id).executeTakeFirstOrThrow();
      expect(r).toMatchObject({ entorno: 'produccion', demo: 0 });
      expect(r.xml).toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');
    });
  });

  describe('MANAGER_DEMO=0', () => {
    const t = useTestApp(backend, { demo: false, demoStock: true });

    it('starts a live, empty company: not the demo, made for production, with its catalogue, parties and warehouses but no past', async () => {
      for (const tabla of ['documentos', 'registros_facturacion', 'contadores', 'demo_datos']) expect(await contar(t, tabla), tabla).toBe(0);
      expect(await contar(t, 'articulos')).toBe(32);
      expect(await contar(t, 'proveedores')).toBe(3);
      expect(await contar(t, 'clientes')).toBe(5);
      expect(await t.app.manager.db.selectFrom('verifactu').select(['demo', 'entorno', 'activo']).executeTakeFirstOrThrow()).toEqual({ demo: 0, entorno: 'produccion', activo: 0 });
      expect((await t.op('sesion', { cookie: t.cookie })).json().demo).toBe(0);
      expect((await list(t, t.cookie, 'listadodemo')).rows[0]).toMatchObject({ demo: false, bloqueo: MESSAGES.demoEnVivo });
      expect((await enviar(t, 'eliminardemo', {})).body).toMatchObject({ RESULT: '2', message: MESSAGES.demoEnVivo });
      const primera = await facturaReal(t);
      expect(primera.numero).toBe(`A ${HOY.slice(0, 4)}/000001`);
      const r = await t.app.manager.db.selectFrom('registros_facturacion').select(['entorno', 'demo']).where('documento_id', '=', primera.id).executeTakeFirstOrThrow();
      expect(r).toEqual({ entorno: 'produccion', demo: 0 });
    });
  });
});
