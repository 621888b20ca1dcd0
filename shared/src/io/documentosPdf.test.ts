import type { jsPDF } from 'jspdf';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { barrasCode128 } from '../domain/code128';
import { DOCUMENTO_TIPOS, type Documento, type DocumentoLinea } from '../domain/documentos';
import { documentosPdfBlob, downloadDocumentosPdf, empresaPdf, terceroPdfDe } from './documentosPdf';
import { BORRADOR_SIN_VALIDEZ, LADO_QR, desgloseFactura } from './documentosPdfImpl';
import { guardados as seen, textosPdf } from './pdfPrueba';

const qrs = vi.hoisted(() => [] as { texto: string; x: number; y: number; lado: number; pagina: number }[]);
vi.mock('./qrPdf', async (orig) => {
  const real = await orig<typeof import('./qrPdf')>();
  return {
    ...real,
    dibujarQr: (doc: jsPDF, texto: string, x: number, y: number, lado: number) => {
      qrs.push({ texto, x, y, lado, pagina: doc.getCurrentPageInfo().pageNumber });
      real.dibujarQr(doc, texto, x, y, lado);
    },
  };
});
vi.mock('jspdf', async (orig) => (await import('./pdfPrueba')).jspdfQueGuarda(orig));
beforeEach(() => {
  seen.length = 0;
  qrs.length = 0;
});

const linea = (i: number): DocumentoLinea => ({
  id: i,
  orden: i,
  articulo_id: i,
  codigo: `ART-${i}`,
  descripcion: `Artículo número ${i} con una descripción bastante larga que no cabe en su celda de ningún modo`,
  tipo_iva: '21',
  cantidad: 2000,
  precio: 12500,
  descuento: 0,
  pendiente: 0,
  ubicacion_id: null,
  motivo: null,
  teorico: i % 2 ? 1000 : 3000,
});

const doc = (id: number, n: number): Documento =>
  ({
    id,
    tipo: 'inventario',
    numero: `INV 2026/00000${id}`,
    ejercicio: 2026,
    fecha: '2026-03-02',
    estado: 'finalizado',
    almacen_id: 1,
    almacen_nombre: 'Central',
    almacen_destino_id: null,
    observaciones: 'Recuento anual',
    total: 0,
    base: 0,
    iva: 0,
    recargo: 0,
    retencion_importe: 0,
    desglose: [],
    lineas: Array.from({ length: n }, (_, i) => linea(i + 1)),
  }) as unknown as Documento;

