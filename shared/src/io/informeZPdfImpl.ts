import { LEYENDA_DEMO } from '../domain/fiscal';
import { formatDateTime, formatMoney } from '../domain/format';
import type { jsPDF } from 'jspdf';
import type { InformeZ, InformeZPdfOptions } from './informeZPdf';
import { cabeceraRollo, MARGEN_ROLLO, rayaRollo, rollo } from './rolloPdf';

const signo = (cents: number) => (cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents));

/**
 * Builds the Z report (see informeZPdf.ts): company, «Informe Z», terminal and closing code, cashier, opening and
 * closing, tickets and returns, totals by payment method (expected, counted, difference), by IVA rate, the cash
 * drawer (float, expected, counted by denomination, difference) and the cash movements of the day.
 */
export async function buildInformeZPdf(z: InformeZ, opts: InformeZPdfOptions) {
  // A roll (80 mm wide, 72 printable) is as long as its content (rolloPdf measures it first); A4 pages otherwise.
  if (opts.papel === 'ticket') return rollo((doc) => dibujarInformeZ(doc, z, opts, true), 120);
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ unit: 'mm', format: 'a4' });
  dibujarInformeZ(doc, z, opts, false);
  return doc;
}

/** Draws the report; answers the y where it ended (the roll's length). */
function dibujarInformeZ(doc: jsPDF, z: InformeZ, opts: InformeZPdfOptions, ticket: boolean): number {
  const pageW = doc.internal.pageSize.getWidth();
  const pageH = doc.internal.pageSize.getHeight();
  const margin = ticket ? MARGEN_ROLLO : 15;
  const right = pageW - margin;
  const base = ticket ? 8 : 10;
  const paso = ticket ? 4 : 5.2;
  let y = margin + 2;

  const salto = (h = paso) => {
    if (!ticket && y + h > pageH - margin - 6) {
      doc.addPage();
      y = margin + 2;
    }
  };
  const texto = (t: string, opts2: { bold?: boolean; size?: number; center?: boolean } = {}) => {
    salto();
    doc.setFont('helvetica', opts2.bold ? 'bold' : 'normal');
    doc.setFontSize(opts2.size ?? base);
    const lines: string[] = doc.splitTextToSize(t, right - margin);
    for (const l of lines) {
      doc.text(l, opts2.center ? pageW / 2 : margin, y, opts2.center ? { align: 'center' } : undefined);
      y += paso;
    }
  };
  const raya = () => {
    salto(3);
    if (ticket) rayaRollo(doc, y - paso / 2 + 1);
    else {
      doc.setDrawColor(148, 163, 184);
      doc.line(margin, y - paso / 2 + 1, right, y - paso / 2 + 1);
    }
    y += 2;
  };
  /** A row of cells: the first at the left, the others right-aligned in equal columns up to the right margin. */
  const fila = (cells: string[], bold = false) => {
    salto();
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    doc.setFontSize(base);
    const n = cells.length - 1;
    const primera = ticket ? (n > 2 ? 20 : 34) : 70;
    const ancho = n ? (right - margin - primera) / n : 0;
    // The first cell wraps (a cash movement's reason on the 80 mm roll), never cut.
    const lineas = (doc.splitTextToSize(cells[0], primera - 1) as string[]).slice(0, 3);
    for (let i = 1; i < cells.length; i++) doc.text(cells[i], margin + primera + ancho * i, y, { align: 'right' });
    for (const [k, l] of lineas.entries()) {
      if (k > 0) {
        y += paso;
        salto();
      }
      doc.text(l, margin, y);
    }
    y += paso;
  };
  const titulo = (t: string) => {
    y += 1.5;
    texto(t, { bold: true, size: base + 1 });
    raya();
  };

  const e = opts.empresa;
  // On the roll, the shop's header of the ticket itself.
  if (ticket) y = cabeceraRollo(doc, e, y + 2) + 1.5;
  else if (e) {
    texto(e.nombre, { bold: true, size: base + 2 });
    if (e.nif) texto(`NIF ${e.nif}`);
    for (const l of e.lineas ?? []) texto(l);
    y += 2;
  }
  texto('Informe Z', { bold: true, size: ticket ? 13 : 18, center: ticket });
  // Issue 22: a closing of the demo company says it has no fiscal value, like its tickets.
  if (z.demo) {
    doc.setTextColor(185, 28, 28);
    texto(LEYENDA_DEMO, { bold: true, center: ticket });
    doc.setTextColor(0, 0, 0);
  }
  texto(`${z.terminal} · Cierre nº ${z.codigo}`, { bold: true, center: ticket });
  if (z.cajero) texto(`Cajero: ${z.cajero}`);
  texto(`Apertura: ${formatDateTime(z.apertura)}`);
  texto(`Cierre: ${formatDateTime(z.cierre)}`);
  texto(`Tickets: ${z.tickets} · Devoluciones: ${z.devoluciones}`);
  if (z.numeros) texto(`Del ${z.numeros.primero} al ${z.numeros.ultimo}`);
  texto(`Total vendido: ${formatMoney(z.total)}`, { bold: true });

  // Issue 23: every cashier who sold in the caja (a handover at the till keeps the caja open).
  if (z.cajeros?.length) {
    titulo('Por cajero');
    fila(['Cajero', 'Tickets', 'Total'], true);
    for (const c of z.cajeros) fila([c.nombre, c.devoluciones ? `${c.tickets} (+${c.devoluciones} dev.)` : String(c.tickets), formatMoney(c.total)]);
  }

  titulo('Por forma de pago');
  fila(['Forma', 'Esperado', 'Contado', 'Diferencia'], true);
  for (const f of z.formas) fila([f.label, formatMoney(f.esperado), formatMoney(f.contado), signo(f.diferencia)]);

  titulo('Por tipo de IVA');
  fila(['IVA', 'Base', 'Cuota', 'Total'], true);
  for (const i of z.ivas) fila([i.label, formatMoney(i.base), formatMoney(i.iva), formatMoney(i.total)]);
  const sum = (k: 'base' | 'iva' | 'total') => z.ivas.reduce((a, i) => a + i[k], 0);
  if (z.ivas.length > 1) fila(['Total', formatMoney(sum('base')), formatMoney(sum('iva')), formatMoney(sum('total'))], true);

  titulo('Efectivo');
  if (z.desgloseEfectivo?.length) for (const d of z.desgloseEfectivo) fila([d.label, signo(d.importe)]);
  else if (z.fondo !== null && z.fondo !== undefined) fila(['Fondo inicial', formatMoney(z.fondo)]);
  fila(['Esperado en caja', formatMoney(z.esperado)], true);
  fila(['Contado', formatMoney(z.contado)]);
  fila([z.diferencia === 0 ? 'Diferencia' : z.diferencia > 0 ? 'Diferencia (sobra)' : 'Diferencia (falta)', signo(z.diferencia)], true);
  if (z.billetes?.length) {
    y += 1.5;
    fila(['Recuento', 'Unidades', 'Importe'], true);
    for (const b of z.billetes) fila([formatMoney(b.valor), String(b.cantidad), formatMoney(b.valor * b.cantidad)]);
  }
  if (z.movimientos?.length) {
    titulo('Entradas y salidas de caja');
    for (const m of z.movimientos) fila([`${formatDateTime(m.fecha_hora).split(' ').pop()} ${m.label}${m.concepto ? ` · ${m.concepto}` : ''}`, signo(m.importe)]);
  }
  y += 4;
  texto(`Impreso el ${new Date().toLocaleString('es-ES')}`, { size: base - 1, center: ticket });
  return y + 6;
}
