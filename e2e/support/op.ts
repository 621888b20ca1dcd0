import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** What op.asp answers. */
export type Api = { RESULT: string; message?: string; data: Record<string, unknown>[]; total?: number };

/** op.asp from the page, with its session: GET with a query, or POST with a JSON body. */
export function api(page: Page, ac: string, query: Record<string, string | number> = {}, body?: object): Promise<Api> {
  return page.evaluate(
    async ({ ac, query, body }) => {
      const qs = new URLSearchParams({ ac, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
      const init: RequestInit = body ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {};
      return (await fetch(`/api/op.asp?${qs}`, init)).json();
    },
    { ac, query, body },
  );
}

/** op.asp that must succeed (RESULT 0): its rows. */
export async function ok(page: Page, ac: string, query: Record<string, string | number> = {}, body?: object): Promise<Record<string, unknown>[]> {
  const res = await api(page, ac, query, body);
  expect(res.RESULT, `${ac}: ${JSON.stringify(res).slice(0, 400)}`).toBe('0');
  return res.data;
}

/** EAN-13 with its check digit. */
export function ean13(doce: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(doce[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return doce + ((10 - (sum % 10)) % 10);
}
