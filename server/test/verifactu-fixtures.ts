import crypto from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { VerifactuInfo } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import type { VerifactuOptions } from '../src/fiscal/envio.ts';
import { AeatDouble } from './aeat-double.ts';
import type { Pki } from './aeat-double.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { expectCleanAnswer, useTestApp } from './helpers.ts';
import type { Backend, SuiteApp, TestApp } from './helpers.ts';

/**
 * What the VERI*FACTU suites share (verifactu.test.ts, verifactu-correcciones.test.ts): the AEAT double started for
 * a suite's app, the certificate upload, a customer, an article and an issued invoice, and the readers of the
 * records and of Configuración › VERI*FACTU.
 */

export const HOY = todayIn('Europe/Madrid');

/** A stored record as listadoregistrosfacturacion answers it. */
export type Registro = Row & {
  orden: number;
  tipo: string;
  num_serie: string;
  estado_envio: string;
  csv: string | null;
  codigo_error: string | null;
  descripcion_error: string | null;
  enviado: string | null;
  subsana_id: number | null;
  subsanado_por: number | null;
  incidencia: number;
  xml: string;
};

/**
 * A suite's app whose VERI*FACTU sender talks to its own AEAT double (started before the suite, stopped after):
 * `opciones` are the sender's (the endpoint is filled in), `ajustar` sets the double up once it listens.
 */
export function conAeat(
  backend: Backend,
  pki: Pki,
  opciones: Omit<VerifactuOptions, 'ca' | 'endpoint'>,
  ajustar: (d: AeatDouble) => void = () => {},
): { t: SuiteApp; double: AeatDouble } {
  const double = new AeatDouble(pki);
  const o: VerifactuOptions = { ca: pki.caPem, ...opciones };
  beforeAll(async () => {
    o.endpoint = await double.start();
    ajustar(double);
  });
  afterAll(async () => double.stop());
  return { t: useTestApp(backend, { verifactu: o }), double };
}

/** Polls `f` until `ok` holds (the worker runs on its own timer). */
export async function hasta<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const fin = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > fin) throw new Error(`timed out; last: ${JSON.stringify(v).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Uploads a certificate (multipart: the file, its password and any `extra` field such as representante). */
export async function subirCertificado(t: TestApp, cookie: string, archivo: Buffer, password: string, extra: Record<string, string> = {}) {
  const boundary = `----mtpv${crypto.randomBytes(8).toString('hex')}`;
  const campos = Object.entries({ password, ...extra }).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const payload = Buffer.concat([
    ...campos,
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="archivo"; filename="empresa.p12"\r\nContent-Type: application/x-pkcs12\r\n\r\n`),
    archivo,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({ method: 'POST', url: '/api/op.asp?ac=subircertificadoverifactu', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie } });
  return expectCleanAnswer(res) as { RESULT: string; message?: string; data?: Row[] };
}

export type Fixture = { cliente: number; articulo: number; serie: number; almacen: number };

/** The main warehouse, serie A, a Spanish customer and an article of 100 € (its code starts with `prefijo`). */
export async function preparar(t: TestApp, cookie: string, prefijo = 'VF'): Promise<Fixture> {
  const almacen = (await list(t, cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
  const serie = (await list(t, cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
  const cliente = (await save(t, cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' })).id;
  const articulo = (await save(t, cookie, 'editararticulo', nuevoArticulo(`${prefijo}-${crypto.randomBytes(3).toString('hex')}`, { precio_venta: 100_000 }))).id;
  return { cliente, articulo, serie, almacen };
}

/** An issued invoice of one unit at `precio` (ten-thousandths): its id and displayed number. */
export async function factura(t: TestApp, cookie: string, f: Fixture, precio = 100_000): Promise<{ id: number; numero: string }> {
  const b = await save(t, cookie, 'editarfactura', {
    fecha: HOY, cliente_id: f.cliente, almacen_id: f.almacen, serie_id: f.serie, lineas: [{ articulo_id: f.articulo, cantidad: 1_000, precio }],
  });
  const e = await save(t, cookie, 'emitirfactura', { id: b.id });
  return { id: e.id, numero: String(e.numero) };
}

export const registros = async (t: TestApp, cookie: string, q: Record<string, string | number> = {}) =>
  (await list(t, cookie, 'listadoregistrosfacturacion', { porPagina: 100, ...q })).rows as Registro[];

/** Configuración › VERI*FACTU as the screen reads it. */
export const info = async (t: TestApp, cookie: string) => (await list(t, cookie, 'listadoverifactu')).rows[0] as unknown as VerifactuInfo & Row;
