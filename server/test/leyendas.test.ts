import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CierreTpv, Documento, TicketSubido } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { buildDocumentosPdf } from '../../shared/src/io/documentosPdfImpl.ts';
import { informeZDeCierre } from '../../shared/src/io/informeZPdf.ts';
import { buildInformeZPdf } from '../../shared/src/io/informeZPdfImpl.ts';
import { construirTicket } from '../../shared/src/io/tpvPdfImpl.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar } from './documentos-fixtures.ts';
import { backends, useTestApp } from './helpers.ts';
import { necesita } from './herramientas.ts';

/**
 * Issue 22, «every printed word true»: the PDFs built from what the server answers (the same builders the back office
 * and the till run), read back as a reader would — the text with pdftotext, the QR decoded with pdftoppm + zbarimg —
 * for a demo record, a live one pending and sent, a live one made before sending was turned on, and reprints after the
 * company's state and the environment setting change.
 */

const HOY = todayIn('Europe/Madrid');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-leyendas-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** The PDF's text (one line per line, spaces collapsed) and its first page's QR, decoded. */
function leer(pdf: ArrayBuffer): { texto: string; qr: string } {
  necesita('pdftotext', 'pdftoppm', 'zbarimg');
  const file = path.join(tmp, `doc-${++n}.pdf`);
  fs.writeFileSync(file, Buffer.from(pdf));
  const texto = execFileSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
  execFileSync('pdftoppm', ['-r', '200', '-png', '-f', '1', '-l', '1', '-singlefile', file, path.join(tmp, `doc-${n}`)]);
  const qr = execFileSync('zbarimg', ['-q', '--raw', '-S*.disable', '-Sqrcode.enable', path.join(tmp, `doc-${n}.png`)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  return { texto, qr };
}

const PRUEBAS = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?';
const PRODUCCION = 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?';
const DEMO = 'DEMOSTRACIÓN — sin validez fiscal';
const VERIFICABLE = 'Factura verificable en la sede electrónica de la AEAT';

describe.each(backends())('what invoices, rectificativas, tickets and the Z print ($name)', { timeout: 120_000 }, (backend) => {
  const t = useTestApp(backend);
  const db = () => t.app.manager.db;
  const estado = (s: { demo?: number; activo?: number }) => db().updateTable('verifactu').set(s).where('id', '=', 1).execute();
  let fx: { cliente: number; articulo: number; serieA: number; serieR: number; almacen: number; empresa: { nombre: string; nif: string } };

  const factura = async () => {
    const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: fx.cliente, almacen_id: fx.almacen, serie_id: fx.serieA, lineas: [{ articulo_id: fx.articulo, cantidad: 1_000, precio: 100_000 }] });
    return (await save(t, t.cookie, 'emitirfactura', { id: b.id })) as Row & { numero: string };
  };
  const leida = async (plural: string, id: number) => (await list(t, t.cookie, `listado${plural}`, { id })).rows[0] as unknown as Documento;
  /** The invoice's PDF as «Imprimir» makes it from what the server answers. */
  const pdfDe = async (plural: string, id: number) => {
    const { doc } = await buildDocumentosPdf([await leida(plural, id)], { fileName: 'f.pdf', empresa: fx.empresa });
    return leer(doc.output('arraybuffer'));
  };

  it('setup', async () => {
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const conf = (await list(t, t.cookie, 'listadoconfiguraciones')).rows[0] as Row & { razon_social: string; nif: string };
    fx = {
      almacen: (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id,
      serieA: series.find((s) => s.codigo === 'A')!.id,
      serieR: series.find((s) => s.codigo === 'R')!.id,
      cliente: (await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.' })).id,
      articulo: (await save(t, t.cookie, 'editararticulo', nuevoArticulo('LEY-1', { precio_venta: 100_000 }))).id,
      empresa: { nombre: conf.razon_social, nif: conf.nif },
    };
  });

  let demo: Row & { numero: string };
  let sinEnvio: Row & { numero: string };
  it('the demo company: «DEMOSTRACIÓN — sin validez fiscal» and the test QR; still so after going live', async () => {
    await estado({ demo: 1, activo: 0 });
    demo = await factura();
    let p = await pdfDe('facturas', demo.id);
    expect(p.qr.startsWith(PRUEBAS)).toBe(true);
    expect(p.qr).toContain(`numserie=${encodeURIComponent(demo.numero)}`);
    expect(p.texto).toContain(DEMO);
    expect(p.texto).not.toMatch(/verificable|enviado/);
    // Live now (the demo left without going through «Empezar con mis datos» here): the demo's invoice reprints as it was.
    await estado({ demo: 0 });
    p = await pdfDe('facturas', demo.id);
    expect(p.qr.startsWith(PRUEBAS)).toBe(true);
    expect(p.texto).toContain(DEMO);
  });

  it('live, sending not on yet: the production QR with no «verificable»; reprinted after sending is on, the same', async () => {
    sinEnvio = await factura();
    let p = await pdfDe('facturas', sinEnvio.id);
    expect(p.qr.startsWith(PRODUCCION)).toBe(true);
    expect(p.texto).toContain('QR tributario:');
    expect(p.texto).not.toMatch(/verificable|VERI\*FACTU|PRUEBA|DEMOSTRACI/);
    await estado({ activo: 1 });
    p = await pdfDe('facturas', sinEnvio.id);
    expect(p.qr.startsWith(PRODUCCION)).toBe(true);
    expect(p.texto).not.toContain('verificable');
  });

  it('live, sending on: pending and sent print the same «verificable» with the production QR; a rectificativa too; the environment setting changes nothing', async () => {
    const pendiente = await factura();
    expect((await db().selectFrom('registros_facturacion').select('estado_envio').where('documento_id', '=', pendiente.id).executeTakeFirstOrThrow()).estado_envio).toBe('pendiente');
    const a = await pdfDe('facturas', pendiente.id);
    expect(a.qr.startsWith(PRODUCCION)).toBe(true);
    expect(a.texto).toContain(VERIFICABLE);
    // Accepted by the AEAT (as the sender marks it): nothing printed changes.
    await db().updateTable('registros_facturacion').set({ estado_envio: 'correcto' }).where('documento_id', '=', pendiente.id).execute();
    const b = await pdfDe('facturas', pendiente.id);
    expect(b.qr).toBe(a.qr);
    expect(b.texto).toContain(VERIFICABLE);
    // A rectificativa of it.
    const f = (await leida('facturas', pendiente.id)) as Documento & { lineas: { id: number }[] };
    const borrador = await save(t, t.cookie, 'editarrectificativa', {
      fecha: HOY, serie_id: fx.serieR, factura_id: pendiente.id, tipo: 'R1', lineas: [{ articulo_id: fx.articulo, cantidad: -1_000, precio: 100_000, origen_linea_id: f.lineas[0].id }],
    });
    const r = await save(t, t.cookie, 'emitirrectificativa', { id: borrador.id });
    const pr = await pdfDe('rectificativas', r.id);
    expect(pr.qr.startsWith(PRODUCCION)).toBe(true);
    expect(pr.qr).toContain(`numserie=${encodeURIComponent(String(r.numero))}`);
    expect(pr.texto).toContain(VERIFICABLE);
    // The environment setting switched to «Pruebas» and back: every reprint says what its record was made for.
    for (const entorno of ['pruebas', 'produccion']) {
      expect((await enviar(t, 'editarverifactu', { entorno })).body.RESULT).toBe('0');
      const otra = await pdfDe('facturas', pendiente.id);
      expect(otra.qr).toBe(a.qr);
      expect(otra.texto).toContain(VERIFICABLE);
      expect((await pdfDe('facturas', demo.id)).texto).toContain(DEMO);
      expect((await pdfDe('facturas', sinEnvio.id)).texto).not.toContain('verificable');
    }
  });

  it('the 80 mm ticket and the Z of the demo company say so; a live ticket made while sending is on is «verificable»', async () => {
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const terminal = await save(t, t.cookie, 'editarterminal', {
      nombre: 'Caja L', almacen_id: fx.almacen, serie_id: series.find((s) => s.codigo === 'T')!.id, serie_rectificativa_id: series.find((s) => s.codigo === 'TR')!.id, formas_pago: ['efectivo'],
    });
    const vender = async () => {
      const r = await enviar(t, 'subirtickets', {
        terminal_id: terminal.id,
        tickets: [{ uuid: crypto.randomUUID(), fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: fx.articulo, cantidad: 1_000, precio: 121_000 }], pagos: [{ forma: 'efectivo', importe: 1_210 }] }],
      });
      expect(r.body.RESULT).toBe('0');
      return (r.body.data as TicketSubido[])[0];
    };
    /** The till's roll from the server's answer, as mf-tpv builds it (datosTicket: its QR and its record's emission). */
    const rollo = (x: TicketSubido) =>
      leer(
        construirTicket({
          empresa: fx.empresa, titulo: 'Factura simplificada', numero: x.numero, fecha: HOY, lineas: [{ nombre: 'LEY-1', cantidad: '1', precio: '12,10 €', importe: '12,10 €' }],
          desglose: [{ tipo: '21 %', base: '10,00 €', cuota: '2,10 €' }], total: '12,10 €', pagos: [{ forma: 'Efectivo', importe: '12,10 €' }], qr: x.qr_url, emision: x.emision,
        }).output('arraybuffer'),
      );

    await estado({ demo: 1, activo: 0 });
    try {
      await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
      const tk = await vender();
      const p = rollo(tk);
      expect(p.qr.startsWith(PRUEBAS)).toBe(true);
      expect(p.qr).toContain(`numserie=${encodeURIComponent(tk.numero)}`);
      expect(p.texto.replace(/\s+/g, ' ')).toContain(DEMO);
      expect(p.texto).not.toContain('verificable');
      // The QR first: «QR tributario:» before the shop's name.
      expect(p.texto.indexOf('QR tributario:')).toBeLessThan(p.texto.indexOf(fx.empresa.nombre));
      const cierre = (await save(t, t.cookie, 'editarcierretpv', { terminal_id: terminal.id, contado: [{ forma: 'efectivo', importe: 1_210 }] })) as unknown as CierreTpv;
      expect(cierre.demo).toBe(1);
      for (const papel of ['a4', 'ticket'] as const) {
        const z = await buildInformeZPdf(informeZDeCierre(cierre), { fileName: '', papel });
        const file = path.join(tmp, `z-${papel}.pdf`);
        fs.writeFileSync(file, Buffer.from(z.output('arraybuffer')));
        expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')).toContain(DEMO);
      }
    } finally {
      await estado({ demo: 0, activo: 1 });
    }
    // Live, sending on: the production QR and «verificable»; the closing's Z says nothing of a demo.
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    const vivo = await vender();
    const p = rollo(vivo);
    expect(p.qr.startsWith(PRODUCCION)).toBe(true);
    expect(p.texto.replace(/\s+/g, ' ')).toContain(VERIFICABLE);
    const cierre = (await save(t, t.cookie, 'editarcierretpv', { terminal_id: terminal.id, contado: [{ forma: 'efectivo', importe: 1_210 }] })) as unknown as CierreTpv;
    expect(cierre.demo).toBe(0);
    // The back office's reprint of the demo's ticket (its A4 PDF) keeps the demo's test QR and legend.
    const demoTk = (await list(t, t.cookie, 'listadotickets', { terminal_id: terminal.id as number })).rows.find((r) => r.id !== vivo.id)!;
    const reimpreso = await pdfDe('tickets', demoTk.id);
    expect(reimpreso.qr.startsWith(PRUEBAS)).toBe(true);
    expect(reimpreso.texto).toContain(DEMO);
    const reimpresoVivo = await pdfDe('tickets', vivo.id);
    expect(reimpresoVivo.qr.startsWith(PRODUCCION)).toBe(true);
    expect(reimpresoVivo.texto).toContain(VERIFICABLE);
  });
});
