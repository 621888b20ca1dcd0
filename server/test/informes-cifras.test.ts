import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CONF_FIELDS } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { informeVentas } from '../src/informes/ventas.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import type { Row } from './catalogo-fixtures.ts';

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

  it('sales = libro de expedidas = 303 = the documents; tickets = closings; every row its document\'s total', async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, ...Object.fromEntries(CONF_FIELDS.map((f) => [f, 1])) } })).statusCode).toBe(200);
    const periodos: [string, string][] = [
      [`${ANIO - 1}-01-01`, HOY],
      [`${ANIO}-07-01`, `${ANIO}-09-30`],
      [`${ANIO}-01-01`, `${ANIO}-03-31`],
    ];
    let documentosVistos = 0;
    for (const [desde, hasta] of periodos) {
      const docs = await documentos(desde, hasta);
      documentosVistos += docs.rows.length;
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
    }
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
    const cierres = await informe('informecierrestpv', { desde, hasta: HOY });
    const porTerminal = await informe('informeventas', { desde, hasta: HOY, agrupar: 'terminal' });
    const enTerminales = porTerminal.data.filter((r) => r.terminal_id !== null);
    expect(cierres.total).toBeGreaterThan(0);
    expect({ base: cierres.totales.base, iva: cierres.totales.iva }).toEqual({
      base: enTerminales.reduce((s, r) => s + Number(r.base), 0),
      iva: enTerminales.reduce((s, r) => s + Number(r.iva), 0),
    });
  }, 300_000);
});