describe('downloadDocumentosPdf', () => {
  it('prints each document from a new page, its pages counted on their own, the header repeated', async () => {
    await downloadDocumentosPdf([doc(1, 120), doc(2, 3)], {
      fileName: 'inventarios.pdf',
      empresa: empresaPdf({ razon_social: 'Ferretería Pérez SL', nombre_comercial: null, nif: 'B12345678', direccion: 'Calle Mayor 1' } as never),
      variante: 'diferencias',
    });
    expect(seen).toHaveLength(1);
    const pdf = seen[0].doc;
    expect(seen[0].name).toBe('inventarios.pdf');
    const pages = pdf.getNumberOfPages();
    expect(pages).toBeGreaterThanOrEqual(3);
    const raw = pdf.output();
    expect(raw).toContain('INV 2026/000001 \\(continuaci');
    expect(raw).toContain(`(Página 1 de ${pages - 1})`);
    expect(raw).toContain(`(Página ${pages - 1} de ${pages - 1})`);
    expect(raw).toContain('(Página 1 de 1)');
    expect(raw).toContain('Ferreter');
    // Differences valued at cost: 60 × +1 and 60 × −1 at 1,25 €.
    expect(raw).toContain('75,00');
    expect(raw).toContain('-75,00');
  });

  it('a blank count sheet has no counted quantities', async () => {
    await downloadDocumentosPdf([doc(3, 2)], { fileName: 'hoja.pdf', variante: 'recuento' });
    const raw = seen[0].doc.output();
    expect(raw).toContain('Hoja de recuento');
    expect(raw).toContain('Contado por');
    expect(raw).not.toContain('Recuento anual');
  });

  it('a purchase document prints the supplier block, the payment method with its due dates and the retención; as a Blob too', async () => {
    const compra = {
      ...doc(4, 2),
      tipo: 'pedidocompra',
      numero: 'PC 2026/000004',
      estado: 'creado',
      proveedor_id: 3,
      proveedor_nombre: 'Ferretería Levante SL',
      forma_pago: 'recibo_30_60',
      retencion: 1500,
      retencion_importe: 75,
      observaciones: null,
    } as unknown as Documento;
    const tercero = terceroPdfDe({ razon_social: 'Ferretería Levante SL', nif: 'B12345674', direccion: 'Calle Mayor 1', codigo_postal: '46001', poblacion: 'Valencia' });
    await downloadDocumentosPdf([compra], { fileName: 'pc.pdf', tercero: () => tercero });
    const raw = seen[0].doc.output();
    expect(raw).toContain('PROVEEDOR');
    expect(raw).toContain('NIF B12345674');
    expect(raw).toContain('46001 Valencia');
    expect(raw).toContain('Forma de pago: Recibo domiciliado a 30 y 60 d');
    // A pedido falls due on nothing (issue 26): its terms print, no vencimientos.
    expect(raw).not.toContain('Vencimiento');
    expect(raw).not.toContain('01/04/2026, 01/05/2026');
    expect(raw).toContain('Retenci');
    const blob = await documentosPdfBlob([compra], {});
    expect(blob.size).toBeGreaterThan(1000);
    // Without a record, the name the document carries.
    expect(seen).toHaveLength(1);
  });

  it('issue 24: a purchase order as a role without ver_costes reads it (no amounts answered) prints quantities, no prices nor totals', async () => {
    const { total: _t, base: _b, iva: _i, recargo: _r, retencion_importe: _ri, desglose: _d, ...sinImportes } = doc(5, 2) as unknown as Record<string, unknown>;
    const compra = {
      ...sinImportes,
      tipo: 'pedidocompra',
      numero: 'PC 2026/000005',
      estado: 'enviado',
      proveedor_id: 3,
      proveedor_nombre: 'Ferretería Levante SL',
      lineas: (sinImportes.lineas as DocumentoLinea[]).map(({ precio: _p, descuento: _de, ...l }) => l),
    } as unknown as Documento;
    await downloadDocumentosPdf([compra], { fileName: 'pc.pdf' });
    const raw = seen[0].doc.output();
    expect(raw).toContain('Cantidad');
    expect(raw).toContain('ART-1');
    for (const palabra of ['Precio', 'Importe', 'Base imponible', '(Total)', 'NaN']) expect(raw, palabra).not.toContain(palabra);
    // The same order with its amounts prints them.
    seen.length = 0;
    await downloadDocumentosPdf([{ ...doc(5, 2), tipo: 'pedidocompra', numero: 'PC 2026/000005', estado: 'enviado', proveedor_id: 3 } as unknown as Documento], { fileName: 'pc.pdf' });
    expect(seen[0].doc.output()).toContain('Precio');
  });

  it("a sales document paid by transfer prints the company's IBAN; a purchase, a credit note or a receipt does not", async () => {
    const empresa = empresaPdf({ razon_social: 'Comercial Demo SL', nif: 'B00000000', iban: 'es91 2100 0418 4502 0005 1332' } as never);
    const base = { ...doc(9, 1), estado: 'emitida', observaciones: null };
    const factura = { ...base, tipo: 'factura', numero: 'F 2026/000009', cliente_id: 3, cliente_nombre: 'Bar Pepe SL', forma_pago: 'transferencia_30', total: 12100 };
    const abono = { ...factura, tipo: 'rectificativa', numero: 'R 2026/000001', total: -12100 };
    const recibo = { ...factura, numero: 'F 2026/000010', forma_pago: 'recibo_30' };
    const compra = { ...base, tipo: 'pedidocompra', estado: 'creado', numero: 'PC 2026/000009', proveedor_id: 3, proveedor_nombre: 'Ferretería Levante SL', forma_pago: 'transferencia' };
    const textos = async (d: object) => {
      seen.length = 0;
      await downloadDocumentosPdf([d as unknown as Documento], { fileName: 'x.pdf', empresa });
      return textosPdf(seen[0].doc.output());
    };
    expect(await textos(factura)).toContain('IBAN: ES91 2100 0418 4502 0005 1332');
    for (const d of [abono, recibo, compra]) expect(await textos(d)).not.toContain('IBAN');
  });

  it('an emitted invoice prints the fiscal QR at the top of its first page only, its legend, due dates, the breakdown with recargo and the retención', async () => {
    const factura = {
      ...doc(5, 140),
      tipo: 'factura',
      numero: 'F 2026/000012',
      estado: 'emitida',
      tipo_factura: 'F1',
      cliente_id: 3,
      cliente_nombre: 'Bar Pepe SL',
      cliente_nif: 'B12345674',
      almacen_destino_id: null,
      forma_pago: 'recibo_30_60',
      cobro_fecha: '2026-03-20',
      cobro_forma: 'transferencia',
      con_recargo: 1,
      base: 35000,
      iva: 4900,
      recargo: 1170,
      retencion: 1500,
      retencion_importe: 5250,
      total: 35820,
      desglose: [
        { tipo_iva: '21', base: 20000, iva: 4200, recargo: 1040 },
        { tipo_iva: '10', base: 7000, iva: 700, recargo: 98 },
        { tipo_iva: 'exento', base: 8000, iva: 0, recargo: 0 },
      ],
      observaciones: null,
      // Read without its record's figures (the page's are used), made live with sending on.
      registro: { id: 1, tipo: 'alta', huella: 'AB', fecha_hora_huso: '2026-03-02T10:00:00+01:00', entorno: 'produccion', demo: 0, verifactu: 1 },
    } as unknown as Documento;
    await downloadDocumentosPdf([factura], { fileName: 'f.pdf', empresa: { nombre: 'Ferretería Pérez', nif: 'B12345678' } });
    const pdf = seen[0].doc;
    expect(pdf.getNumberOfPages()).toBeGreaterThan(1);
    // One QR, on page 1, centred at the top, 30-40 mm; its content: NIF, displayed number, date, base + IVA + recargo.
    expect(qrs).toHaveLength(1);
    expect(qrs[0]).toMatchObject({ pagina: 1, lado: LADO_QR });
    expect(LADO_QR).toBeGreaterThanOrEqual(30);
    expect(LADO_QR).toBeLessThanOrEqual(40);
    expect(qrs[0].x + LADO_QR / 2).toBeCloseTo(pdf.internal.pageSize.getWidth() / 2);
    expect(qrs[0].y).toBeLessThan(25);
    expect(qrs[0].texto).toBe(
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=F%202026%2F000012&fecha=02-03-2026&importe=410.70',
    );
    const raw = pdf.output();
    expect(raw).toContain('(QR tributario:)');
    expect(raw).toContain('Factura verificable en la sede electr');
    // The modules are one filled path of rectangles.
    expect(raw).toMatch(/re\nf\n/);
    expect(raw).toContain('Vencimientos: 01/04/2026, 01/05/2026');
    expect(raw).toContain('Cobrada el 20/03/2026');
    expect(raw).toContain('(Cuota R.E.)');
    expect(raw).toContain('(5,2 %)');
    expect(raw).toContain('(1,4 %)');
    expect(raw).toContain('(10,40 \x80)');
    expect(raw).toContain('Recargo de equivalencia');
    expect(raw).toContain('Retenci');
    expect(raw).toContain('(-52,50 \x80)');
    expect(raw).not.toContain('BORRADOR');
    expect(desgloseFactura(factura)).toEqual([
      ['Tipo de IVA', 'Base imponible', '% IVA', 'Cuota IVA', '% R.E.', 'Cuota R.E.'],
      ['General 21 %', '200,00 €', '21 %', '42,00 €', '5,2 %', '10,40 €'],
      ['Reducido 10 %', '70,00 €', '10 %', '7,00 €', '1,4 %', '0,98 €'],
      ['Exento', '80,00 €', 'Exento', '0,00 €', '', '0,00 €'],
    ]);
  });

  it('issue 16: the breakdown groups by operation and each operation that charges no tax prints its legal ground', async () => {
    const factura = {
      ...doc(9, 1),
      tipo: 'factura',
      numero: 'F 2026/000013',
      estado: 'emitida',
      tipo_factura: 'F1',
      cliente_nombre: 'Reformas Hernández SL',
      cliente_nif: 'B85612349',
      almacen_destino_id: null,
      con_recargo: 0,
      base: 59000,
      iva: 4200,
      recargo: 0,
      retencion: 0,
      retencion_importe: 0,
      total: 63200,
      desglose: [
        { tipo_iva: '21', base: 20000, iva: 4200, recargo: 0, operacion: 'S1' },
        { tipo_iva: 'exento', base: 35000, iva: 0, recargo: 0, operacion: 'S2' },
        { tipo_iva: 'exento', base: 4000, iva: 0, recargo: 0, operacion: 'E2' },
      ],
      observaciones: null,
    } as unknown as Documento;
    expect(desgloseFactura(factura)).toEqual([
      ['Tipo de IVA', 'Base imponible', '% IVA', 'Cuota IVA'],
      ['General 21 %', '200,00 €', '21 %', '42,00 €'],
      ['Inversión del sujeto pasivo', '350,00 €', 'ISP', '0,00 €'],
      ['Exenta art. 21 (exportación)', '40,00 €', 'Exenta', '0,00 €'],
    ]);
    // A Canary company's customer marked «recargo» pays none (recargo de equivalencia is IVA's): no R.E. columns.
    const canaria = { ...factura, con_recargo: 1, desglose: [{ tipo_iva: 'igic_7', base: 20000, iva: 1400, recargo: 0, operacion: 'S1' }] } as unknown as Documento;
    expect(desgloseFactura(canaria)[0]).toEqual(['Tipo de IGIC', 'Base imponible', '% IGIC', 'Cuota IGIC']);
    expect(desgloseFactura({ ...factura, con_recargo: 1 } as Documento)[0]).toContain('% R.E.');
    await downloadDocumentosPdf([factura], { fileName: 'f.pdf', empresa: { nombre: 'Ferretería Pérez', nif: 'B12345678' } });
    const raw = seen[0].doc.output().replace(/\\([()\\])/g, '$1');
    expect(raw).toContain('Inversi\xf3n del sujeto pasivo (art. 84.Uno.2.\xba de la Ley 37/1992 del IVA)');
    expect(raw).toContain('Exportaci\xf3n exenta (art. 21 de la Ley 37/1992 del IVA)');
    expect(raw).toContain('(632,00 \x80)');
  });

  it('a draft invoice prints that it has no fiscal value instead of the QR; a rectificativa names the invoice it corrects', async () => {
    const base = { ...doc(6, 1), cliente_nombre: 'Bar Pepe SL', almacen_destino_id: null, observaciones: null } as unknown as Documento;
    const borrador = { ...base, tipo: 'factura', numero: 'Borrador', estado: 'borrador' } as Documento;
    const rectificativa = {
      ...base,
      tipo: 'rectificativa',
      numero: 'R 2026/000001',
      estado: 'emitida',
      tipo_factura: 'R1',
      factura_id: 40,
      factura_numero: 'F 2026/000040',
      modo_rectificacion: 'diferencias',
      padres: [{ tipo: 'factura', id: 40, numero: 'F 2026/000040', fecha: '2026-02-10' }],
    } as Documento;
    await downloadDocumentosPdf([borrador, rectificativa], { fileName: 'b.pdf', empresa: { nombre: 'Ferretería Pérez', nif: 'B12345678' } });
    const raw = seen[0].doc.output();
    expect(BORRADOR_SIN_VALIDEZ).toBe('BORRADOR — sin validez fiscal');
    // WinAnsi: the dash is one byte.
    expect(raw).toContain('(BORRADOR \x97 sin validez fiscal)');
    expect(qrs).toHaveLength(1);
    expect(qrs[0].pagina).toBe(2);
    expect(qrs[0].texto).toContain('numserie=R%202026%2F000001');
    expect(raw).toContain('Rectifica la factura F 2026/000040 de 10/02/2026');
    expect(raw).toContain('Tipo: R1 ');
    expect(raw).toContain('Rectificación por diferencias');
    expect(raw).toContain('Factura rectificativa');
  });
  it("a customer's or supplier's paper carries nothing internal: no state, no warehouse or location, only the observaciones for them; a credit rectificativa has no due dates", async () => {
    const conUbicacion = (i: number) => ({ ...linea(i), ubicacion_id: 4, ubicacion_codigo: 'PASILLO-7' });
    const papel = (tipo: string, numero: string, over: object = {}) =>
      ({
        ...doc(7, 0),
        tipo,
        numero,
        estado: 'pendiente',
        cliente_id: tipo.includes('compra') ? null : 3,
        cliente_nombre: tipo.includes('compra') ? null : 'Bar Pepe SL',
        proveedor_id: tipo.includes('compra') ? 5 : null,
        proveedor_nombre: tipo.includes('compra') ? 'Suministros Levante SL' : null,
        almacen_nombre: 'Almacén trastienda',
        observaciones: 'Cliente moroso: no fiar',
        observaciones_cliente: 'Entregar por la puerta de atrás',
        lineas: [conUbicacion(1)],
        ...over,
      }) as unknown as Documento;
    const papeles = [
      papel('pedidoventa', 'PV 2026/000001'),
      papel('albaranventa', 'AV 2026/000001'),
      papel('pedidocompra', 'PC 2026/000001'),
      papel('albarancompra', 'AC 2026/000001'),
      papel('factura', 'A 2026/000002', { estado: 'emitida', tipo_factura: 'F1', total: 5242 }),
    ];
    for (const p of papeles) {
      seen.length = 0;
      await downloadDocumentosPdf([p], { fileName: 'p.pdf', empresa: { nombre: 'Ferretería Pérez', nif: 'B12345678' } });
      const raw = seen[0].doc.output();
      expect(raw, p.tipo).not.toContain('Estado:');
      expect(raw, p.tipo).not.toContain('Pendiente');
      expect(raw, p.tipo).not.toContain('trastienda');
      expect(raw, p.tipo).not.toContain('PASILLO-7');
      expect(raw, p.tipo).not.toContain('(Ubicaci');
      expect(raw, p.tipo).not.toContain('moroso');
      expect(raw, p.tipo).toContain('Entregar por la puerta de atr');
    }
    // A warehouse document is internal: its state, warehouse and observaciones print.
    seen.length = 0;
    await downloadDocumentosPdf([{ ...doc(8, 1), estado: 'finalizado' } as Documento], { fileName: 'i.pdf' });
    const interno = seen[0].doc.output();
    expect(interno).toContain('Estado: Finalizado');
    expect(interno).toContain('Almac');
    expect(interno).toContain('Recuento anual');

    // R 2026/000001 (−5,11 €): money given back, nothing falls due.
    seen.length = 0;
    const abono = papel('rectificativa', 'R 2026/000001', {
      estado: 'emitida',
      tipo_factura: 'R1',
      forma_pago: 'recibo_30_60',
      total: -511,
      base: -422,
      iva: -89,
      factura_id: 40,
      factura_numero: 'A 2026/000002',
    });
    await downloadDocumentosPdf([abono], { fileName: 'r.pdf', empresa: { nombre: 'Ferretería Pérez', nif: 'B12345678' } });
    const raw = seen[0].doc.output();
    expect(raw).toContain('Rectifica la factura A 2026/000002');
    expect(raw).not.toContain('Vencimiento');
    // Still to refund: its forma de pago prints.
    expect(raw).toContain('Forma de pago');

    // Netted against its invoice («descontada de la factura», issue 26): nothing left, no refund of its own — no forma de pago.
    seen.length = 0;
    const descontada = { ...abono, por_cobrar: 0, cuenta: { cobrado: 0, plazos: [], rectificativas: [], cobros: [{ id: 1, documento_id: 40, importe: 4000, fecha: '2026-03-05', forma: 'transferencia' }] } } as unknown as Documento;
    await downloadDocumentosPdf([descontada], { fileName: 'r.pdf', empresa: { nombre: 'Ferretería Pérez', nif: 'B12345678' } });
    const netted = seen[0].doc.output();
    expect(netted).not.toContain('Forma de pago');
    expect(netted).toContain('Importe descontado de la factura A 2026/000002');
  });

  it('albaranes and pedidos de venta print their forma de pago but no vencimiento; the invoice does (issue 26)', async () => {
    const base = { ...doc(9, 1), estado: 'emitido', cliente_id: 3, cliente_nombre: 'Bar Pepe SL', forma_pago: 'recibo_30', fecha: '2026-03-02', observaciones: null };
    for (const tipo of ['pedidoventa', 'albaranventa']) {
      seen.length = 0;
      await downloadDocumentosPdf([{ ...base, tipo, numero: `X 2026/00000${tipo.length}` } as unknown as Documento], { fileName: 'x.pdf' });
      const raw = seen[0].doc.output();
      expect(raw, tipo).toContain('Forma de pago: Recibo domiciliado a 30 d');
      expect(raw, tipo).not.toContain('Vencimiento');
      expect(raw, tipo).not.toContain('01/04/2026');
    }
    seen.length = 0;
    await downloadDocumentosPdf([{ ...base, tipo: 'factura', estado: 'emitida', numero: 'A 2026/000009', total: 1210 } as unknown as Documento], { fileName: 'f.pdf' });
    expect(seen[0].doc.output()).toContain('Vencimiento: 01/04/2026');
  });
  it("prints the QR's host and legend its record was made for (issue 22): demo, «Pruebas», live verifiable, live not sending yet, unknown", async () => {
    const base = { ...doc(9, 1), tipo: 'factura', numero: 'A 2026/000002', estado: 'emitida', tipo_factura: 'F1', cliente_nombre: 'Bar Pepe SL', observaciones: null, base: 4332, iva: 910, recargo: 0, total: 5242 };
    const conRegistro = (e: { entorno?: 'pruebas' | 'produccion'; demo?: number; verifactu?: number; estado_envio?: string }, extra: Partial<Documento> = {}) =>
      ({ ...base, ...extra, registro: { id: 1, tipo: 'alta', huella: 'AB', fecha_hora_huso: '2026-03-02T10:00:00+01:00', ...e } }) as unknown as Documento;
    const PRUEBAS = 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=A%202026%2F000002&fecha=02-03-2026&importe=52.42';
    const PRODUCCION = 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=A%202026%2F000002&fecha=02-03-2026&importe=52.42';
    const casos: { e: Parameters<typeof conRegistro>[0]; extra?: Partial<Documento>; qr: string; dice: string[]; noDice: string[] }[] = [
      // The demo company: the test host and «DEMOSTRACIÓN — sin validez fiscal», whatever else it says.
      { e: { entorno: 'pruebas', demo: 1, verifactu: 0 }, qr: PRUEBAS, dice: ['DEMOSTRACI', 'sin validez fiscal'], noDice: ['verificable', 'FACTURA DE PRUEBA', 'enviado'] },
      { e: { entorno: 'produccion', demo: 1, verifactu: 1 }, qr: PRUEBAS, dice: ['DEMOSTRACI'], noDice: ['verificable'] },
      // Made for «Pruebas» (never «enviado»).
      { e: { entorno: 'pruebas', demo: 0, verifactu: 1 }, qr: PRUEBAS, dice: ['FACTURA DE PRUEBA', 'sin validez fiscal'], noDice: ['verificable', 'enviado', 'DEMOSTRACI'] },
      // Live, sending on: pending and sent print the same.
      { e: { entorno: 'produccion', demo: 0, verifactu: 1, estado_envio: 'pendiente' }, qr: PRODUCCION, dice: ['Factura verificable en la sede electr'], noDice: ['PRUEBA', 'DEMOSTRACI'] },
      { e: { entorno: 'produccion', demo: 0, verifactu: 1, estado_envio: 'correcto' }, qr: PRODUCCION, dice: ['Factura verificable en la sede electr'], noDice: ['PRUEBA', 'DEMOSTRACI'] },
      // Live, sending not on yet: the QR alone, no «verificable».
      { e: { entorno: 'produccion', demo: 0, verifactu: 0 }, qr: PRODUCCION, dice: ['QR tributario:'], noDice: ['verificable', 'PRUEBA', 'DEMOSTRACI', 'VERI*FACTU'] },
      // A record that does not say what it was made for is never printed as production.
      { e: {}, qr: PRUEBAS, dice: ['sin validez fiscal'], noDice: ['verificable'] },
      // An annulled invoice keeps its own legend, on the host its record was made for.
      { e: { entorno: 'produccion', demo: 0, verifactu: 1 }, extra: { estado: 'anulada' }, qr: PRODUCCION, dice: ['FACTURA ANULADA'], noDice: ['verificable', 'DEMOSTRACI'] },
    ];
    for (const c of casos) {
      seen.length = 0;
      qrs.length = 0;
      await downloadDocumentosPdf([conRegistro(c.e, c.extra)], { fileName: 'p.pdf', empresa: { nombre: 'Ferretería Pérez', nif: 'B12345678' } });
      const raw = seen[0].doc.output();
      const caso = JSON.stringify(c.e);
      expect(qrs[0].texto, caso).toBe(c.qr);
      // The QR is the first thing of the page (DetalleEspecificacTecnCodigoQRfactura §3): above the company and the title.
      expect(qrs[0].y, caso).toBeLessThan(30);
      for (const x of c.dice) expect(raw, caso).toContain(x);
      for (const x of c.noDice) expect(raw, caso).not.toContain(x);
    }
  });
});

