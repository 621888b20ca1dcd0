import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

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
