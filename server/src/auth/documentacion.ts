import {
  AREAS,
  AREA_INFO,
  DERECHOS_ESPECIALES,
  ESPECIAL_LABEL,
  NIVELES,
  NIVEL_LABEL,
  ROLES_PREDEFINIDOS,
  ROL_PREDEFINIDO,
  falta,
  puede,
  tiene,
} from 'shared/domain';
import { DERECHOS } from './derechos.ts';

/**
 * The tables of docs/derechos.md, made from the code (test/derechos-doc.test.ts fails when the page and the code
 * differ; `pnpm --filter server derechos:doc` writes them again): what each built-in role may do per area and level,
 * its named rights and discount, and how many op.asp actions each may run.
 */

const LETRA: Record<(typeof NIVELES)[number], string> = { ver: 'V', editar: 'E', acciones: 'A', eliminar: 'X' };

/** The markdown between the page's markers. */
export function tablasDerechos(): string {
  const roles = ROLES_PREDEFINIDOS.map((r) => ROL_PREDEFINIDO[r].nombre);
  const filas = AREAS.map((a) => [
    AREA_INFO[a].label,
    ...ROLES_PREDEFINIDOS.map((r) => NIVELES.filter((n) => puede(ROL_PREDEFINIDO[r].derechos, a, n)).map((n) => LETRA[n]).join(' ') || '—'),
  ]);
  const especiales = DERECHOS_ESPECIALES.map((e) => [ESPECIAL_LABEL[e], ...ROLES_PREDEFINIDOS.map((r) => (tiene(ROL_PREDEFINIDO[r].derechos, e) ? 'sí' : '—'))]);
  const descuento = [
    'Descuento máximo sin «Dar un descuento superior…»',
    ...ROLES_PREDEFINIDOS.map((r) => `${(ROL_PREDEFINIDO[r].derechos.descuento_maximo / 100).toLocaleString('es-ES', { maximumFractionDigits: 2 })} %`),
  ];
  const acciones = [
    'Acciones de op.asp que puede ejecutar',
    ...ROLES_PREDEFINIDOS.map((r) => {
      const n = [...DERECHOS.values()].filter((d) => d.necesidad !== 'publica' && falta(ROL_PREDEFINIDO[r].derechos, d.necesidad) === null).length;
      return `${n} de ${[...DERECHOS.values()].filter((d) => d.necesidad !== 'publica').length}`;
    }),
  ];
  const tabla = (primera: string, rows: string[][]) => {
    const cab = [primera, ...roles];
    return [`| ${cab.join(' | ')} |`, `|${cab.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  };
  const leyenda = NIVELES.map((n) => `${LETRA[n]} = ${NIVEL_LABEL[n]}`).join(' · ');
  return [
    `Niveles: ${leyenda}.`,
    '',
    tabla('Área', filas),
    '',
    tabla('Derecho', [...especiales, descuento, acciones]),
    '',
    ...ROLES_PREDEFINIDOS.map((r) => `- **${ROL_PREDEFINIDO[r].nombre}**: ${ROL_PREDEFINIDO[r].descripcion}`),
  ].join('\n');
}

export const MARCA_INICIO = '<!-- tablas-derechos:inicio (generado: pnpm --filter server derechos:doc) -->';
export const MARCA_FIN = '<!-- tablas-derechos:fin -->';

/** The page with its tables made again from the code. */
export function conTablas(pagina: string): string {
  const a = pagina.indexOf(MARCA_INICIO);
  const b = pagina.indexOf(MARCA_FIN);
  if (a < 0 || b < a) throw new Error('docs/derechos.md has no table markers');
  return `${pagina.slice(0, a + MARCA_INICIO.length)}\n${tablasDerechos()}\n${pagina.slice(b)}`;
}
