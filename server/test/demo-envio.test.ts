import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { crearPki } from './aeat-double.ts';
import { backends } from './helpers.ts';
import { conAeat, factura, hasta, preparar, registros, subirCertificado } from './verifactu-fixtures.ts';

const PKI = crearPki();

/**
 * Issue 22: the demo company is a sandbox — its records never leave for the AEAT's production endpoint, whatever the
 * setting says (one left from before migration 0031: the screen refuses «Producción» now); sending to «Pruebas» may
 * be tried, and takes them.
 */
describe.each(backends())('the demo company and the sender ($name)', (backend) => {
  const { t, double } = conAeat(backend, PKI, { tickMs: 100, backoffMs: 200, backoffMaxMs: 800, timeoutMs: 1500, loteMax: 5 }, (d) => {
    d.espera = 1;
  });

  it('a demo record never leaves for production; it may go to «Pruebas»', async () => {
    const db = t.app.manager.db;
    const f = await preparar(t, t.cookie, 'DEMO');
    expect((await subirCertificado(t, t.cookie, PKI.p12, PKI.password)).RESULT).toBe('0');
    // The demo company, with «Producción» chosen before the screen refused it, sending on.
    await sql`update verifactu set demo = 1, entorno = 'produccion', activo = 1 where id = 1`.execute(db);
    const { id } = await factura(t, t.cookie, f);
    const r = await db.selectFrom('registros_facturacion').select(['id', 'demo', 'entorno', 'estado_envio']).where('documento_id', '=', id).executeTakeFirstOrThrow();
    expect(r).toMatchObject({ demo: 1, entorno: 'pruebas', estado_envio: 'pendiente' });

    // A cycle forced now, and the worker's own for a while: nothing reaches the AEAT.
    expect((await t.op('enviarregistrosverifactu', { cookie: t.cookie, body: {} })).json().data[0]).toMatchObject({ hecho: 'nada' });
    await new Promise((ok) => setTimeout(ok, 600));
    expect(double.peticiones).toHaveLength(0);
    expect((await registros(t, t.cookie))[0]).toMatchObject({ estado_envio: 'pendiente', enviado: null });

    // The screen refuses «Producción» for the demo; «Pruebas» is accepted and the record goes there.
    const prod = (await t.op('editarverifactu', { cookie: t.cookie, body: { entorno: 'produccion' } })).json();
    expect(prod).toMatchObject({ RESULT: '1', message: MESSAGES.demoSoloPruebas });
    expect((await t.op('editarverifactu', { cookie: t.cookie, body: { entorno: 'pruebas' } })).json().RESULT).toBe('0');
    await hasta(() => registros(t, t.cookie), (x) => x.length === 1 && x[0].estado_envio === 'correcto');
    expect(double.peticiones).toHaveLength(1);
    const envio = await db.selectFrom('verifactu_envios').select('entorno').executeTakeFirstOrThrow();
    expect(envio.entorno).toBe('pruebas');
  });
});
