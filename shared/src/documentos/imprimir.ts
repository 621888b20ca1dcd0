import { useCallback, useState } from 'react';
import { ApiHttpError } from '../api/client';
import { useShell } from '../context';
import type { Documento, DocumentoTipoDef } from '../domain/documentos';
import { downloadDocumentosPdf, empresaPdf, type DocumentosPdfOptions } from '../io/documentosPdf';
import { archivoPdf, opcionesPdfTercero } from './terceros';

/**
 * «Imprimir» (and other work on a document's PDF, as mailing it) of a record screen: the PDF with the company and
 * the party's full data; `working` while it is made, and a failure shows the error toast (the server's message if any).
 *
 * @example
 * const pdf = useImprimirDocumento(def);
 * <DocumentRecordPage working={pdf.working} imprimir={{ onClick: () => documento && void pdf.imprimir(documento) }} … />
 */
export function useImprimirDocumento(def: DocumentoTipoDef) {
  const { api, config, toast } = useShell();
  const [working, setWorking] = useState(false);

  /** The PDF's options of one document: company, type and the party's full data. */
  const opciones = useCallback(
    async (d: Documento): Promise<Omit<DocumentosPdfOptions, 'fileName'>> => ({ empresa: empresaPdf(config), def, ...(await opcionesPdfTercero(api, [d])) }),
    [api, config, def],
  );

  /** Runs some work on the document (a print, a mail) with `working` on. */
  const trabajando = useCallback(
    async (trabajo: () => Promise<void>) => {
      setWorking(true);
      try {
        await trabajo();
      } catch (e) {
        toast.error(e instanceof ApiHttpError ? e.body.message : undefined);
      } finally {
        setWorking(false);
      }
    },
    [toast],
  );

  const imprimir = useCallback(
    (d: Documento) => trabajando(async () => downloadDocumentosPdf([d], { fileName: archivoPdf(d.numero), ...(await opciones(d)) })),
    [trabajando, opciones],
  );

  return { working, opciones, trabajando, imprimir };
}
