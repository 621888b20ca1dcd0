import menu from './menu.json';

/** The section's addresses, absolute from its prefix: one place for every link and redirect. */
const base = menu.prefix;

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
  movimientos: `${base}/movimientos`,
  movimiento: (id: number | string) => `${base}/movimiento/${id}`,
  nuevoMovimiento: `${base}/movimiento/nuevo-movimiento`,
  inventarios: `${base}/inventario`,
  inventario: (id: number | string) => `${base}/inventario/${id}`,
  nuevoInventario: `${base}/inventario/nuevo-inventario`,
  perdidas: `${base}/perdidas`,
  perdida: (id: number | string) => `${base}/perdida/${id}`,
  nuevaPerdida: `${base}/perdida/nueva-perdida`,
  /** An article's record, in the catalogue's section. */
  articulo: (id: number | string) => `/catalogo/articulo/${id}`,
} as const;
