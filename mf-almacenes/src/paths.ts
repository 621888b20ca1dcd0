import { DOCUMENTO_TIPOS, direccionesDocumento } from 'shared';
import menu from './menu.json';

/**
 * The section's addresses, absolute from its prefix: one place for every link and redirect. The documents' come from
 * their types' definitions (shared/src/domain/documentos/<tipo>.ts), as the routes and the menu do.
 */
const base = menu.prefix;
const movimiento = direccionesDocumento(DOCUMENTO_TIPOS.movimiento);
const inventario = direccionesDocumento(DOCUMENTO_TIPOS.inventario);
const perdida = direccionesDocumento(DOCUMENTO_TIPOS.perdida);

export const paths = {
  almacenes: base,
  almacen: (id: number | string) => `${base}/almacen/${id}`,
  nuevoAlmacen: `${base}/almacen/nuevo-almacen`,
  ubicaciones: `${base}/ubicaciones`,
  ubicacion: (id: number | string) => `${base}/ubicacion/${id}`,
  nuevaUbicacion: `${base}/ubicacion/nueva-ubicacion`,
  /** The warehouse's ledger (every entry and exit). */
  movimientosAlmacen: `${base}/movimientos-almacen`,
  /** The transfers between warehouses («Traspasos»; the specification's path). */
  movimientos: movimiento.list,
  movimiento: movimiento.record,
  nuevoMovimiento: movimiento.nuevo,
  inventarios: inventario.list,
  inventario: inventario.record,
  nuevoInventario: inventario.nuevo,
  perdidas: perdida.list,
  perdida: perdida.record,
  nuevaPerdida: perdida.nuevo,
  /** An article's record, in the catalogue's section. */
  articulo: (id: number | string) => `/catalogo/articulo/${id}`,
} as const;
