import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { buildApp } from '../src/app.ts';
import { ENDPOINTS, leerRespuesta, sobre } from '../src/fiscal/aeat.ts';
import { AeatDouble, crearPki } from './aeat-double.ts';
import { list } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { ADMIN, backends } from './helpers.ts';
import type { Backend, TestApp } from './helpers.ts';
import { HOY, conAeat, factura, hasta, info, preparar, registros, subirCertificado } from './verifactu-fixtures.ts';
import type { Fixture, Registro } from './verifactu-fixtures.ts';

const PKI = crearPki();

describe('the SOAP request and answer', () => {
  it('wraps stored records in one RegFactuSistemaFacturacion and reads the AEAT answer per record', () => {
    const doc = (n: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<sfLR:RegFactuSistemaFacturacion xmlns:sfLR="x" xmlns:sf="y"><sfLR:Cabecera><sf:ObligadoEmision><sf:NombreRazon>E</sf:NombreRazon><sf:NIF>B1</sf:NIF></sf:ObligadoEmision></sfLR:Cabecera><sfLR:RegistroFactura><sf:RegistroAlta>${n}</sf:RegistroAlta></sfLR:RegistroFactura></sfLR:RegFactuSistemaFacturacion>\n`;
    const s = sobre([doc('1'), doc('2')]);
    expect(s.match(/<sfLR:RegistroFactura>/g)).toHaveLength(2);
    expect(s.match(/<sfLR:Cabecera>/g)).toHaveLength(1);
    expect(s).toContain('<soapenv:Body><sfLR:RegFactuSistemaFacturacion><sfLR:Cabecera><sf:ObligadoEmision>');
    const r = leerRespuesta(
      '<env:Envelope xmlns:env="e"><env:Body><tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="r" xmlns:tik="t"><tikR:CSV>A-1</tikR:CSV>' +
        '<tikR:TiempoEsperaEnvio>90</tikR:TiempoEsperaEnvio><tikR:EstadoEnvio>ParcialmenteCorrecto</tikR:EstadoEnvio>' +
        '<tikR:RespuestaLinea><tikR:IDFactura><tik:IDEmisorFactura>B1</tik:IDEmisorFactura><tik:NumSerieFactura>A &amp; 1</tik:NumSerieFactura><tik:FechaExpedicionFactura>01-01-2027</tik:FechaExpedicionFactura></tikR:IDFactura>' +
        '<tikR:Operacion><tik:TipoOperacion>Alta</tik:TipoOperacion></tikR:Operacion><tikR:EstadoRegistro>Incorrecto</tikR:EstadoRegistro><tikR:CodigoErrorRegistro>3000</tikR:CodigoErrorRegistro>' +
        '<tikR:DescripcionErrorRegistro>Registro de facturación duplicado.</tikR:DescripcionErrorRegistro><tikR:RegistroDuplicado><tik:EstadoRegistroDuplicado>Correcta</tik:EstadoRegistroDuplicado></tikR:RegistroDuplicado></tikR:RespuestaLinea>' +
        '</tikR:RespuestaRegFactuSistemaFacturacion></env:Body></env:Envelope>',
    );
    expect(r).toEqual({
      csv: 'A-1',
      estadoEnvio: 'ParcialmenteCorrecto',
      tiempoEspera: 90,
      lineas: [
        {
          nif: 'B1', numSerie: 'A & 1', fecha: '01-01-2027', operacion: 'Alta', estado: 'Incorrecto', codigo: '3000', descripcion: 'Registro de facturación duplicado.',
          estadoDuplicado: 'Correcta',
        },
      ],
    });
  });
});

describe.each(backends())('VERI*FACTU ($name)', (backend) => {
  const { t, double } = conAeat(backend, PKI, { tickMs: 100, backoffMs: 200, backoffMaxMs: 800, timeoutMs: 1500, loteMax: 5 }, (d) => {
    d.espera = 1;
    d.loteLleno = 5;
  });
  let f: Fixture;

  it('starts off, in pruebas, without a certificate, with the SistemaInformatico and the declaración responsable', async () => {
    f = await preparar(t, t.cookie);
    const i = await info(t, t.cookie);
    expect(i).toMatchObject({
      activo: 0, entorno: 'pruebas', endpoint: ENDPOINTS.pruebas, certificado: null,
      sistema: { nombre: 'Manager TPV', id: 'MT', tipo_uso_posible_solo_verifactu: 'S', tipo_uso_posible_multi_ot: 'N', indicador_multiples_ot: 'N' },
      cola: { pendientes: 0, incorrectos: 0 },
      avisos: [],
    });
    expect(String(i.declaracion)).toContain('Real Decreto 1007/2023');
    expect(String(i.declaracion)).toContain('HAC/1177/2024');
  });

  it('refuses a file that is not PKCS#12, a wrong password and an expired certificate; keeps a good one encrypted', async () => {
    expect(await subirCertificado(t, t.cookie, Buffer.from('no soy un certificado'), 'x')).toMatchObject({ RESULT: '1', message: MESSAGES.certificadoNoValido });
    expect(await subirCertificado(t, t.cookie, PKI.p12, 'otra-contraseña')).toMatchObject({ RESULT: '1', message: MESSAGES.certificadoPasswordIncorrecta });
    const caducado = await subirCertificado(t, t.cookie, PKI.p12Caducado, PKI.password);
    const ayer = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10).split('-').reverse().join('/');
    expect(caducado).toMatchObject({ RESULT: '1', message: `El certificado ha caducado el ${ayer}` });
    expect((await info(t, t.cookie)).certificado).toBeNull();

    const ok = await subirCertificado(t, t.cookie, PKI.p12, PKI.password);
    expect(ok).toMatchObject({ RESULT: '0', message: MESSAGES.certificadoGuardado, data: [{ titular: 'EMPRESA DEMO SL', nif: 'B86420973', emisor: 'AEAT doble CA' }] });
    const i = await info(t, t.cookie);
    expect(i.certificado).toMatchObject({ titular: 'EMPRESA DEMO SL', nif: 'B86420973' });
    expect((i.certificado as unknown as { dias: number }).dias).toBeGreaterThan(360);
    // Never the file nor its password in an answer; encrypted at rest with a key outside the database.
    const res = await t.op('listadoverifactu', { cookie: t.cookie });
    expect(res.body).not.toContain(PKI.password);
    expect(res.body).not.toContain(PKI.p12.toString('base64').slice(0, 40));
    const fila = await t.app.manager.db.selectFrom('verifactu').select(['certificado']).executeTakeFirstOrThrow();
    expect(Buffer.from(fila.certificado!).includes(PKI.p12.subarray(0, 64))).toBe(false);
    expect(Buffer.from(fila.certificado!).includes(Buffer.from(PKI.password))).toBe(false);
    const clave = path.join(t.dataDir, 'clave-secreta');
    expect(fs.statSync(clave).mode & 0o777).toBe(0o600);
  });

  it('off: records wait in the queue and nothing is sent', async () => {
    for (let i = 0; i < 12; i++) await factura(t, t.cookie, f, 100_000 + i * 100);
    await new Promise((r) => setTimeout(r, 300));
    expect(double.peticiones).toHaveLength(0);
    const rs = await registros(t, t.cookie, { estado_envio: 'pendiente' });
    expect(rs).toHaveLength(12);
    expect((await info(t, t.cookie)).cola.pendientes).toBe(12);
    const r = await t.op('enviarregistrosverifactu', { cookie: t.cookie, body: {} });
    expect(r.json()).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuDesactivado });
  });

  it('on: full batches leave at once, the rest after the AEAT waiting time; every record answered, in chain order', async () => {
    const on = await t.op('editarverifactu', { cookie: t.cookie, body: { activo: 1 } });
    expect(on.json()).toMatchObject({ RESULT: '0', data: [{ activo: 1 }] });
    const rs = await hasta(
      () => registros(t, t.cookie),
      (x) => x.every((r) => r.estado_envio === 'correcto'),
    );
    expect(double.peticiones.map((p) => p.registros.length)).toEqual([5, 5, 2]);
    expect(double.adelantadas).toEqual([]);
    expect(double.invalidas).toEqual([]);
    expect(double.peticiones[2].en - double.peticiones[1].en).toBeGreaterThanOrEqual(1000);
    // In chain order, each once.
    const ordenados = [...rs].sort((a, b) => a.orden - b.orden).map((r) => r.num_serie);
    expect(double.recibidos.map((r) => r.numSerie)).toEqual(ordenados);
    for (const r of rs) {
      expect(r.csv).toMatch(/^A-/);
      expect(r.codigo_error).toBeNull();
      expect(r.enviado).toBeTruthy();
    }
    expect((await info(t, t.cookie)).cola).toMatchObject({ pendientes: 0, incorrectos: 0, ultimo_error: null });
    // The waiting time is honoured by "send now" too.
    await factura(t, t.cookie, f);
    const ahora = await t.op('enviarregistrosverifactu', { cookie: t.cookie, body: {} });
    const body = ahora.json() as { RESULT: string; message: string; data: { hecho: string }[] };
    expect(['espera', 'enviado']).toContain(body.data[0].hecho);
    await hasta(() => registros(t, t.cookie), (x) => x.every((r) => r.estado_envio === 'correcto'));
    expect(double.adelantadas).toEqual([]);
  });

  it('the AEAT down, failing or hanging: records stay pending and are retried; then everything arrives once, in order', async () => {
    const antes = double.recibidos.length;
    double.modo = 'caido';
    for (let i = 0; i < 3; i++) await factura(t, t.cookie, f);
    await hasta(() => info(t, t.cookie), (i) => !!i.cola.ultimo_error && i.cola.pendientes === 3);
    double.modo = '503';
    await new Promise((r) => setTimeout(r, 600));
    expect((await registros(t, t.cookie, { estado_envio: 'pendiente' })).length).toBe(3);
    // The chain keeps growing meanwhile.
    for (let i = 0; i < 2; i++) await factura(t, t.cookie, f);
    double.modo = 'colgado_tras_registrar';
    const n = double.peticiones.length;
    await hasta(async () => double.peticiones.length, (x) => x > n);
    double.modo = 'normal';
    const rs = await hasta(
      () => registros(t, t.cookie),
      (x) => x.every((r) => r.estado_envio === 'correcto'),
    );
    // The AEAT registered each record once, in chain order (the answer lost in the hang came back as a duplicate).
    const nuevos = [...rs].sort((a, b) => a.orden - b.orden).slice(-5).map((r) => r.num_serie);
    const primeraVez = [...new Set(double.recibidos.slice(antes).map((r) => r.numSerie))];
    expect(primeraVez).toEqual(nuevos);
    for (const numSerie of nuevos) expect(double.recibidos.filter((r) => r.numSerie === numSerie && r.estado === 'Correcto')).toHaveLength(1);
    expect(double.adelantadas).toEqual([]);
    expect((await info(t, t.cookie)).cola.ultimo_error).toBeNull();
  });

  it('a refused record shows its code and is corrected by a subsanación the AEAT accepts', async () => {
    // The double's waiting time has passed: the next batch leaves at the next tick.
    await new Promise((r) => setTimeout(r, 1100));
    const siguiente = `A ${HOY.slice(0, 4)}/${String((await registros(t, t.cookie)).length + 1).padStart(6, '0')}`;
    double.rechazar(siguiente);
    const fac = await factura(t, t.cookie, f);
    expect(fac.numero).toBe(siguiente);
    const [mal] = await hasta(
      () => registros(t, t.cookie, { documento_id: fac.id }),
      (x) => x[0]?.estado_envio === 'incorrecto',
    );
    expect(mal).toMatchObject({ codigo_error: '1100', descripcion_error: 'Valor o tipo incorrecto del campo: DescripcionOperacion.', subsanado_por: null });
    const i = await info(t, t.cookie);
    expect(i.cola.incorrectos).toBe(1);
    expect(i.avisos.some((a) => a.nivel === 'error' && a.texto.includes('rechazado 1'))).toBe(true);
    const leida = (await list(t, t.cookie, 'listadofacturas', { id: fac.id })).rows[0] as Row & { registro: Row };
    expect(leida.registro).toMatchObject({ estado_envio: 'incorrecto', codigo_error: '1100' });

    const sub = await t.op('subsanarregistrofacturacion', { cookie: t.cookie, body: { id: mal.id } });
    expect(sub.json()).toMatchObject({ RESULT: '0', message: MESSAGES.registroSubsanado });
    const nuevo = (sub.json() as { data: Registro[] }).data[0];
    expect(nuevo).toMatchObject({ tipo: 'alta', num_serie: siguiente, subsana_id: mal.id });
    // Only once.
    expect((await t.op('subsanarregistrofacturacion', { cookie: t.cookie, body: { id: mal.id } })).json()).toMatchObject({ RESULT: '1', message: MESSAGES.registroNoSubsanable });
    const [r] = await hasta(
      () => registros(t, t.cookie, { id: nuevo.id }),
      (x) => x[0]?.estado_envio === 'correcto',
    );
    expect(r.xml).toContain('<sf:Subsanacion>S</sf:Subsanacion><sf:RechazoPrevio>X</sf:RechazoPrevio><sf:TipoFactura>');
    const enDoble = double.recibidos.filter((x) => x.numSerie === siguiente);
    expect(enDoble.map((x) => [x.estado, x.subsanacion, x.rechazoPrevio])).toEqual([
      ['Incorrecto', false, null],
      ['Correcto', true, 'X'],
    ]);
    const [viejo] = await registros(t, t.cookie, { id: mal.id });
    expect(viejo).toMatchObject({ estado_envio: 'incorrecto', subsanado_por: nuevo.id });
    expect((await info(t, t.cookie)).cola.incorrectos).toBe(0);
    expect(double.invalidas).toEqual([]);
    // The chain, with the subsanación in it, is whole.
    expect((await list(t, t.cookie, 'comprobarregistrosfacturacion')).body).toMatchObject({ message: MESSAGES.cadenaCorrecta });
  });

  it('the certificate can be removed; the sender then stops and says why', async () => {
    const r = await t.op('eliminarcertificadoverifactu', { cookie: t.cookie, body: {} });
    expect(r.json()).toMatchObject({ RESULT: '0', data: [{ certificado: null }] });
    expect((await info(t, t.cookie)).avisos).toContainEqual({ nivel: 'error', texto: MESSAGES.verifactuSinCertificado });
    const e = await t.op('enviarregistrosverifactu', { cookie: t.cookie, body: {} });
    expect(e.json()).toMatchObject({ RESULT: '1', message: MESSAGES.verifactuSinCertificado });
    await t.op('editarverifactu', { cookie: t.cookie, body: { activo: 0 } });
  });
});

/** Two instances on one PostgreSQL: each record is sent once. */
describe.runIf(backends().some((b) => b.name === 'postgres'))('VERI*FACTU, two instances on one PostgreSQL', () => {
  const backend = backends().find((b) => b.name === 'postgres') as Backend;
  const double = new AeatDouble(PKI);
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-vf-'));
  const apps: TestApp[] = [];

  beforeAll(async () => {
    const url = await double.start();
    double.espera = 0;
    double.loteLleno = 4;
    const admin = new pg.Client({ connectionString: backend.url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const u = new URL(backend.url!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    for (let i = 0; i < 2; i++) {
      const app = await buildApp({
        dataDir, databaseUrl: u.toString(), staticRoot: dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoStock: false,
        verifactu: { endpoint: url, ca: PKI.caPem, tickMs: 20, backoffMs: 100, timeoutMs: 2000, loteMax: 4 },
      });
      const op: TestApp['op'] = (ac, o = {}) =>
        app.inject({ method: o.body === undefined ? 'GET' : 'POST', url: '/api/op.asp', query: { ac, ...(o.query ?? {}) }, headers: { ...(o.cookie ? { cookie: o.cookie } : {}) }, ...(o.body !== undefined ? { payload: o.body as object } : {}) });
      apps.push({
        app, dataDir, op,
        async login() {
          const res = await op('identificar', { body: ADMIN });
          const c = res.cookies.find((x) => x.name === 'mtpv_sesion')!;
          return `mtpv_sesion=${c.value}`;
        },
        close: () => app.close(),
      });
    }
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await double.stop();
    const c = new pg.Client({ connectionString: backend.url });
    await c.connect();
    await c.query(`drop schema ${schema} cascade`);
    await c.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('both workers running, emissions on both: every record reaches the AEAT exactly once', async () => {
    const [a, b] = apps;
    const ca = await a.login();
    const cb = await b.login();
    const f = await preparar(a, ca);
    expect(await subirCertificado(a, ca, PKI.p12, PKI.password)).toMatchObject({ RESULT: '0' });
    await a.op('editarverifactu', { cookie: ca, body: { activo: 1 } });
    const emitir = async (t: TestApp, c: string) => {
      for (let i = 0; i < 10; i++) await factura(t, c, f);
    };
    await Promise.all([emitir(a, ca), emitir(b, cb), b.op('enviarregistrosverifactu', { cookie: cb, body: {} })]);
    const rs = await hasta(
      () => registros(b, cb),
      (x) => x.length === 20 && x.every((r) => r.estado_envio === 'correcto'),
      30_000,
    );
    expect(double.recibidos).toHaveLength(20);
    expect(new Set(double.recibidos.map((r) => r.numSerie)).size).toBe(20);
    expect(double.recibidos.every((r) => r.estado === 'Correcto')).toBe(true);
    expect(double.recibidos.map((r) => r.numSerie)).toEqual([...rs].sort((x, y) => x.orden - y.orden).map((r) => r.num_serie));
    expect(double.invalidas).toEqual([]);
    await a.op('editarverifactu', { cookie: ca, body: { activo: 0 } });
  });
});

