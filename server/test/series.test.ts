import { describe, expect, it } from 'vitest';
import { MESSAGES, TOASTS } from 'shared/domain';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';

describe.each(backends())('series ($name)', (backend) => {
  const t = useTestApp(backend);

  it('starts with the demo series A, R, T and TR (the till\'s returns, issue 23), no terminal\'s yet', async () => {
    const body = expectCleanAnswer(await t.op('listadoseries', { cookie: t.cookie }));
    expect(body.total).toBe(4);
    expect((body.data as { codigo: string; tipo: string; terminal: string | null }[]).map((s) => [s.codigo, s.tipo, s.terminal])).toEqual([
      ['A', 'normal', null],
      ['R', 'rectificativa', null],
      ['T', 'simplificada', null],
      ['TR', 'rectificativa', null],
    ]);
  });

  it('creates, updates and reads one serie; codes are kept in capitals', async () => {
    const created = await t.op('editarserie', { cookie: t.cookie, body: { codigo: 'b', descripcion: 'Facturas tienda 2', tipo: 'normal' } });
    const [serie] = expectCleanAnswer(created).data as Record<string, unknown>[];
    expect(serie).toMatchObject({ codigo: 'B', descripcion: 'Facturas tienda 2', tipo: 'normal', activo: 1 });
    const updated = await t.op('editarserie', { cookie: t.cookie, body: { id: serie.id, codigo: 'B', descripcion: 'Tienda 2', tipo: 'normal', activo: 0 } });
    expect(updated.json().data[0]).toMatchObject({ id: serie.id, descripcion: 'Tienda 2', activo: 0 });
    const one = await t.op('listadoseries', { cookie: t.cookie, query: { id: String(serie.id) } });
    expect(one.json().data).toEqual([{ id: serie.id, codigo: 'B', descripcion: 'Tienda 2', tipo: 'normal', activo: 0, terminal: null }]);
    const filtered = await t.op('listadoseries', { cookie: t.cookie, query: { activo: '0' } });
    expect(filtered.json().data.map((s: { codigo: string }) => s.codigo)).toEqual(['B']);
  });

  it('refuses a repeated code and a wrong kind with field errors', async () => {
    const dup = await t.op('editarserie', { cookie: t.cookie, body: { codigo: 'a', descripcion: 'Otra A', tipo: 'normal' } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ RESULT: '1', message: MESSAGES.invalidFields, errors: { codigo: MESSAGES.duplicated } });
    const bad = await t.op('editarserie', { cookie: t.cookie, body: { codigo: 'C D', descripcion: '', tipo: 'especial' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      codigo: 'Solo letras, números, guion y guion bajo',
      descripcion: MESSAGES.required,
      tipo: MESSAGES.selectOption,
    });
  });

  it('deletes an unused serie; one used by a document gets RESULT 2 and stays', async () => {
    const series = (await t.op('listadoseries', { cookie: t.cookie })).json().data as { id: number; codigo: string }[];
    const a = series.find((s) => s.codigo === 'A')!;
    const r = series.find((s) => s.codigo === 'R')!;
    await t.app.manager.db
      .insertInto('documentos')
      .values({ tipo: 'pedido_venta', serie_id: a.id, numero: 1, fecha: '2026-01-15', estado: 'Pendiente', total: 12100, creado: new Date().toISOString() })
      .execute();
    const used = await t.op('eliminarserie', { cookie: t.cookie, body: { id: a.id } });
    expect(expectCleanAnswer(used)).toEqual({ RESULT: '2', message: TOASTS.associated.text });
    expect((await t.op('listadoseries', { cookie: t.cookie, query: { id: String(a.id) } })).json().data).toHaveLength(1);

    const ok = await t.op('eliminarserie', { cookie: t.cookie, body: { id: r.id } });
    expect(expectCleanAnswer(ok).RESULT).toBe('0');
    expect((await t.op('listadoseries', { cookie: t.cookie, query: { id: String(r.id) } })).json().RESULT).toBe('3');
    expect((await t.op('eliminarserie', { cookie: t.cookie, body: { id: r.id } })).json().RESULT).toBe('3');
  });
});
