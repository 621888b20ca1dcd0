import { describe, expect, it } from 'vitest';
import { todayIn } from '../src/context.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import { backends, useTestApp } from './helpers.ts';

/**
 * Modelo 349 (issue 16): intra-EU operations per operator (NIF-IVA), clave and quarter, hand-checked: a French
 * customer with a NIF-IVA (an exempt delivery, E; a service not subject here, N2, S; a rectificativa by differences
 * netting the delivery), a Spanish customer and a French one without NIF-IVA left out; a German supplier's invoice (A).
 */

const HOY = todayIn('Europe/Madrid');
const TRIMESTRE = `${HOY.slice(0, 4)} ${Math.floor((Number(HOY.slice(5, 7)) - 1) / 3) + 1}T`;

describe.each(backends())('modelo349 ($name)', (backend) => {
  const t = useTestApp(backend);

  it('E, S and A per NIF-IVA and quarter, bases to the cent; domestic and non-EU-registered parties left out', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const serie = series.find((s) => s.codigo === 'A')!.id;
    const serieR = series.find((s) => s.tipo === 'rectificativa')!.id;
    const fr = (await save(t, t.cookie, 'editarcliente', { pais: 'FR', tipo_id: '02', nif: 'FR40303265045', razon_social: 'Quincaillerie Dupont SARL' })).id;
    const frSinNifIva = (await save(t, t.cookie, 'editarcliente', { pais: 'FR', tipo_id: '06', nif: 'X-99', razon_social: 'Jean Martin' })).id;
    const es = (await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' })).id;
    const exento = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('UE-BIEN', { tipo_iva: 'exento', precio_venta: 10_0000 }))).id;
    const servicio = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('UE-SERV', { tipo_iva: 'exento', precio_venta: 10_0000 }))).id;
    const normal = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('ES-BIEN', { precio_venta: 10_0000 }))).id;

    const emitir = async (cliente: number, lineas: { articulo_id: number; cantidad: number; precio: number; operacion?: string }[], n2?: number) => {
      const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: cliente, almacen_id: almacen, serie_id: serie, lineas });
      // N2 (a service whose place of supply is the customer's country): the line's operation, as the lines say it.
      if (n2 !== undefined) await t.app.manager.db.updateTable('documento_lineas').set({ operacion: 'N2' }).where('documento_id', '=', b.id).where('articulo_id', '=', n2).execute();
      return save(t, t.cookie, 'emitirfactura', { id: b.id });
    };
    // 3 × 1.234,56 € delivered and 2 × 99,99 € of a service to the French operator.
    const f1 = await emitir(
      fr,
      [
        // The line says what it is (issue 16): an intra-EU delivery, exempt by art. 25.
        { articulo_id: exento, cantidad: 3_000, precio: 1_234_5600, operacion: 'E5' },
        { articulo_id: servicio, cantidad: 2_000, precio: 99_9900 },
      ],
      servicio,
    );
    await emitir(frSinNifIva, [{ articulo_id: exento, cantidad: 1_000, precio: 500_0000 }]);
    await emitir(es, [{ articulo_id: normal, cantidad: 1_000, precio: 700_0000 }, { articulo_id: exento, cantidad: 1_000, precio: 50_0000 }]);
    // One unit back: a rectificativa by differences (−1.234,56 €).
    const r = await save(t, t.cookie, 'editarrectificativa', {
      fecha: HOY, factura_id: f1.id, serie_id: serieR, tipo: 'R1', modo: 'diferencias', lineas: [{ articulo_id: exento, cantidad: -1_000, precio: 1_234_5600, operacion: 'E5' }],
    });
    await save(t, t.cookie, 'emitirrectificativa', { id: r.id });
    // A German supplier's invoice of 800 € base (recorded by hcp), and a Spanish one left out.
    const de = (await save(t, t.cookie, 'editarproveedor', { pais: 'DE', tipo_id: '02', nif: 'DE136695976', razon_social: 'Werkzeug GmbH' })).id;
    const prov = (await save(t, t.cookie, 'editarproveedor', { nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', codigo_postal: '08005' })).id;
    for (const [proveedor_id, base] of [[de, 80_000], [prov, 30_000]]) {
      await t.app.manager.db
        .insertInto('facturas_proveedor')
        .values({ proveedor_id, numero_proveedor: `F-${proveedor_id}`, fecha: HOY, total: base, base, iva: 0, total_documentos: base, creado: new Date().toISOString(), creado_por: null })
        .execute();
    }

    const res = await t.op('modelo349', { cookie: t.cookie, query: { desde: `${HOY.slice(0, 4)}-01-01`, hasta: HOY } });
    const body = res.json() as { RESULT: string; data: Record<string, unknown>[]; totales: Record<string, number> };
    expect(body.RESULT).toBe('0');
    const filas = body.data.map((x) => [x.clave_operacion, x.pais, x.nif, x.nombre, x.periodo, x.base]).sort();
    expect(filas).toEqual([
      ['A', 'DE', 'DE136695976', 'Werkzeug GmbH', TRIMESTRE, 80_000],
      ['E', 'FR', 'FR40303265045', 'Quincaillerie Dupont SARL', TRIMESTRE, 246_912],
      ['S', 'FR', 'FR40303265045', 'Quincaillerie Dupont SARL', TRIMESTRE, 19_998],
    ]);
    expect(body.totales).toMatchObject({ operadores: 2, entregas: 246_912, servicios: 19_998, adquisiciones: 80_000, base: 346_910 });
    // The clave filter.
    const soloE = (await t.op('modelo349', { cookie: t.cookie, query: { desde: `${HOY.slice(0, 4)}-01-01`, hasta: HOY, clave: 'E' } })).json() as { data: Record<string, unknown>[] };
    expect(soloE.data.map((x) => x.clave_operacion)).toEqual(['E']);
  });
});

