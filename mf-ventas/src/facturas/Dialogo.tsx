// The small form dialog lives in shared (issue 26: Compras › Pagos and Ventas › Remesas use it too).
export { Dialogo } from 'shared';
