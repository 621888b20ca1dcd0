import { describe, expect, it } from 'vitest';
import { todayIn } from '../src/context.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { backends, useTestApp } from './helpers.ts';

/**
 * Issue 25, «The EU sale, right by default»: a customer whose record names no operation gets the one where it is —
 * an operator of another member state with its NIF-IVA E5 (exempt intra-EU delivery, box 59 and the 349), a customer
 * outside the EU E2 (export, box 60), a customer in Canarias E2 —, while a Spanish customer stays S1, the customer's
 * own choice and the line's still win. Hand-checked amounts.
 */

const HOY = todayIn('Europe/Madrid');
const DESDE = `${HOY.slice(0, 4)}-01-01`;

describe.each(backends())('the default operation by where the customer is ($name)', (backend) => {
  const t = useTestApp(backend);

  it('E5 to a French company with its NIF-IVA, E2 to the US and to Las Palmas, S1 in Madrid; a named operation and a line’s own still win; boxes 59/60 and the 349', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const serie = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
    const cliente = async (datos: Record<string, unknown>) => (await save(t, t.cookie, 'editarcliente', datos)).id as number;
    const fr = await cliente({ pais: 'FR', tipo_id: '02', nif: 'FR40303265045', razon_social: 'Quincaillerie Dupont SARL' });
    const frConsumidor = await cliente({ pais: 'FR', tipo_id: '03', nif: 'P-12345', razon_social: 'Jean Martin' });
    const us = await cliente({ pais: 'US', tipo_id: '03', nif: 'P1234567', razon_social: 'John Smith' });
    const canarias = await cliente({ nif: 'B85612349', razon_social: 'Ferretería Canaria, S.L.', codigo_postal: '35002' });
    const madrid = await cliente({ nif: 'B12345674', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    const frS1 = await cliente({ pais: 'FR', tipo_id: '02', nif: 'FR12345678901', razon_social: 'Bricolage du Midi SARL', operacion: 'S1' });
    const a = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('DEST-A', { precio_venta: 1_000_000 }))).id;

    const emitir = async (clienteId: number, lineas: { articulo_id: number; cantidad: number; precio: number; operacion?: string }[]) => {
      const b = (await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: clienteId, almacen_id: almacen, serie_id: serie, lineas })) as Row & {
        lineas: { operacion: string }[];
      };
      const f = await save(t, t.cookie, 'emitirfactura', { id: b.id });
      return { operaciones: b.lineas.map((l) => l.operacion), f };
    };
    const linea = (precio: number, operacion?: string) => ({ articulo_id: a, cantidad: 1_000, precio, ...(operacion ? { operacion } : {}) });

    // 300 € to the French operator: E5, no IVA.
    const e5 = await emitir(fr, [linea(3_000_000)]);
    expect(e5.operaciones).toEqual(['E5']);
    expect(e5.f).toMatchObject({ base: 30_000, iva: 0, total: 30_000 });
    // A consumer in France (no NIF-IVA): IVA as in Spain.
    expect((await emitir(frConsumidor, [linea(1_000_000)])).f).toMatchObject({ base: 10_000, iva: 2_100 });
    // 200 € to the US and 50 € to Las Palmas: exports, no IVA.
    const e2 = await emitir(us, [linea(2_000_000)]);
    expect(e2.operaciones).toEqual(['E2']);
    expect(e2.f).toMatchObject({ iva: 0, total: 20_000 });
    const canario = await emitir(canarias, [linea(500_000)]);
    expect(canario.operaciones).toEqual(['E2']);
    expect(canario.f).toMatchObject({ iva: 0, total: 5_000 });
    // Madrid: S1 at 21 %.
    const s1 = await emitir(madrid, [linea(1_000_000)]);
    expect(s1.operaciones).toEqual(['S1']);
    expect(s1.f).toMatchObject({ base: 10_000, iva: 2_100 });
    // The customer's own choice wins over where it is, and a line's own over both.
    expect((await emitir(frS1, [linea(1_000_000)])).operaciones).toEqual(['S1']);
    const mixta = await emitir(fr, [linea(1_000_000, 'S1'), linea(1_000_000)]);
    expect(mixta.operaciones).toEqual(['S1', 'E5']);
    expect(mixta.f).toMatchObject({ base: 20_000, iva: 2_100 });

    // Box 59: 300 + 100 € delivered in the EU; box 60: 200 + 50 € exported.
    const m303 = (await t.op('modelo303', { cookie: t.cookie, query: { desde: DESDE, hasta: HOY } })).json() as { totales: Record<string, number> };
    expect(m303.totales).toMatchObject({ entregas_ue: 40_000, exportaciones: 25_000 });
    // The 349: the French operator, clave E, 400 €.
    const m349 = (await t.op('modelo349', { cookie: t.cookie, query: { desde: DESDE, hasta: HOY } })).json() as { data: Record<string, unknown>[] };
    const filas = m349.data.filter((r) => String(r.nif ?? r.nif_iva ?? '').includes('40303265045'));
    expect(filas).toHaveLength(1);
    expect(String(filas[0].clave)).toMatch(/^E\|/);
    expect(filas[0]).toMatchObject({ base: 40_000 });
  });

});

describe.each(backends())('the default operation of a company in Canarias ($name)', (backend) => {
  const t = useTestApp(backend);

  it('a company in Canarias (IGIC): a customer in Las Palmas is no export', async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await save(t, t.cookie, 'editarconfiguracion', { ...conf, impuesto: 'igic' });
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const serie = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
    const canarias = (await save(t, t.cookie, 'editarcliente', { nif: 'B08934127', razon_social: 'Bazar Triana, S.L.', codigo_postal: '35002' })).id;
    const a = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('DEST-IG', { precio_venta: 1_000_000, tipo_iva: 'igic_7' }))).id;
    const b = (await save(t, t.cookie, 'editarfactura', {
      fecha: HOY, cliente_id: canarias, almacen_id: almacen, serie_id: serie, lineas: [{ articulo_id: a, cantidad: 1_000, precio: 1_000_000 }],
    })) as Row & { lineas: { operacion: string }[] };
    expect(b.lineas.map((l) => l.operacion)).toEqual(['S1']);
  });
});
