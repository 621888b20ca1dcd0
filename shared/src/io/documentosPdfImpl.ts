import { divRound } from '../domain/decimal';
import { DOCUMENTO_TIPOS, MOTIVO_PERDIDA_LABEL, estadoLabel, type Documento, type DocumentoLinea, type DocumentoTipoDef } from '../domain/documentos';
import { TIPO_IVA_LABEL } from '../domain/catalogo';
import { formatDate, formatDecimal, formatMoney } from '../domain/format';
import { formaPagoLabel, vencimientos } from '../domain/terceros';
import { openTablePdf, } from './pdf';

/** The company block at the top of each document. */
import { terceroPdf, type DocumentosPdfOptions, type VariantePdf } from './documentosPdf';

type Col = { header: string; width: number; right?: boolean; value: (l: DocumentoLinea) => string; blank?: boolean };

const qty = (v: number | null | undefined) => (v === null || v === undefined ? '' : formatDecimal(v, 3, 0));
const coste = (v: number) => formatDecimal(v, 4, 2);
const importe = (l: DocumentoLinea) => divRound(BigInt(l.cantidad) * BigInt(l.precio) * (10000n - BigInt(l.descuento ?? 0)), 10n ** 9n);
const diferencia = (l: DocumentoLinea) => (l.teorico === null ? null : l.cantidad - l.teorico);
/** Difference × average cost, cents. */
const valorDiferencia = (l: DocumentoLinea) => {
  const d = diferencia(l);
  return d === null ? 0n : divRound(BigInt(d) * BigInt(l.precio), 100000n);
};

function columnas(def: DocumentoTipoDef, d: Documento, variante: VariantePdf): Col[] {
  const lineas = d.lineas ?? [];
  const cols: Col[] = [
    { header: 'Código', width: 2.2, value: (l) => l.codigo },
    { header: 'Descripción', width: 5.5, value: (l) => l.descripcion },
  ];
  if (lineas.some((l) => l.ubicacion_codigo)) cols.push({ header: 'Ubicación', width: 1.6, value: (l) => l.ubicacion_codigo ?? '' });
  if (variante === 'recuento') {
    cols.push({ header: 'Contado', width: 2, right: true, value: () => '', blank: true });
    return cols;
  }
  if (variante === 'diferencias') {
    cols.push(
      { header: 'Teórico', width: 1.4, right: true, value: (l) => qty(l.teorico) },
      { header: 'Contado', width: 1.4, right: true, value: (l) => qty(l.cantidad) },
      { header: 'Diferencia', width: 1.5, right: true, value: (l) => qty(diferencia(l)) },
      { header: 'Coste medio', width: 1.6, right: true, value: (l) => coste(l.precio) },
      { header: 'Valor dif.', width: 1.8, right: true, value: (l) => formatMoney(valorDiferencia(l)) },
    );
    return cols;
  }
  switch (def.lineas) {
    case 'recuento':
      if (lineas.some((l) => l.teorico !== null)) cols.push({ header: 'Teórico', width: 1.4, right: true, value: (l) => qty(l.teorico) });
      cols.push({ header: 'Contado', width: 1.4, right: true, value: (l) => qty(l.cantidad) });
      if (lineas.some((l) => l.teorico !== null)) cols.push({ header: 'Diferencia', width: 1.5, right: true, value: (l) => qty(diferencia(l)) });
      return cols;
    case 'venta':
    case 'compra':
      cols.push(
        { header: 'Cantidad', width: 1.4, right: true, value: (l) => qty(l.cantidad) },
        { header: 'Precio', width: 1.6, right: true, value: (l) => coste(l.precio) },
        { header: 'Dto. %', width: 1, right: true, value: (l) => (l.descuento ? formatDecimal(l.descuento, 2, 0) : '') },
        { header: 'IVA', width: 1, value: (l) => TIPO_IVA_LABEL[l.tipo_iva]?.replace(/^.* (\d+ %)$/, '$1') ?? l.tipo_iva },
        { header: 'Importe', width: 1.8, right: true, value: (l) => formatMoney(importe(l)) },
      );
      return cols;
    default: {
      if (def.lineas === 'perdida') cols.push({ header: 'Motivo', width: 1.5, value: (l) => (l.motivo ? MOTIVO_PERDIDA_LABEL[l.motivo] : '') });
      cols.push({ header: 'Cantidad', width: 1.4, right: true, value: (l) => qty(l.cantidad) });
      // A transfer sent and not wholly received: what is still on its way.
      if (def.acciones.some((a) => a.porLineas) && d.estado !== def.inicial) cols.push({ header: 'Pendiente', width: 1.4, right: true, value: (l) => qty(l.pendiente) });
      cols.push(
        { header: 'Coste', width: 1.6, right: true, value: (l) => coste(l.precio) },
        { header: 'Importe', width: 1.8, right: true, value: (l) => formatMoney(importe(l)) },
      );
      return cols;
    }
  }
}

