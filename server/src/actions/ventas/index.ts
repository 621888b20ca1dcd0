import { documentosVentaActions } from '../../documentos/ventas.ts';
import { clienteActions } from './clientes.ts';
import { disponibleActions } from './disponible.ts';
import { facturaActions } from './facturas.ts';
import { verifactuActions } from './verifactu.ts';

/** The sales' op.asp actions (issue 8): clientes, the sales documents on the engine, available stock. */
export const ventaActions = [...clienteActions, ...documentosVentaActions, ...disponibleActions, ...facturaActions, ...verifactuActions];
