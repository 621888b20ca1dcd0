import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../src/context.ts';
import type { VerifactuOptions } from '../src/fiscal/envio.ts';
import { AeatDouble, crearPki } from './aeat-double.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';

const HOY = todayIn('Europe/Madrid');
const PKI = crearPki();

/** Today ± days, aaaa-mm-dd. */
const dia = (delta: number) => new Date(Date.parse(`${HOY}T12:00:00Z`) + delta * 86_400_000).toISOString().slice(0, 10);
const ddmmaaaa = (iso: string) => iso.split('-').reverse().join('/');

async function hasta<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const fin = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > fin) throw new Error(`timed out; last: ${JSON.stringify(v).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Info = {
  activo: number;
  entorno: string;
  fecha_obligacion: string;
  dias_obligacion: number;
  enviando: boolean;
  certificado: (Row & { autofirmado: boolean }) | null;
  pasos: { id: string; hecho: boolean; detalle: string }[];
  avisos: { nivel: string; texto: string; clave?: string }[];
  cola: { pendientes: number; ultimo_error: string | null };
};

/** Issue 17: VERI*FACTU that tells the owner what to do. */
describe.each(backends())('VERI*FACTU, what the owner must do ($name)', (backend) => {
  const double = new AeatDouble(PKI);
  const opciones: VerifactuOptions = { ca: PKI.caPem, tickMs: 100, backoffMs: 60_000, backoffMaxMs: 60_000, timeoutMs: 1500, loteMax: 5 };
  beforeAll(async () => {
    opciones.endpoint = await double.start();
    double.espera = 1;
  });
  afterAll(async () => double.stop());
  const t: SuiteApp = useTestApp(backend, { verifactu: opciones });
  const info = async () => (await list(t, t.cookie, 'listadoverifactu')).rows[0] as unknown as Info;
  const paso = (i: Info, id: string) => i.pasos.find((p) => p.id === id)!;
  const editar = async (body: Record<string, unknown>) => expectCleanAnswer(await t.op('editarverifactu', { cookie: t.cookie, body }));
  const subir = async (archivo: Buffer) => {
    const boundary = `----mtpv${crypto.randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${PKI.password}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="archivo"; filename="empresa.p12"\r\nContent-Type: application/x-pkcs12\r\n\r\n`),
      archivo,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=subircertificadoverifactu', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: t.cookie } });
    return expectCleanAnswer(res);
  };
  let fx: { cliente: number; articulo: number; serie: number; almacen: number };
  const factura = async () => {
    const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: fx.cliente, almacen_id: fx.almacen, serie_id: fx.serie, lineas: [{ articulo_id: fx.articulo, cantidad: 1_000, precio: 100_000 }] });
    return save(t, t.cookie, 'emitirfactura', { id: b.id });
  };

  it('the obligation date is a setting (from the NIF: 1 January 2027 for the seeded S.L.); from 30 days before it, records not being sent are warned about', async () => {
    fx = {
      almacen: (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id,
      serie: (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id,
      cliente: (await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.' })).id,
      articulo: (await save(t, t.cookie, 'editararticulo', nuevoArticulo('VFO-1', { precio_venta: 100_000 }))).id,
    };
    let i = await info();
    expect(i.fecha_obligacion).toBe('2027-01-01');
    expect(i.pasos.map((p) => [p.id, p.hecho])).toEqual([
      ['certificado', false],
      ['prueba', false],
      ['produccion', false],
    ]);
    expect(i.enviando).toBe(false);
    // 31 days before: not yet.
    await editar({ fecha_obligacion: dia(31) });
    i = await info();
    expect(i.dias_obligacion).toBe(31);
    expect(i.avisos.filter((a) => a.clave === 'obligacion')).toEqual([]);
    // 30 days before: a warning, with the date and what is missing.
    await editar({ fecha_obligacion: dia(30) });
    i = await info();
    const [aviso] = i.avisos.filter((a) => a.clave === 'obligacion');
    expect(aviso.nivel).toBe('aviso');
    expect(aviso.texto).toContain(`El ${ddmmaaaa(dia(30))} (dentro de 30 días) empieza la obligación de enviar cada registro de facturación a la AEAT`);
    expect(aviso.texto).toContain('certificado electrónico de la empresa');
    // Past the date: an error, with the records not sent.
    await factura();
    await editar({ fecha_obligacion: dia(-1) });
    i = await info();
    const error = i.avisos.find((a) => a.clave === 'obligacion')!;
    expect(error.nivel).toBe('error');
    expect(error.texto).toMatch(new RegExp(`^Desde el ${ddmmaaaa(dia(-1))} cada registro de facturación debe enviarse a la AEAT y los registros no se están enviando \\(.*1 registro sin enviar\\)`));
    expect((await t.op('editarverifactu', { cookie: t.cookie, body: { fecha_obligacion: '31-02-2027' } })).json()).toMatchObject({ RESULT: '1', errors: { fecha_obligacion: expect.any(String) } });
  });

  it('the checklist flags a self-signed certificate and ticks one from an authority', async () => {
    expect(await subir(PKI.p12Autofirmado)).toMatchObject({ RESULT: '0' });
    let i = await info();
    expect(i.certificado?.autofirmado).toBe(true);
    expect(paso(i, 'certificado')).toMatchObject({ hecho: false });
    expect(paso(i, 'certificado').detalle).toContain('autofirmado');
    expect(await subir(PKI.p12)).toMatchObject({ RESULT: '0' });
    i = await info();
    expect(i.certificado?.autofirmado).toBe(false);
    expect(paso(i, 'certificado')).toMatchObject({ hecho: true });
    expect(paso(i, 'certificado').detalle).toContain('emitido por AEAT doble CA');
  });

  it('a test sending in «Pruebas» ticks its step; the invoice keeps what its record was made for', async () => {
    await editar({ activo: 1, entorno: 'pruebas' });
    await hasta(info, (x) => x.cola.pendientes === 0);
    const i = await info();
    expect(paso(i, 'prueba').hecho).toBe(true);
    expect(paso(i, 'prueba').detalle).toMatch(/^Hecho: la AEAT aceptó un envío de prueba el \d\d\/\d\d\/\d{4}\.$/);
    // Sending in «Pruebas» is not sending: past the date, still an error.
    expect(i.enviando).toBe(false);
    expect(i.avisos.some((a) => a.clave === 'obligacion' && a.nivel === 'error')).toBe(true);
    const f = (await list(t, t.cookie, 'listadofacturas', { estado: 'emitida' })).rows[0];
    const leida = (await list(t, t.cookie, 'listadofacturas', { id: f.id })).rows[0] as Row & { registro: { entorno: string } };
    // Issue 22: a live company's record is made for «Producción» (frozen on it), whatever the setting of the day.
    expect(leida.registro.entorno).toBe('produccion');
  });

  it('a connection error reads in Spanish with local times, never a raw Node.js error, a UTC timestamp or the AEAT asking to wait', async () => {
    // The double's waiting time passes.
    await new Promise((r) => setTimeout(r, 1100));
    double.modo = 'caido';
    await factura();
    const i = await hasta(info, (x) => !!x.cola.ultimo_error);
    const hhmm = '\\d\\d:\\d\\d';
    expect(i.cola.ultimo_error).toMatch(new RegExp(`^No se pudo conectar con la AEAT \\(localhost\\) a las ${hhmm}; se reintentará a las ${hhmm} \\(`));
    expect(i.cola.ultimo_error).not.toMatch(/E[A-Z]{4,}|socket|\d{4}-\d\d-\d\dT|Z\b/);
    // The hours are the shop's (Europe/Madrid), not UTC.
    const [, a] = /a las (\d\d:\d\d);/.exec(i.cola.ultimo_error!)!;
    const madrid = new Date().toLocaleTimeString('es-ES', { timeZone: 'Europe/Madrid', hour: '2-digit', minute: '2-digit' });
    expect(Math.abs(Number(a.slice(0, 2)) * 60 + Number(a.slice(3)) - (Number(madrid.slice(0, 2)) * 60 + Number(madrid.slice(3)))) % (24 * 60)).toBeLessThanOrEqual(1);
    // «Enviar ahora» while it waits to retry: the retry, not «La AEAT pide esperar».
    const ahora = (await t.op('enviarregistrosverifactu', { cookie: t.cookie, body: {} })).json() as { message: string };
    expect(ahora.message).toMatch(new RegExp(`^El último envío no pudo llegar a la AEAT; se reintentará a las ${hhmm}$`));
    double.modo = 'normal';
  });

  it('in «Producción» with a good certificate the records are being sent: the step is done and the warning goes', async () => {
    await editar({ activo: 1, entorno: 'produccion' });
    const i = await info();
    expect(paso(i, 'produccion').hecho).toBe(true);
    expect(i.enviando).toBe(true);
    expect(i.avisos.filter((a) => a.clave === 'obligacion')).toEqual([]);
    const f = (await list(t, t.cookie, 'listadofacturas', { estado: 'emitida' })).rows[0];
    const leida = (await list(t, t.cookie, 'listadofacturas', { id: f.id })).rows[0] as Row & { registro: { entorno: string } };
    expect(leida.registro.entorno).toBe('produccion');
  });
});