function datosCabecera(d: Documento): string[] {
  const out: string[] = [];
  if (d.fecha_entrega) out.push(`Entrega: ${formatDate(d.fecha_entrega)}`);
  if (d.forma_pago) {
    const due = vencimientos(d.fecha, d.forma_pago);
    out.push(`Forma de pago: ${formaPagoLabel(d.forma_pago) || d.forma_pago}`);
    if (due.length) out.push(`Vencimiento${due.length > 1 ? 's' : ''}: ${due.map(formatDate).join(', ')}`);
  }
  if (d.almacen_destino_id !== null || d.almacen_destino_nombre) {
    out.push(`Origen: ${d.almacen_nombre ?? ''}`, `Destino: ${d.almacen_destino_nombre ?? ''}`);
  } else if (d.almacen_nombre) out.push(`Almacén: ${d.almacen_nombre}`);
  if (d.familia_nombre) out.push(`Familia: ${d.familia_nombre}`);
  if (d.ubicacion_codigo) out.push(`Ubicación: ${d.ubicacion_codigo}`);
  return out;
}

const TITULO: Record<VariantePdf, (def: DocumentoTipoDef) => string> = {
  documento: (def) => def.singular,
  recuento: () => 'Hoja de recuento',
  diferencias: () => 'Diferencias de inventario',
};

