import type { jsPDF } from 'jspdf';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Documento, DocumentoLinea } from '../domain/documentos';
import { documentosPdfBlob, downloadDocumentosPdf, empresaPdf, terceroPdfDe } from './documentosPdf';

const seen = vi.hoisted(() => [] as { doc: jsPDF; name: string }[]);
vi.mock('jspdf', async (orig) => {
  const real = await orig<typeof import('jspdf')>();
  // The document is kept instead of downloaded.
  class Capturing extends real.jsPDF {
    constructor(...args: ConstructorParameters<typeof real.jsPDF>) {
      super(...args);
      this.save = ((name: string) => {
        seen.push({ doc: this, name });
        return this;
      }) as never;
    }
  }
  return { ...real, jsPDF: Capturing };
});
beforeEach(() => {
  seen.length = 0;
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
    expect(raw).toContain('01/04/2026, 01/05/2026');
    expect(raw).toContain('Retenci');
    const blob = await documentosPdfBlob([compra], {});
    expect(blob.size).toBeGreaterThan(1000);
    // Without a record, the name the document carries.
    expect(seen).toHaveLength(1);
  });
});
