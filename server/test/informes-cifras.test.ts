import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CONF_FIELDS } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { informeVentas } from '../src/informes/ventas.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { guardar } from './documentos-fixtures.ts';

/**
 * Issue 25, «one set of figures»: over the demo year, the sales report, the libro de facturas expedidas, the Modelo
 * 303 and the TPV closings say the same base, IVA and recargo, to the cent, as the documents' own stored amounts; and
 * every row of the sales report by document shows its document's total.
 */
const HOY = todayIn('Europe/Madrid');
const ANIO = Number(HOY.slice(0, 4));
type Informe = { RESULT: string; data: Row[]; total: number; totales: Record<string, number | null>; message?: string };
const FISCALES = ['factura', 'rectificativa', 'ticket'];

describe.each(backends())('one set of figures over the demo year ($name)', (backend) => {
  const t = useTestApp(backend, { demo: true, demoStock: true });
  const informe = async (ac: string, q: Record<string, string | number> = {}): Promise<Informe> => {
    const res = await t.op(ac, { cookie: t.cookie, query: Object.fromEntries(Object.entries({ porPagina: 10_000, ...q }).map(([k, v]) => [k, String(v)])) });
    const body = expectCleanAnswer(res) as unknown as Informe;
    expect({ ac, status: res.statusCode, RESULT: body.RESULT, message: body.message ?? null }).toMatchObject({ status: 200, RESULT: '0' });
    return body;
  };

  /** The documents' own amounts of the issued invoices and tickets of a period, straight from the table. */
  const documentos = async (desde: string, hasta: string) => {
    const { rows } = await sql<Record<string, number | string | null>>`
      select d.id, d.tipo, d.base, d.iva, d.recargo, d.modo_rectificacion, o.base as o_base, o.iva as o_iva, o.recargo as o_recargo
      from documentos d left join documentos o on o.id = d.factura_id and d.tipo = 'rectificativa' and d.modo_rectificacion = 'sustitucion'
      where d.fecha >= ${desde} and d.fecha <= ${hasta}
        and ((d.tipo in ('factura', 'rectificativa') and d.estado = 'emitida') or (d.tipo = 'ticket' and d.estado not in ('anulada', 'anulado', 'borrador', 'facturado')))`.execute(
      t.app.manager.db,
    );
    const libro = { base: 0, iva: 0, recargo: 0 };
    const ventas = { base: 0, iva: 0, recargo: 0 };
    for (const r of rows) {
      for (const k of ['base', 'iva', 'recargo'] as const) {
        libro[k] += Number(r[k]);
        ventas[k] += Number(r[k]) - Number(r[`o_${k}`] ?? 0);
      }
    }
    return { rows, libro, ventas };
  };

  /** The till's closings (their Z: base and IVA by rate as each caja closed) = the sales of the terminals. */
  const cuadraCaja = async (desde: string, hasta: string) => {
    const cierres = await informe('informecierrestpv', { desde, hasta });
    const porTerminal = await informe('informeventas', { desde, hasta, agrupar: 'terminal' });
    const enTerminales = porTerminal.data.filter((r) => r.terminal_id !== null);
    expect(cierres.total).toBeGreaterThan(0);
    expect({ base: cierres.totales.base, iva: cierres.totales.iva }).toEqual({
      base: enTerminales.reduce((s, r) => s + Number(r.base), 0),
      iva: enTerminales.reduce((s, r) => s + Number(r.iva), 0),
    });
  };

  /** Sales by type = the documents = libro = 303 for a period (and the detailed query = the aggregates): its documents. */
  const cuadra = async (desde: string, hasta: string) => {
    const docs = await documentos(desde, hasta);
    // The sales report by type: its invoices, rectificativas and tickets are the documents' own amounts.
    const porTipo = await informe('informeventas', { desde, hasta, agrupar: 'tipo' });
    const fiscales = porTipo.data.filter((r) => FISCALES.includes(String(r.tipo)));
    const ventas = { base: 0, iva: 0, recargo: 0, total: 0 };
    for (const r of fiscales) for (const k of ['base', 'iva', 'recargo', 'total'] as const) ventas[k] += Number(r[k]);
    expect({ desde, hasta, ...ventas }).toEqual({ desde, hasta, ...docs.ventas, total: docs.ventas.base + docs.ventas.iva + docs.ventas.recargo });
    // The libro: every issued invoice at its stored amounts (a substitution's replaced invoice stays listed too).
    const libro = await informe('librofacturasexpedidas', { desde, hasta });
    expect({ base: libro.totales.base, iva: libro.totales.iva, recargo: libro.totales.recargo }).toEqual(docs.libro);
    // The 303: the bases and cuotas by rate, the rectificativas' modifications and the boxes without IVA.
    const m303 = Object.fromEntries((await informe('modelo303', { desde, hasta })).data.map((r) => [String(r.casilla), Number(r.importe ?? 0)]));
    const suma = (cs: string[]) => cs.reduce((s, c) => s + (m303[c] ?? 0), 0);
    expect({
      base: suma(['01', '04', '07', '14', '59', '60', '120', '122']),
      iva: suma(['03', '06', '09', '15']),
      recargo: suma(['18', '21', '24', '158', '26']),
    }).toEqual({ base: docs.ventas.base, iva: docs.ventas.iva, recargo: docs.ventas.recargo });
    // Sales by article add up to the same (the desglose shared out to lines, the rounding kept in each document).
    const porArticulo = await informe('informeventas', { desde, hasta, agrupar: 'articulo', tipo: 'ticket' });
    const ticket = fiscales.find((r) => r.tipo === 'ticket');
    expect({ base: porArticulo.totales.base, iva: porArticulo.totales.iva }).toEqual({ base: Number(ticket?.base ?? 0), iva: Number(ticket?.iva ?? 0) });
    // The detailed query (the documents' lines shared out now) answers as the aggregates.
    const paging = { orden: null, dir: null, pagina: 1, porPagina: 10_000 };
    const agregado = await informeVentas(t.app.manager, { desde, hasta }, 'tipo', paging);
    const detalle = await informeVentas(t.app.manager, { desde, hasta }, 'tipo', paging, 'detalle');
    expect(detalle.totales).toEqual(agregado.totales);
    return docs.rows.length;
  };

  it('sales = libro de expedidas = 303 = the documents; tickets = closings; every row its document\'s total', async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, ...Object.fromEntries(CONF_FIELDS.map((f) => [f, 1])) } })).statusCode).toBe(200);
    const periodos: [string, string][] = [
      [`${ANIO - 1}-01-01`, HOY],
      [`${ANIO}-07-01`, `${ANIO}-09-30`],
      [`${ANIO}-01-01`, `${ANIO}-03-31`],
    ];
    let documentosVistos = 0;
    for (const [desde, hasta] of periodos) documentosVistos += await cuadra(desde, hasta);
    expect(documentosVistos).toBeGreaterThan(1000);

    // Every row of the sales report by document shows the total of the document it opens (A 2026/000474's 343,45 €,
    // not the 343,43 € of its lines rounded one by one).
    const desde = `${ANIO - 1}-01-01`;
    const docs = await documentos(desde, HOY);
    const porDocumento = await informe('informeventas', { desde, hasta: HOY, agrupar: 'documento' });
    const filas = new Map(porDocumento.data.map((r) => [Number(r.documento_id ?? r.clave), r]));
    let comparadas = 0;
    const distintas: unknown[] = [];
    for (const d of docs.rows) {
      if (d.modo_rectificacion === 'sustitucion') continue;
      const r = filas.get(Number(d.id));
      const esperado = Number(d.base) + Number(d.iva) + Number(d.recargo);
      if (!r || Number(r.total) !== esperado || Number(r.base) !== Number(d.base)) distintas.push({ id: d.id, tipo: d.tipo, esperado, fila: r && { base: r.base, total: r.total } });
      comparadas++;
    }
    expect(distintas).toEqual([]);
    expect(comparadas).toBeGreaterThan(1000);

    // The till: the closings' Z reports (base and IVA by rate, as each caja closed) = the tickets of their terminals.
    await cuadraCaja(desde, HOY);
  }, 300_000);

  it('the ticket and its full invoice (F3) are one sale: in sales, libro, 303, closings and the numbering, once', async () => {
    const db = t.app.manager.db;
    const desde = `${ANIO - 1}-01-01`;
    const ticket = (await sql<{ id: number; fecha: string; base: number; iva: number; total: number }>`select d.id, d.fecha, d.base, d.iva, d.total from documentos d
      where d.tipo = 'ticket' and d.estado = 'emitido' and d.fecha < ${`${ANIO}-${HOY.slice(5, 7)}-01`} order by d.total desc limit 1`.execute(db)).rows[0]!;
    const cliente = (await sql<{ id: number }>`select id from clientes where recargo = 0 and nif like 'B%' order by id limit 1`.execute(db)).rows[0]!;
    const antes = await informe('librofacturasexpedidas', { desde, hasta: HOY });
    const r = await t.op('facturarticket', { cookie: t.cookie, body: { id: ticket.id, cliente_id: cliente.id } });
    expect(r.json().RESULT).toBe('0');
    const f3 = r.json().data[0] as Row & { numero: string; total: number; tipo_factura: string };
    expect(f3).toMatchObject({ tipo_factura: 'F3', total: Number(ticket.total) });
    // The same figures, every report, the F3 in the ticket's place.
    await cuadra(desde, HOY);
    await cuadraCaja(desde, HOY);
    const despues = await informe('librofacturasexpedidas', { desde, hasta: HOY });
    expect({ base: despues.totales.base, iva: despues.totales.iva, documentos: despues.totales.documentos }).toEqual({
      base: antes.totales.base, iva: antes.totales.iva, documentos: antes.totales.documentos,
    });
    // The ticket's number stays in the book, «Sustituida» by the F3, amounts 0.
    expect(despues.data.filter((x) => x.documento_id === ticket.id)).toEqual([
      expect.objectContaining({ estado: 'Sustituida', sustituida_por: f3.numero, base: 0, iva: 0, recargo: 0, total: 0 }),
    ]);
    expect(despues.totales.sustituidas).toBe(Number(antes.totales.sustituidas ?? 0) + 1);
    expect(despues.data.filter((x) => x.documento_id === f3.id).length).toBeGreaterThan(0);
    // The sales by type: moved from the tickets to the invoices, the sum the same.
    const tipos = Object.fromEntries((await informe('informeventas', { desde, hasta: HOY, agrupar: 'tipo' })).data.map((x) => [x.tipo, Number(x.base)]));
    expect(tipos.factura).toBeGreaterThan(Number(ticket.base));
  }, 300_000);

  it('every number accounted for: the libro lists the cancelled invoices as «Anulada» with their record; the numbering report per serie and year', async () => {
    const db = t.app.manager.db;
    for (const ejercicio of [ANIO - 1, ANIO]) {
      const desde = `${ejercicio}-01-01`;
      const hasta = `${ejercicio}-12-31`;
      const anuladas = (await sql<{ id: number; numero: number }>`select id, numero from documentos
        where tipo in ('factura', 'rectificativa', 'ticket') and estado in ('anulada', 'anulado') and numero is not null and fecha >= ${desde} and fecha <= ${hasta}`.execute(db)).rows;
      const libro = await informe('librofacturasexpedidas', { desde, hasta });
      const filasAnuladas = libro.data.filter((r) => r.estado === 'Anulada');
      expect(filasAnuladas.map((r) => Number(r.documento_id)).sort((a, b) => a - b)).toEqual(anuladas.map((r) => Number(r.id)).sort((a, b) => a - b));
      expect(libro.totales.anuladas).toBe(anuladas.length);
      for (const r of filasAnuladas) {
        expect(r).toMatchObject({ concepto: 'Anulada', base: 0, iva: 0, recargo: 0, total: 0 });
        // Its anulación record, when one was made (an invoice's always).
        if (r.tipo !== 'ticket') expect(r.anulacion_fecha, String(r.numero_factura)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      // Each serie's numbers in the libro run 1..N without a gap.
      const porSerie = new Map<string, number[]>();
      for (const r of libro.data) {
        const k = String(r.serie);
        const ns = porSerie.get(k) ?? [];
        if (!ns.includes(Number(r.numero))) ns.push(Number(r.numero));
        porSerie.set(k, ns);
      }
      for (const [serie, ns] of porSerie) {
        ns.sort((a, b) => a - b);
        // Only a year's whole numbering is from 1 (a serie's numbers are per year).
        expect({ serie, ejercicio, huecos: ns.filter((n, i) => i > 0 && n !== ns[i - 1]! + 1) }).toEqual({ serie, ejercicio, huecos: [] });
      }
      // The numbering report: per serie, the numbers given, the cancelled ones, no gap.
      const num = await informe('numeracionfacturas', { ejercicio });
      const esperado = (await sql<{ serie: string; n: number | string; ultimo: number | string; anuladas: number | string }>`
        select coalesce(s.codigo, d.serie_codigo) as serie, count(*) as n, max(d.numero) as ultimo,
          sum(case when d.estado in ('anulada', 'anulado') then 1 else 0 end) as anuladas
        from documentos d left join series s on s.id = d.serie_id
        where d.tipo in ('factura', 'rectificativa', 'ticket') and d.ejercicio = ${ejercicio} and d.numero is not null
        group by coalesce(s.codigo, d.serie_codigo)`.execute(db)).rows;
      expect(Object.fromEntries(num.data.map((r) => [r.serie, [r.numeros, r.ultimo, r.anuladas, r.huecos]]))).toEqual(
        Object.fromEntries(esperado.map((r) => [r.serie, [Number(r.n), Number(r.ultimo), Number(r.anuladas), 0]])),
      );
      if (ejercicio === ANIO) expect(Number(num.totales.anuladas)).toBeGreaterThan(0);
    }
    // A number no document holds is a gap the report names.
    const a = (await db.selectFrom('documentos as d').innerJoin('series as s', 's.id', 'd.serie_id').select(['d.id', 'd.numero', 'd.serie_id'])
      .where('s.codigo', '=', 'A').where('d.ejercicio', '=', ANIO).where('d.tipo', '=', 'factura').where('d.numero', 'is not', null).orderBy('d.numero').execute())[2]!;
    await db.updateTable('documentos').set({ numero: 900_000 }).where('id', '=', a.id).execute();
    const conHueco = await informe('numeracionfacturas', { ejercicio: ANIO, serie_id: a.serie_id! });
    // Every number up to 900.000 that no document holds, the moved one first.
    expect(conHueco.data[0]).toMatchObject({ serie: 'A', ultimo: 900_000, huecos: 900_000 - Number(conHueco.data[0]!.numeros) });
    expect(String(conHueco.data[0]!.numeros_huecos).startsWith(`${a.numero}, `)).toBe(true);
    await db.updateTable('documentos').set({ numero: a.numero }).where('id', '=', a.id).execute();
  }, 300_000);

  it('the demo registers its suppliers\' invoices: libro de recibidas, boxes 28/29/45, the 347\'s clave A; the 303 warns of albaranes without one', async () => {
    const db = t.app.manager.db;
    const facturas = (await sql<{ n: number | string; total: number | string }>`select count(*) as n, sum(total) as total from facturas_proveedor`.execute(db)).rows[0]!;
    expect(Number(facturas.n)).toBeGreaterThan(20);
    // Each invoice is what its documents add up to (devoluciones negative).
    const descuadres = (await sql`select f.id from facturas_proveedor f
      where f.total <> (select sum(case when d.tipo = 'devolucioncompra' then -d.total else d.total end) from facturas_proveedor_documentos fd join documentos d on d.id = fd.documento_id where fd.factura_id = f.id)`.execute(db)).rows;
    expect(descuadres).toEqual([]);
    const desde = `${ANIO - 1}-01-01`;
    const recibidas = await informe('librofacturasrecibidas', { desde, hasta: HOY });
    expect(recibidas.total).toBeGreaterThan(20);
    // A whole quarter before the last three weeks: every albarán invoiced, its IVA deductible.
    const [y, m] = [Number(HOY.slice(0, 4)), Number(HOY.slice(5, 7))];
    const q = Math.floor((m - 1) / 3);
    const [qy, qq] = q === 0 ? [y - 1, 3] : [y, q - 1];
    const qDesde = `${qy}-${String(qq * 3 + 1).padStart(2, '0')}-01`;
    const qHasta = new Date(Date.UTC(qy, qq * 3 + 3, 0)).toISOString().slice(0, 10);
    const m303 = await informe('modelo303', { desde: qDesde, hasta: qHasta });
    const cas = Object.fromEntries(m303.data.map((r) => [String(r.casilla), Number(r.importe ?? 0)]));
    const ivaCompras = (await sql<{ iva: number | string }>`select sum(case when tipo = 'devolucioncompra' then -iva else iva end) as iva from documentos
      where tipo in ('albarancompra', 'devolucioncompra') and fecha >= ${qDesde} and fecha <= ${qHasta}`.execute(db)).rows[0]!;
    expect(cas['29']).toBeGreaterThan(0);
    expect(cas['45']).toBe(cas['29']);
    expect(cas['28']).toBeGreaterThan(cas['29']!);
    // Invoiced by month: the quarter's supplier invoices carry its albaranes' IVA (an invoice dated in the quarter).
    expect(cas['29']).toBe(Number(ivaCompras.iva));
    expect(m303.message ?? null).toBeNull();
    // The last three weeks wait for their invoices: the current quarter says so.
    const actual = await informe('modelo303', { desde: `${y}-${String(q * 3 + 1).padStart(2, '0')}-01`, hasta: HOY });
    expect(actual.message).toMatch(/^El periodo tiene \d+ albaranes? de compra sin factura de proveedor registrada \(base .+ €, IVA .+ €\)/);
    expect(Number(actual.totales.albaranes_sin_factura)).toBeGreaterThan(0);
    // The 347's clave A: suppliers over 3.005,06 € in a year.
    const m347 = await informe('modelo347', { ejercicio: ANIO, clave: 'A' });
    expect(m347.data.length).toBeGreaterThan(0);
    expect(m347.data.every((r) => r.clave_operacion === 'A' && Number(r.importe) > 300_506)).toBe(true);
  }, 300_000);
});

