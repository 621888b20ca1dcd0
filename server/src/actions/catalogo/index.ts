import { articuloActionList } from './articulos.ts';
import { importarActionList } from './importar.ts';
import { maestroActionList } from './maestros.ts';
import { precioActionList } from './precios.ts';

/** The catalogue's op.asp actions (issue 3). */
export const catalogoActions = [...maestroActionList, ...articuloActionList, ...precioActionList, ...importarActionList];
