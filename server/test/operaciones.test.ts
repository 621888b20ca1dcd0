import { describe, expect, it } from 'vitest';
import { LEYENDA_OPERACION, MESSAGES, leyendasOperaciones } from 'shared/domain';
import type { Documento } from 'shared/domain';
import { documentosPdfBlob } from '../../shared/src/io/documentosPdf.ts';
import { todayIn } from '../src/context.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, leerDocumento } from './documentos-fixtures.ts';
import { validarXml } from './xsd.ts';

/**
 * Issue 16: each line says what operation it is (S1, S2, E1-E6, N1, N2) — the totals, the PDF's legends and the
 * VERI*FACTU record's DetalleDesglose follow it. Every case hand-checked; every record produced is checked against
 * the XSD and against the AEAT's rules (Validaciones_Errores_Veri-Factu.txt), one test per rule, named by its section.
 */

const HOY = todayIn('Europe/Madrid');
const ANIO = HOY.slice(0, 4);

type Linea = Row & { operacion: string | null; articulo_id: number };
type Doc = Documento & { lineas: Linea[] };
type Registro = Row & { xml: string; tipo_factura: string; cuota_total: string; importe_total: string };

const post = enviar<Doc>;
const ok = guardar<Doc>;
const leer = leerDocumento<Doc>;
const registroDe = async (t: SuiteApp, documentoId: number) =>
  (await list(t, t.cookie, 'listadoregistrosfacturacion', { porPagina: 100, documento_id: documentoId })).rows[0] as Registro;

/** The record's DetalleDesglose, field by field. */
type Detalle = Record<string, string>;
function detalles(xml: string): Detalle[] {
  return [...xml.matchAll(/<sf:DetalleDesglose>(.*?)<\/sf:DetalleDesglose>/g)].map((m) =>
    Object.fromEntries([...m[1].matchAll(/<sf:(\w+)>([^<]*)<\/sf:\1>/g)].map((x) => [x[1], x[2]])),
  );
}
const campo = (xml: string, nombre: string) => xml.match(new RegExp(`<sf:${nombre}>([^<]*)</sf:${nombre}>`))?.[1];
const cents = (v: string | undefined) => Math.round(Number(v ?? '0') * 100);

/** The PDF's text as jsPDF writes it (WinAnsi, uncompressed; its escaped parentheses unescaped). */
async function textoPdf(d: Doc): Promise<string> {
  const blob = await documentosPdfBlob([d], { empresa: { nombre: 'Distribuciones Levante, S.L.', nif: 'B86420973' }, variante: 'documento' });
  return Buffer.from(await blob.arrayBuffer()).toString('latin1').replace(/\\([()\\])/g, '$1');
}
const latin1 = (s: string) => Buffer.from(s, 'latin1').toString('latin1');

