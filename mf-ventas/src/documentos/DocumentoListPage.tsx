import { DocumentListPage, useAlmacenes } from 'shared';
import type { DataColumn, DocumentoFila } from 'shared';
import type { Pantalla } from './pantallas';

/** A parte's list also says who did the work. */
const COLUMNAS_PARTE: DataColumn<DocumentoFila>[] = [
  { id: 'cliente', header: 'Cliente', cell: (d) => d.cliente_nombre ?? '' },
  { id: 'trabajador', header: 'Trabajador', hideOnPhone: true, cell: (d) => d.usuario_nombre ?? '' },
  { id: 'almacen', header: 'Almacén', hideOnPhone: true, cell: (d) => d.almacen_nombre ?? '' },
];

/**
 * /ventas/pedidos, albaranes, devoluciones and partes-de-trabajo: one list for the four (state, customer, dates,
 * warehouse; customer and warehouse columns; the filter's total); its PDF carries each customer's full data.
 */
export function DocumentoListPage({ pantalla }: { pantalla: Pantalla }) {
  const almacenes = useAlmacenes();
  const columns = pantalla.def.tipo === 'parte' ? COLUMNAS_PARTE : undefined;
  return <DocumentListPage pantalla={pantalla} columns={columns} columnaLineas almacenes={almacenes.options} />;
}
