import { jsPDF } from 'jspdf';
import type { EmpresaPdf } from './documentosPdf';

/**
 * The 80 mm till roll, shared by the ticket (tpvPdfImpl) and the Z report on roll paper (informeZPdfImpl): its
 * width and margins, the shop's header, the dashed rule, a label-and-amount row, and a page as long as what is
 * drawn on it (measured on a scratch page first, then drawn again on a page of that length).
 */
export const ANCHO_ROLLO = 80;
export const MARGEN_ROLLO = 4;
/** Printable width: 72 mm. */
export const UTIL_ROLLO = ANCHO_ROLLO - 2 * MARGEN_ROLLO;

/** The shop's name (bold, wrapped), NIF and address lines, centred; answers the y below them. */
export function cabeceraRollo(doc: jsPDF, empresa: EmpresaPdf | null | undefined, y: number): number {
  if (!empresa) return y;
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(10);
  for (const l of doc.splitTextToSize(empresa.nombre, UTIL_ROLLO) as string[]) {
    doc.text(l, ANCHO_ROLLO / 2, y, { align: 'center' });
    y += 4.5;
  }
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(7.5);
  for (const l of [empresa.nif ? `NIF ${empresa.nif}` : null, ...(empresa.lineas ?? [])].filter(Boolean) as string[]) {
    doc.text(l, ANCHO_ROLLO / 2, y, { align: 'center', maxWidth: UTIL_ROLLO });
    y += 3.5;
  }
  return y + 1;
}

/** A dashed rule across the printable width at y. */
export function rayaRollo(doc: jsPDF, y: number) {
  doc.setLineDashPattern([0.8, 0.8], 0);
  doc.line(MARGEN_ROLLO, y, ANCHO_ROLLO - MARGEN_ROLLO, y);
  doc.setLineDashPattern([], 0);
}

/** A label at the left and its amount at the right edge, on one baseline (a total, a payment, the change). */
export function importeRollo(doc: jsPDF, label: string, importe: string, y: number) {
  doc.text(label, MARGEN_ROLLO, y);
  doc.text(importe, ANCHO_ROLLO - MARGEN_ROLLO, y, { align: 'right' });
}

/**
 * A roll page exactly as long as `dibujar` needs (at least `minimo` mm): drawn once on a 2 m scratch page to
 * measure (it answers the y where it ended), then on the real page.
 */
export function rollo(dibujar: (doc: jsPDF) => number, minimo = 80): jsPDF {
  const alto = dibujar(new jsPDF({ unit: 'mm', format: [ANCHO_ROLLO, 2000] }));
  const doc = new jsPDF({ unit: 'mm', format: [ANCHO_ROLLO, Math.max(alto, minimo)] });
  dibujar(doc);
  return doc;
}
