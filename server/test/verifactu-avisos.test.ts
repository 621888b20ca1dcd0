import { describe, expect, it } from 'vitest';
import { todayIn } from '../src/context.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';

const HOY = todayIn('Europe/Madrid');
/** Today ± days, aaaa-mm-dd. */
const dia = (delta: number) => new Date(Date.parse(`${HOY}T12:00:00Z`) + delta * 86_400_000).toISOString().slice(0, 10);
const ddmmaaaa = (iso: string) => iso.split('-').reverse().join('/');

type Info = {
  activo: number;
  entorno: string;
  fecha_obligacion: string;
  fecha_obligacion_origen: string;
  fecha_obligacion_nif: string;
  avisos: { nivel: string; texto: string; clave?: string }[];
};

/** Issue 22: the obligation date from the NIF, «Producción» with sending off, the warnings of late records, the NIF fixed. */
describe.each(backends())('VERI*FACTU for a live company: date, environment, warnings, NIF ($name)', (backend) => {
  const t: SuiteApp = useTestApp(backend);
  const info = async () => (await list(t, t.cookie, 'listadoverifactu')).rows[0] as unknown as Info;
  const editar = async (body: Record<string, unknown>) => expectCleanAnswer(await t.op('editarverifactu', { cookie: t.cookie, body })) as { RESULT: string; message: string };
  const conf = async () => (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0] as Record<string, unknown>;
  const cambiarNif = async (nif: string) => expectCleanAnswer(await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...(await conf()), nif } })) as { RESULT: string; message: string };
  const db = () => t.app.manager.db;

  it('the obligation date follows the NIF (legal entity 1 January, natural person 1 July) until the owner chooses one', async () => {
    let i = await info();
    expect(i).toMatchObject({ fecha_obligacion: '2027-01-01', fecha_obligacion_origen: 'sociedad' });
    expect((await cambiarNif('50738214F')).RESULT).toBe('0');
    i = await info();
    expect(i).toMatchObject({ fecha_obligacion: '2027-07-01', fecha_obligacion_origen: 'persona', fecha_obligacion_nif: '2027-07-01' });
    expect((await cambiarNif('X1234567L')).RESULT).toBe('0');
    expect((await info()).fecha_obligacion_origen).toBe('persona');
    // Saving the same date (the screen always sends it) does not make it the owner's.
    await editar({ activo: 0, entorno: 'pruebas', fecha_obligacion: '2027-07-01' });
    expect((await cambiarNif('B86420973')).RESULT).toBe('0');
    expect(await info()).toMatchObject({ fecha_obligacion: '2027-01-01', fecha_obligacion_origen: 'sociedad' });
    // Chosen by hand: kept when the NIF changes.
    await editar({ fecha_obligacion: '2027-07-01' });
    expect(await info()).toMatchObject({ fecha_obligacion: '2027-07-01', fecha_obligacion_origen: 'manual', fecha_obligacion_nif: '2027-01-01' });
    expect((await cambiarNif('50738214F')).RESULT).toBe('0');
    expect(await info()).toMatchObject({ fecha_obligacion: '2027-07-01', fecha_obligacion_origen: 'manual' });
    expect((await cambiarNif('B86420973')).RESULT).toBe('0');
    expect(await info()).toMatchObject({ fecha_obligacion: '2027-07-01', fecha_obligacion_origen: 'manual' });
    // Choosing the NIF's own date again: it follows the NIF.
    await editar({ fecha_obligacion: '2027-01-01' });
    expect(await info()).toMatchObject({ fecha_obligacion: '2027-01-01', fecha_obligacion_origen: 'sociedad' });
  });

  it('«Producción» with sending off: saved with a warning before the date, refused from it with the reason and the way out', async () => {
    let r = await editar({ activo: 0, entorno: 'produccion', fecha_obligacion: dia(10) });
    expect(r.RESULT).toBe('0');
    expect(r.message).toContain(`Desde el ${ddmmaaaa(dia(10))} será obligatorio enviarlos`);
    let i = await info();
    expect(i.entorno).toBe('produccion');
    expect(i.avisos.find((a) => a.clave === 'entorno')?.texto).toContain('el envío está desactivado: los registros se guardan y no llegan a la AEAT');
    // The date arrives (moved to today): the same settings are refused and nothing changes.
    const res = await t.op('editarverifactu', { cookie: t.cookie, body: { activo: 0, entorno: 'produccion', fecha_obligacion: HOY } });
    expect(res.statusCode).toBe(400);
    r = res.json();
    expect(r.RESULT).toBe('1');
    expect(r.message).toContain(`Desde el ${ddmmaaaa(HOY)} la empresa está obligada a enviar cada registro de facturación a la AEAT`);
    expect(r.message).toContain('Active el envío');
    i = await info();
    expect(i.fecha_obligacion).toBe(dia(10));
    // «Pruebas», or sending on, is accepted.
    expect((await editar({ activo: 0, entorno: 'pruebas', fecha_obligacion: HOY })).RESULT).toBe('0');
    expect((await info()).avisos.some((a) => a.clave === 'entorno')).toBe(false);
    // The demo company's rule is another's (it never makes production records): not refused here.
    await db().updateTable('verifactu').set({ demo: 1 }).where('id', '=', 1).execute();
    expect((await t.op('editarverifactu', { cookie: t.cookie, body: { activo: 0, entorno: 'pruebas' } })).json().RESULT).toBe('0');
    await db().updateTable('verifactu').set({ demo: 0 }).where('id', '=', 1).execute();
    await editar({ activo: 0, entorno: 'pruebas', fecha_obligacion: '2027-01-01' });
  });

  it('records not sent for over an hour, or sending failing, are warned about at any date, with the way out; never for the demo', async () => {
    const fx = {
      almacen: (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id,
      serie: (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id,
      cliente: (await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.' })).id,
      articulo: (await save(t, t.cookie, 'editararticulo', nuevoArticulo('AVI-1', { precio_venta: 100_000 }))).id,
    };
    // Far from the date (a year ahead): no obligation warning.
    await editar({ fecha_obligacion: dia(365) });
    const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: fx.cliente, almacen_id: fx.almacen, serie_id: fx.serie, lineas: [{ articulo_id: fx.articulo, cantidad: 1_000, precio: 100_000 }] });
    await save(t, t.cookie, 'emitirfactura', { id: b.id });
    // Just made: nothing yet.
    expect((await info()).avisos.filter((a) => a.clave === 'envio' || a.clave === 'obligacion')).toEqual([]);
    // Two hours later, sending off.
    const hace = new Date(Date.now() - 2 * 3_600_000).toISOString();
    await db().updateTable('registros_facturacion').set({ creado: hace }).execute();
    let aviso = (await info()).avisos.find((a) => a.clave === 'envio')!;
    expect(aviso.nivel).toBe('aviso');
    expect(aviso.texto).toBe(
      `Hay 1 registro de facturación sin enviar a la AEAT desde hace más de una hora porque el envío está desactivado. Desde el ${ddmmaaaa(dia(365))} será obligatorio enviarlos: active el envío en Configuración › VERI*FACTU.`,
    );
    // Sending on and failing (a refused connection): an error saying so.
    await db().updateTable('verifactu').set({ activo: 1, fallos: 2, ultimo_error: 'No se pudo conectar con la AEAT (localhost) a las 10:00; se reintentará a las 10:05.' }).where('id', '=', 1).execute();
    aviso = (await info()).avisos.find((a) => a.clave === 'envio')!;
    expect(aviso.nivel).toBe('error');
    expect(aviso.texto).toBe(
      'El envío de los registros de facturación a la AEAT está fallando (No se pudo conectar con la AEAT (localhost) a las 10:00; se reintentará a las 10:05); queda 1 registro sin enviar. Revise el certificado y la conexión en Configuración › VERI*FACTU y pulse «Enviar ahora».',
    );
    // Sending on, no failure, still waiting after an hour.
    await db().updateTable('verifactu').set({ fallos: 0, ultimo_error: null }).where('id', '=', 1).execute();
    aviso = (await info()).avisos.find((a) => a.clave === 'envio')!;
    expect(aviso).toMatchObject({ nivel: 'aviso', texto: expect.stringContaining('Hay 1 registro de facturación pendiente de envío a la AEAT desde hace más de una hora') });
    // The demo company: its records never leave for production; no such warning.
    await db().updateTable('verifactu').set({ demo: 1 }).where('id', '=', 1).execute();
    expect((await info()).avisos.filter((a) => a.clave === 'envio')).toEqual([]);
    await db().updateTable('verifactu').set({ demo: 0, activo: 0 }).where('id', '=', 1).execute();
  });

  it('the NIF cannot change once a record exists (why and what to do); the name can; the demo company may while its records are all demo', async () => {
    const antes = await conf();
    const res = await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...antes, nif: '50738214F' } });
    expect(res.statusCode).toBe(400);
    const r = res.json() as { RESULT: string; message: string };
    expect(r.RESULT).toBe('1');
    expect(r.message).toBe(
      'No se puede cambiar el NIF de la empresa (B86420973): ya hay registros de facturación VERI*FACTU emitidos con él, encadenados bajo ese NIF e inalterables. Un NIF distinto es otro obligado tributario: instale Manager TPV de nuevo para esa empresa (una empresa nueva, con su propia instalación). Cambiar la razón social, el nombre comercial o la dirección sí se puede',
    );
    expect((await conf()).nif).toBe('B86420973');
    // The same NIF written differently is no change; a new name is fine.
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...antes, nif: 'b86420973', razon_social: 'Ferretería Nueva, S.L.' } })).json().RESULT).toBe('0');
    expect((await conf()).razon_social).toBe('Ferretería Nueva, S.L.');
    // The demo company whose records are all demo: allowed; one record not demo: refused.
    await db().updateTable('verifactu').set({ demo: 1 }).where('id', '=', 1).execute();
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...(await conf()), nif: '50738214F' } })).json().RESULT).toBe('1');
    await db().updateTable('registros_facturacion').set({ demo: 1 }).execute();
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...(await conf()), nif: '50738214F' } })).json().RESULT).toBe('0');
    expect((await conf()).nif).toBe('50738214F');
  });

  it('the records screen\'s order: newest first (orden=creado, dir=desc); the chain order stays the default', async () => {
    const fx = {
      almacen: (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id,
      serie: (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id,
      cliente: (await save(t, t.cookie, 'editarcliente', { nif: 'A28765436', razon_social: 'Ferretería Mayorista del Centro, S.A.' })).id,
      articulo: (await save(t, t.cookie, 'editararticulo', nuevoArticulo('AVI-2', { precio_venta: 100_000 }))).id,
    };
    for (let i = 0; i < 2; i++) {
      const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: fx.cliente, almacen_id: fx.almacen, serie_id: fx.serie, lineas: [{ articulo_id: fx.articulo, cantidad: 1_000, precio: 100_000 }] });
      await save(t, t.cookie, 'emitirfactura', { id: b.id });
    }
    const cadena = (await list(t, t.cookie, 'listadoregistrosfacturacion')).rows.map((r) => r.num_serie);
    const recientes = (await list(t, t.cookie, 'listadoregistrosfacturacion', { orden: 'creado', dir: 'desc' })).rows.map((r) => r.num_serie);
    expect(cadena.length).toBeGreaterThanOrEqual(2);
    // One serie: numbered as made, so newest first is the numbers from the highest down.
    expect(recientes).toEqual([...cadena].sort().reverse());
    expect(recientes).not.toEqual(cadena);
  });
});
