import { DocumentListPage, useAlmacenes } from 'shared';
import type { Pantalla } from './pantallas';

/**
 * /ventas/pedidos, albaranes, devoluciones and partes-de-trabajo: one list for the four (state, customer, dates,
 * warehouse; customer and warehouse columns; the filter's total); its PDF carries each customer's full data.
 */
export function DocumentoListPage({ pantalla }: { pantalla: Pantalla }) {
  const almacenes = useAlmacenes();
  return <DocumentListPage pantalla={pantalla} columnaLineas almacenes={almacenes.options} />;
}
