import { tiposAlmacen } from '../../documentos/almacen.ts';
import { documentosActions } from '../documentos.ts';
import { maestroAlmacenActions } from './maestros.ts';
import { stockAlmacenActions } from './stock.ts';

/** The warehouses' op.asp actions (issue 6): masters, stock queries and the warehouse documents on the engine. */
export const almacenActions = [...maestroAlmacenActions, ...stockAlmacenActions, ...documentosActions(tiposAlmacen)];
