import type { jsPDF } from 'jspdf';
import { TITULO_QR, presentacionQr } from '../domain/fiscal';
import { dibujarCode128 } from './barrasPdf';
import { dibujarQr } from './qrPdf';
import { ANCHO_ROLLO, cabeceraRollo, importeRollo, MARGEN_ROLLO, rayaRollo, rollo, UTIL_ROLLO } from './rolloPdf';
import type { TicketPdf } from './tpvPdf';

const ANCHO = ANCHO_ROLLO;
const M = MARGEN_ROLLO;
const UTIL = UTIL_ROLLO;

/**
 * The fiscal QR at the top of the roll, before the ticket's content (DetalleEspecificacTecnCodigoQRfactura §3, the
 * same rule as an invoice's): «QR tributario:», the QR (34 mm: 30–40, Orden HAC/1177/2024 art. 21.1) and, under it,
 * the legend of what its record was made for (presentacionQr). Answers the next y.
 */
function bloqueQr(doc: jsPDF, t: TicketPdf, y: number): number {
  if (!t.qr) return y;
  const lado = 34;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(8);
  doc.text(TITULO_QR, ANCHO / 2, y, { align: 'center' });
  y += 2;
  dibujarQr(doc, t.qr, (ANCHO - lado) / 2, y, lado);
  y += lado + 3.5;
  const { leyenda } = presentacionQr(t.emision);
  if (leyenda) {
    // At least the size of the rest of the ticket's data (8 pt), as the order asks.
    doc.setFont('helvetica', 'bold');
    const partes = doc.splitTextToSize(leyenda, UTIL) as string[];
    doc.text(partes, ANCHO / 2, y, { align: 'center' });
    y += 3.6 * partes.length;
    doc.setFont('helvetica', 'normal');
  }
  rayaRollo(doc, y);
  return y + 5.5;
}

function dibujarTicket(doc: jsPDF, t: TicketPdf): number {
  let y = bloqueQr(doc, t, 8);
  y = cabeceraRollo(doc, t.empresa, y);
  doc.setFontSize(9);
  doc.setFont('helvetica', 'bold');
  doc.text(t.titulo, ANCHO / 2, y, { align: 'center' });
  y += 4.5;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(8);
  doc.text(`Nº ${t.numero}`, M, y);
  doc.text(t.fecha, ANCHO - M, y, { align: 'right' });
  y += 3.8;
  if (t.terminal || t.cajero) {
    doc.text([t.terminal, t.cajero ? `Le atendió: ${t.cajero}` : null].filter(Boolean).join(' · '), M, y, { maxWidth: UTIL });
    y += 3.8;
  }
  rayaRollo(doc, y);
  y += 4;
  for (const l of t.lineas) {
    const nombre = doc.splitTextToSize(l.nombre, UTIL - 18) as string[];
    doc.text(nombre, M, y);
    doc.text(l.importe, ANCHO - M, y, { align: 'right' });
    y += 3.6 * nombre.length;
    doc.setFontSize(7);
    doc.text(`  ${l.cantidad} x ${l.precio}${l.descuento ? `  dto. ${l.descuento}` : ''}`, M, y);
    doc.setFontSize(8);
    y += 3.6;
  }
  rayaRollo(doc, y);
  y += 5;
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(11);
  importeRollo(doc, 'TOTAL', t.total, y);
  y += 5;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(8);
  for (const p of t.pagos) {
    importeRollo(doc, p.forma, p.importe, y);
    y += 3.6;
  }
  if (t.cambio) {
    importeRollo(doc, 'Cambio', t.cambio, y);
    y += 3.6;
  }
  y += 1;
  doc.setFontSize(7);
  doc.text(t.impuesto ?? 'IVA', M, y);
  doc.text('Base', M + 30, y, { align: 'right' });
  doc.text('Cuota', ANCHO - M, y, { align: 'right' });
  y += 3.2;
  for (const d of t.desglose) {
    doc.text(d.tipo, M, y);
    doc.text(d.base, M + 30, y, { align: 'right' });
    doc.text(d.cuota, ANCHO - M, y, { align: 'right' });
    y += 3.2;
  }
  doc.text(`${t.impuesto ?? 'IVA'} incluido`, M, y);
  y += 4;
  if (t.pie) {
    y += 1;
    doc.text(doc.splitTextToSize(t.pie, UTIL) as string[], ANCHO / 2, y, { align: 'center' });
    y += 4;
  }
  return codigoBarras(doc, t.numero, y) + 6;
}

/** Issue 23: the ticket's number as a Code 128 barcode at its foot (shared `dibujarCode128`). Answers the next y. */
function codigoBarras(doc: jsPDF, numero: string, y: number): number {
  return dibujarCode128(doc, numero, ANCHO / 2, y, UTIL);
}

export function construirTicket(t: TicketPdf): jsPDF {
  return rollo((doc) => dibujarTicket(doc, t));
}
