import { describe, expect, it } from 'vitest';
import { totalesTicket } from 'shared/domain';
import type { Documento, TerminalTpv, TicketSubido } from 'shared/domain';
import { fechaHoraHuso, registroTicket, registroTpvDe } from 'shared/fiscal';
import { documentosPdfBlob } from '../../shared/src/io/documentosPdf.ts';
import { todayIn } from '../src/context.ts';
import { APERTURA, CIERRE, contenidoFacturae } from '../src/fiscal/facturae.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, leerDocumento } from './documentos-fixtures.ts';
import { validarXml, XSD_FACTURAE } from './xsd.ts';

/**
 * Issue 16, companies outside the IVA territory and the tobacco recargo: a Canary company invoices with IGIC (the
 * record's Impuesto 03), its catalogue offers IGIC's types, and its tax cannot change once it has sold; an IVA
 * company's tobacco carries recargo de equivalencia 1,75 % beside the 5,2 % of the rest. Migration 0024 rebuilt
 * `articulos` on SQLite: the search (FTS5 word and trigram indexes) still answers.
 */

const HOY = todayIn('Europe/Madrid');

type Doc = Documento & { lineas: (Row & { tipo_iva: string })[] };
type Registro = Row & { xml: string; cuota_total: string; importe_total: string };

const registroDe = async (t: SuiteApp, documentoId: number) =>
  (await list(t, t.cookie, 'listadoregistrosfacturacion', { porPagina: 100, documento_id: documentoId })).rows[0] as Registro;
function detalles(xml: string): Record<string, string>[] {
  return [...xml.matchAll(/<sf:DetalleDesglose>(.*?)<\/sf:DetalleDesglose>/g)].map((m) =>
    Object.fromEntries([...m[1].matchAll(/<sf:(\w+)>([^<]*)<\/sf:\1>/g)].map((x) => [x[1], x[2]])),
  );
}
async function textoPdf(d: Doc): Promise<string> {
  const blob = await documentosPdfBlob([d], { empresa: { nombre: 'Ferretería Canaria, S.L.', nif: 'B35000001' }, variante: 'documento' });
  return Buffer.from(await blob.arrayBuffer()).toString('latin1').replace(/\\([()\\])/g, '$1');
}
async function configurar(t: SuiteApp, cambios: Record<string, unknown>) {
  const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
  return enviar(t, 'editarconfiguracion', { ...conf, ...cambios });
}
async function comunes(t: SuiteApp) {
  const principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
  const serieA = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
  return { principal, serieA };
}

