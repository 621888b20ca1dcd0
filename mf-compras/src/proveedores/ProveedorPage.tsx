import { DOCUMENTO_TIPOS, TERCEROS, TerceroRecordPage, proveedorSchema, type Proveedor } from 'shared';
import { PANTALLAS } from '../documentos/pantallas';
import { paths } from '../paths';

/** The supplier's documents listed in its record: pedidos, albaranes and devoluciones (each while its flag is on). */
const DOCUMENTOS = Object.values(PANTALLAS).map((p) => ({ def: p.def, record: p.record, list: p.list, flag: p.flag }));

/** Issue 26: a purchase order started from the supplier, preselected on it. */
const NUEVOS = [{ label: 'Nuevo pedido', to: paths.nuevoPedido, def: DOCUMENTO_TIPOS.pedidocompra }];

/**
 * /compras/proveedor/:proveedorId and /compras/proveedor/nuevo-proveedor: the shared party record with,
 * once saved, the purchases per year and the supplier's documents.
 */
export function ProveedorPage({ id }: { id?: string }) {
  return (
    <TerceroRecordPage<Proveedor>
      tercero={TERCEROS.proveedor}
      id={id}
      schema={proveedorSchema}
      list={paths.proveedores}
      record={paths.proveedor}
      nuevos={NUEVOS}
      porEjercicio={{ titulo: 'Compras por ejercicio', vacio: 'Todavía no hay compras de este proveedor.', filas: (p) => p.compras_por_ejercicio }}
      documentos={DOCUMENTOS}
    />
  );
}
