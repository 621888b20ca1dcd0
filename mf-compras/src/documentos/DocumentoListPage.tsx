import { DocumentListPage } from 'shared';
import { useAlmacenes } from '../opciones';
import type { Pantalla } from './pantallas';

/**
 * /compras/pedidos, /compras/albaranes, /compras/devoluciones: one list for the three (state, supplier, dates,
 * warehouse; supplier and warehouse columns); its PDF carries each supplier's full data.
 */
export function DocumentoListPage({ pantalla }: { pantalla: Pantalla }) {
  const almacenes = useAlmacenes();
  return <DocumentListPage pantalla={pantalla} columnaLineas almacenes={almacenes.options} listKey={`compras-${pantalla.def.plural}`} />;
}