/** The first day of the quarter before today's, + 9 days, and that quarter's name ('2026 3T'). */
function trimestreAnterior(): { fecha: string; periodo: string; inicioActual: string } {
  const a = Number(HOY.slice(0, 4));
  const q = Math.floor((Number(HOY.slice(5, 7)) - 1) / 3) + 1;
  const [pa, pq] = q === 1 ? [a - 1, 4] : [a, q - 1];
  return { fecha: `${pa}-${String((pq - 1) * 3 + 1).padStart(2, '0')}-10`, periodo: `${pa} ${pq}T`, inicioActual: `${a}-${String((q - 1) * 3 + 1).padStart(2, '0')}-01` };
}

describe.each(backends())('modelo349 rectificaciones ($name)', (backend) => {
  const t = useTestApp(backend);

  it('a correction of an earlier quarter goes to the rectificaciones (period corrected, base declared before and corrected), not netted into this one', async () => {
    const antes = trimestreAnterior();
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const serie = series.find((s) => s.codigo === 'A')!.id;
    const serieR = series.find((s) => s.tipo === 'rectificativa')!.id;
    const fr = (await save(t, t.cookie, 'editarcliente', { pais: 'FR', tipo_id: '02', nif: 'FR40303265045', razon_social: 'Quincaillerie Dupont SARL' })).id;
    const a = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('UE-R', { precio_venta: 100_0000 }))).id;
    const emitir = async (fecha: string, lineas: { articulo_id: number; cantidad: number; precio: number; operacion: string }[]) => {
      const b = await save(t, t.cookie, 'editarfactura', { fecha, cliente_id: fr, almacen_id: almacen, serie_id: serie, lineas });
      return save(t, t.cookie, 'emitirfactura', { id: b.id });
    };
    const rectificar = async (fecha: string, factura: number, cantidad: number) => {
      const r = await save(t, t.cookie, 'editarrectificativa', {
        fecha, factura_id: factura, serie_id: serieR, tipo: 'R1', modo: 'diferencias', lineas: [{ articulo_id: a, cantidad, precio: 100_0000, operacion: 'E5' }],
      });
      return save(t, t.cookie, 'emitirrectificativa', { id: r.id });
    };
    // Last quarter: 5 × 100 € delivered (E) and a 30 € service (S); one unit returned in that same quarter → E 400 € declared.
    const f1 = await emitir(antes.fecha, [{ articulo_id: a, cantidad: 5_000, precio: 100_0000, operacion: 'E5' }]);
    await emitir(antes.fecha, [{ articulo_id: a, cantidad: 1_000, precio: 30_0000, operacion: 'N2' }]);
    await rectificar(antes.fecha, f1.id, -1_000);
    // This quarter: two more units of that delivery returned (−200 €), and a new delivery of 100 €.
    await rectificar(HOY, f1.id, -2_000);
    await emitir(HOY, [{ articulo_id: a, cantidad: 1_000, precio: 100_0000, operacion: 'E5' }]);

    type Body = { RESULT: string; data: Record<string, unknown>[]; totales: Record<string, number> };
    const pedir = async (q: Record<string, string>) => (await t.op('modelo349', { cookie: t.cookie, query: q })).json() as Body;
    const trimestre = await pedir({ desde: antes.inicioActual, hasta: HOY });
    expect(trimestre.data.map((x) => [x.clave_operacion, x.nif, x.periodo, x.base])).toEqual([['E', 'FR40303265045', TRIMESTRE, 10_000]]);
    expect(trimestre.totales).toMatchObject({ entregas: 10_000, rectificaciones: 1, base_anterior: 40_000, base_rectificada: 20_000 });
    const rect = await pedir({ desde: antes.inicioActual, hasta: HOY, agrupar: 'rectificacion' });
    expect(rect.data).toEqual([
      expect.objectContaining({
        clave_operacion: 'E', pais: 'FR', nif: 'FR40303265045', nombre: 'Quincaillerie Dupont SARL', periodo: TRIMESTRE, periodo_rectificado: antes.periodo,
        base_anterior: 40_000, base_rectificada: 20_000, diferencia: -20_000,
      }),
    ]);
    // Last quarter alone, as it was declared: the in-quarter return netted, no rectificación.
    const previo = await pedir({ desde: `${antes.fecha.slice(0, 8)}01`, hasta: antes.fecha });
    expect(previo.data.map((x) => [x.clave_operacion, x.periodo, x.base]).sort()).toEqual([['E', antes.periodo, 40_000], ['S', antes.periodo, 3_000]]);
    expect(previo.totales.rectificaciones).toBe(0);
  });
});
