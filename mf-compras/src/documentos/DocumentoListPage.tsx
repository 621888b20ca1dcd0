import { useCallback } from 'react';
import { DocumentListPage, useShell, type DataColumn, type Documento, type DocumentoFila } from 'shared';
import { useAlmacenes } from '../opciones';
import type { Pantalla } from './pantallas';
import { opcionesPdfProveedor } from './pdfProveedor';

const COLUMNS: DataColumn<DocumentoFila>[] = [
  { id: 'proveedor', header: 'Proveedor', cell: (d) => d.proveedor_nombre ?? '' },
  { id: 'almacen', header: 'Almacén', hideOnPhone: true, cell: (d) => d.almacen_nombre ?? '' },
];

/** /compras/pedidos, /compras/albaranes, /compras/devoluciones: one list for the three (state, supplier, dates, warehouse). */
export function DocumentoListPage({ pantalla }: { pantalla: Pantalla }) {
  const { api } = useShell();
  const { def } = pantalla;
  const almacenes = useAlmacenes();
  const pdfOptions = useCallback((docs: Documento[]) => opcionesPdfProveedor(api, docs), [api]);
  return (
    <DocumentListPage
      pantalla={pantalla}
      columns={COLUMNS}
      columnaLineas
      almacenes={almacenes.options}
      listKey={`compras-${def.plural}`}
      searchPlaceholder="Buscar por número, proveedor u observaciones…"
      pdfOptions={pdfOptions}
    />
  );
}
