// VERI*FACTU submission (issue 9): `pnpm bench:verifactu`. Nothing leaves the machine: the AEAT is the tests' double
// (server/test/aeat-double.ts: HTTPS with a client certificate, xmllint against SuministroLR.xsd, huella and chain
// checks). Measures, on SQLite:
// - building a batch of 1.000 records: 1.000 chained RegistroAlta documents (huella + XML) and the SOAP envelope;
// - the queue's throughput against the double, in records per second, while invoices are being emitted
//   (BENCH_VF_INVOICES, default 3000, by BENCH_VF_CONCURRENCY, default 4, concurrent emitters), with the double's
//   TiempoEsperaEnvio at 0 so the figure is the sender's, not the AEAT's waiting time.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fechaAeat, importeAeat } from 'shared/domain';
import { buildApp } from '../server/src/app.ts';
import { todayIn } from '../server/src/context.ts';
import { sobre } from '../server/src/fiscal/aeat.ts';
import { fechaHoraHuso, huellaDe, xmlAlta } from '../server/src/fiscal/registro.ts';
import type { DatosAlta } from '../server/src/fiscal/registro.ts';
import { AeatDouble, crearPki } from '../server/test/aeat-double.ts';

const INVOICES = Number(process.env.BENCH_VF_INVOICES ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_VF_CONCURRENCY ?? 4);
const ADMIN = { email: 'bench@demo.es', password: 'Bench-clave-2026' };

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

function lote1000(): { registros: number; huellaXmlMs: number; sobreMs: number; bytes: number } {
  const emisor = { nif: 'B86420973', nombre: 'Comercial Demo, S.L.' };
  const hoy = todayIn('Europe/Madrid');
  const t0 = process.hrtime.bigint();
  const xmls: string[] = [];
  let anterior: { id_emisor: string; num_serie: string; fecha_expedicion: string; huella: string; fecha_hora_huso: string } | null = null;
  for (let i = 1; i <= 1000; i++) {
    const base = 10_000 + i;
    const d: DatosAlta = {
      emisor, numSerie: `A ${hoy.slice(0, 4)}/${String(i).padStart(6, '0')}`, fecha: hoy, tipoFactura: 'F1', descripcion: 'Venta',
      destinatario: { nif: 'B85612349', nombre: 'Reformas Hernández, S.L.' },
      desglose: [{ tipo_iva: '21', base, iva: Math.round(base * 0.21), recargo: 0 }], conRecargo: false,
      cuotaTotal: Math.round(base * 0.21), importeTotal: base + Math.round(base * 0.21),
    };
    const ts = fechaHoraHuso(new Date(), 'Europe/Madrid');
    const huella = huellaDe({
      IDEmisorFactura: emisor.nif, NumSerieFactura: d.numSerie, FechaExpedicionFactura: fechaAeat(hoy), TipoFactura: 'F1', CuotaTotal: importeAeat(d.cuotaTotal),
      ImporteTotal: importeAeat(d.importeTotal), Huella: anterior?.huella ?? '', FechaHoraHusoGenRegistro: ts,
    });
    xmls.push(xmlAlta(d, anterior, ts, huella, `${emisor.nif}-001`));
    anterior = { id_emisor: emisor.nif, num_serie: d.numSerie, fecha_expedicion: fechaAeat(hoy), huella, fecha_hora_huso: ts };
  }
  const huellaXmlMs = ms(t0);
  const t1 = process.hrtime.bigint();
  const x = sobre(xmls);
  return { registros: xmls.length, huellaXmlMs, sobreMs: ms(t1), bytes: Buffer.byteLength(x) };
}

