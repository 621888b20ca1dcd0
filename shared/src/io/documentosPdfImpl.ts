import type { jsPDF } from 'jspdf';
import { divRound } from '../domain/decimal';
import {
  DOCUMENTO_TIPOS,
  MODO_RECTIFICACION_LABEL,
  MOTIVO_PERDIDA_LABEL,
  RECARGO_RATE,
  TIPO_FACTURA_LABEL,
  estadoLabel,
  type Documento,
  type DocumentoLinea,
  type DocumentoTipoDef,
} from '../domain/documentos';
import { IMPUESTO_NOMBRE, IVA_RATE, TIPO_IVA_LABEL, impuestoDe, type TipoIva } from '../domain/catalogo';
import { esOperacion, leyendasOperaciones, nombreGrupo } from '../domain/operaciones';
import { TITULO_QR, presentacionQr, urlQr } from '../domain/fiscal';
import { formatDate, formatDecimal, formatMoney, formatPrecio } from '../domain/format';
import { esTransferencia, formaPagoLabel, formatIban, vencimientos } from '../domain/terceros';
import { openTablePdf } from './pdf';
import { terceroPdf, type DocumentosPdfOptions, type EmpresaPdf, type VariantePdf } from './documentosPdf';
import { dibujarCode128 } from './barrasPdf';
import { dibujarQr } from './qrPdf';

type Col = { header: string; width: number; right?: boolean; value: (l: DocumentoLinea) => string; blank?: boolean };

const qty = (v: number | null | undefined) => (v === null || v === undefined ? '' : formatDecimal(v, 3, 0));
const coste = (v: number) => formatPrecio(v);
const importe = (l: DocumentoLinea) => divRound(BigInt(l.cantidad) * BigInt(l.precio) * (10000n - BigInt(l.descuento ?? 0)), 10n ** 9n);
const diferencia = (l: DocumentoLinea) => (l.teorico === null ? null : l.cantidad - l.teorico);
/** Difference × average cost, cents. */
const valorDiferencia = (l: DocumentoLinea) => {
  const d = diferencia(l);
  return d === null ? 0n : divRound(BigInt(d) * BigInt(l.precio), 100000n);
};

/**
 * A paper for the customer or the supplier (pedido, albarán, devolución, factura, rectificativa): it carries
 * nothing internal — no state, no warehouse or location, no internal observaciones (its «Observaciones para el
 * cliente» print instead).
 */
export function esParaTercero(def: DocumentoTipoDef, variante: VariantePdf = 'documento'): boolean {
  return variante === 'documento' && (def.tercero === 'cliente' || def.tercero === 'proveedor');
}

/**
 * Issue 24: a document at cost as a role without «ver precios de compra, costes y márgenes» reads it — the server
 * answered no amounts (docs/derechos.md, «Costes») — prints without them: quantities, no prices nor totals.
 */
const sinImportes = (d: Documento) => (d as { total?: unknown }).total === undefined;

/** A rectificativa that gives money back (its total below zero) has nothing falling due. */
const esAbono = (d: Documento) => d.tipo === 'rectificativa' && d.total < 0;
/** The documents that fall due (their vencimientos print): invoices, not pedidos, albaranes or partes. */
const CON_VENCIMIENTO: readonly string[] = ['factura', 'rectificativa'];
/**
 * An emitted rectificativa settled through its invoice's account, with no refund of its own (nothing left to pay, no
 * cobro of its own): its amount was taken off what the customer owes.
 */
const descontada = (d: Documento) =>
  d.tipo === 'rectificativa' &&
  d.estado === 'emitida' &&
  (d.por_cobrar ?? (d.cobro_fecha ? 0 : d.total)) === 0 &&
  !(d.cuenta?.cobros ?? []).some((c) => c.documento_id === d.id);