const diaMas = (fecha: string, dias: number) => {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
};

describe.each(backends())('info-tarifas and the goods in transit ($name)', (backend) => {
  const t = useTestApp(backend);
  const ok = guardar<Row & { lineas: Row[]; estado: string }>;
  const informe = async (ac: string, q: Record<string, string | number> = {}): Promise<Informe> => {
    const res = await t.op(ac, { cookie: t.cookie, query: Object.fromEntries(Object.entries({ porPagina: 10_000, ...q }).map(([k, v]) => [k, String(v)])) });
    const body = expectCleanAnswer(res) as unknown as Informe;
    expect({ ac, status: res.statusCode, RESULT: body.RESULT, message: body.message ?? null }).toMatchObject({ status: 200, RESULT: '0' });
    return body;
  };
  let principal: number;
  let tienda: number;
  let a: Row;
  let b: Row;
  let p: Row;

  it('setup', async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, ...Object.fromEntries(CONF_FIELDS.map((f) => [f, 1])) } })).statusCode).toBe(200);
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    tienda = (await save(t, t.cookie, 'editaralmacen', { codigo: 'TIENDA', nombre: 'Tienda centro' })).id;
    // The catalogue says 5,00 € to buy; the supplier charged 6,00 € and then 7,00 € (average 6,50 €).
    a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TAR-A', { precio_venta: 100_000, precio_compra: 50_000 }));
    b = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TAR-B', { precio_venta: 30_000, precio_compra: 20_000 }));
    p = await save(t, t.cookie, 'editarproveedor', { nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', codigo_postal: '08005' });
    await ok(t, 'editaralbarancompra', { fecha: diaMas(HOY, -10), proveedor_id: p.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 10_000, precio: 60_000 }] });
    await ok(t, 'editaralbarancompra', { fecha: diaMas(HOY, -5), proveedor_id: p.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 10_000, precio: 70_000 }] });
  });

  it('info-tarifas: «Último precio» is the last price paid, «Coste medio» the average cost; the margins over each', async () => {
    const tar = await informe('informetarifas', {});
    const fa = tar.data.find((f) => f.articulo_id === a.id)!;
    expect(fa).toMatchObject({ coste: 65_000, ultimo_precio: 70_000, precio_venta: 100_000, margen_1: 3_500, margen_1_ultimo: 3_000 });
    // Never bought: the catalogue's purchase price.
    expect(tar.data.find((f) => f.articulo_id === b.id)).toMatchObject({ coste: 20_000, ultimo_precio: 20_000 });
    // The same as informeinventario's last price.
    const inv = await informe('informeinventario', { fecha: HOY });
    expect(inv.data.find((f) => f.articulo_id === a.id)).toMatchObject({ ultimo_precio: 70_000, coste_unitario: 65_000 });
    // Sorted by another column (every row read), the same.
    const porMargen = await informe('informetarifas', { orden: 'margen_1', dir: 'asc' });
    expect(porMargen.data.find((f) => f.articulo_id === a.id)).toMatchObject({ ultimo_precio: 70_000, margen_1_ultimo: 3_000 });
  });

  it('the 303 warns while a purchase albarán has no supplier invoice, and not once it has', async () => {
    const desde = diaMas(HOY, -12);
    const antes = await informe('modelo303', { desde, hasta: HOY });
    expect(antes.message).toBe(
      'El periodo tiene 2 albaranes de compra sin factura de proveedor registrada (base 130,00 €, IVA 27,30 €): ese IVA no se deduce en las casillas 28, 29 y 45 hasta registrar sus facturas en Compras › Facturas de proveedor.',
    );
    expect(antes.totales).toMatchObject({ albaranes_sin_factura: 2, iva_sin_factura: 2_730, deducible: 0 });
    const albaranes = (await list(t, t.cookie, 'listadoalbaranescompra', { porPagina: 100 })).rows;
    const r = await t.op('editarfacturaproveedor', { cookie: t.cookie, body: { proveedor_id: p.id, numero_proveedor: 'FP-9', fecha: HOY, total: 15_730, albaranes: albaranes.map((x) => x.id) } });
    expect(r.json().RESULT).toBe('0');
    const despues = await informe('modelo303', { desde, hasta: HOY });
    expect(despues.message ?? null).toBeNull();
    expect(despues.totales).toMatchObject({ albaranes_sin_factura: 0, deducible: 2_730 });
  });

  it('the goods in transit are stock: «En tránsito» in the inventory, today and at a past date', async () => {
    // 4 A sent to TIENDA 3 days ago, 1 received there 2 days ago: 3 in transit since.
    const mov = await ok(t, 'editarmovimiento', { fecha: HOY, almacen_id: principal, almacen_destino_id: tienda, lineas: [{ articulo_id: a.id, cantidad: 4_000 }] });
    await ok(t, 'enviarmovimiento', { id: mov.id });
    await ok(t, 'recibirmovimiento', { id: mov.id, lineas: [{ id: mov.lineas[0]!.id, cantidad: 1_000 }] });
    const db = t.app.manager.db;
    await db.updateTable('stock_movimientos').set({ fecha: diaMas(HOY, -3) }).where('documento_id', '=', mov.id).where('cantidad', '<', 0).execute();
    await db.updateTable('stock_movimientos').set({ fecha: diaMas(HOY, -2) }).where('documento_id', '=', mov.id).where('cantidad', '>', 0).execute();
    // The purchases' ledger rows at a day before (the ledger dates a row by the day it was written).
    await db.updateTable('stock_movimientos').set({ fecha: diaMas(HOY, -5) }).where('causa', '=', 'compra').execute();

    const porAlmacen = async (fecha: string) => Object.fromEntries((await informe('informeinventario', { fecha, agrupar: 'almacen' })).data.map((f) => [String(f.nombre), f.unidades]));
    // Today: 20 bought − 4 sent in PRINCIPAL, 1 in TIENDA, 3 on the way; the company has its 20.
    expect(await porAlmacen(HOY)).toEqual({ 'Almacén principal': 16_000, 'Tienda centro': 1_000, 'En tránsito': 3_000 });
    const hoy = await informe('informeinventario', { fecha: HOY, agrupar: 'almacen' });
    expect(hoy.totales).toMatchObject({ unidades: 20_000, valor: 13_000 });
    expect(hoy.data.find((f) => f.nombre === 'En tránsito')).toMatchObject({ almacen_id: null, en_transito: 1, valor: 1_950 });
    const articulo = await informe('informeinventario', { fecha: HOY });
    expect(articulo.data.find((f) => f.articulo_id === a.id)).toMatchObject({ unidades: 20_000, en_transito: 3_000, valor: 13_000 });
    // The day it was sent: 4 on the way; the day before: none.
    expect(await porAlmacen(diaMas(HOY, -3))).toEqual({ 'Almacén principal': 16_000, 'En tránsito': 4_000 });
    expect(await porAlmacen(diaMas(HOY, -4))).toEqual({ 'Almacén principal': 20_000 });
    expect(await porAlmacen(diaMas(HOY, -2))).toEqual({ 'Almacén principal': 16_000, 'Tienda centro': 1_000, 'En tránsito': 3_000 });
    // The detailed ledger sum answers the same.
    const { informeInventario } = await import('../src/informes/almacen.ts');
    const paging = { orden: null, dir: null, pagina: 1, porPagina: 100 };
    for (const fecha of [HOY, diaMas(HOY, -3)]) {
      const ag = await informeInventario(t.app.manager, { fecha, agrupar: 'almacen', vista: 'todos', dias: 30 }, paging);
      const de = await informeInventario(t.app.manager, { fecha, agrupar: 'almacen', vista: 'todos', dias: 30 }, paging, 'detalle');
      expect(de.data).toEqual(ag.data);
    }
    // All received: nothing in transit.
    await ok(t, 'recibirmovimiento', { id: mov.id, lineas: [{ id: mov.lineas[0]!.id, cantidad: 3_000 }] });
    expect(await porAlmacen(HOY)).toEqual({ 'Almacén principal': 16_000, 'Tienda centro': 4_000 });
    // One warehouse asked: only its own.
    expect((await informe('informeinventario', { fecha: HOY, agrupar: 'almacen', almacen_id: principal })).data.map((f) => f.nombre)).toEqual(['Almacén principal']);
  });
});
