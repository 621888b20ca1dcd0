import { terceroPdf, terceroPdfDe, type ApiClient, type Documento, type DocumentosPdfOptions, type Proveedor } from 'shared';

/** The PDF's supplier block with the supplier's full data (address, phone, email), read once per supplier. */
export async function opcionesPdfProveedor(api: ApiClient, documentos: Documento[]): Promise<Partial<DocumentosPdfOptions>> {
  const ids = [...new Set(documentos.map((d) => d.proveedor_id).filter((id): id is number => !!id))];
  const proveedores = new Map<number, Proveedor>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        const res = await api.get<Proveedor>('listadoproveedores', { id });
        if (res.RESULT === '0' && res.data?.[0]) proveedores.set(id, res.data[0]);
      } catch {
        // The name and NIF the document carries are enough.
      }
    }),
  );
  return {
    tercero: (d) => {
      const p = d.proveedor_id ? proveedores.get(d.proveedor_id) : undefined;
      return p ? terceroPdfDe(p) : terceroPdf(d);
    },
  };
}

/** A PDF's file name from a document's number: 'PC-2026-000012.pdf'. */
export const archivoPdf = (numero: string) => `${numero.replace(/[^\w-]+/g, '-')}.pdf`;