function columnas(def: DocumentoTipoDef, d: Documento, variante: VariantePdf): Col[] {
  const lineas = d.lineas ?? [];
  const cols: Col[] = [
    { header: 'Código', width: 2.2, value: (l) => l.codigo },
    { header: 'Descripción', width: 5.5, value: (l) => l.descripcion },
  ];
  if (!esParaTercero(def, variante) && lineas.some((l) => l.ubicacion_codigo)) cols.push({ header: 'Ubicación', width: 1.6, value: (l) => l.ubicacion_codigo ?? '' });
  if (variante === 'recuento') {
    cols.push({ header: 'Contado', width: 2, right: true, value: () => '', blank: true });
    return cols;
  }
  if (variante === 'diferencias') {
    cols.push(
      { header: 'Teórico', width: 1.4, right: true, value: (l) => qty(l.teorico) },
      { header: 'Contado', width: 1.4, right: true, value: (l) => qty(l.cantidad) },
      { header: 'Diferencia', width: 1.5, right: true, value: (l) => qty(diferencia(l)) },
    );
    if (!sinImportes(d))
      cols.push(
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
      if (sinImportes(d)) {
        cols.push({ header: 'Cantidad', width: 1.4, right: true, value: (l) => qty(l.cantidad) });
        return cols;
      }
      cols.push(
        { header: 'Cantidad', width: 1.4, right: true, value: (l) => qty(l.cantidad) },
        { header: 'Precio', width: 1.6, right: true, value: (l) => coste(l.precio) },
        { header: 'Dto. %', width: 1, right: true, value: (l) => (l.descuento ? formatDecimal(l.descuento, 2, 0) : '') },
        { header: nombreImpuesto(d), width: 1, value: (l) => (l.tipo_iva === 'exento' ? 'Exento' : l.tipo_iva in IVA_RATE ? pct(IVA_RATE[l.tipo_iva]) : l.tipo_iva) },
        { header: 'Importe', width: 1.8, right: true, value: (l) => formatMoney(importe(l)) },
      );
      return cols;
    default: {
      if (def.lineas === 'perdida') cols.push({ header: 'Motivo', width: 1.5, value: (l) => (l.motivo ? MOTIVO_PERDIDA_LABEL[l.motivo] : '') });
      cols.push({ header: 'Cantidad', width: 1.4, right: true, value: (l) => qty(l.cantidad) });
      // A transfer sent and not wholly received: what is still on its way.
      if (def.acciones.some((a) => a.porLineas) && d.estado !== def.inicial) cols.push({ header: 'Pendiente', width: 1.4, right: true, value: (l) => qty(l.pendiente) });
      if (!sinImportes(d))
        cols.push(
          { header: 'Coste', width: 1.6, right: true, value: (l) => coste(l.precio) },
          { header: 'Importe', width: 1.8, right: true, value: (l) => formatMoney(importe(l)) },
        );
      return cols;
    }
  }
}

function datosCabecera(d: Documento, def: DocumentoTipoDef, paraTercero: boolean, empresa: EmpresaPdf | null | undefined): string[] {
  const out: string[] = [];
  // A rectificativa names the invoice it corrects, its kind and how (docs/fiscal.md).
  // A full invoice replacing a ticket (F3, issue 23) names the simplified invoice it replaces: it corrects nothing.
  if (d.factura_numero && d.tipo === 'factura' && d.tipo_factura === 'F3') {
    // The ticket's day: the operation's when earlier than the invoice's, else the invoice's own.
    out.push(`Sustituye a la factura simplificada ${d.factura_numero} de ${formatDate(d.fecha_operacion ?? d.fecha)}`);
  } else if (d.factura_numero) {
    const fecha = d.padres?.find((p) => p.id === d.factura_id && p.fecha)?.fecha;
    out.push(`Rectifica la factura ${d.factura_numero}${fecha ? ` de ${formatDate(fecha)}` : ''}`);
  } else if (d.tipo === 'rectificativa' && d.tipo_factura === 'R5' && d.factura_id == null && d.estado !== 'borrador') {
    // Issue 23: a return made at the till without its ticket corrects no invoice it can name.
    out.push('Devolución sin ticket (no rectifica una factura concreta)');
  }
  if (d.tipo === 'rectificativa' && d.tipo_factura) out.push(`Tipo: ${TIPO_FACTURA_LABEL[d.tipo_factura]}`);
  if (d.modo_rectificacion) out.push(`Rectificación ${MODO_RECTIFICACION_LABEL[d.modo_rectificacion].toLowerCase()}`);
  if (d.fecha_entrega) out.push(`Entrega: ${formatDate(d.fecha_entrega)}`);
  // An invoice of earlier deliveries: the operation's date and the albaranes it invoices (RD 1619/2012 art. 6.1.i).
  if (d.fecha_operacion) out.push(`Fecha de operación: ${formatDate(d.fecha_operacion)}`);
  const albaranes = d.tipo === 'factura' ? (d.padres ?? []).filter((p) => p.tipo === 'albaranventa' || p.tipo === 'parte') : [];
  if (albaranes.length) {
    const nombre = albaranes.every((p) => p.tipo === 'parte') ? 'Partes' : 'Albaranes';
    out.push(`${nombre}: ${albaranes.map((p) => `${p.numero}${p.fecha ? ` (${formatDate(p.fecha)})` : ''}`).join(', ')}`);
  }
  // A rectificativa netted against its invoice («descontada de la factura»): nothing is paid by any forma de pago.
  if (descontada(d)) out.push(`Importe descontado de la factura ${d.factura_numero ?? ''}`.trim());
  else if (d.forma_pago) {
    const due = vencimientos(d.fecha, d.forma_pago);
    out.push(`Forma de pago: ${formaPagoLabel(d.forma_pago) || d.forma_pago}`);
    // Only an invoice falls due: a pedido or an albarán is not asked for payment (issue 26).
    if (due.length && !esAbono(d) && CON_VENCIMIENTO.includes(d.tipo)) out.push(`Vencimiento${due.length > 1 ? 's' : ''}: ${due.map(formatDate).join(', ')}`);
    // A customer paying by transfer needs the account: the company's (a supplier's document is paid to the supplier's).
    if (def.tercero === 'cliente' && esTransferencia(d.forma_pago) && empresa?.iban && !esAbono(d)) out.push(`IBAN: ${formatIban(empresa.iban)}`);
  }
  if (d.cobro_fecha) out.push(`Cobrada el ${formatDate(d.cobro_fecha)}${d.cobro_forma ? ` (${formaPagoLabel(d.cobro_forma) || d.cobro_forma})` : ''}`);
  // The warehouses are the shop's business, not the customer's.
  if (paraTercero) return out;
  if (d.almacen_destino_id !== null || d.almacen_destino_nombre) {
    out.push(`Origen: ${d.almacen_nombre ?? ''}`, `Destino: ${d.almacen_destino_nombre ?? ''}`);
  } else if (d.almacen_nombre) out.push(`Almacén: ${d.almacen_nombre}`);
  if (d.familia_nombre) out.push(`Familia: ${d.familia_nombre}`);
  if (d.ubicacion_codigo) out.push(`Ubicación: ${d.ubicacion_codigo}`);
  return out;
}

const TITULO: Record<VariantePdf, (def: DocumentoTipoDef, d: Documento) => string> = {
  documento: (def, d) => (d.tipo_factura === 'F2' ? 'Factura simplificada' : def.singular),
  recuento: () => 'Hoja de recuento',
  diferencias: () => 'Diferencias de inventario',
};

/** What an invoice prints where the fiscal QR goes while it is a draft (no number, no record). */
export const BORRADOR_SIN_VALIDEZ = 'BORRADOR — sin validez fiscal';
/** What an annulled invoice prints instead of the «verificable» legend. */
export const FACTURA_ANULADA = 'FACTURA ANULADA';

/**
 * The QR's content: from the invoice's registro de alta as stored (IDEmisorFactura, NumSerieFactura, its date and
 * ImporteTotal), what the AEAT holds; only a document read without its record falls back to the page's figures.
 */
export function contenidoQr(d: Documento, nif: string, entorno: 'produccion' | 'pruebas' = 'produccion'): string {
  const r = d.registro;
  if (r?.id_emisor && r.num_serie && r.fecha_expedicion && r.importe_total) {
    const negativo = r.importe_total.startsWith('-');
    const [entero, dec = '0'] = r.importe_total.replace('-', '').split('.');
    const cents = BigInt(entero) * 100n + BigInt(dec.padEnd(2, '0').slice(0, 2));
    return urlQr({ nif: r.id_emisor, numserie: r.num_serie, fecha: r.fecha_expedicion, importe: negativo ? -cents : cents }, entorno);
  }
  return urlQr({ nif, numserie: d.numero, fecha: d.fecha, importe: BigInt(d.base) + BigInt(d.iva) + BigInt(d.recargo) }, entorno);
}

/** Side of the fiscal QR, mm (the order asks for 30 to 40). */
export const LADO_QR = 34;

/**
 * The top of an invoice's first page (DetalleEspecificacTecnCodigoQRfactura §3): centred, «QR
 * tributario:», the QR of `urlQr` (issuer's NIF, displayed number, date, base + IVA + recargo) and the
 * VERI*FACTU legend, with blank space around; a draft prints that it has no fiscal value instead.
 * Answers the height used.
 */
function bloqueFiscal(doc: jsPDF, def: DocumentoTipoDef, d: Documento, empresa: EmpresaPdf | null | undefined, y: number, pageW: number): number {
  const cx = pageW / 2;
  if (d.estado === def.inicial) {
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(12);
    doc.setTextColor(185, 28, 28);
    doc.text(BORRADOR_SIN_VALIDEZ, cx, y + 5, { align: 'center' });
    doc.setTextColor(0, 0, 0);
    doc.setFont('helvetica', 'normal');
    return 10;
  }
  const nif = empresa?.nif?.trim();
  doc.setFontSize(10);
  if (!nif) {
    // Emission needs the company's NIF: a PDF made without it says why it has no QR.
    doc.text('Sin NIF de la empresa: no se puede generar el QR tributario', cx, y + 5, { align: 'center' });
    return 10;
  }
  doc.setFont('helvetica', 'normal');
  doc.text(TITULO_QR, cx, y + 4, { align: 'center' });
  // Issue 22: the QR's host and the legend from what its record was made for (stored on it), never the setting of the
  // day: demo, «Pruebas», «Producción» verifiable or not yet sending (docs/fiscal-impresion.md).
  const p = presentacionQr(d.registro);
  const contenido = contenidoQr(d, nif, p.entorno);
  dibujarQr(doc, contenido, cx - LADO_QR / 2, y + 7, LADO_QR);
  // An annulled invoice is no longer verifiable: it says «Anulada» where the legend goes.
  const anulada = d.estado === 'anulada';
  const texto = anulada ? FACTURA_ANULADA : p.leyenda;
  if (!texto) return 7 + LADO_QR + 4;
  // What is not a verifiable invoice of production (annulled, demo, a test) says so in red.
  if (anulada || p.entorno !== 'produccion') {
    doc.setFont('helvetica', 'bold');
    doc.setTextColor(185, 28, 28);
  }
  const leyenda: string[] = doc.splitTextToSize(texto, 90);
  leyenda.forEach((l, i) => {
    doc.text(l, cx, y + 7 + LADO_QR + 5 + i * 4.2, { align: 'center' });
  });
  doc.setTextColor(0, 0, 0);
  doc.setFont('helvetica', 'normal');
  return 7 + LADO_QR + 5 + leyenda.length * 4.2 + 3;
}

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
    const paraTercero = esParaTercero(def, variante);
    const sum = cols.reduce((s, c) => s + c.width, 0);
    const widths = cols.map((c) => (usable * c.width) / sum);
    let y = margin;

    /** One row; a text longer than its column wraps onto more lines (never cut). Answers the extra height used. */
    const drawRow = (values: string[], bold = false): number => {
      doc.setFont('helvetica', bold ? 'bold' : 'normal');
      let x = margin;
      let lineas = 1;
      values.forEach((v, i) => {
        const c = cols[i];
        if (c.blank && !bold) {
          doc.setDrawColor(148, 163, 184);
          doc.line(x + 3, y + 1, x + widths[i] - 1, y + 1);
        } else {
          const partes: string[] = doc.splitTextToSize(v, widths[i] - 2);
          lineas = Math.max(lineas, partes.length);
          partes.forEach((t, k) => {
            doc.text(t, c.right ? x + widths[i] - 1 : x + 1, y + k * ALTO_LINEA, c.right ? { align: 'right' } : undefined);
          });
        }
        x += widths[i];
      });
      doc.setFont('helvetica', 'normal');
      return (lineas - 1) * ALTO_LINEA;
    };
    const drawTableHeader = () => {
      doc.setFontSize(8);
      doc.setFillColor(226, 232, 240);
      doc.rect(margin, y, usable, 6, 'F');
      y += 4;
      y += drawRow(
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
      doc.text(`${TITULO[variante](def, d)} ${d.numero} (continuación)`, margin, y + 4);
      doc.setFont('helvetica', 'normal');
      y += 9;
      drawTableHeader();
    };

    // Invoices: the fiscal QR first, before anything else of the invoice.
    const factura = variante === 'documento' && !!def.series;
    // An issued invoice prints its parties as they were at emission (issue 16), never today's records.
    const empresa = d.emision?.emisor ?? opts.empresa;
    if (factura) y += bloqueFiscal(doc, def, d, empresa, y, pageW);
    // Company on the left, the document's identity on the right; long names and lines wrap.
    let empresaAlto = 0;
    if (empresa) {
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(12);
      const nombre: string[] = doc.splitTextToSize(empresa.nombre, usable / 2);
      nombre.forEach((t, i) => {
        doc.text(t, margin, y + 5 + i * 5);
      });
      doc.setFont('helvetica', 'normal');
      doc.setFontSize(8);
      const lines = [empresa.nif ? `NIF ${empresa.nif}` : null, ...(empresa.lineas ?? [])]
        .filter((x): x is string => !!x)
        .flatMap((l) => doc.splitTextToSize(l, usable / 2) as string[]);
      const y0 = y + 10 + (nombre.length - 1) * 5;
      lines.forEach((l, i) => {
        doc.text(l, margin, y0 + i * 3.6);
      });
      empresaAlto = 10 + (nombre.length - 1) * 5 + lines.length * 3.6;
    }
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(15);
    doc.text(TITULO[variante](def, d), pageW - margin, y + 5, { align: 'right' });
    doc.setFontSize(11);
    doc.text(d.numero, pageW - margin, y + 11, { align: 'right' });
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(9);
    doc.text(`Fecha: ${formatDate(d.fecha)}`, pageW - margin, y + 16, { align: 'right' });
    if (!paraTercero) doc.text(`Estado: ${estadoLabel(def, d.estado)}`, pageW - margin, y + 20.5, { align: 'right' });
    y += Math.max(25, empresaAlto + 2);
    // The other party (supplier, customer) in a framed block under the document's identity.
    const tercero = variante === 'documento' ? (d.emision?.destinatario ?? (opts.tercero ?? terceroPdf)(d)) : null;
    if (tercero) {
      const x = pageW / 2;
      const ancho = pageW - margin - x - 4;
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(10);
      const nombre: string[] = doc.splitTextToSize(tercero.nombre, ancho);
      doc.setFont('helvetica', 'normal');
      doc.setFontSize(8);
      // A simplified invoice (F2, R5, a ticket) records no recipient: it prints no customer's NIF (issue 22).
      const simplificada = d.tipo_factura === 'F2' || d.tipo_factura === 'R5' || d.tipo === 'ticket';
      const lines = [tercero.nif && !simplificada ? `NIF ${tercero.nif}` : null, ...(tercero.lineas ?? [])]
        .filter((x): x is string => !!x)
        .flatMap((l) => doc.splitTextToSize(l, ancho) as string[]);
      const alto = 9 + (nombre.length - 1) * 4.2 + lines.length * 3.6;
      doc.setDrawColor(203, 213, 225);
      doc.rect(x, y - 3, pageW - margin - x, alto);
      doc.setFontSize(7);
      doc.text(def.tercero === 'cliente' ? 'CLIENTE' : def.tercero === 'proveedor' ? 'PROVEEDOR' : '', x + 2, y);
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(10);
      nombre.forEach((t, i) => {
        doc.text(t, x + 2, y + 4.5 + i * 4.2);
      });
      doc.setFont('helvetica', 'normal');
      doc.setFontSize(8);
      const y0 = y + 8.5 + (nombre.length - 1) * 4.2;
      lines.forEach((l, i) => {
        doc.text(l, x + 2, y0 + i * 3.6);
      });
      y += alto + 2;
    }
    const datos = datosCabecera(d, def, paraTercero, opts.empresa);
    if (datos.length) {
      doc.setFontSize(9);
      // Items side by side while they fit; an item is never cut between lines unless it alone is too long.
      const filas: string[] = [];
      for (const item of datos) {
        const junto = filas.length ? `${filas[filas.length - 1]}    ${item}` : item;
        if (filas.length && doc.getTextWidth(junto) <= usable) filas[filas.length - 1] = junto;
        else filas.push(...(doc.splitTextToSize(item, usable) as string[]));
      }
      filas.forEach((f, i) => {
        doc.text(f, margin, y + i * 4);
      });
      y += 2 + filas.length * 4;
    }
    drawTableHeader();
    doc.setFontSize(8);
    for (const l of d.lineas ?? []) {
      if (y > bottom) continuation();
      y += drawRow(cols.map((c) => c.value(l)));
      y += rowH;
    }
    if ((d.lineas ?? []).length === 0) {
      doc.text('Sin líneas', margin + 1, y);
      y += rowH;
    }

    // Totals as the server stored them (docs/documentos.md: the PDF prints what the server stored).
    const totales: [string, string][] = [];
    const lineas = d.lineas ?? [];
    if (sinImportes(d)) {
      // Nothing to add up but the lines (below).
    } else if (variante === 'diferencias') {
      const valores = lineas.map(valorDiferencia);
      const pos = valores.filter((v) => v > 0n).reduce((a, b) => a + b, 0n);
      const neg = valores.filter((v) => v < 0n).reduce((a, b) => a + b, 0n);
      totales.push(['Sobrantes', formatMoney(pos)], ['Faltantes', formatMoney(neg)], ['Diferencia neta', formatMoney(pos + neg)]);
    } else if (variante === 'documento') {
      if (def.lineas === 'venta' || def.lineas === 'compra') {
        // An invoice has its breakdown per rate as a table of its own (below); other documents one line per rate.
        if (!factura)
          for (const g of d.desglose ?? [])
            totales.push([`Base ${nombreGrupo(g, (t) => TIPO_IVA_LABEL[t as TipoIva])}`, `${formatMoney(g.base)}  ${nombreImpuesto(d)} ${formatMoney(g.iva)}${g.recargo ? `  R.E. ${formatMoney(g.recargo)}` : ''}`]);
        totales.push(['Base imponible', formatMoney(d.base)], [nombreImpuesto(d), formatMoney(d.iva)]);
        if (d.recargo) totales.push(['Recargo de equivalencia', formatMoney(d.recargo)]);
        if (d.retencion_importe)
          totales.push([d.retencion ? `Retención ${formatDecimal(d.retencion, 2, 0)} %` : 'Retención', formatMoney(-d.retencion_importe)]);
        totales.push(['Total', formatMoney(d.total)]);
      } else if (def.lineas !== 'recuento') totales.push(['Valor al coste', formatMoney(d.total)]);
    }
    totales.unshift(['Líneas', lineas.length.toLocaleString('es-ES')]);
    if (factura) {
      const filas = desgloseFactura(d);
      if (y + (filas.length + 2) * 5 + 4 > bottom) continuation();
      y += 3;
      y = tablaDesglose(doc, filas, margin, y, usable);
      // Issue 16: the legal ground of each operation that charges no tax (RD 1619/2012 art. 6.1.j and m).
      const leyendas = leyendasOperaciones(d.desglose ?? [], d.emision?.emisor?.impuesto);
      if (leyendas.length) {
        doc.setFontSize(8);
        for (const l of leyendas) {
          const partes: string[] = doc.splitTextToSize(l, usable);
          if (y + partes.length * 3.6 > bottom) continuation();
          for (const p of partes) {
            doc.text(p, margin, y + 2);
            y += 3.6;
          }
        }
        y += 1;
      }
    }
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

    // The customer's paper prints the observaciones meant for them; the internal ones only on internal papers.
    const observaciones = (paraTercero ? d.observaciones_cliente : d.observaciones)?.trim();
    if (observaciones && variante !== 'recuento') {
      y += 4;
      const text: string[] = doc.splitTextToSize(observaciones, usable);
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
    // Issue 23: a till's ticket printed in the back office carries its number as a barcode, as the 80 mm roll does,
    // so a return at the till scans it from either paper.
    if (variante === 'documento' && d.tipo === DOCUMENTO_TIPOS.ticket.tipo && d.numero) {
      y += 6;
      if (y + 20 > bottom) {
        doc.addPage();
        y = margin;
      }
      y = dibujarCode128(doc, d.numero, pageW / 2, y, usable);
    }
  });
  return { doc, starts };
}

