import type { EmpresaPdf } from './documentosPdf';

/**
 * The till's printouts (80 mm roll, jsPDF loaded when asked): the ticket — a factura simplificada with the shop,
 * the lines, the IVA breakdown, serie and number, the fiscal QR and its legend. (The Z report of a closing is informeZPdf.ts, on the same roll with `papel: 'ticket'`.)
 * Also the QR's matrix for the browser's own print of the ticket (the same QR, drawn as HTML).
 */
export type TicketPdf = {
  empresa: EmpresaPdf | null;
  /** 'Factura simplificada' or 'Factura rectificativa (R5)'. */
  titulo: string;
  numero: string;
  /** Local date and time as printed. */
  fecha: string;
  terminal?: string;
  cajero?: string;
  lineas: { nombre: string; cantidad: string; precio: string; importe: string; descuento?: string }[];
  desglose: { tipo: string; base: string; cuota: string }[];
  /** Issue 16: the tax's name, 'IVA' (default), 'IGIC' or 'IPSI'. */
  impuesto?: string;
  total: string;
  pagos: { forma: string; importe: string }[];
  cambio?: string;
  /** The fiscal QR's URL (urlQr); absent: printed without QR. */
  qr?: string | null;
  /** The records go to the AEAT's test environment: the QR's legend says it is a test (LEYENDA_QR_PRUEBAS). */
  pruebas?: boolean;
  pie?: string;
};

const impl = () => import('./tpvPdfImpl');

export async function ticketPdfBlob(t: TicketPdf): Promise<Blob> {
  return (await impl()).construirTicket(t).output('blob');
}

export async function descargarTicketPdf(t: TicketPdf, fileName: string): Promise<void> {
  (await impl()).construirTicket(t).save(fileName);
}

/** The fiscal QR's modules (true: dark), for drawing it in HTML. */
export async function matrizQrTicket(texto: string): Promise<boolean[][]> {
  const { matrizQr } = await import('./qrPdf');
  return matrizQr(texto);
}
