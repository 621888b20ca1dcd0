import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';

/**
 * docs/documentos.md, "Negative stock": allowed by default (a shop sells what it has not received yet); with the
 * configuration's «stock negativo» off, a document that would leave an article below zero in a warehouse is refused
 * with its code and warehouse, and nothing changes.
 */
const HOY = todayIn('Europe/Madrid');

async function post(t: SuiteApp, ac: string, body: Record<string, unknown>) {
  const res = await t.op(ac, { cookie: t.cookie, body });
  return expectCleanAnswer(res) as { RESULT: string; message?: string; data?: Row[] };
}
async function permitir(t: SuiteApp, valor: 0 | 1) {
  const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
  expect((await post(t, 'editarconfiguracion', { ...conf, stock_negativo: valor })).RESULT).toBe('0');
}
async function stock(t: SuiteApp, articuloId: number, almacenId: number): Promise<number> {
  const rec = await list(t, t.cookie, 'listadoarticulos', { id: articuloId });
  const fila = (rec.rows[0].stock as { almacen_id: number; stock: number }[]).find((s) => s.almacen_id === almacenId);
  return fila?.stock ?? 0;
}

describe.each(backends())('stock negativo ($name)', (backend) => {
  const t = useTestApp(backend);

  it('is allowed by default; refused, with nothing changed, once the configuration says so; allowed again after', async () => {
    const almacenes = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows;
    const principal = almacenes.find((a) => a.codigo === 'PRINCIPAL')!.id;
    const art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('NEG-1', { precio_venta: 100_000 }));
    const cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Cliente sin stock, S.L.' });
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect(conf.stock_negativo).toBe(1);

    // Default: the sale goes through and the stock is −2.
    const alb = await post(t, 'editaralbaranventa', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 2_000 }] });
    expect(alb.RESULT).toBe('0');
    expect(await stock(t, art.id, principal)).toBe(-2_000);
    expect((await post(t, 'eliminaralbaranventa', { id: alb.data![0].id })).RESULT).toBe('0');

    await permitir(t, 0);
    const antes = (await list(t, t.cookie, 'listadoalbaranesventa')).total;
    const negado = await post(t, 'editaralbaranventa', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 2_000 }] });
    expect(negado).toEqual({ RESULT: '1', message: `${MESSAGES.stockInsuficiente} de NEG-1 en Almacén principal (quedaría en -2)` });
    expect((await list(t, t.cookie, 'listadoalbaranesventa')).total).toBe(antes);
    expect(await stock(t, art.id, principal)).toBe(0);

    // A pérdida finished without stock is refused too (the action's ledger rows), and stays Pendiente.
    const perdida = await post(t, 'editarperdida', { fecha: HOY, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 1_000, motivo: 'rotura' }] });
    expect(perdida.RESULT).toBe('0');
    const fin = await post(t, 'finalizarperdida', { id: perdida.data![0].id });
    expect(fin.RESULT).toBe('1');
    expect(fin.message).toContain(MESSAGES.stockInsuficiente);
    expect((await list(t, t.cookie, 'listadoperdidas', { id: perdida.data![0].id })).rows[0].estado).toBe('pendiente');

    // With stock it goes through.
    const inv = await post(t, 'editarinventario', { fecha: HOY, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 5_000 }] });
    expect((await post(t, 'finalizarinventario', { id: inv.data![0].id })).RESULT).toBe('0');
    expect((await post(t, 'editaralbaranventa', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 2_000 }] })).RESULT).toBe('0');
    expect(await stock(t, art.id, principal)).toBe(3_000);

    await permitir(t, 1);
    expect((await post(t, 'finalizarperdida', { id: perdida.data![0].id })).RESULT).toBe('0');
  });

  it('an invoice that sells what is not there: emitted by default; refused when emitting it with stock negativo off, nothing changed', async () => {
    const principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((a) => a.codigo === 'PRINCIPAL')!.id;
    const serie = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
    const art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('NEG-F', { precio_venta: 100_000 }));
    const cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B28456713', razon_social: 'Cliente de facturas, S.L.' });
    const borrador = async () =>
      (await post(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serie, lineas: [{ articulo_id: art.id, cantidad: 2_000 }] })).data![0];

    await permitir(t, 0);
    const negada = await borrador();
    const res = await post(t, 'emitirfactura', { id: negada.id });
    expect(res).toMatchObject({ RESULT: '1', message: `${MESSAGES.stockInsuficiente} de NEG-F en Almacén principal (quedaría en -2)` });
    expect((await list(t, t.cookie, 'listadofacturas', { id: negada.id })).rows[0]).toMatchObject({ estado: 'borrador', numero: 'Borrador' });
    expect(await stock(t, art.id, principal)).toBe(0);

    await permitir(t, 1);
    expect((await post(t, 'emitirfactura', { id: negada.id })).RESULT).toBe('0');
    expect(await stock(t, art.id, principal)).toBe(-2_000);
  });
});