/** Height of a wrapped line of a table row, mm (8 pt). */
const ALTO_LINEA = 3.4;

const pct = (v: bigint) => `${formatDecimal(v, 2, 0)} %`;
/** The tax the document was issued under (issue 16): IVA, IGIC or IPSI, as its lines' types say. */
const impuestoDoc = (d: Documento) => impuestoDe([...(d.desglose ?? []), ...(d.lineas ?? [])], d.emision?.emisor?.impuesto);
const nombreImpuesto = (d: Documento) => IMPUESTO_NOMBRE[impuestoDoc(d)];

/**
 * An invoice's taxes per rate as printed: rate, base, IVA % and quota, and R.E. % and quota when the customer pays it
 * (recargo de equivalencia is IVA's: a Canary or Ceuta/Melilla company's customer marked «recargo» pays none).
 */
export function desgloseFactura(d: Documento): string[][] {
  const conRecargo = (d.con_recargo === 1 && impuestoDoc(d) === 'iva') || (d.desglose ?? []).some((g) => g.recargo !== 0);
  const imp = nombreImpuesto(d);
  const header = [`Tipo de ${imp}`, 'Base imponible', `% ${imp}`, `Cuota ${imp}`, ...(conRecargo ? ['% R.E.', 'Cuota R.E.'] : [])];
  const rows = (d.desglose ?? []).map((g) => {
    // Issue 16: S1 groups by rate; the others by operation, which charges no tax (S2: the customer pays it, ISP).
    const op = esOperacion(g.operacion) && g.operacion !== 'S1' ? g.operacion : null;
    const exento = g.tipo_iva === 'exento' || op !== null;
    const sinTipo = op === null ? 'Exento' : op === 'S2' ? 'ISP' : op.startsWith('E') ? 'Exenta' : 'No sujeta';
    return [
      nombreGrupo(g, (t) => TIPO_IVA_LABEL[t as TipoIva]),
      formatMoney(g.base),
      exento ? sinTipo : pct(IVA_RATE[g.tipo_iva]),
      formatMoney(g.iva),
      ...(conRecargo ? [exento ? '' : pct(RECARGO_RATE[g.tipo_iva]), formatMoney(g.recargo)] : []),
    ];
  });
  return [header, ...rows];
}

/** The breakdown table (first row the header), the whole width; answers the y under it. */
function tablaDesglose(doc: jsPDF, filas: string[][], x0: number, y: number, ancho: number): number {
  const cols = filas[0].length;
  const w = ancho / cols;
  doc.setFontSize(8);
  doc.setFillColor(241, 245, 249);
  doc.rect(x0, y, ancho, 6, 'F');
  filas.forEach((fila, r) => {
    doc.setFont('helvetica', r === 0 ? 'bold' : 'normal');
    fila.forEach((v, c) => {
      // The rate's name on the left, figures on the right.
      if (c === 0) doc.text(v, x0 + 1, y + 4);
      else doc.text(v, x0 + (c + 1) * w - 1, y + 4, { align: 'right' });
    });
    y += r === 0 ? 6.5 : 5;
  });
  doc.setFont('helvetica', 'normal');
  return y + 2;
}
