import type { EmisionRegistro } from '../domain/fiscal';
import type { EmpresaPdf } from './documentosPdf';

/**
 * The till's printouts (80 mm roll, jsPDF loaded when asked): the ticket — a factura simplificada with the fiscal QR
 * and its legend first (at the top, before its content: DetalleEspecificacTecnCodigoQRfactura §3), then the shop, the
 * lines, the IVA breakdown, serie and number. (The Z report of a closing is informeZPdf.ts, on the same roll with `papel: 'ticket'`.)
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
  /**
   * Issue 22: what its record was made for (stored with it: the server's answer, or the till's own record made from
   * its terminal's): the legend under the QR (presentacionQr). Absent: never printed as production.
   */
  emision?: EmisionRegistro | null;
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
