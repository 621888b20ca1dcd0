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
};

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
