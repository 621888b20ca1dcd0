import { describe, expect, it } from 'vitest';
import { DOCUMENTO_TIPOS, FLAG_NAMES, direccionesDocumento } from 'shared/domain';
import type { FlagName } from 'shared/domain';
import { createRegistry } from '../src/actions/index.ts';
import { backends, useTestApp } from './helpers.ts';
import { setFlags } from './catalogo-fixtures.ts';

/**
 * Issue 27, one definition per document type: the flags the server requires for a type's op.asp actions are its
 * definition's `flags` (plus an action's own), the ones its screens are gated behind cover them, and turning one of
 * them off refuses the type's actions (403) on both databases.
 */

const REGISTRY = createRegistry();
const TIPOS = Object.values(DOCUMENTO_TIPOS);
const todas = (v: 0 | 1) => Object.fromEntries(FLAG_NAMES.map((f) => [f, v])) as Record<FlagName, 0 | 1>;

describe('the document actions’ flags come from the types’ definitions', () => {
  it.each(TIPOS.map((d) => [d.tipo, d] as const))('%s: listado, editar, eliminar and each verb require its flags', (_t, def) => {
    // The ticket is listed by the engine but made and issued by the till's own actions (subirtickets, tpv/).
    const acciones = def.tipo === 'ticket' ? [`listado${def.plural}`] : [`listado${def.plural}`, `editar${def.entidad}`, `eliminar${def.entidad}`];
    for (const ac of acciones) expect(REGISTRY.get(ac)?.flags, ac).toEqual([...def.flags]);
    if (def.tipo !== 'ticket') for (const a of def.acciones) expect(REGISTRY.get(`${a.verbo}${def.entidad}`)?.flags).toEqual(a.flag ? [...def.flags, a.flag] : [...def.flags]);
    // Its screens need at least as much: a screen never offers what the server refuses for a flag.
    if (def.pantalla) for (const f of def.flags) expect(direccionesDocumento(def).flag).toContain(f);
  });
});

describe.each(backends())('a document type’s flag turned off ($name)', (backend) => {
  const t = useTestApp(backend);

  it('refuses its listing (403) while the others answer; on again, it answers', async () => {
    for (const def of TIPOS) {
      for (const f of def.flags) {
        await setFlags(t, t.cookie, { ...todas(1), [f]: 0 });
        const off = await t.op(`listado${def.plural}`, { cookie: t.cookie, method: 'GET' });
        expect(off.statusCode, `${def.plural} sin ${f}`).toBe(403);
      }
    }
    await setFlags(t, t.cookie, todas(1));
    for (const def of TIPOS) {
      const on = await t.op(`listado${def.plural}`, { cookie: t.cookie, method: 'GET' });
      expect(on.statusCode, def.plural).toBe(200);
      expect(on.json().RESULT).toBe('0');
    }
  });

  it('the albarán de compra is served with compras alone (its screens also need compras_albaranes)', async () => {
    await setFlags(t, t.cookie, { ...todas(1), compras_albaranes: 0 });
    expect((await t.op('listadoalbaranescompra', { cookie: t.cookie, method: 'GET' })).statusCode).toBe(200);
    expect(direccionesDocumento(DOCUMENTO_TIPOS.albarancompra).flag).toContain('compras_albaranes');
  });
});