async function throughput() {
  const pki = crearPki();
  const double = new AeatDouble(pki);
  const endpoint = await double.start();
  double.espera = 0;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-bench-vf-'));
  const app = await buildApp({
    dataDir, staticRoot: dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoStock: false,
    verifactu: { endpoint, ca: pki.caPem, tickMs: 50, backoffMs: 500, timeoutMs: 30_000 },
  });
  try {
    const op = async (ac: string, body?: unknown, cookie = '') => {
      const r = await app.inject({ method: body === undefined ? 'GET' : 'POST', url: '/api/op.asp', query: { ac }, headers: cookie ? { cookie } : {}, ...(body !== undefined ? { payload: body as object } : {}) });
      return { json: r.json() as { RESULT: string; data?: Record<string, unknown>[]; total?: number }, cookies: r.cookies };
    };
    const login = await op('identificar', ADMIN);
    const cookie = `mtpv_sesion=${login.cookies.find((c) => c.name === 'mtpv_sesion')!.value}`;
    const series = (await op('listadoseries', undefined, cookie)).json.data!;
    const almacenes = (await op('listadoalmacenes', undefined, cookie)).json.data!;
    const cliente = (await op('editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' }, cookie)).json.data![0].id;
    const articulo = (await op('editararticulo', { codigo: 'VF-1', descripcion: 'Artículo VF-1', unidad_medida: 'ud', precio_venta: 100_000, tipo_iva: '21' }, cookie)).json.data![0].id;
    const serie = series.find((s) => s.codigo === 'A')!.id;
    const almacen = almacenes[0].id;
    // The certificate, uploaded as a user would.
    const boundary = `----b${crypto.randomBytes(6).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${pki.password}\r\n--${boundary}\r\nContent-Disposition: form-data; name="archivo"; filename="c.p12"\r\n\r\n`),
      pki.p12,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    await app.inject({ method: 'POST', url: '/api/op.asp?ac=subircertificadoverifactu', payload, headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` } });
    await op('editarverifactu', { activo: 1 }, cookie);

    const hoy = todayIn('Europe/Madrid');
    let emitidas = 0;
    const t0 = process.hrtime.bigint();
    const emisor = async () => {
      while (emitidas < INVOICES) {
        emitidas++;
        const b = await op('editarfactura', { fecha: hoy, cliente_id: cliente, almacen_id: almacen, serie_id: serie, lineas: [{ articulo_id: articulo, cantidad: 1000, precio: 100_000 }] }, cookie);
        const e = await op('emitirfactura', { id: b.json.data![0].id }, cookie);
        if (e.json.RESULT !== '0') throw new Error(JSON.stringify(e.json));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, emisor));
    const emisionMs = ms(t0);
    for (;;) {
      const { n: pend } = await app.manager.db
        .selectFrom('registros_facturacion')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('estado_envio', 'in', ['pendiente', 'enviado'])
        .executeTakeFirstOrThrow();
      if (Number(pend) === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const totalMs = ms(t0);
    const recibidos = double.recibidos.length;
    return {
      facturas: INVOICES, emisionMs, totalMs, recibidos, peticiones: double.peticiones.length, correctos: double.recibidos.filter((r) => r.estado === 'Correcto').length,
      invalidas: double.invalidas.length, porSegundo: recibidos / (totalMs / 1000), emisionesPorSegundo: INVOICES / (emisionMs / 1000),
    };
  } finally {
    await app.close();
    await double.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const l = lote1000();
console.log(`Lote de ${l.registros} registros: huella + XML ${l.huellaXmlMs.toFixed(1)} ms, sobre SOAP ${l.sobreMs.toFixed(1)} ms (${(l.bytes / 1024).toFixed(0)} KiB)`);
const r = await throughput();
console.log(
  `Cola contra el doble (SQLite, ${CONCURRENCY} emisores): ${r.facturas} facturas emitidas en ${(r.emisionMs / 1000).toFixed(1)} s ` +
    `(${r.emisionesPorSegundo.toFixed(0)}/s); ${r.recibidos} registros recibidos en ${r.peticiones} envíos, ${r.correctos} correctos, ${r.invalidas} inválidos; ` +
    `todo enviado en ${(r.totalMs / 1000).toFixed(1)} s: ${r.porSegundo.toFixed(0)} registros/s`,
);
