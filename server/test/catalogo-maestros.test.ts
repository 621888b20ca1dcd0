import { describe, expect, it } from 'vitest';
import { MESSAGES, TOASTS } from 'shared/domain';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';

describe.each(backends())('catálogo: familias, subfamilias, marcas, materiales, procesos ($name)', (backend) => {
  const t = useTestApp(backend);

  it('the demo shop starts with its familias, subfamilias (with their familia) and marcas', async () => {
    const familias = await list(t, t.cookie, 'listadofamilias');
    expect(familias.total).toBe(5);
    expect(familias.rows.map((f) => f.codigo)).toEqual(['DRO', 'ELE', 'FER', 'JAR', 'PIN']);
    const subs = await list(t, t.cookie, 'listadosubfamilias', { orden: 'nombre', porPagina: 100 });
    expect(subs.total).toBe(10);
    expect(subs.rows.find((s) => s.codigo === 'TOR')).toMatchObject({ nombre: 'Tornillería y fijación', familia_nombre: 'Ferretería', activo: 1 });
    expect((await list(t, t.cookie, 'listadomarcas')).total).toBe(6);
  });

  it('creates, reads and updates a familia; a repeated code and empty fields are field errors', async () => {
    const created = await save(t, t.cookie, 'editarfamilia', { codigo: 'BAN', nombre: 'Baño' });
    expect(created).toEqual({ id: created.id, codigo: 'BAN', nombre: 'Baño', activo: 1 });
    const updated = await save(t, t.cookie, 'editarfamilia', { id: created.id, codigo: 'BAN', nombre: 'Baño y cocina', activo: 0 });
    expect(updated).toMatchObject({ nombre: 'Baño y cocina', activo: 0 });
    expect((await list(t, t.cookie, 'listadofamilias', { id: created.id })).rows).toEqual([updated]);

    const dup = await t.op('editarfamilia', { cookie: t.cookie, body: { codigo: 'FER', nombre: 'Otra ferretería' } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ RESULT: '1', message: MESSAGES.invalidFields, errors: { codigo: MESSAGES.duplicated } });
    const empty = await t.op('editarfamilia', { cookie: t.cookie, body: { codigo: '', nombre: 'x'.repeat(121) } });
    expect(empty.json().errors).toEqual({ codigo: MESSAGES.required, nombre: MESSAGES.tooLong });
    const missing = await t.op('listadofamilias', { cookie: t.cookie, query: { id: '99999' } });
    expect(missing.json()).toEqual({ RESULT: '3', message: MESSAGES.notFound });
  });

  it('lists with search, active filter, order and paging', async () => {
    const search = await list(t, t.cookie, 'listadofamilias', { q: 'ferre' });
    expect(search.rows.map((f) => f.codigo)).toEqual(['FER']);
    // Inside words, without accents or case, whichever side has them.
    for (const q of ['rreter', 'FERRETERÍA', 'ferretería', 'ETERÍ']) {
      expect((await list(t, t.cookie, 'listadofamilias', { q })).rows.map((f) => f.codigo)).toEqual(['FER']);
    }
    expect((await list(t, t.cookie, 'listadofamilias', { q: 'BANO' })).rows.map((f) => f.codigo)).toEqual(['BAN']);
    expect((await list(t, t.cookie, 'listadofamilias', { q: 'jardin' })).rows.map((f) => f.codigo)).toEqual(['JAR']);
    const accented = await save(t, t.cookie, 'editarfamilia', { codigo: 'ÁTI', nombre: 'ÁTICO Y CAÑERÍAS' });
    expect((await list(t, t.cookie, 'listadofamilias', { q: 'atico canerias' })).rows).toEqual([]);
    expect((await list(t, t.cookie, 'listadofamilias', { q: 'cañeria' })).rows.map((f) => f.id)).toEqual([accented.id]);
    expect((await list(t, t.cookie, 'listadofamilias', { q: 'ati' })).rows.map((f) => f.id)).toEqual([accented.id]);
    expect(expectCleanAnswer(await t.op('eliminarfamilia', { cookie: t.cookie, body: { id: accented.id } })).RESULT).toBe('0');
    const inactive = await list(t, t.cookie, 'listadofamilias', { activo: 0 });
    expect(inactive.rows.map((f) => f.codigo)).toEqual(['BAN']);
    const page2 = await list(t, t.cookie, 'listadofamilias', { orden: 'nombre', dir: 'desc', porPagina: 10, pagina: 1 });
    expect(page2.rows.map((f) => f.nombre)).toEqual(['Pintura', 'Jardín', 'Ferretería', 'Electricidad', 'Droguería', 'Baño y cocina']);
    const bad = await t.op('listadofamilias', { cookie: t.cookie, query: { orden: 'password', porPagina: '7' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['orden', 'porPagina']);
  });

  it('subfamilias: filtered by familia, with the familia name; an unknown familia is refused', async () => {
    const fer = (await list(t, t.cookie, 'listadofamilias', { q: 'FER' })).rows[0];
    const subs = await list(t, t.cookie, 'listadosubfamilias', { familia_id: fer.id, orden: 'codigo' });
    expect(subs.rows.map((s) => [s.codigo, s.familia_nombre])).toEqual([
      ['HMA', 'Ferretería'],
      ['TOR', 'Ferretería'],
    ]);
    const bad = await t.op('editarsubfamilia', { cookie: t.cookie, body: { codigo: 'XX', nombre: 'Sin familia', familia_id: 99999 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ familia_id: MESSAGES.unknownElement });
    const noFamilia = await t.op('editarsubfamilia', { cookie: t.cookie, body: { codigo: 'XX', nombre: 'Sin familia' } });
    expect(noFamilia.json().errors).toEqual({ familia_id: MESSAGES.required });
  });

  it('moving a subfamilia to another familia moves its articles with it', async () => {
    const familias = (await list(t, t.cookie, 'listadofamilias')).rows;
    const fer = familias.find((f) => f.codigo === 'FER')!;
    const jar = familias.find((f) => f.codigo === 'JAR')!;
    const sub = await save(t, t.cookie, 'editarsubfamilia', { codigo: 'ESC', nombre: 'Escaleras', familia_id: fer.id });
    const art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('ESC-5', { familia_id: fer.id, subfamilia_id: sub.id }));
    await save(t, t.cookie, 'editarsubfamilia', { id: sub.id, codigo: 'ESC', nombre: 'Escaleras', familia_id: jar.id });
    const moved = (await list(t, t.cookie, 'listadoarticulos', { id: art.id })).rows[0];
    expect(moved).toMatchObject({ familia_id: jar.id, familia_nombre: 'Jardín', subfamilia_id: sub.id, subfamilia_nombre: 'Escaleras' });
  });

  it('procesos keep their time (minutes) and cost (ten-thousandths)', async () => {
    const p = await save(t, t.cookie, 'editarproceso', { codigo: 'AFI', nombre: 'Afilado de cuchillas', tiempo: 12, coste: 45000 });
    expect(p).toEqual({ id: p.id, codigo: 'AFI', nombre: 'Afilado de cuchillas', activo: 1, tiempo: 12, coste: 45000 });
    const sorted = await list(t, t.cookie, 'listadoprocesos', { orden: 'coste', dir: 'desc' });
    expect(sorted.rows.map((r) => r.coste)).toEqual([...sorted.rows.map((r) => r.coste as number)].sort((a, b) => b - a));
    const bad = await t.op('editarproceso', { cookie: t.cookie, body: { codigo: 'NEG', nombre: 'Negativo', tiempo: -1, coste: 'mucho' } });
    expect(bad.json().errors).toEqual({ tiempo: MESSAGES.invalidNumber, coste: MESSAGES.invalidNumber });
  });

  it('deleting anything in use answers RESULT 2 and keeps it; unused, it is deleted', async () => {
    const familias = (await list(t, t.cookie, 'listadofamilias')).rows;
    const fer = familias.find((f) => f.codigo === 'FER')!;
    const refused = async (ac: string, id: number) => {
      const res = await t.op(ac, { cookie: t.cookie, body: { id } });
      expect(expectCleanAnswer(res)).toEqual({ RESULT: '2', message: TOASTS.associated.text });
    };
    // A familia with subfamilias and articles; one with only an article; one with only a subfamilia.
    await refused('eliminarfamilia', fer.id);
    const solo = await save(t, t.cookie, 'editarfamilia', { codigo: 'SOLO', nombre: 'Solo artículos' });
    const art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('SOLO-1', { familia_id: solo.id }));
    await refused('eliminarfamilia', solo.id);
    const conSub = await save(t, t.cookie, 'editarfamilia', { codigo: 'CSUB', nombre: 'Con subfamilia' });
    const sub = await save(t, t.cookie, 'editarsubfamilia', { codigo: 'CSUB1', nombre: 'Sub', familia_id: conSub.id });
    await refused('eliminarfamilia', conSub.id);

    const tor = (await list(t, t.cookie, 'listadosubfamilias', { q: 'TOR' })).rows.find((s) => s.codigo === 'TOR')!;
    await refused('eliminarsubfamilia', tor.id);
    const acme = (await list(t, t.cookie, 'listadomarcas', { q: 'ACN' })).rows[0];
    await refused('eliminarmarca', acme.id);

    const inox = (await list(t, t.cookie, 'listadomateriales', { q: 'INOX' })).rows[0];
    const madera = (await list(t, t.cookie, 'listadomateriales', { q: 'MADE' })).rows[0];
    const llave = (await list(t, t.cookie, 'listadoprocesos', { q: 'LLAVE' })).rows[0];
    await setFlags(t, t.cookie, { proporciones: 1 });
    await save(t, t.cookie, 'editararticulo', {
      ...nuevoArticulo('SOLO-1', { id: art.id, familia_id: solo.id }),
      materiales: [inox.id],
      procesos: [llave.id],
      proporciones: [{ material_id: madera.id, porcentaje: 10000 }],
    });
    await refused('eliminarmaterial', inox.id);
    await refused('eliminarmaterial', madera.id);
    await refused('eliminarproceso', llave.id);

    // Still there.
    expect((await list(t, t.cookie, 'listadofamilias', { id: solo.id })).rows).toHaveLength(1);
    expect((await list(t, t.cookie, 'listadomateriales', { id: inox.id })).rows).toHaveLength(1);

    // Once nothing uses them, they go.
    await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('SOLO-1', { id: art.id, familia_id: null }), materiales: [], procesos: [], proporciones: [] });
    for (const [ac, id] of [
      ['eliminarfamilia', solo.id],
      ['eliminarsubfamilia', sub.id],
      ['eliminarfamilia', conSub.id],
      ['eliminarmaterial', inox.id],
      ['eliminarmaterial', madera.id],
      ['eliminarproceso', llave.id],
    ] as const) {
      expect(expectCleanAnswer(await t.op(ac, { cookie: t.cookie, body: { id } })).RESULT).toBe('0');
      expect((await t.op(ac, { cookie: t.cookie, body: { id } })).json().RESULT).toBe('3');
    }
  });

  it('with the materiales or procesos flag off their actions answer 403', async () => {
    await setFlags(t, t.cookie, { materiales: 0, procesos: 0 });
    for (const ac of ['listadomateriales', 'editarmaterial', 'eliminarmaterial', 'listadoprocesos', 'editarproceso', 'eliminarproceso']) {
      const res = await t.op(ac, { cookie: t.cookie, method: ac.startsWith('listado') ? 'GET' : 'POST', body: ac.startsWith('listado') ? undefined : { id: 1 } });
      expect(res.statusCode, ac).toBe(403);
      expect(res.json()).toEqual({ RESULT: '1', message: MESSAGES.moduleOff });
    }
    await setFlags(t, t.cookie, { materiales: 1, procesos: 1 });
    expect((await t.op('listadomateriales', { cookie: t.cookie })).statusCode).toBe(200);
  });
});
