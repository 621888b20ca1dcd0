import { TERCEROS, TerceroRecordPage, proveedorSchema, usePermisos, type Proveedor } from 'shared';
import { PANTALLAS } from '../documentos/pantallas';
import { paths } from '../paths';

/** The supplier's documents listed in its record: pedidos, albaranes and devoluciones (each while its flag is on). */
const DOCUMENTOS = Object.values(PANTALLAS).map((p) => ({ def: p.def, record: p.record, list: p.list, flag: p.flag }));

/**
 * /compras/proveedor/:proveedorId and /compras/proveedor/nuevo-proveedor: the shared party record with,
 * once saved, the purchases per year and the supplier's documents.
 */
export function ProveedorPage({ id }: { id?: string }) {
  // Issue 24: a supplier's purchases per year are purchase amounts — only with «ver precios de compra, costes y márgenes».
  const costes = usePermisos().tiene('ver_costes');
  return (
    <TerceroRecordPage<Proveedor>
      tercero={TERCEROS.proveedor}
      id={id}
      schema={proveedorSchema}
      list={paths.proveedores}
      record={paths.proveedor}
      porEjercicio={costes ? { titulo: 'Compras por ejercicio', vacio: 'Todavía no hay compras de este proveedor.', filas: (p) => p.compras_por_ejercicio } : undefined}
      documentos={DOCUMENTOS}
    />
  );
}
