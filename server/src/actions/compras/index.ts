import { tiposCompra } from '../../documentos/compras.ts';
import { documentosActions } from '../documentos.ts';
import { correoCompraActions } from './correo.ts';
import { hcpActions } from './hcp.ts';
import { pagoProveedorActions } from './pagos.ts';
import { proveedorActions } from './proveedores.ts';

/** The purchases' op.asp actions (issue 7): proveedores, the purchase documents on the engine, hcp and the order's e-mail. */
export const compraActions = [...proveedorActions, ...documentosActions(tiposCompra), ...hcpActions, ...pagoProveedorActions, ...correoCompraActions];