describe.each(backends())('operations of each line ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let serieA: number;
  let serieT: number;
  let serieR: number;
  let facturaN1: Doc;
  let espanol: Row;
  let frances: Row;
  let americano: Row;
  let taladro: Row;
  let libro: Row;
  let chatarra: Row;
  let exento: Row;
  /** Every record the suite issues, for the rule tests. */
  const xmls: { caso: string; xml: string }[] = [];

  it('setup: a Spanish, a French (NIF-IVA, E5) and a US (passport, E2) customer; articles S1 21 %, 10 %, S2 (scrap), exempt', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieA = series.find((s) => s.codigo === 'A')!.id;
    serieT = series.find((s) => s.codigo === 'T')!.id;
    serieR = series.find((s) => s.codigo === 'R')!.id;
    espanol = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020' });
    // E5 is only for a NIF-IVA customer: a Spanish one is refused, naming the field.
    const e5Espanol = await post(t, 'editarcliente', { nif: '12345678Z', razon_social: 'Ferretería López', codigo_postal: '41001', operacion: 'E5' });
    expect(e5Espanol.body.errors).toEqual({ operacion: MESSAGES.operacionE5SinNifIva });
    frances = await save(t, t.cookie, 'editarcliente', {
      nif: 'FR12345678901', pais: 'FR', tipo_id: '02', razon_social: 'Quincaillerie Dupont SARL', direccion: '12 rue de la Paix', codigo_postal: '75002',
      poblacion: 'Paris', operacion: 'E5',
    });
    expect(frances).toMatchObject({ pais: 'FR', tipo_id: '02', operacion: 'E5' });
    americano = await save(t, t.cookie, 'editarcliente', {
      nif: 'X12345678', pais: 'US', tipo_id: '03', razon_social: 'Hardware Supply Inc.', direccion: '500 Main St', codigo_postal: '10001', poblacion: 'New York',
      operacion: 'E2',
    });
    taladro = await save(t, t.cookie, 'editararticulo', nuevoArticulo('OP-TAL', { precio_venta: 1_000_000 }));
    libro = await save(t, t.cookie, 'editararticulo', nuevoArticulo('OP-LIB', { precio_venta: 200_000, tipo_iva: '10' }));
    chatarra = await save(t, t.cookie, 'editararticulo', nuevoArticulo('OP-CHA', { precio_venta: 3_500_000, operacion: 'S2' }));
    exento = await save(t, t.cookie, 'editararticulo', nuevoArticulo('OP-EXE', { precio_venta: 500_000, tipo_iva: 'exento' }));
    expect(chatarra.operacion).toBe('S2');
  });

  it('S1 and S2 on one invoice: the scrap carries no IVA, the totals to the cent, two DetalleDesglose, the legend of the reverse charge', async () => {
    // 2 × 100,00 € at 21 % (S1: 200,00 + 42,00) and 1 × 350,00 € of scrap (S2, the article's: 350,00, no IVA).
    const borrador = await ok(t, 'editarfactura', {
      fecha: HOY, cliente_id: espanol.id, almacen_id: principal, serie_id: serieA,
      lineas: [{ articulo_id: taladro.id, cantidad: 2_000, precio: 1_000_000 }, { articulo_id: chatarra.id, cantidad: 1_000, precio: 3_500_000 }],
    });
    expect(borrador.lineas.map((l) => l.operacion)).toEqual(['S1', 'S2']);
    expect(borrador).toMatchObject({ base: 55_000, iva: 4_200, recargo: 0, total: 59_200 });
    expect(borrador.desglose).toEqual([
      { tipo_iva: '21', base: 20_000, iva: 4_200, recargo: 0, operacion: 'S1' },
      { tipo_iva: 'exento', base: 35_000, iva: 0, recargo: 0, operacion: 'S2' },
    ]);
    const f = await ok(t, 'emitirfactura', { id: borrador.id });
    expect(f).toMatchObject({ estado: 'emitida', tipo_factura: 'F1', numero: `A ${ANIO}/000001` });
    const r = await registroDe(t, f.id);
    expect(r).toMatchObject({ cuota_total: '42.00', importe_total: '592.00' });
    expect(detalles(r.xml)).toEqual([
      { Impuesto: '01', ClaveRegimen: '01', CalificacionOperacion: 'S1', TipoImpositivo: '21.00', BaseImponibleOimporteNoSujeto: '200.00', CuotaRepercutida: '42.00' },
      { Impuesto: '01', ClaveRegimen: '01', CalificacionOperacion: 'S2', TipoImpositivo: '0.00', BaseImponibleOimporteNoSujeto: '350.00', CuotaRepercutida: '0.00' },
    ]);
    validarXml([r.xml]);
    xmls.push({ caso: 'S1+S2', xml: r.xml });
    const leida = await leer(t, 'facturas', f.id);
    expect(leyendasOperaciones(leida.desglose)).toEqual([LEYENDA_OPERACION.S2]);
    const pdf = await textoPdf(leida);
    expect(pdf).toContain(latin1('Inversión del sujeto pasivo (art. 84.Uno.2.º de la Ley 37/1992 del IVA)'));
    expect(pdf).toContain('(ISP)');
    expect(pdf).toContain('(592,00 \x80)');
  });

  it('a French customer with a NIF-IVA: its lines default to E5, exempt by art. 25; IDOtro 02; E5 refused for a Spanish customer', async () => {
    // 3 × 40,00 € (an article at 21 %, made E5 by the customer): 120,00 €, no IVA.
    const borrador = await ok(t, 'editarfactura', {
      fecha: HOY, cliente_id: frances.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: taladro.id, cantidad: 3_000, precio: 400_000 }],
    });
    expect(borrador.lineas[0].operacion).toBe('E5');
    expect(borrador).toMatchObject({ base: 12_000, iva: 0, total: 12_000 });
    expect(borrador.desglose).toEqual([{ tipo_iva: 'exento', base: 12_000, iva: 0, recargo: 0, operacion: 'E5' }]);
    const f = await ok(t, 'emitirfactura', { id: borrador.id });
    const r = await registroDe(t, f.id);
    expect(r).toMatchObject({ tipo_factura: 'F1', cuota_total: '0.00', importe_total: '120.00' });
    expect(r.xml).toContain('<sf:IDOtro><sf:CodigoPais>FR</sf:CodigoPais><sf:IDType>02</sf:IDType><sf:ID>FR12345678901</sf:ID></sf:IDOtro>');
    expect(detalles(r.xml)).toEqual([{ Impuesto: '01', ClaveRegimen: '01', OperacionExenta: 'E5', BaseImponibleOimporteNoSujeto: '120.00' }]);
    validarXml([r.xml]);
    xmls.push({ caso: 'E5', xml: r.xml });
    const pdf = await textoPdf(await leer(t, 'facturas', f.id));
    expect(pdf).toContain('Entrega intracomunitaria exenta (art. 25 de la Ley 37/1992 del IVA)');

    const espanolE5 = await post(t, 'editarfactura', {
      fecha: HOY, cliente_id: espanol.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: taladro.id, cantidad: 1_000, operacion: 'E5' }],
    });
    expect(espanolE5.body.errors).toEqual({ 'lineas.0.operacion': MESSAGES.operacionE5SinNifIva });
    const mala = await post(t, 'editarfactura', {
      fecha: HOY, cliente_id: espanol.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: taladro.id, cantidad: 1_000, operacion: 'E9' }],
    });
    expect(mala.body.errors).toEqual({ 'lineas.0.operacion': MESSAGES.operacionNoValida });
  });

  it('a US customer with a passport: an export (E2) under ClaveRegimen 02; the line says E2 over an article at 10 %', async () => {
    // 5 × 12,50 € at 10 % discount (56,25 €) and 1 × 20,00 € of a book: 76,25 €, all E2, no IVA.
    const borrador = await ok(t, 'editarfactura', {
      fecha: HOY, cliente_id: americano.id, almacen_id: principal, serie_id: serieA,
      lineas: [{ articulo_id: taladro.id, cantidad: 5_000, precio: 125_000, descuento: 1_000 }, { articulo_id: libro.id, cantidad: 1_000, precio: 200_000 }],
    });
    expect(borrador.lineas.map((l) => l.operacion)).toEqual(['E2', 'E2']);
    expect(borrador).toMatchObject({ base: 7_625, iva: 0, total: 7_625 });
    const f = await ok(t, 'emitirfactura', { id: borrador.id });
    const r = await registroDe(t, f.id);
    expect(r.xml).toContain('<sf:IDOtro><sf:CodigoPais>US</sf:CodigoPais><sf:IDType>03</sf:IDType><sf:ID>X12345678</sf:ID></sf:IDOtro>');
    expect(detalles(r.xml)).toEqual([{ Impuesto: '01', ClaveRegimen: '02', OperacionExenta: 'E2', BaseImponibleOimporteNoSujeto: '76.25' }]);
    expect(r).toMatchObject({ cuota_total: '0.00', importe_total: '76.25' });
    validarXml([r.xml]);
    xmls.push({ caso: 'E2', xml: r.xml });
    const pdf = await textoPdf(await leer(t, 'facturas', f.id));
    expect(pdf).toContain(latin1('Exportación exenta (art. 21 de la Ley 37/1992 del IVA)'));
  });

  it('no sujeta (N1) beside S1 at 21 % and 10 % and an exempt article (E1): one DetalleDesglose per combination', async () => {
    // S1 21 %: 1 × 100,00 → 21,00; S1 10 %: 3 × 20,00 = 60,00 → 6,00; E1: 1 × 50,00; N1 (said on the line): 2 × 100,00 = 200,00.
    const borrador = await ok(t, 'editarfactura', {
      fecha: HOY, cliente_id: espanol.id, almacen_id: principal, serie_id: serieA,
      lineas: [
        { articulo_id: taladro.id, cantidad: 1_000, precio: 1_000_000 },
        { articulo_id: libro.id, cantidad: 3_000, precio: 200_000 },
        { articulo_id: exento.id, cantidad: 1_000, precio: 500_000 },
        { articulo_id: taladro.id, cantidad: 2_000, precio: 1_000_000, operacion: 'N1' },
      ],
    });
    expect(borrador.lineas.map((l) => l.operacion)).toEqual(['S1', 'S1', 'E1', 'N1']);
    expect(borrador).toMatchObject({ base: 41_000, iva: 2_700, total: 43_700 });
    // An exempt article can't be S1: the clerk picks the cause.
    const s1Exento = await post(t, 'editarfactura', {
      fecha: HOY, cliente_id: espanol.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: exento.id, cantidad: 1_000, operacion: 'S1' }],
    });
    expect(s1Exento.body.errors).toEqual({ 'lineas.0.operacion': MESSAGES.operacionS1Exento });
    const f = await ok(t, 'emitirfactura', { id: borrador.id });
    const r = await registroDe(t, f.id);
    expect(detalles(r.xml)).toEqual([
      { Impuesto: '01', ClaveRegimen: '01', CalificacionOperacion: 'S1', TipoImpositivo: '21.00', BaseImponibleOimporteNoSujeto: '100.00', CuotaRepercutida: '21.00' },
      { Impuesto: '01', ClaveRegimen: '01', CalificacionOperacion: 'S1', TipoImpositivo: '10.00', BaseImponibleOimporteNoSujeto: '60.00', CuotaRepercutida: '6.00' },
      { Impuesto: '01', ClaveRegimen: '01', OperacionExenta: 'E1', BaseImponibleOimporteNoSujeto: '50.00' },
      { Impuesto: '01', ClaveRegimen: '01', CalificacionOperacion: 'N1', BaseImponibleOimporteNoSujeto: '200.00' },
    ]);
    expect(r).toMatchObject({ cuota_total: '27.00', importe_total: '437.00' });
    validarXml([r.xml]);
    xmls.push({ caso: 'S1+E1+N1', xml: r.xml });
    facturaN1 = await leer(t, 'facturas', f.id);
    const pdf = await textoPdf(await leer(t, 'facturas', f.id));
    expect(pdf).toContain('Operación exenta (art. 20 de la Ley 37/1992 del IVA)'.replace('ó', '\xf3'));
    expect(pdf).toContain('No sujeta');
    expect(pdf).toContain('(437,00 \x80)');
  });

  it('a rectificativa keeps the operation of the invoice line it corrects (N1: −100,00 €, no IVA)', async () => {
    const lineaN1 = facturaN1.lineas.find((l) => l.operacion === 'N1')!;
    const borrador = await ok(t, 'editarrectificativa', {
      fecha: HOY, cliente_id: espanol.id, almacen_id: principal, serie_id: serieR, factura_id: facturaN1.id, tipo: 'R1', modo: 'diferencias',
      lineas: [{ articulo_id: taladro.id, cantidad: -1_000, precio: 1_000_000, origen_linea_id: lineaN1.id }],
    });
    expect(borrador.lineas[0].operacion).toBe('N1');
    expect(borrador).toMatchObject({ base: -10_000, iva: 0, total: -10_000 });
    const r1 = await ok(t, 'emitirrectificativa', { id: borrador.id });
    const r = await registroDe(t, r1.id);
    expect(r).toMatchObject({ tipo_factura: 'R1', cuota_total: '0.00', importe_total: '-100.00' });
    expect(detalles(r.xml)).toEqual([{ Impuesto: '01', ClaveRegimen: '01', CalificacionOperacion: 'N1', BaseImponibleOimporteNoSujeto: '-100.00' }]);
    validarXml([r.xml]);
    xmls.push({ caso: 'R1 N1', xml: r.xml });
  });

  it('a simplified invoice: S2 refused; one with the recipient’s NIF and address is «cualificada», recorded as F1 with FacturaSimplificadaArt7273', async () => {
    const s2 = await ok(t, 'editarfactura', {
      fecha: HOY, cliente_id: espanol.id, almacen_id: principal, serie_id: serieT, lineas: [{ articulo_id: chatarra.id, cantidad: 100, precio: 3_500_000 }],
    });
    expect((await post(t, 'emitirfactura', { id: s2.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.operacionS2Simplificada });
    await ok(t, 'eliminarfactura', { id: s2.id });
    const conDomicilio = await save(t, t.cookie, 'editarcliente', {
      nif: '12345678Z', razon_social: 'Ferretería López', direccion: 'Calle Sierpes 4', codigo_postal: '41004', poblacion: 'Sevilla',
    });
    const borrador = await ok(t, 'editarfactura', {
      fecha: HOY, cliente_id: conDomicilio.id, almacen_id: principal, serie_id: serieT, lineas: [{ articulo_id: taladro.id, cantidad: 1_000, precio: 100_000 }],
    });
    const f = await ok(t, 'emitirfactura', { id: borrador.id });
    expect(f).toMatchObject({ numero: `T ${ANIO}/000001`, tipo_factura: 'F1', total: 1_210 });
    const r = await registroDe(t, f.id);
    expect(campo(r.xml, 'TipoFactura')).toBe('F1');
    expect(campo(r.xml, 'FacturaSimplificadaArt7273')).toBe('S');
    expect(r.xml).toContain('<sf:Destinatarios><sf:IDDestinatario><sf:NombreRazon>Ferretería López</sf:NombreRazon><sf:NIF>12345678Z</sf:NIF>');
    validarXml([r.xml]);
    xmls.push({ caso: 'F2 cualificada', xml: r.xml });
    // Without an address it stays an F2, without Destinatarios.
    const anonima = await ok(t, 'emitirfactura', {
      id: (await ok(t, 'editarfactura', { fecha: HOY, cliente_id: espanol.id, almacen_id: principal, serie_id: serieT, lineas: [{ articulo_id: taladro.id, cantidad: 1_000, precio: 100_000 }] })).id,
    });
    expect(anonima.tipo_factura).toBe('F2');
    const r2 = await registroDe(t, anonima.id);
    expect(r2.xml).not.toContain('Destinatarios');
    expect(r2.xml).not.toContain('FacturaSimplificadaArt7273');
    xmls.push({ caso: 'F2', xml: r2.xml });
  });

  // The AEAT's rules that apply to these records, each over every record above.
  it('Validaciones 8: FacturaSimplificadaArt7273 = S only on F1, F3, R1-R4', () => {
    expect(xmls.length).toBeGreaterThanOrEqual(7);
    for (const { xml } of xmls) if (campo(xml, 'FacturaSimplificadaArt7273') === 'S') expect(['F1', 'F3', 'R1', 'R2', 'R3', 'R4']).toContain(campo(xml, 'TipoFactura'));
  });

  it('Validaciones 13: Destinatarios on F1, F3, R1-R4 and never on F2/R5; NIF or IDOtro, IDOtro 02 only on F1, F3, R1-R4', () => {
    for (const { caso, xml } of xmls) {
      const tipo = campo(xml, 'TipoFactura')!;
      const dest = xml.match(/<sf:Destinatarios>(.*?)<\/sf:Destinatarios>/)?.[1];
      if (['F2', 'R5'].includes(tipo)) expect(dest, caso).toBeUndefined();
      else expect(dest, caso).toBeDefined();
      if (!dest) continue;
      expect(dest.includes('<sf:NIF>') !== dest.includes('<sf:IDOtro>'), caso).toBe(true);
      if (dest.includes('<sf:IDType>02</sf:IDType>')) expect(['F1', 'F3', 'R1', 'R2', 'R3', 'R4']).toContain(tipo);
      // CodigoPais ES only with IDType 03 or 07.
      if (dest.includes('<sf:CodigoPais>ES</sf:CodigoPais>')) expect(['03', '07']).toContain(campo(dest, 'IDType'));
    }
  });

  it('Validaciones 15.4: S2 only on F1, F3, R1-R4, with TipoImpositivo and CuotaRepercutida 0; N1/N2 with no rate, quota or recargo', () => {
    let s2 = 0;
    let n = 0;
    for (const { caso, xml } of xmls) {
      for (const d of detalles(xml)) {
        if (d.CalificacionOperacion === 'S2') {
          s2++;
          expect(['F1', 'F3', 'R1', 'R2', 'R3', 'R4'], caso).toContain(campo(xml, 'TipoFactura'));
          expect(Number(d.TipoImpositivo), caso).toBe(0);
          expect(Number(d.CuotaRepercutida), caso).toBe(0);
        }
        if (d.CalificacionOperacion === 'N1' || d.CalificacionOperacion === 'N2') {
          n++;
          for (const k of ['TipoImpositivo', 'CuotaRepercutida', 'TipoRecargoEquivalencia', 'CuotaRecargoEquivalencia']) expect(d[k], caso).toBeUndefined();
        }
      }
    }
    expect([s2, n]).toEqual([1, 2]);
  });

  it('Validaciones 15.5: OperacionExenta in list L10, never with a rate, quota or recargo, and never E2/E3 under ClaveRegimen 01', () => {
    let exentas = 0;
    for (const { caso, xml } of xmls) {
      for (const d of detalles(xml)) {
        if (!d.OperacionExenta) continue;
        exentas++;
        expect(['E1', 'E2', 'E3', 'E4', 'E5', 'E6']).toContain(d.OperacionExenta);
        for (const k of ['TipoImpositivo', 'CuotaRepercutida', 'TipoRecargoEquivalencia', 'CuotaRecargoEquivalencia']) expect(d[k], caso).toBeUndefined();
        if (d.ClaveRegimen === '01') expect(['E2', 'E3'], caso).not.toContain(d.OperacionExenta);
      }
    }
    expect(exentas).toBe(3);
  });

  it('Validaciones 15.6: ClaveRegimen always there (Impuesto 01) and in list L8A', () => {
    for (const { caso, xml } of xmls) for (const d of detalles(xml)) expect(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '14', '15', '17', '18', '19', '20'], caso).toContain(d.ClaveRegimen);
  });

  it('Validaciones 15.6.1: under ClaveRegimen 02 (exportación) only OperacionExenta', () => {
    let exportaciones = 0;
    for (const { caso, xml } of xmls) {
      for (const d of detalles(xml).filter((x) => x.ClaveRegimen === '02')) {
        exportaciones++;
        expect(d.OperacionExenta, caso).toBeDefined();
        expect(d.CalificacionOperacion, caso).toBeUndefined();
      }
    }
    expect(exportaciones).toBe(1);
  });

  it('Validaciones 15.7: CuotaRepercutida non-zero only on S1, where it is base × rate / 100 (to the cent) with the same sign', () => {
    for (const { caso, xml } of xmls) {
      for (const d of detalles(xml)) {
        if (d.CalificacionOperacion !== 'S1') {
          expect(Number(d.CuotaRepercutida ?? 0), caso).toBe(0);
          continue;
        }
        expect(cents(d.CuotaRepercutida), caso).toBe(Math.round((cents(d.BaseImponibleOimporteNoSujeto) * Number(d.TipoImpositivo)) / 100));
      }
    }
  });

  it('Validaciones 16 and 17: CuotaTotal = Σ quotas and recargos, ImporteTotal = Σ bases, quotas and recargos', () => {
    for (const { caso, xml } of xmls) {
      const ds = detalles(xml);
      const cuota = ds.reduce((s, d) => s + cents(d.CuotaRepercutida) + cents(d.CuotaRecargoEquivalencia), 0);
      const base = ds.reduce((s, d) => s + cents(d.BaseImponibleOimporteNoSujeto), 0);
      expect(cents(campo(xml, 'CuotaTotal')), caso).toBe(cuota);
      expect(cents(campo(xml, 'ImporteTotal')), caso).toBe(base + cuota);
    }
  });
});
