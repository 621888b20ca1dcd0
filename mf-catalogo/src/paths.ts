import menu from './menu.json';

/** The section's addresses, absolute from its prefix: one place for every link and redirect. */
const base = menu.prefix;

export const paths = {
  articulos: `${base}/articulos`,
  articulo: (id: number | string) => `${base}/articulo/${id}`,
  nuevoArticulo: `${base}/articulo/nuevo-articulo`,
  familias: `${base}/familias`,
  familia: (id: number | string) => `${base}/familia/${id}`,
  nuevaFamilia: `${base}/familia/nueva-familia`,
  subfamilias: `${base}/subfamilias`,
  subfamilia: (id: number | string) => `${base}/subfamilia/${id}`,
  nuevaSubfamilia: `${base}/subfamilia/nueva-subfamilia`,
  marcas: `${base}/marcas`,
  marca: (id: number | string) => `${base}/marca/${id}`,
  nuevaMarca: `${base}/marca/nueva-marca`,
  materiales: `${base}/materiales`,
  material: (id: number | string) => `${base}/material/${id}`,
  nuevoMaterial: `${base}/material/nuevo-material`,
  procesos: `${base}/procesos`,
  proceso: (id: number | string) => `${base}/proceso/${id}`,
  nuevoProceso: `${base}/proceso/nuevo-proceso`,
  cambioPrecios: `${base}/cambio-precios`,
  importar: `${base}/importar`,
  listadoPrecios: `${base}/listado-precios`,
} as const;