describe.each(backends())('a Canary company invoices with IGIC ($name)', (backend) => {
  const t = useTestApp(backend);
  let viejo: Row;

  it('before selling, the company moves to IGIC: an article at 21 % becomes IGIC general 7 %, its net price kept, its PVP 7 % over it', async () => {
    viejo = await save(t, t.cookie, 'editararticulo', nuevoArticulo('IG-TOR', { descripcion: 'Tornillo guanchinesco pavonado', precio_venta: 100_000 }));
    expect(viejo).toMatchObject({ tipo_iva: '21', pvp_1: 1_210 });
    const r = await configurar(t, { impuesto: 'igic' });
    expect(r.body.RESULT).toBe('0');
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect(conf.impuesto).toBe('igic');
    const ahora = (await list(t, t.cookie, 'listadoarticulos', { id: viejo.id })).rows[0];
    expect(ahora).toMatchObject({ tipo_iva: 'igic_7', precio_venta: 100_000, pvp_1: 1_070 });
  });

  it('the catalogue takes only IGIC types: 21 % refused naming the field; a new article without one is at 7 %', async () => {
    const mal = await enviar(t, 'editararticulo', nuevoArticulo('IG-MAL', { tipo_iva: '21' }));
    expect(mal.body.errors?.tipo_iva).toMatch(/^La empresa factura con IGIC: elija uno de sus tipos \(General 7 %, Reducido 3 %, Cero 0 %/);
    const { tipo_iva: _t, ...sinTipo } = nuevoArticulo('IG-NUE', { precio_venta: 200_000 });
    expect(await save(t, t.cookie, 'editararticulo', sinTipo)).toMatchObject({ tipo_iva: 'igic_7', pvp_1: 2_140 });
    expect(await save(t, t.cookie, 'editararticulo', nuevoArticulo('IG-RED', { precio_venta: 200_000, tipo_iva: 'igic_3' }))).toMatchObject({ pvp_1: 2_060 });
  });

  it('the CSV import reads a rate as the company tax’s: «9,5 %» is IGIC 9,5 %, a row without one takes 7 %, «21» is refused', async () => {
    const mal = await enviar(t, 'importararticulos', { aplicar: 0, filas: [{ codigo: 'IG-CSV1', descripcion: 'Gofio', tipo_iva: '21' }] });
    expect(mal.body.data).toEqual([{ fila: 1, errores: { tipo_iva: 'El tipo de IGIC debe ser 7, 3, 0, 9,5, 15, 20 o exento' } }]);
    const ok = await enviar(t, 'importararticulos', {
      aplicar: 1,
      filas: [{ codigo: 'IG-CSV1', descripcion: 'Gofio', tipo_iva: '9,5 %', precio_venta: '10' }, { codigo: 'IG-CSV2', descripcion: 'Mojo', precio_venta: '10' }],
    });
    expect(ok.body.RESULT).toBe('0');
    const tipos = (await list(t, t.cookie, 'listadoarticulos', { q: 'IG-CSV', porPagina: 10 })).rows.map((a) => [a.codigo, a.tipo_iva, a.pvp_1]);
    expect(tipos).toEqual([['IG-CSV1', 'igic_9_5', 1_095], ['IG-CSV2', 'igic_7', 1_070]]);
  });

  it('an invoice: 3 × 10,00 € at 7 % and 1 × 20,00 € at 3 %: IGIC 2,10 + 0,60, total 52,70 €; the record says Impuesto 03, TipoImpositivo 7.00, valid on the XSD; the PDF names IGIC', async () => {
    const { principal, serieA } = await comunes(t);
    const cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Construcciones Teide, S.L.', codigo_postal: '38001' });
    const reducido = (await list(t, t.cookie, 'listadoarticulos', { q: 'IG-RED' })).rows[0];
    const borrador = await guardar<Doc>(t, 'editarfactura', {
      fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA,
      lineas: [{ articulo_id: viejo.id, cantidad: 3_000, precio: 100_000 }, { articulo_id: reducido.id, cantidad: 1_000, precio: 200_000 }],
    });
    expect(borrador.lineas.map((l) => l.tipo_iva)).toEqual(['igic_7', 'igic_3']);
    expect(borrador).toMatchObject({ base: 5_000, iva: 270, recargo: 0, total: 5_270 });
    const f = await guardar<Doc>(t, 'emitirfactura', { id: borrador.id });
    const r = await registroDe(t, f.id);
    expect(r).toMatchObject({ cuota_total: '2.70', importe_total: '52.70' });
    expect(detalles(r.xml)).toEqual([
      { Impuesto: '03', ClaveRegimen: '01', CalificacionOperacion: 'S1', TipoImpositivo: '3.00', BaseImponibleOimporteNoSujeto: '20.00', CuotaRepercutida: '0.60' },
      { Impuesto: '03', ClaveRegimen: '01', CalificacionOperacion: 'S1', TipoImpositivo: '7.00', BaseImponibleOimporteNoSujeto: '30.00', CuotaRepercutida: '2.10' },
    ]);
    validarXml(r.xml);
    // The sales report and the libro count the IGIC as the invoice does.
    const ventas = (await t.op('informeventas', { cookie: t.cookie, query: { desde: HOY, hasta: HOY, cliente_id: String(cliente.id) } })).json();
    expect(ventas.totales).toMatchObject({ base: 5_000, iva: 270, total: 5_270 });
    const pdf = await textoPdf(await leerDocumento<Doc>(t, 'facturas', f.id));
    expect(pdf).toContain('(Tipo de IGIC)');
    expect(pdf).toContain('(Cuota IGIC)');
    expect(pdf).not.toContain('(Cuota IVA)');
  });

  it('the libro de facturas expedidas gives IGIC per rate; the Modelo 303 (IVA) is refused, naming the Modelo 420', async () => {
    const q = (ac: string) => t.op(ac, { cookie: t.cookie, query: { desde: HOY, hasta: HOY, porPagina: '100' } });
    const libro = (await q('librofacturasexpedidas')).json();
    expect(libro.data.map((f: Row) => [f.tipo_iva, f.base, f.iva])).toEqual([[300, 2_000, 60], [700, 3_000, 210]]);
    const m303 = (await q('modelo303')).json();
    expect(m303.RESULT).not.toBe('0');
    expect(m303.message).toMatch(/^El Modelo 303 es del IVA y la empresa factura con IGIC: su autoliquidación es el Modelo 420/);
  });

  it('an invoice with only exempt lines still says Impuesto 03 (the company’s tax), with its OperacionExenta, valid on the XSD', async () => {
    const { principal, serieA } = await comunes(t);
    const cliente = (await list(t, t.cookie, 'listadoclientes', { q: 'Teide' })).rows[0];
    const exento = await save(t, t.cookie, 'editararticulo', nuevoArticulo('IG-EXE', { precio_venta: 500_000, tipo_iva: 'exento' }));
    const borrador = await guardar<Doc>(t, 'editarfactura', {
      fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: exento.id, cantidad: 1_000, precio: 500_000 }],
    });
    const f = await guardar<Doc>(t, 'emitirfactura', { id: borrador.id });
    const r = await registroDe(t, f.id);
    expect(detalles(r.xml)).toEqual([{ Impuesto: '03', ClaveRegimen: '01', OperacionExenta: 'E1', BaseImponibleOimporteNoSujeto: '50.00' }]);
    validarXml(r.xml);
    // The PDF names IGIC and its law: the issuer's tax was kept with the invoice at emission.
    const pdf = await textoPdf(await leerDocumento<Doc>(t, 'facturas', f.id));
    expect(pdf).toContain('(Cuota IGIC)');
    expect(pdf).toContain('Operación exenta (Ley 20/1991 del IGIC)'.normalize());
    expect(pdf).not.toContain('Ley 37/1992');
  });

  it('the till of a Canary company: an all-exempt ticket, online or made offline by the till, records Impuesto 03 (terminaltpv names the tax)', async () => {
    const { principal } = await comunes(t);
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    const terminal = await save(t, t.cookie, 'editarterminal', {
      nombre: 'Caja Teide', almacen_id: principal, serie_id: series.find((s) => s.codigo === 'T')!.id, serie_rectificativa_id: series.find((s) => s.codigo === 'R')!.id, formas_pago: ['efectivo'],
    });
    const { codigo } = (await save(t, t.cookie, 'codigoterminal', { id: terminal.id })) as unknown as { codigo: string };
    const par = await t.op('emparejarterminal', { body: { codigo } });
    const tpvCookie = `mtpv_terminal=${par.cookies.find((x) => x.name === 'mtpv_terminal')!.value}`;
    const info = (await t.op('terminaltpv', { cookie: tpvCookie })).json().data[0] as TerminalTpv;
    expect(info.impuesto).toBe('igic');
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    const exento = (await list(t, t.cookie, 'listadoarticulos', { q: 'IG-EXE' })).rows[0];
    const lineas = [{ articulo_id: exento.id as number, cantidad: 1_000, precio: 500_000 }];
    const subir = async (tk: Record<string, unknown>) => {
      const r = (await t.op('subirtickets', { cookie: t.cookie, body: { terminal_id: terminal.id, tickets: [tk] } })).json();
      expect(r.RESULT, JSON.stringify(r)).toBe('0');
      return r.data[0] as TicketSubido;
    };
    const tk = { fecha_hora: new Date().toISOString(), lineas, pagos: [{ forma: 'efectivo', importe: 5_000 }] };
    const online = await subir({ ...tk, uuid: '00000000-0000-4000-8000-0000000016a1' });
    expect(detalles(online.xml)).toEqual([{ Impuesto: '03', ClaveRegimen: '01', OperacionExenta: 'E1', BaseImponibleOimporteNoSujeto: '50.00' }]);
    validarXml(online.xml);
    // Offline, the till makes the record with the shared code and the tax terminaltpv gave it; the server re-makes it the same.
    const ts = fechaHoraHuso(new Date(), info.zona_horaria);
    const anterior = { id_emisor: info.emisor.nif, num_serie: online.numero, fecha_expedicion: online.fecha_expedicion, huella: online.huella, fecha_hora_huso: online.fecha_hora_huso };
    const gen = registroTicket({
      emisor: info.emisor, instalacion: info.numero_instalacion, sistema: info.sistema, serieCodigo: info.serie.codigo, ejercicio: Number(HOY.slice(0, 4)),
      numero: Number(online.numero.slice(-6)) + 1, fecha: ts.slice(0, 10), totales: totalesTicket(lineas.map((l) => ({ ...l, tipo_iva: 'exento' as const }))), anterior, ts, impuesto: info.impuesto,
    });
    const offline = await subir({ ...tk, uuid: '00000000-0000-4000-8000-0000000016a2', registro: registroTpvDe(gen) });
    expect(offline).toMatchObject({ offline: 1, huella: gen.huella, xml: gen.xml });
    expect(detalles(offline.xml)[0].Impuesto).toBe('03');
  });

  it('once it has sold, the company cannot go back to IVA: refused with a message, nothing changed', async () => {
    const r = await configurar(t, { impuesto: 'iva' });
    expect(r.body.RESULT).not.toBe('0');
    expect(JSON.stringify(r.body)).toContain('No se puede cambiar el impuesto a IVA: ya hay documentos de venta o tickets');
    expect((await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0].impuesto).toBe('igic');
    expect((await list(t, t.cookie, 'listadoarticulos', { id: viejo.id })).rows[0]).toMatchObject({ tipo_iva: 'igic_7' });
  });

  it('after migration 0024 (articulos rebuilt on SQLite) the search still finds words and fragments inside words', async () => {
    const codigos = async (q: string) => (await list(t, t.cookie, 'listadoarticulos', { q, porPagina: 100 })).rows.map((a) => a.codigo);
    expect(await codigos('guanchinesco')).toEqual(['IG-TOR']);
    expect(await codigos('chinesc')).toEqual(['IG-TOR']);
    expect(await codigos('vonad')).toEqual(['IG-TOR']);
    await save(t, t.cookie, 'editararticulo', { ...nuevoArticulo('IG-TOR', { tipo_iva: 'igic_7', precio_venta: 100_000 }), id: viejo.id, descripcion: 'Arandela majorera' });
    expect(await codigos('chinesc')).toEqual([]);
    expect(await codigos('jorer')).toEqual(['IG-TOR']);
  });
});

