import { describe, expect, it } from 'vitest';
import { todayIn } from '../src/context.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { backends, useTestApp } from './helpers.ts';

/**
 * Modelo 303 (issues 14 and 16) on a quarter that mixes every kind of line, hand-computed: S1 at 21 % (one customer
 * under recargo de equivalencia), S2, an intra-EU delivery E5 and a service N2 to a French operator, an export E2 to a
 * US customer, an art. 20 exemption E1, and two rectificativas by differences (one of the E5 delivery, one of the
 * recargo invoice). The boxes as the form numbers them since Orden HAC/646/2021: [59], [60], [120], [122].
 */

const HOY = todayIn('Europe/Madrid');
const Q = Math.floor((Number(HOY.slice(5, 7)) - 1) / 3);
const DESDE = `${HOY.slice(0, 4)}-${String(Q * 3 + 1).padStart(2, '0')}-01`;

describe.each(backends())('modelo303 by operation ($name)', (backend) => {
  const t = useTestApp(backend);

  it('S1, recargo, S2, E5, N2, E2 and E1 each in their box; the rectificativas netted where their lines belong', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const serie = series.find((s) => s.codigo === 'A')!.id;
    const serieR = series.find((s) => s.tipo === 'rectificativa')!.id;
    const es = (await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' })).id;
    const re = (await save(t, t.cookie, 'editarcliente', { nif: 'B12345674', razon_social: 'Droguería Sol, S.L.', codigo_postal: '46001', recargo: 1 })).id;
    const fr = (await save(t, t.cookie, 'editarcliente', { pais: 'FR', tipo_id: '02', nif: 'FR40303265045', razon_social: 'Quincaillerie Dupont SARL' })).id;
    const us = (await save(t, t.cookie, 'editarcliente', { pais: 'US', tipo_id: '03', nif: 'P1234567', razon_social: 'John Smith' })).id;
    const a = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('303-A', { precio_venta: 1_000_000 }))).id;
    const ex = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('303-EX', { tipo_iva: 'exento', precio_venta: 100_000 }))).id;
    const emitir = async (cliente: number, lineas: { articulo_id: number; cantidad: number; precio: number; operacion?: string }[]) => {
      const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: cliente, almacen_id: almacen, serie_id: serie, lineas });
      return save(t, t.cookie, 'emitirfactura', { id: b.id });
    };
    const rectificar = async (f: Row, lineas: { articulo_id: number; cantidad: number; precio: number; operacion?: string }[]) => {
      const r = await save(t, t.cookie, 'editarrectificativa', { fecha: HOY, factura_id: f.id, serie_id: serieR, tipo: 'R1', modo: 'diferencias', lineas });
      return save(t, t.cookie, 'emitirrectificativa', { id: r.id });
    };
    // 2 × 100 € at 21 % and 50 € with inversión del sujeto pasivo.
    expect(await emitir(es, [{ articulo_id: a, cantidad: 2_000, precio: 1_000_000 }, { articulo_id: a, cantidad: 1_000, precio: 500_000, operacion: 'S2' }])).toMatchObject({
      base: 25_000, iva: 4_200, total: 29_200,
    });
    // 100 € at 21 % + 5,2 % recargo.
    const conRecargo = await emitir(re, [{ articulo_id: a, cantidad: 1_000, precio: 1_000_000 }]);
    expect(conRecargo).toMatchObject({ base: 10_000, iva: 2_100, recargo: 520 });
    // 3 × 100 € delivered to France (E5) and a 40 € service not subject here (N2).
    const entrega = await emitir(fr, [{ articulo_id: a, cantidad: 3_000, precio: 1_000_000, operacion: 'E5' }, { articulo_id: a, cantidad: 1_000, precio: 400_000, operacion: 'N2' }]);
    expect(entrega).toMatchObject({ base: 34_000, iva: 0 });
    // 200 € exported (E2) and 10 € exempt under art. 20 (E1).
    await emitir(us, [{ articulo_id: a, cantidad: 2_000, precio: 1_000_000, operacion: 'E2' }]);
    await emitir(es, [{ articulo_id: ex, cantidad: 1_000, precio: 100_000 }]);
    // One unit of the delivery back (−100 € in [59]); half a unit off the recargo invoice (−50 € base, −10,50 IVA, −2,60 recargo).
    await rectificar(entrega, [{ articulo_id: a, cantidad: -1_000, precio: 1_000_000, operacion: 'E5' }]);
    expect(await rectificar(conRecargo, [{ articulo_id: a, cantidad: -500, precio: 1_000_000 }])).toMatchObject({ base: -5_000, iva: -1_050, recargo: -260 });

    const res = await t.op('modelo303', { cookie: t.cookie, query: { desde: DESDE, hasta: HOY } });
    const body = res.json() as { RESULT: string; data: Record<string, unknown>[]; totales: Record<string, number> };
    expect(body.RESULT).toBe('0');
    const cas = Object.fromEntries(body.data.map((f) => [f.casilla ?? f.clave, f.importe ?? f.porcentaje]));
    expect(cas).toMatchObject({
      '01': 0, '03': 0, '04': 0, '06': 0, '07': 30_000, '08': 2100, '09': 6_300,
      '14': -5_000, '15': -1_050,
      '22': 10_000, '23': 520, '24': 520, '25': -5_000, '26': -260,
      '27': 6_300 + 520 - 1_050 - 260,
      '46': 5_510, '71': 5_510,
      '59': 20_000, '60': 20_000, '120': 4_000, '122': 5_000,
      'sin-casilla': 1_000,
    });
    // Concepts in Spanish, rates with a decimal comma (issue 25: never «0.5 %»).
    const concepto = Object.fromEntries(body.data.map((f) => [f.casilla ?? f.clave, f.concepto]));
    expect([concepto['16'], concepto['19'], concepto['22']]).toEqual([
      'Recargo de equivalencia 0,5 %: base imponible', 'Recargo de equivalencia 1,4 %: base imponible', 'Recargo de equivalencia 5,2 %: base imponible',
    ]);
    // The additional boxes come after the result, in the form's order.
    const orden = body.data.map((f) => f.casilla ?? f.clave);
    expect(orden.slice(orden.indexOf('71'))).toEqual(['71', '59', '60', '120', '122', 'sin-casilla']);
    expect(body.totales).toMatchObject({ base: 25_000, iva: 5_250, recargo: 260, devengado: 5_510, entregas_ue: 20_000, exportaciones: 20_000, no_sujetas_localizacion: 4_000, inversion_sujeto_pasivo: 5_000, sin_casilla: 1_000 });
  });
});
