import { TIPO_IVA_LABEL, type TipoIva } from '../domain/catalogo';
import { medioPagoLabel } from '../domain/mediosPago';
import type { CierreTpv } from '../domain/tpv';
import type { EmpresaPdf } from './documentosPdf';

/**
 * The Z report of a TPV closing (issue 13): what the back office and the till print once a terminal's
 * day is closed. Plain data, so the till (mf-tpv) and the back office (mf-ventas) print the same report.
 * Money in cents.
 */
export type InformeZ = {
  terminal: string;
  /** The closing code: sequential per terminal. */
  codigo: number | string;
  cajero?: string | null;
  /** Issue 23: every cashier who sold in the caja, with their tickets, returns and net total (cents). */
  cajeros?: { nombre: string; tickets: number; devoluciones: number; total: number }[];
  apertura: string;
  cierre: string;
  tickets: number;
  devoluciones: number;
  total: number;
  fondo?: number | null;
  /** Cash: float + cash taken − change given − withdrawals; what was counted; counted − expected. */
  esperado: number;
  contado: number;
  diferencia: number;
  /** How the expected cash is made: fondo, + cobrado, − cambio, − devuelto, + entradas, − salidas (signed cents). */
  desgloseEfectivo?: { label: string; importe: number }[];
  /** First and last ticket number of the closing. */
  numeros?: { primero: string; ultimo: string } | null;
  formas: { label: string; esperado: number; contado: number; diferencia: number }[];
  ivas: { label: string; base: number; iva: number; total: number }[];
  /** The drawer counted by denomination: value in cents, how many. */
  billetes?: { valor: number; cantidad: number }[];
  movimientos?: { fecha_hora: string; label: string; importe: number; concepto?: string | null }[];
  /** Issue 22: a closing of the demo company: prints «DEMOSTRACIÓN — sin validez fiscal» under the title. */
  demo?: boolean;
};

/** A till payment method's label; one not known shows as it came. */
export const formaTpvLabel = (forma: string): string => medioPagoLabel(forma) || forma;
const ivaLabel = (t: string) => TIPO_IVA_LABEL[t as TipoIva] ?? `${t} %`;

/** How the expected cash is made, signed: what the Z report and the closing's screen list above «Esperado». */
export function desgloseEfectivo(c: CierreTpv): { label: string; importe: number }[] {
  const e = c.efectivo;
  if (!e) return [];
  return [
    { label: 'Fondo inicial', importe: e.fondo },
    { label: 'Cobrado en efectivo', importe: e.cobrado },
    { label: 'Cambio devuelto', importe: -e.cambio },
    { label: 'Reembolsos en efectivo', importe: -e.devuelto },
    { label: 'Entradas de caja', importe: e.entradas },
    { label: 'Salidas de caja', importe: -e.salidas },
  ].filter((d, i) => i === 0 || d.importe !== 0);
}

/** A closing (editarcierretpv / listadocierrestpv) as the Z report prints it: the till and the back office alike. */
export function informeZDeCierre(c: CierreTpv): InformeZ {
  return {
    terminal: c.terminal_nombre,
    codigo: c.codigo ?? '',
    cajero: c.usuario_nombre,
    cajeros: c.cajeros?.map((x) => ({ nombre: x.nombre, tickets: x.tickets, devoluciones: x.devoluciones, total: x.total })),
    apertura: c.apertura,
    cierre: c.cierre ?? '',
    tickets: c.tickets,
    devoluciones: c.devoluciones,
    total: c.total,
    fondo: c.fondo,
    esperado: c.efectivo.esperado,
    contado: c.efectivo.contado,
    diferencia: c.efectivo.diferencia,
    desgloseEfectivo: desgloseEfectivo(c),
    numeros: c.primer_numero && c.ultimo_numero ? { primero: c.primer_numero, ultimo: c.ultimo_numero } : null,
    formas: c.formas.map((f) => ({ label: formaTpvLabel(f.forma), esperado: f.esperado, contado: f.contado, diferencia: f.diferencia })),
    ivas: c.impuestos.map((i) => ({ label: ivaLabel(i.tipo_iva), base: i.base, iva: i.iva, total: i.total })),
    billetes: c.denominaciones?.filter((b) => b.cantidad > 0) ?? undefined,
    movimientos: c.movimientos.map((m) => ({ fecha_hora: m.fecha_hora, label: m.importe < 0 ? 'Salida' : 'Entrada', importe: m.importe, concepto: m.motivo })),
    demo: Number(c.demo ?? 0) === 1,
  };
}

export type InformeZPdfOptions = {
  fileName: string;
  empresa?: EmpresaPdf | null;
  /** A4 (the back office's archive) or an 80 mm roll (the till's printer). Default A4. */
  papel?: 'a4' | 'ticket';
};

const impl = async () => {
  const [layout, pdf] = await Promise.all([import('./informeZPdfImpl'), import('./pdf')]);
  return { buildInformeZPdf: layout.buildInformeZPdf, savePdf: pdf.savePdf, numberPages: pdf.numberPages };
};

/** Downloads the Z report as a PDF (jsPDF loaded when asked). */
export async function downloadInformeZPdf(informe: InformeZ, opts: InformeZPdfOptions): Promise<void> {
  const { buildInformeZPdf, savePdf } = await impl();
  const doc = await buildInformeZPdf(informe, opts);
  if (opts.papel === 'ticket') doc.save(opts.fileName);
  else savePdf(doc, opts.fileName);
}

/** The same PDF as a Blob (to show it, print it or send it). */
export async function informeZPdfBlob(informe: InformeZ, opts: Omit<InformeZPdfOptions, 'fileName'>): Promise<Blob> {
  const { buildInformeZPdf, numberPages } = await impl();
  const doc = await buildInformeZPdf(informe, { ...opts, fileName: '' });
  if (opts.papel !== 'ticket') numberPages(doc);
  return doc.output('blob');
}
