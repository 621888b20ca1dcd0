import { tiposVenta } from '../../documentos/ventas.ts';
import { documentosActions } from '../documentos.ts';
import { clienteActions } from './clientes.ts';
import { disponibleActions } from './disponible.ts';
import { facturaActions } from './facturas.ts';
import { facturaeActions } from './facturae.ts';
import { remesaActions } from './remesas.ts';
import { verifactuActions } from './verifactu.ts';

/** The sales' op.asp actions (issue 8): clientes, the sales documents on the engine, available stock. */
export const ventaActions = [...clienteActions, ...documentosActions(tiposVenta), ...disponibleActions, ...facturaActions, ...facturaeActions, ...verifactuActions, ...remesaActions];
