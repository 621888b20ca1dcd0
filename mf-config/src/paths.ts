import menu from './menu.json';

/** The section's addresses, absolute from its prefix: one place for every link and redirect. */
const base = menu.prefix;

export const paths = {
  configuracion: base,
  usuarios: `${base}/usuarios`,
  usuario: (id: number | string) => `${base}/usuario/${id}`,
  nuevoUsuario: `${base}/usuario/nuevo-usuario`,
  roles: `${base}/roles`,
  rol: (id: number | string) => `${base}/rol/${id}`,
  nuevoRol: `${base}/rol/nuevo-rol`,
  /** A new role starting as a copy of role `id` (a built-in one is changed only this way). */
  copiaRol: (id: number | string) => `${base}/rol/nuevo-rol?copia=${id}`,
  series: `${base}/series`,
  serie: (id: number | string) => `${base}/serie/${id}`,
  nuevaSerie: `${base}/serie/nueva-serie`,
  utilidades: `${base}/utilidades`,
  verifactu: `${base}/verifactu`,
  actividad: `${base}/actividad`,
} as const;
