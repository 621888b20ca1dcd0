
import type { Documento, DocumentoTipoDef } from '../domain/documentos';
import type { Configuracion } from '../domain/entities';
import { bloqueEmpresa, bloqueTercero } from '../domain/emision';

/** The company block at the top of each document. */
export type EmpresaPdf = {
  nombre: string;
  nif?: string | null;
  lineas?: string[];
  /** The company's account: a sales document paid by transfer prints it (the customer pays there). */
  iban?: string | null;
};

/**
 * What to print of each document: the document itself; the blank count sheet of an inventory
 * ('recuento': the articles with an empty 'Contado' box); the differences of a finished inventory
 * valued at the average cost ('diferencias').
 */
export type VariantePdf = 'documento' | 'recuento' | 'diferencias';

export type DocumentosPdfOptions = {
  fileName: string;
  empresa?: EmpresaPdf | null;
  variante?: VariantePdf;
  /** The type of each document; default from `documento.tipo`. */
  def?: DocumentoTipoDef;
  /**
   * The other party's block (supplier or customer: name, NIF, address) of each document; default:
   * the name and NIF the document carries (`proveedor_nombre`, `proveedor_nif`, or the customer's).
   */
  tercero?: (documento: Documento) => EmpresaPdf | null | undefined;
};

/** The party's block from what a document carries: its name and NIF. */
export function terceroPdf(d: Documento): EmpresaPdf | null {
  const nombre = d.proveedor_nombre ?? d.cliente_nombre;
  if (!nombre) return null;
  return { nombre, nif: d.proveedor_nif ?? d.cliente_nif ?? null };
}

/** A party's block from its record (proveedor or cliente): razón social, NIF, address, phone and email. */
export const terceroPdfDe: (t: Parameters<typeof bloqueTercero>[0]) => EmpresaPdf = bloqueTercero;

/** The company block from the configuration (razón social, NIF, address). */
export function empresaPdf(config: Configuracion | null | undefined): EmpresaPdf | null {
  return config ? { ...bloqueEmpresa(config), iban: config.iban?.trim() || null } : null;
}

// The layout code loads with the first printed document, not with the login (the shared module is part of the first paint).
const impl = async () => {
  const [layout, pdf] = await Promise.all([import('./documentosPdfImpl'), import('./pdf')]);
  return { buildDocumentosPdf: layout.buildDocumentosPdf, savePdf: pdf.savePdf, numberPages: pdf.numberPages };
};

/**
 * Documents as one PDF (A4, jsPDF loaded when asked): the company on top, number, date, state and
 * warehouses, the lines table with its header row repeated on every page, the totals and the
 * observaciones; each document starts a page and counts its own 'Página n de m'. Batch printing of
 * a list's selection passes several documents.
 */
export async function downloadDocumentosPdf(documentos: Documento[], opts: DocumentosPdfOptions): Promise<void> {
  const { buildDocumentosPdf, savePdf } = await impl();
  const { doc, starts } = await buildDocumentosPdf(documentos, opts);
  savePdf(doc, opts.fileName, starts);
}

/** The same PDF as `downloadDocumentosPdf`, as a Blob instead of a download (to send it by mail through the multipart client). */
export async function documentosPdfBlob(documentos: Documento[], opts: Omit<DocumentosPdfOptions, 'fileName'>): Promise<Blob> {
  const { buildDocumentosPdf, numberPages } = await impl();
  const { doc, starts } = await buildDocumentosPdf(documentos, { ...opts, fileName: '' });
  numberPages(doc, starts);
  return doc.output('blob');
}

