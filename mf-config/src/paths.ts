import menu from './menu.json';

/** The section's addresses, absolute from its prefix: one place for every link and redirect. */
const base = menu.prefix;

export const paths = {
  configuracion: base,
  usuarios: `${base}/usuarios`,
  usuario: (id: number | string) => `${base}/usuario/${id}`,
  nuevoUsuario: `${base}/usuario/nuevo-usuario`,
  series: `${base}/series`,
  serie: (id: number | string) => `${base}/serie/${id}`,
  nuevaSerie: `${base}/serie/nueva-serie`,
  utilidades: `${base}/utilidades`,
  verifactu: `${base}/verifactu`,
  actividad: `${base}/actividad`,
} as const;
