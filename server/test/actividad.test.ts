import { describe, expect, it } from 'vitest';
import { CONF_FIELD } from 'shared/domain';
import type { LineaActividad } from 'shared/domain';
import { conActividad, fueraDeActividad } from '../src/actividad/registro.ts';
import { todayIn } from '../src/context.ts';
import { crearPki } from './aeat-double.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import { enviar } from './documentos-fixtures.ts';
import { backends, multipart, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';

/**
 * The audit trail: every change leaves one line, written in its own transaction — who, when, from where, what, and for
 * masters and configuration the fields before and after; a refused or rolled-back change leaves none.
 */
const HOY = todayIn('Europe/Madrid');

async function actividad(t: SuiteApp, query: Record<string, string | number> = {}, cookie = t.cookie) {
  const r = await list(t, cookie, 'listadoactividad', { porPagina: 100, ...query });
  return { lineas: r.rows as unknown as LineaActividad[], total: r.total };
}
const total = async (t: SuiteApp) => (await actividad(t)).total;

describe.each(backends())('actividad ($name)', (backend) => {
  const t = useTestApp(backend);

  it('a master save: its line with who, from where and the record; on change only the fields that changed', async () => {
    const admin = (await list(t, t.cookie, 'listadousuarios', { q: 'admin@demo.es' })).rows[0];
    const familia = await save(t, t.cookie, 'editarfamilia', { codigo: 'AUD1', nombre: 'Ferretería' });
    await save(t, t.cookie, 'editarfamilia', { id: familia.id, codigo: 'AUD1', nombre: 'Ferretería y menaje' });
    const { lineas } = await actividad(t, { entidad: 'familia' });
    expect(lineas).toHaveLength(2);
    const [cambio, alta] = lineas;
    expect(cambio).toMatchObject({
      usuario_id: admin.id,
      usuario_nombre: admin.nombre,
      ip: '127.0.0.1',
      accion: 'editarfamilia',
      tipo: 'guardar',
      entidad: 'familia',
      entidad_id: familia.id,
      numero: 'AUD1',
      antes: { nombre: 'Ferretería' },
      despues: { nombre: 'Ferretería y menaje' },
    });
    expect(alta).toMatchObject({ tipo: 'guardar', entidad_id: familia.id, antes: null, despues: { codigo: 'AUD1', nombre: 'Ferretería', activo: 1 } });
    expect(Date.parse(cambio.fecha)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a delete: its line with the record as it was; a refused save or delete leaves none', async () => {
    const familia = await save(t, t.cookie, 'editarfamilia', { codigo: 'AUD2', nombre: 'Jardín' });
    await save(t, t.cookie, 'editarsubfamilia', { codigo: 'AUD2S', nombre: 'Riego', familia_id: familia.id });
    const antes = await total(t);
    // Refused: a repeated code (400) and a familia with subfamilias (RESULT 2).
    expect((await enviar(t, 'editarfamilia', { codigo: 'AUD2', nombre: 'Otra' })).status).toBe(400);
    expect((await enviar(t, 'eliminarfamilia', { id: familia.id })).body.RESULT).toBe('2');
    // A transaction that commits having changed nothing: a user that isn't there (RESULT 3).
    expect((await enviar(t, 'eliminarusuario', { id: 999_999 })).body.RESULT).toBe('3');
    expect(await total(t)).toBe(antes);

    const sub = (await list(t, t.cookie, 'listadosubfamilias', { q: 'AUD2S' })).rows[0];
    expect((await enviar(t, 'eliminarsubfamilia', { id: sub.id })).body.RESULT).toBe('0');
    const [linea] = (await actividad(t, { entidad: 'subfamilia' })).lineas;
    expect(linea).toMatchObject({ tipo: 'eliminar', accion: 'eliminarsubfamilia', entidad_id: sub.id, numero: 'AUD2S', despues: null });
    expect(linea.antes).toMatchObject({ codigo: 'AUD2S', nombre: 'Riego', familia_id: familia.id });
  });

  it('a flag change is a «módulos» line with the flag before and after; an action refused by the flag leaves none', async () => {
    const campo = CONF_FIELD.materiales;
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect((await enviar(t, 'editarconfiguracion', { ...conf, [campo]: 0, razon_social: 'Comercial Auditada, S.L.' })).body.RESULT).toBe('0');
    const [linea] = (await actividad(t, { entidad: 'configuracion' })).lineas;
    expect(linea).toMatchObject({
      tipo: 'modulos',
      entidad_id: conf.id,
      antes: { [campo]: 1, razon_social: conf.razon_social },
      despues: { [campo]: 0, razon_social: 'Comercial Auditada, S.L.' },
    });
    const antes = await total(t);
    expect((await enviar(t, 'editarmaterial', { codigo: 'AUDM', nombre: 'Acero' })).status).toBe(403);
    expect(await total(t)).toBe(antes);
    expect((await enviar(t, 'editarconfiguracion', { ...conf, [campo]: 1 })).body.RESULT).toBe('0');
  });

  it('a document save and an action: lines with the number users see; a rolled-back action leaves none', async () => {
    const principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((a) => a.codigo === 'PRINCIPAL')!.id;
    const art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('AUD-ART', { precio_venta: 100_000 }));
    const inv = await save(t, t.cookie, 'editarinventario', { fecha: HOY, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 5_000 }] });
    expect((await enviar(t, 'finalizarinventario', { id: inv.id })).body.RESULT).toBe('0');
    const lineas = (await actividad(t, { entidad: 'inventario', entidad_id: inv.id })).lineas;
    expect(lineas.map((l) => [l.accion, l.tipo, l.numero])).toEqual([
      ['finalizarinventario', 'accion', inv.numero],
      ['editarinventario', 'guardar', inv.numero],
    ]);
    expect(lineas[0].antes).toBeNull();
    // The record's own history: each step with who did it.
    const admin = (await list(t, t.cookie, 'listadousuarios', { q: 'admin@demo.es' })).rows[0];
    const leido = (await list(t, t.cookie, 'listadoinventarios', { id: inv.id })).rows[0];
    expect(leido).toMatchObject({ creado_por_nombre: admin.nombre, modificado_por_nombre: admin.nombre });
    expect((leido.historial as { accion: string; usuario_nombre: string }[]).map((h) => [h.accion, h.usuario_nombre])).toEqual([['finalizar', admin.nombre]]);

    // Stock may not go negative: finishing a pérdida of more than there is writes its step, then is refused and rolled back.
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    await enviar(t, 'editarconfiguracion', { ...conf, stock_negativo: 0 });
    const perdida = await save(t, t.cookie, 'editarperdida', { fecha: HOY, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 9_000, motivo: 'rotura' }] });
    const antes = await total(t);
    expect((await enviar(t, 'finalizarperdida', { id: perdida.id })).body.RESULT).toBe('1');
    expect(await total(t)).toBe(antes);
    await enviar(t, 'editarconfiguracion', { ...conf, stock_negativo: 1 });
  });

  it('nothing rolled back keeps its line: a failure forced inside a transaction leaves neither the row nor the line', async () => {
    const db = t.app.manager.db;
    const antes = await total(t);
    const forzado = conActividad('editarmarca', { usuario: null, ip: null, input: {} }, () =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('marcas').values({ codigo: 'AUD-ROTA', nombre: 'Nunca', activo: 1 }).execute();
        throw new Error('fallo forzado');
      }),
    );
    await expect(forzado).rejects.toThrow('fallo forzado');
    expect(await total(t)).toBe(antes);
    expect(await db.selectFrom('marcas').select('id').where('codigo', '=', 'AUD-ROTA').executeTakeFirst()).toBeUndefined();
  });

  it('work an action only schedules (a timer, the VERI*FACTU sender) is not logged as that action', async () => {
    const db = t.app.manager.db;
    const antes = await total(t);
    const marca = (codigo: string) => db.transaction().execute((trx) => trx.insertInto('marcas').values({ codigo, nombre: codigo, activo: 1 }).execute());
    let tarde: Promise<unknown> = Promise.resolve();
    let fuera: Promise<unknown> = Promise.resolve();
    await conActividad('editarmarca', { usuario: null, ip: null, input: {} }, async () => {
      // Runs after the action answered; and one scheduled outside its context runs while it is still working.
      tarde = new Promise((r) => setTimeout(r, 30)).then(() => marca('AUD-TARDE'));
      fuera = fueraDeActividad(() => new Promise((r) => setTimeout(r, 1)).then(() => marca('AUD-FUERA')));
      await fuera;
    });
    await tarde;
    expect(await total(t)).toBe(antes);
  });

  it('a login and a failed login, each with its address; the failed one names the address tried', async () => {
    const admin = (await list(t, t.cookie, 'listadousuarios', { q: 'admin@demo.es' })).rows[0];
    await t.login();
    const fallido = await t.op('identificar', { body: { email: 'admin@demo.es', password: 'no-es-esta' } });
    expect(fallido.json().RESULT).toBe('1');
    const [malo, bueno] = (await actividad(t, { entidad: 'usuario' })).lineas;
    expect(bueno).toMatchObject({ tipo: 'login', accion: 'identificar', usuario_id: admin.id, usuario_nombre: admin.nombre, ip: '127.0.0.1', numero: 'admin@demo.es' });
    expect(malo).toMatchObject({ tipo: 'login_fallido', usuario_id: null, entidad_id: admin.id, numero: 'admin@demo.es', ip: '127.0.0.1' });
  });

  it('a certificate change: before and after of who it names, never the file', async () => {
    const pki = crearPki();
    const { payload, headers } = multipart('archivo', 'empresa.p12', 'application/x-pkcs12', pki.p12, { password: pki.password });
    const res = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=subircertificadoverifactu', payload, headers: { ...headers, cookie: t.cookie } });
    expect(res.json().RESULT).toBe('0');
    const [linea] = (await actividad(t, { entidad: 'verifactu' })).lineas;
    expect(linea).toMatchObject({ tipo: 'certificado', accion: 'subircertificadoverifactu', antes: { titular: null, nif: null }, despues: { nif: 'B86420973' } });
    expect(JSON.stringify(linea)).not.toContain('certificado_iv');
  });

  it('filters by user, entity and dates; the log has no action that edits or deletes it', async () => {
    // A role that edits the catalogue (a new user without one gets Consulta, which changes nothing).
    const gestion = (await list(t, t.cookie, 'listadoroles', { q: 'Gestión' })).rows[0].id;
    await save(t, t.cookie, 'editarusuario', { nombre: 'Marta Vidal', email: 'marta@demo.es', password: 'Clave-marta-1', password2: 'Clave-marta-1', rol_id: gestion });
    const marta = (await list(t, t.cookie, 'listadousuarios', { q: 'marta@demo.es' })).rows[0];
    await save(t, t.cookie, 'editarusuario', { id: marta.id, nombre: 'Marta Vidal', email: 'marta@demo.es', password: 'Clave-marta-2' });
    const [clave] = (await actividad(t, { entidad: 'usuario', entidad_id: marta.id })).lineas;
    expect(clave).toMatchObject({ tipo: 'guardar', numero: 'marta@demo.es', antes: { password: '(anterior)' }, despues: { password: '(cambiada)' } });
    expect(JSON.stringify(clave)).not.toMatch(/scrypt|password_hash/);
    const cookie = await t.login('marta@demo.es', 'Clave-marta-2');
    await save(t, cookie, 'editarmarca', { codigo: 'AUDMARTA', nombre: 'De Marta' });
    const suyas = (await actividad(t, { usuario_id: marta.id })).lineas;
    expect(suyas.map((l) => [l.accion, l.usuario_nombre])).toEqual([
      ['editarmarca', 'Marta Vidal'],
      ['identificar', 'Marta Vidal'],
    ]);
    expect((await actividad(t, { usuario_id: marta.id, entidad: 'marca' })).lineas).toHaveLength(1);
    expect((await actividad(t, { q: 'audmarta' })).lineas.map((l) => l.numero)).toEqual(['AUDMARTA']);
    const ayer = new Date(Date.parse(`${HOY}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await actividad(t, { hasta: ayer })).total).toBe(0);
    expect((await actividad(t, { desde: HOY, hasta: HOY })).total).toBe(await total(t));
    for (const ac of ['editaractividad', 'eliminaractividad']) expect((await t.op(ac, { cookie: t.cookie, body: { id: 1 } })).statusCode).toBe(400);
  });

  it('a restore: its own line, and the log as it was before (a backup does not carry or replace it)', async () => {
    const copia = await t.app.inject({ method: 'GET', url: '/api/op.asp?ac=copiaseguridad', headers: { cookie: t.cookie } });
    expect(Object.keys(copia.json().tablas)).not.toContain('actividad');
    const antes = (await actividad(t)).lineas;
    const { payload, headers } = multipart('archivo', 'copia.json', 'application/json', Buffer.from(copia.body));
    const res = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=restaurarcopia', payload, headers: { ...headers, cookie: t.cookie } });
    expect(res.json().RESULT).toBe('0');
    const despues = (await actividad(t)).lineas;
    expect(despues[0]).toMatchObject({ tipo: 'restauracion', accion: 'restaurarcopia', entidad: 'copia' });
    expect(despues.slice(1)).toEqual(antes);
  });
});
