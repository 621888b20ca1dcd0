import { describe, expect, it } from 'vitest';
import { CONF_FIELDS, MESSAGES } from 'shared/domain';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';

describe.each(backends())('configuración ($name)', (backend) => {
  const t = useTestApp(backend);

  it('runs on the database it says', () => {
    expect(t.app.manager.dialect).toBe(backend.name);
  });

  it('seeds the demo company with a valid CIF, Madrid address and the main modules on', async () => {
    const res = await t.op('listadoconfiguraciones', { cookie: t.cookie });
    const body = expectCleanAnswer(res);
    expect(body.RESULT).toBe('0');
    const [conf] = body.data as Record<string, unknown>[];
    expect(conf).toMatchObject({ razon_social: 'Comercial Demo, S.L.', nif: 'B86420973', poblacion: 'Madrid', codigo_postal: '28009' });
    for (const f of ['conf_compras', 'conf_ventas', 'conf_almacenes', 'conf_ventas_facturas', 'conf_compras_pedidos']) expect(conf[f]).toBe(1);
    for (const f of CONF_FIELDS) expect([0, 1]).toContain(conf[f]);
  });

  it('reads one record by id, and answers RESULT 3 for a missing id', async () => {
    const [conf] = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data;
    const one = await t.op('listadoconfiguraciones', { cookie: t.cookie, query: { id: String(conf.id) } });
    expect(one.json().data).toEqual([conf]);
    const none = await t.op('listadoconfiguraciones', { cookie: t.cookie, query: { id: '999' } });
    expect(expectCleanAnswer(none)).toEqual({ RESULT: '3', message: MESSAGES.notFound });
  });

  it('saves the company data and flags, answers the saved record, and re-reads it the same', async () => {
    const [conf] = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data;
    const changed = { ...conf, razon_social: 'Ferretería López, S.L.', nif: 'b-86420973', telefono: '600 111 222', conf_seo: 1, conf_tpv: 0 };
    const res = await t.op('editarconfiguracion', { cookie: t.cookie, body: changed });
    const body = expectCleanAnswer(res);
    expect(body.RESULT).toBe('0');
    const saved = (body.data as Record<string, unknown>[])[0];
    expect(saved).toMatchObject({ razon_social: 'Ferretería López, S.L.', nif: 'B86420973', telefono: '600 111 222', conf_seo: 1, conf_tpv: 0 });
    const [reread] = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data;
    expect(reread).toEqual(saved);
  });

  it('leaves absent fields as they were (partial save)', async () => {
    const res = await t.op('editarconfiguracion', { cookie: t.cookie, body: { razon_social: 'Ferretería López, S.L.', nif: 'B86420973', conf_listado: 0 } });
    const saved = res.json().data[0];
    expect(saved.conf_listado).toBe(0);
    expect(saved.conf_seo).toBe(1);
    expect(saved.telefono).toBe('600 111 222');
  });

  it('answers 400 with the Spanish message of each wrong field and changes nothing', async () => {
    const before = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    const res = await t.op('editarconfiguracion', {
      cookie: t.cookie,
      body: { razon_social: '', nif: 'B12345678', codigo_postal: '99999', email: 'no-es-correo', conf_ventas: 7 },
    });
    expect(res.statusCode).toBe(400);
    expect(expectCleanAnswer(res)).toEqual({
      RESULT: '1',
      message: 'Revise los campos marcados',
      errors: {
        razon_social: MESSAGES.required,
        nif: MESSAGES.invalidNif,
        codigo_postal: MESSAGES.invalidPostalCode,
        email: MESSAGES.invalidEmail,
        conf_ventas: MESSAGES.selectOption,
      },
    });
    expect((await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0]).toEqual(before);
  });

  it('switching ventas off closes the series actions at once (403), switching it on opens them', async () => {
    expect((await t.op('listadoseries', { cookie: t.cookie })).statusCode).toBe(200);
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, conf_ventas: 0 } });
    const off = await t.op('listadoseries', { cookie: t.cookie });
    expect(off.statusCode).toBe(403);
    expect(expectCleanAnswer(off)).toEqual({ RESULT: '1', message: MESSAGES.moduleOff });
    const edit = await t.op('editarserie', { cookie: t.cookie, body: { codigo: 'Z', descripcion: 'Z', tipo: 'normal' } });
    expect(edit.statusCode).toBe(403);
    await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, conf_ventas: 1 } });
    expect((await t.op('listadoseries', { cookie: t.cookie })).statusCode).toBe(200);
  });
});
