import { expect } from 'vitest';
import { CONF_FIELD } from 'shared/domain';
import type { FlagName } from 'shared/domain';
import { ean13 } from '../src/demo/seed-catalogo.ts';
import { expectCleanAnswer } from './helpers.ts';
import type { TestApp } from './helpers.ts';

export { ean13 };

export type Row = Record<string, unknown> & { id: number };

/** Switches module flags in the configuration, as the configuration screen does. */
export async function setFlags(t: TestApp, cookie: string, flags: Partial<Record<FlagName, 0 | 1>>) {
  const conf = (await t.op('listadoconfiguraciones', { cookie })).json().data[0];
  const body = { ...conf };
  for (const [f, v] of Object.entries(flags)) body[CONF_FIELD[f as FlagName]] = v;
  const res = await t.op('editarconfiguracion', { cookie, body });
  expect(res.json().RESULT).toBe('0');
}

/** A successful save: its record. */
export async function save(t: TestApp, cookie: string, ac: string, body: Record<string, unknown>): Promise<Row> {
  const res = await t.op(ac, { cookie, body });
  const answer = expectCleanAnswer(res);
  if (answer.RESULT !== '0') throw new Error(`${ac}: ${res.body}`);
  return (answer.data as Row[])[0];
}

/** A GET list: rows and total. */
export async function list(t: TestApp, cookie: string, ac: string, query: Record<string, string | number> = {}) {
  const res = await t.op(ac, { cookie, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  const body = expectCleanAnswer(res);
  expect(res.statusCode).toBe(200);
  return { rows: (body.data ?? []) as Row[], total: body.total as number, body };
}

/** One article's full record. */
export async function articulo(t: TestApp, cookie: string, id: number): Promise<Row> {
  const { rows } = await list(t, cookie, 'listadoarticulos', { id });
  return rows[0];
}

/** A minimal valid article body. */
export const nuevoArticulo = (codigo: string, extra: Record<string, unknown> = {}) => ({
  codigo,
  descripcion: `Artículo ${codigo}`,
  unidad_medida: 'ud',
  tipo_iva: '21',
  ...extra,
});