/** Builds the documents' PDF (see documentosPdf.ts); loaded when a document is first printed. */
export async function buildDocumentosPdf(documentos: Documento[], opts: DocumentosPdfOptions) {
  const variante = opts.variante ?? 'documento';
  const { doc, pageW, pageH, margin } = await openTablePdf('portrait', ['']);
  const usable = pageW - margin * 2;
  const bottom = pageH - margin - 6;
  const starts: number[] = [];
  const rowH = variante === 'recuento' ? 7 : 5;

  documentos.forEach((d, index) => {
    const def = opts.def ?? DOCUMENTO_TIPOS[d.tipo];
    if (index > 0) doc.addPage();
    starts.push(doc.getNumberOfPages());
    const cols = columnas(def, d, variante);
    const sum = cols.reduce((s, c) => s + c.width, 0);
    const widths = cols.map((c) => (usable * c.width) / sum);
    const cell = (v: string, w: number) => doc.splitTextToSize(v, w - 2)[0] ?? '';
    let y = margin;

    const drawRow = (values: string[], bold = false) => {
      doc.setFont('helvetica', bold ? 'bold' : 'normal');
      let x = margin;
      values.forEach((v, i) => {
        const c = cols[i];
        if (c.blank && !bold) {
          doc.setDrawColor(148, 163, 184);
          doc.line(x + 3, y + 1, x + widths[i] - 1, y + 1);
        } else doc.text(cell(v, widths[i]), c.right ? x + widths[i] - 1 : x + 1, y, c.right ? { align: 'right' } : undefined);
        x += widths[i];
      });
      doc.setFont('helvetica', 'normal');
    };
    const drawTableHeader = () => {
      doc.setFontSize(8);
      doc.setFillColor(226, 232, 240);
      doc.rect(margin, y, usable, 6, 'F');
      y += 4;
      drawRow(
        cols.map((c) => c.header),
        true,
      );
      y += 6;
    };
    const continuation = () => {
      doc.addPage();
      y = margin;
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(10);
      doc.text(`${TITULO[variante](def)} ${d.numero} (continuación)`, margin, y + 4);
      doc.setFont('helvetica', 'normal');
      y += 9;
      drawTableHeader();
    };

    // Company on the left, the document's identity on the right.
    if (opts.empresa) {
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(12);
      doc.text(opts.empresa.nombre, margin, y + 5);
      doc.setFont('helvetica', 'normal');
      doc.setFontSize(8);
      const lines = [opts.empresa.nif ? `NIF ${opts.empresa.nif}` : null, ...(opts.empresa.lineas ?? [])].filter((x): x is string => !!x);
      lines.forEach((l, i) => {
        doc.text(l, margin, y + 10 + i * 3.6, { maxWidth: usable / 2 });
      });
    }
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(15);
    doc.text(TITULO[variante](def), pageW - margin, y + 5, { align: 'right' });
    doc.setFontSize(11);
    doc.text(d.numero, pageW - margin, y + 11, { align: 'right' });
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(9);
    doc.text(`Fecha: ${formatDate(d.fecha)}`, pageW - margin, y + 16, { align: 'right' });
    doc.text(`Estado: ${estadoLabel(def, d.estado)}`, pageW - margin, y + 20.5, { align: 'right' });
    const empresaAlto = opts.empresa ? 10 + ((opts.empresa.lineas?.length ?? 0) + 1) * 3.6 : 0;
    y += Math.max(25, empresaAlto + 2);
    // The other party (supplier, customer) in a framed block under the document's identity.
    const tercero = variante === 'documento' ? (opts.tercero ?? terceroPdf)(d) : null;
    if (tercero) {
      const lines = [tercero.nif ? `NIF ${tercero.nif}` : null, ...(tercero.lineas ?? [])].filter((x): x is string => !!x);
      const x = pageW / 2;
      const alto = 9 + lines.length * 3.6;
      doc.setDrawColor(203, 213, 225);
      doc.rect(x, y - 3, pageW - margin - x, alto);
      doc.setFontSize(7);
      doc.text(def.tercero === 'cliente' ? 'CLIENTE' : def.tercero === 'proveedor' ? 'PROVEEDOR' : '', x + 2, y);
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(10);
      doc.text(cellText(doc, tercero.nombre, pageW - margin - x - 4), x + 2, y + 4.5);
      doc.setFont('helvetica', 'normal');
      doc.setFontSize(8);
      lines.forEach((l, i) => {
        doc.text(cellText(doc, l, pageW - margin - x - 4), x + 2, y + 8.5 + i * 3.6);
      });
      y += alto + 2;
    }
    const datos = datosCabecera(d);
    if (datos.length) {
      doc.setFontSize(9);
      const filas: string[] = doc.splitTextToSize(datos.join('    '), usable);
      filas.forEach((f, i) => {
        doc.text(f, margin, y + i * 4);
      });
      y += 2 + filas.length * 4;
    }
    drawTableHeader();
    doc.setFontSize(8);
    for (const l of d.lineas ?? []) {
      if (y > bottom) continuation();
      drawRow(cols.map((c) => c.value(l)));
      y += rowH;
    }
    if ((d.lineas ?? []).length === 0) {
      doc.text('Sin líneas', margin + 1, y);
      y += rowH;
    }

    // Totals as the server stored them (documents.md: the PDF prints what the server stored).
    const totales: [string, string][] = [];
    const lineas = d.lineas ?? [];
    if (variante === 'diferencias') {
      const valores = lineas.map(valorDiferencia);
      const pos = valores.filter((v) => v > 0n).reduce((a, b) => a + b, 0n);
      const neg = valores.filter((v) => v < 0n).reduce((a, b) => a + b, 0n);
      totales.push(['Sobrantes', formatMoney(pos)], ['Faltantes', formatMoney(neg)], ['Diferencia neta', formatMoney(pos + neg)]);
    } else if (variante === 'documento') {
      if (def.lineas === 'venta' || def.lineas === 'compra') {
        for (const g of d.desglose ?? []) totales.push([`Base ${TIPO_IVA_LABEL[g.tipo_iva]}`, `${formatMoney(g.base)}  IVA ${formatMoney(g.iva)}`]);
        totales.push(['Base imponible', formatMoney(d.base)], ['IVA', formatMoney(d.iva)]);
        if (d.recargo) totales.push(['Recargo de equivalencia', formatMoney(d.recargo)]);
        if (d.retencion_importe)
          totales.push([d.retencion ? `Retención ${formatDecimal(d.retencion, 2, 0)} %` : 'Retención', `-${formatMoney(d.retencion_importe)}`]);
        totales.push(['Total', formatMoney(d.total)]);
      } else if (def.lineas !== 'recuento') totales.push(['Valor al coste', formatMoney(d.total)]);
    }
    totales.unshift(['Líneas', lineas.length.toLocaleString('es-ES')]);
    if (y + totales.length * 5 + 4 > bottom) continuation();
    y += 3;
    doc.setDrawColor(148, 163, 184);
    doc.line(pageW - margin - 80, y - 2, pageW - margin, y - 2);
    doc.setFontSize(9);
    totales.forEach(([k, v], i) => {
      const last = i === totales.length - 1 && totales.length > 1;
      doc.setFont('helvetica', last ? 'bold' : 'normal');
      doc.text(k, pageW - margin - 80, y + 2);
      doc.text(v, pageW - margin, y + 2, { align: 'right' });
      y += 5;
    });
    doc.setFont('helvetica', 'normal');

    if (d.observaciones && variante !== 'recuento') {
      y += 4;
      const text: string[] = doc.splitTextToSize(d.observaciones, usable);
      if (y + 10 > bottom) continuation();
      doc.setFont('helvetica', 'bold');
      doc.text('Observaciones', margin, y);
      doc.setFont('helvetica', 'normal');
      y += 5;
      for (const t of text) {
        if (y > bottom) {
          doc.addPage();
          y = margin + 4;
        }
        doc.text(t, margin, y);
        y += 4.2;
      }
    }
    if (variante === 'recuento') {
      y += 10;
      if (y + 10 > bottom) {
        doc.addPage();
        y = margin + 10;
      }
      doc.setFontSize(9);
      doc.text('Contado por: ______________________________      Fecha y firma: ______________________', margin, y);
    }
  });
  return { doc, starts };
}

/** One line of text cut to a width (mm). */
function cellText(doc: { splitTextToSize: (t: string, w: number) => string[] }, text: string, width: number): string {
  return doc.splitTextToSize(text, width)[0] ?? '';
}

