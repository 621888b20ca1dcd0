import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { encenderModulos } from './browser';
import { api } from './op';

/**
 * What every document story (almacenes, compras, ventas) reads off the shared document screens: the state bar, the
 * linked documents, a field's value, a table's cells, and the op.asp call an action fires.
 */

/** The record's state bar (badge and actions). */
export const estado = (page: Page) => page.getByRole('group', { name: 'Estado y acciones del documento' });
/** Waits for the document's state badge to read exactly `label`. */
export const enEstado = (page: Page, label: string) => estado(page).getByText(label, { exact: true }).waitFor();
/** The linked documents (the pedido an albarán comes from, the albaranes a receipt made…). */
export const enlaces = (page: Page) => page.getByRole('navigation', { name: 'Documentos relacionados' });
/** Waits until a field shows `value`. */
export const valor = (locator: Locator, value: string) => expect.poll(() => locator.inputValue()).toBe(value);

/** Waits for the request of `ac` (POST by default) fired by `action` and answers its body (RESULT 0 expected). */
export async function llamada(page: Page, ac: string, action: () => Promise<unknown>, method = 'POST') {
  const answer = page.waitForResponse((r) => new URL(r.url()).searchParams.get('ac') === ac && r.request().method() === method);
  await action();
  const body = await (await answer).json();
  expect(body.RESULT, JSON.stringify(body)).toBe('0');
  return body;
}
export const post = (page: Page, ac: string, action: () => Promise<unknown>) => llamada(page, ac, action);
export const get = (page: Page, ac: string, action: () => Promise<unknown>) => llamada(page, ac, action, 'GET');

/**
 * The cells of a table's body rows (and footer), row by row: their text, or with `valores` the typed value where a
 * cell has a box for it (the lines editor's quantities and prices).
 */
export function filas(table: Locator, { valores = false } = {}): Promise<string[][]> {
  return table.evaluate(
    (t, conValores) =>
      [...(t as HTMLTableElement).querySelectorAll('tbody tr, tfoot tr')].map((tr) =>
        [...(tr as HTMLTableRowElement).cells].map((c) => ((conValores ? c.querySelector<HTMLInputElement>('input.dec')?.value : undefined) ?? c.textContent ?? '').trim()),
      ),
    valores,
  );
}

/** Ventas, its documents, hfa and partes switched on in the configuration if another test left one off. */
export const ventasEncendidas = (page: Page) =>
  encenderModulos(
    page,
    ['listadoclientes', 'listadopedidosventa', 'listadofacturas', 'listadopartes', 'hfapropuesta&desde=2026-01-01&hasta=2026-01-01'],
    ['Ventas', 'Pedidos de venta', 'Facturas y rectificativas', 'Facturar albaranes', 'Partes de trabajo'],
  );

/**
 * An emitted invoice in serie A to the demo's C0001: one LLA-AJ8 (a demo article with stock that no other
 * test follows) from the principal warehouse. Answers its id and number.
 */
export async function facturaEmitida(page: Page): Promise<{ id: number; numero: string }> {
  const uno = async (ac: string, query: Record<string, string | number>, pick: (r: Record<string, unknown>) => boolean) => {
    const res = await api(page, ac, { porPagina: 100, ...query });
    const row = res.data.find(pick);
    expect(row, `${ac}: ${JSON.stringify(res).slice(0, 300)}`).toBeDefined();
    return row!.id as number;
  };
  const serie = await uno('listadoseries', {}, (r) => r.codigo === 'A');
  const almacen = await uno('listadoalmacenes', {}, (r) => r.codigo === 'PRINCIPAL');
  const cliente = await uno('listadoclientes', {}, (r) => r.codigo === 'C0001');
  const articulo = await uno('listadoarticulos', { barras: 'LLA-AJ8' }, (r) => r.codigo === 'LLA-AJ8');
  const fecha = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' });
  const borrador = await api(page, 'editarfactura', {}, { fecha, cliente_id: cliente, almacen_id: almacen, serie_id: serie, lineas: [{ articulo_id: articulo, cantidad: 1_000 }] });
  expect(borrador.RESULT, JSON.stringify(borrador)).toBe('0');
  const emitida = await api(page, 'emitirfactura', {}, { id: borrador.data[0].id });
  expect(emitida.RESULT, JSON.stringify(emitida)).toBe('0');
  return { id: emitida.data[0].id as number, numero: emitida.data[0].numero as string };
}