describe('an issued invoice stands (issue 16)', () => {
  const emitida = (extra: Partial<Documento> = {}) =>
    ({
      ...doc(9, 1),
      tipo: 'factura',
      // Today the serie is called «FA» and the company and the customer moved: the document carries what was issued.
      numero: 'FA 2026/000007',
      estado: 'emitida',
      tipo_factura: 'F1',
      cliente_nombre: 'Nombre de hoy SL',
      cliente_nif: 'B00000000',
      almacen_destino_id: null,
      base: 10000,
      iva: 2100,
      recargo: 0,
      total: 12100,
      desglose: [{ tipo_iva: '21', base: 10000, iva: 2100, recargo: 0 }],
      observaciones: null,
      emision: {
        emisor: { nombre: 'Ferretería Pérez SL', nif: 'B12345678', lineas: ['Calle Mayor 1', '46001 Valencia (Valencia)'] },
        destinatario: {
          nombre:
            'Construcciones y Reformas Integrales del Levante Mediterráneo y Alrededores Sociedad Limitada Unipersonal',
          nif: 'B12345674',
          lineas: ['Avenida del Puerto 123, escalera B, piso 4, puerta 12', '46021 Valencia (Valencia)'],
        },
      },
      fecha_operacion: '2026-02-20',
      padres: [
        { tipo: 'albaranventa', id: 3, numero: 'AV 2026/000003', fecha: '2026-02-11' },
        { tipo: 'albaranventa', id: 4, numero: 'AV 2026/000004', fecha: '2026-02-20' },
      ],
      registro: {
        id: 1,
        tipo: 'alta',
        huella: 'X',
        fecha_hora_huso: '2026-03-02T10:00:00+01:00',
        id_emisor: 'B12345678',
        num_serie: 'A 2026/000007',
        fecha_expedicion: '02-03-2026',
        importe_total: '121.00',
        entorno: 'produccion',
        demo: 0,
        verifactu: 1,
      },
      ...extra,
    }) as unknown as Documento;

  const textos = textosPdf;

  it("reprints the parties and the QR as issued, the operation's date and albaranes, and wraps long texts instead of cutting them", async () => {
    const d = emitida();
    (d.lineas as DocumentoLinea[])[0].descripcion = 'Tornillo autorroscante de cabeza avellanada con recubrimiento de zinc FINAL-DE-LA-DESCRIPCION';
    await downloadDocumentosPdf([d], { fileName: 'f.pdf', empresa: { nombre: 'Empresa de hoy SL', nif: 'B99999999' }, tercero: () => ({ nombre: 'Cliente de hoy' }) });
    const raw = seen[0].doc.output();
    const t = textos(raw);
    // The QR is the stored record's: its number (serie «A» then), issuer, date and ImporteTotal.
    expect(qrs[0].texto).toBe('https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=A%202026%2F000007&fecha=02-03-2026&importe=121.00');
    expect(t).toContain('Ferretería Pérez SL');
    expect(raw).toContain('NIF B12345674');
    expect(raw).not.toContain('Empresa de hoy');
    expect(raw).not.toContain('Cliente de hoy');
    expect(raw).not.toContain('B99999999');
    // Nothing cut: the last words of the long name, address and description are printed.
    expect(t).toContain('Unipersonal');
    expect(t).toContain('puerta 12');
    expect(t).toContain('FINAL-DE-LA-DESCRIPCION');
    expect(t).toContain('Fecha de operación: 20/02/2026');
    expect(t).toContain('Albaranes: AV 2026/000003 \\(11/02/2026\\), AV 2026/000004 \\(20/02/2026\\)');
    expect(raw).toContain('Factura verificable en la sede electr');
  });

  it('issue 22: a simplified invoice (F2, R5) or a ticket prints no customer\'s NIF — its record carries none — whatever the stored block says', async () => {
    for (const extra of [{ tipo_factura: 'F2' }, { tipo_factura: 'R5', tipo: 'rectificativa' }, { tipo: 'ticket', tipo_factura: 'F2', emision: undefined }] as Partial<Documento>[]) {
      seen.length = 0;
      await downloadDocumentosPdf([emitida(extra)], { fileName: 'f.pdf' });
      const raw = seen[0].doc.output();
      expect(raw).not.toContain('NIF B12345674');
      expect(raw).not.toContain('NIF B00000000');
    }
    // A full invoice prints it.
    seen.length = 0;
    await downloadDocumentosPdf([emitida()], { fileName: 'f.pdf' });
    expect(seen[0].doc.output()).toContain('NIF B12345674');
  });

  it('issue 23: a till\'s ticket printed in the back office (A4) carries its number as the 80 mm roll\'s Code 128 barcode; an invoice does not', async () => {
    const numero = 'T 2026/001470';
    await downloadDocumentosPdf([emitida({ tipo: 'ticket', tipo_factura: 'F2', numero, emision: undefined })], { fileName: 't.pdf', def: DOCUMENTO_TIPOS.ticket });
    const raw = seen[0].doc.output();
    // The bars: filled rectangles 12 mm high (34,02 pt), left to right — exactly the symbol of the ticket's number.
    const rects = [...raw.matchAll(/^([\d.]+) ([\d.]+) ([\d.]+) -34\.0157\d* re$/gm)].map((m) => ({ x: Number(m[1]), w: Number(m[3]) }));
    const { barras } = barrasCode128(numero);
    expect(rects).toHaveLength(barras.length);
    const modulo = rects[0].w / barras[0].ancho;
    expect(modulo).toBeCloseTo((0.33 * 72) / 25.4, 3);
    rects.forEach((r, i) => {
      expect(r.w / modulo).toBeCloseTo(barras[i].ancho, 6);
      expect((r.x - rects[0].x) / modulo).toBeCloseTo(barras[i].x, 6);
    });
    // Centred on the page (A4: 595,28 pt wide), the number printed under it as well as in the header.
    const ancho = rects.at(-1)!.x + rects.at(-1)!.w - rects[0].x;
    expect(rects[0].x + ancho / 2).toBeCloseTo(595.28 / 2, 0);
    expect(textosPdf(raw).split(numero).length - 1).toBeGreaterThanOrEqual(2);
    // A return made at the till without its ticket says so (it names no invoice) and carries no barcode.
    seen.length = 0;
    await downloadDocumentosPdf([emitida({ tipo: 'rectificativa', tipo_factura: 'R5', factura_id: null, numero: 'TR 2026/000003', total: -121, emision: undefined })], { fileName: 'r.pdf' });
    expect(textosPdf(seen[0].doc.output())).toContain('Devolución sin ticket \\(no rectifica una factura concreta\\)');
    expect([...seen[0].doc.output().matchAll(/-34\.0157\d* re$/gm)]).toHaveLength(0);
    // An invoice prints no barcode.
    seen.length = 0;
    await downloadDocumentosPdf([emitida()], { fileName: 'f.pdf' });
    expect([...seen[0].doc.output().matchAll(/-34\.0157\d* re$/gm)]).toHaveLength(0);
  });

  it('an annulled invoice reprints marked «Anulada», without the «verificable» legend', async () => {
    await downloadDocumentosPdf([emitida({ estado: 'anulada' })], { fileName: 'f.pdf' });
    const raw = seen[0].doc.output();
    expect(raw).toContain('(FACTURA ANULADA)');
    expect(raw).not.toContain('verificable');
    expect(qrs[0].texto).toContain('numserie=A%202026%2F000007');
  });

  it('issue 23: an F3 says which simplified invoice it replaces (never «Rectifica»), its articles\' descriptions, the recargo, and the QR of what its record was made for', async () => {
    const f3 = (registro: Record<string, unknown>) =>
      emitida({
        numero: 'A 2026/000003',
        tipo_factura: 'F3',
        factura_id: 77,
        factura_numero: 'T 2026/000002',
        fecha: '2026-03-02',
        fecha_operacion: '2026-03-01',
        padres: [],
        con_recargo: 1,
        base: 100,
        iva: 21,
        recargo: 5,
        total: 126,
        desglose: [{ tipo_iva: '21', base: 100, iva: 21, recargo: 5 }],
        lineas: [{ ...linea(1), descripcion: 'Pan de pueblo 500 g', cantidad: 1000, precio: 10000 }],
        registro: { id: 3, tipo: 'alta', huella: 'Y', fecha_hora_huso: '2026-03-02T10:00:00+01:00', id_emisor: 'B12345678', num_serie: 'A 2026/000003', fecha_expedicion: '02-03-2026', importe_total: '1.26', ...registro },
      } as Partial<Documento>);
    // Made by the demo company: the test host and «DEMOSTRACIÓN».
    await downloadDocumentosPdf([f3({ entorno: 'pruebas', demo: 1, verifactu: 0 })], { fileName: 'f3.pdf' });
    let t = textos(seen[0].doc.output());
    expect(t).toContain('Sustituye a la factura simplificada T 2026/000002 de 01/03/2026');
    expect(t).not.toContain('Rectifica');
    expect(t).toContain('Pan de pueblo 500 g');
    expect(t).toContain('Fecha de operación: 01/03/2026');
    expect(t).toMatch(/Recargo/);
    expect(t).toContain('DEMOSTRACI');
    expect(qrs[0].texto).toBe('https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=A%202026%2F000003&fecha=02-03-2026&importe=1.26');
    // Made for «Pruebas»: the test legend.
    seen.length = 0;
    qrs.length = 0;
    await downloadDocumentosPdf([f3({ entorno: 'pruebas', demo: 0, verifactu: 1 })], { fileName: 'f3.pdf' });
    t = textos(seen[0].doc.output());
    expect(t).toContain('FACTURA DE PRUEBA');
    expect(t).not.toContain('verificable');
    // Production while sending: «verificable»; production before sending is on: the QR alone.
    seen.length = 0;
    qrs.length = 0;
    await downloadDocumentosPdf([f3({ entorno: 'produccion', demo: 0, verifactu: 1 })], { fileName: 'f3.pdf' });
    t = textos(seen[0].doc.output());
    expect(t).toContain('Factura verificable en la sede');
    expect(qrs[0].texto).toMatch(/^https:\/\/www2\.agenciatributaria\.gob\.es\//);
    seen.length = 0;
    qrs.length = 0;
    await downloadDocumentosPdf([f3({ entorno: 'produccion', demo: 0, verifactu: 0 })], { fileName: 'f3.pdf' });
    t = textos(seen[0].doc.output());
    expect(t).not.toContain('verificable');
    expect(t).not.toContain('FACTURA DE PRUEBA');
    expect(t).not.toContain('DEMOSTRACI');
    expect(qrs).toHaveLength(1);
  });
});