describe('Facturae of a Canary company', () => {
  it('its taxes are TaxTypeCode 03 (IGIC) at their rates; the file is valid against Facturaev3_2_2.xsd', () => {
    const parte = { nombre: 'Ferretería Canaria, S.L.', nif: 'B85612349', direccion: 'Calle Triana 1', codigo_postal: '35002', poblacion: 'Las Palmas de Gran Canaria', provincia: 'Las Palmas' };
    const xml = contenidoFacturae({
      numero: '2026/000001', serie: 'A', fecha: '2026-11-26', fechaOperacion: null, simplificada: false,
      emisor: parte, receptor: { ...parte, nombre: 'Construcciones Teide, S.L.', nif: 'A28000008' },
      lineas: [
        { codigo: 'IG-TOR', descripcion: 'Tornillo', cantidad: 3_000, precio: 100_000, descuento: 0, tipo_iva: 'igic_7', operacion: 'S1' },
        { codigo: 'IG-RED', descripcion: 'Gofio', cantidad: 1_000, precio: 200_000, descuento: 0, tipo_iva: 'igic_3', operacion: 'S1' },
      ],
      desglose: [
        { tipo_iva: 'igic_3', base: 2_000, iva: 60, recargo: 0, operacion: 'S1' },
        { tipo_iva: 'igic_7', base: 3_000, iva: 210, recargo: 0, operacion: 'S1' },
      ],
      conRecargo: false, base: 5_000, iva: 270, recargo: 0, retencion: 0, retencionImporte: 0, total: 5_270,
      observaciones: null, formaPago: 'contado', rectifica: null,
    });
    const codigos = [...xml.matchAll(/<TaxTypeCode>(\d+)<\/TaxTypeCode><TaxRate>([\d.]+)<\/TaxRate>/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(new Set(codigos)).toEqual(new Set(['03:7.00', '03:3.00']));
    expect(xml).not.toContain('<TaxTypeCode>01</TaxTypeCode>');
    validarXml(`<?xml version="1.0" encoding="UTF-8"?>${APERTURA}${xml}${CIERRE}`, XSD_FACTURAE);
  });
});

describe.each(backends())('tobacco carries recargo de equivalencia 1,75 % ($name)', (backend) => {
  const t = useTestApp(backend);

  it('a customer in recargo: 1 × 100,00 € of tobacco (21 % + 1,75 %) and 1 × 50,00 € at 21 % (+ 5,2 %): total 185,85 €; two details at 21.00, valid on the XSD', async () => {
    const { principal, serieA } = await comunes(t);
    const tabaco = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TAB-1', { precio_venta: 1_000_000, tipo_iva: 'tabaco' }));
    expect(tabaco).toMatchObject({ tipo_iva: 'tabaco', pvp_1: 12_100 });
    const otro = await save(t, t.cookie, 'editararticulo', nuevoArticulo('TAB-MEC', { precio_venta: 500_000 }));
    const estanco = await save(t, t.cookie, 'editarcliente', { nif: '12345678Z', razon_social: 'Estanco Nº 3', codigo_postal: '41001', recargo: 1 });
    const borrador = await guardar<Doc>(t, 'editarfactura', {
      fecha: HOY, cliente_id: estanco.id, almacen_id: principal, serie_id: serieA,
      lineas: [{ articulo_id: tabaco.id, cantidad: 1_000, precio: 1_000_000 }, { articulo_id: otro.id, cantidad: 1_000, precio: 500_000 }],
    });
    // 100,00 + 21,00 + 1,75 and 50,00 + 10,50 + 2,60.
    expect(borrador).toMatchObject({ base: 15_000, iva: 3_150, recargo: 435, total: 18_585 });
    const f = await guardar<Doc>(t, 'emitirfactura', { id: borrador.id });
    const r = await registroDe(t, f.id);
    expect(r).toMatchObject({ cuota_total: '35.85', importe_total: '185.85' });
    expect(detalles(r.xml).map((d) => [d.Impuesto, d.TipoImpositivo, d.BaseImponibleOimporteNoSujeto, d.TipoRecargoEquivalencia, d.CuotaRecargoEquivalencia])).toEqual([
      ['01', '21.00', '50.00', '5.20', '2.60'],
      ['01', '21.00', '100.00', '1.75', '1.75'],
    ]);
    validarXml(r.xml);
    // The 303: tobacco's base and IVA in the 21 % boxes, its recargo in 156-158; the other's recargo in 22-24.
    const m303 = (await t.op('modelo303', { cookie: t.cookie, query: { desde: HOY, hasta: HOY } })).json();
    const cas = Object.fromEntries(m303.data.map((f: Row) => [f.casilla, f.importe ?? f.porcentaje]));
    expect(cas).toMatchObject({ '07': 15_000, '08': 2100, '09': 3_150, '22': 5_000, '23': 520, '24': 260, '156': 10_000, '157': 175, '158': 175, '27': 3_585 });
    // The sales report counts tobacco's IVA and recargo like the invoice (it counted none: only 21/10/4 % had a rate).
    const ventas = (await t.op('informeventas', { cookie: t.cookie, query: { desde: HOY, hasta: HOY, agrupar: 'articulo', cliente_id: String(estanco.id) } })).json();
    const fila = ventas.data.find((x: Row) => x.articulo_id === tabaco.id);
    expect(fila).toMatchObject({ base: 10_000, iva: 2_100, recargo: 175, total: 12_275 });
    expect(ventas.totales).toMatchObject({ base: 15_000, iva: 3_150, recargo: 435, total: 18_585 });
  });
});
