import { IMPUESTO_NOMBRE, impuestoDe, porcentajeTipo, type Impuesto, type Articulo, type ModuleFlags, type PdfTableGroup } from 'shared';
import { formatPrecio, formatPvp } from '../formato';

/** A row of `listadoprecios`: active articles ordered by familia, then código. */
export type FilaPrecio = Pick<Articulo, 'codigo' | 'descripcion' | 'precio_venta' | 'tarifa_2' | 'tarifa_3' | 'pvp_1' | 'pvp_2' | 'pvp_3' | 'tipo_iva'> & {
  familia_nombre: string | null;
};

type Columna = { header: string; width: number; align: 'left' | 'right'; value: (f: FilaPrecio) => string };

/** The columns of the price list: the tariffs and PVPs whose flags are on. */
export function columnasListado(flags: ModuleFlags, impuesto: Impuesto = 'iva'): Columna[] {
  const cols: Columna[] = [
    { header: 'Código', width: 2, align: 'left', value: (f) => f.codigo },
    { header: 'Descripción', width: 5, align: 'left', value: (f) => f.descripcion },
    { header: 'Tarifa 1', width: 1.6, align: 'right', value: (f) => formatPrecio(f.precio_venta) },
  ];
  if (flags.tarifa_2) cols.push({ header: 'Tarifa 2', width: 1.6, align: 'right', value: (f) => formatPrecio(f.tarifa_2) });
  if (flags.tarifa_3) cols.push({ header: 'Tarifa 3', width: 1.6, align: 'right', value: (f) => formatPrecio(f.tarifa_3) });
  if (flags.pvp) cols.push({ header: 'PVP 1', width: 1.4, align: 'right', value: (f) => formatPvp(f.pvp_1) });
  if (flags.pvp_2) cols.push({ header: 'PVP 2', width: 1.4, align: 'right', value: (f) => formatPvp(f.pvp_2) });
  if (flags.pvp_3) cols.push({ header: 'PVP 3', width: 1.4, align: 'right', value: (f) => formatPvp(f.pvp_3) });
  cols.push({ header: IMPUESTO_NOMBRE[impuesto], width: 1.2, align: 'right', value: (f) => porcentajeTipo(f.tipo_iva) });
  return cols;
}

export const SIN_FAMILIA = 'Sin familia';

/** The PDF's table: one group per familia, in the server's order. */
export function construirListado(filas: FilaPrecio[], flags: ModuleFlags) {
  const cols = columnasListado(flags, impuestoDe(filas));
  const groups: PdfTableGroup[] = [];
  for (const f of filas) {
    const title = f.familia_nombre || SIN_FAMILIA;
    let g = groups.at(-1);
    if (!g || g.title !== title) {
      g = { title, rows: [] };
      groups.push(g);
    }
    g.rows.push(cols.map((c) => c.value(f)));
  }
  return { header: cols.map((c) => c.header), widths: cols.map((c) => c.width), align: cols.map((c) => c.align), groups };
}
