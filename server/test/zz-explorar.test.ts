import fs from 'node:fs';
import { it } from 'vitest';
import { CONF_FIELD, FLAG_NAMES } from 'shared/domain';
import { createRegistry } from '../src/actions/index.ts';
import { todayIn } from '../src/context.ts';
import { useTestApp } from './helpers.ts';
import { llamadasGet } from './recorrido-get.ts';

const REGISTRY = createRegistry();
const t = useTestApp({ name: 'sqlite' }, { demo: true, demoStock: true });

function claves(v: unknown, pre: string, out: Set<string>) {
  if (Array.isArray(v)) { for (const x of v.slice(0, 30)) claves(x, pre + '[]', out); return; }
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.add(pre + '.' + k); claves(x, pre + '.' + k, out); }
}

it('explora', { timeout: 600_000 }, async () => {
  const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
  for (const f of FLAG_NAMES) conf[CONF_FIELD[f]] = 1;
  await t.op('editarconfiguracion', { cookie: t.cookie, body: conf });
  const hoy = todayIn('Europe/Madrid');
  const desde = `${Number(hoy.slice(0, 4)) - 1}${hoy.slice(4)}`;
  const llamadas = await llamadasGet(t, t.cookie, REGISTRY, desde, hoy);
  const porAc = new Map<string, Set<string>>();
  const out: string[] = [];
  for (const l of llamadas) {
    const res = await t.op(l.ac, { cookie: t.cookie, query: l.query });
    let body: any; try { body = res.json(); } catch { out.push(`${l.ac} ${JSON.stringify(l.query)} ${res.statusCode} non-json`); continue; }
    if (res.statusCode !== 200 || body.RESULT !== '0') out.push(`${l.ac} ${JSON.stringify(l.query)} ${res.statusCode} ${body.message} ${JSON.stringify(body.errors ?? '')}`);
    const ks = porAc.get(l.ac) ?? new Set(); claves(body, '', ks); porAc.set(l.ac, ks);
  }
  for (const [ac, ks] of porAc) out.push(`${ac}\n   ${[...ks].join(' ')}`);
  fs.writeFileSync('/tmp/costes/keys.txt', out.join('\n'));
});
