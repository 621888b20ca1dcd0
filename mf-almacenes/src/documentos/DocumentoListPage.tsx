import { useMemo } from 'react';
import { DocumentListPage, type DataColumn, type DocumentoFila } from 'shared';
import { useAlmacenes } from '../opciones';
import type { Pantalla } from './pantallas';

const origen: DataColumn<DocumentoFila> = { id: 'origen', header: 'Origen', cell: (d) => d.almacen_nombre ?? '' };
const destino: DataColumn<DocumentoFila> = { id: 'destino', header: 'Destino', cell: (d) => d.almacen_destino_nombre ?? '' };
const almacen: DataColumn<DocumentoFila> = { id: 'almacen', header: 'Almacén', cell: (d) => d.almacen_nombre ?? '' };

/** /almacenes/movimientos, /almacenes/inventario, /almacenes/perdidas: one list for the three. */
export function DocumentoListPage({ pantalla }: { pantalla: Pantalla }) {
  const { def } = pantalla;
  const almacenes = useAlmacenes();
  const columns = useMemo(() => (def.tipo === 'movimiento' ? [origen, destino] : [almacen]), [def.tipo]);
  return (
    <DocumentListPage
      pantalla={pantalla}
      columns={columns}
      columnaLineas
      almacenes={almacenes.options}
      listKey={`almacenes-${def.plural}`}
    />
  );
}
