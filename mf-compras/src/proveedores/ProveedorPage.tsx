import { Link } from 'react-router';
import { DOCUMENTO_TIPOS, TERCEROS, TerceroRecordPage, formatMoney, proveedorSchema, usePermisos, useShell, type Proveedor, type TerceroNuevo } from 'shared';
import { PANTALLAS } from '../documentos/pantallas';
import { paths } from '../paths';

/** The supplier's documents listed in its record: pedidos, albaranes and devoluciones (each while its flag is on). */
const DOCUMENTOS = Object.values(PANTALLAS).map((p) => ({ def: p.def, record: p.record, list: p.list, flag: p.flag }));

/** Issue 26: a purchase order started from the supplier, preselected on it. */
const NUEVO_PEDIDO: TerceroNuevo = { label: 'Nuevo pedido', to: paths.nuevoPedido, def: DOCUMENTO_TIPOS.pedidocompra };
/** Issue 26: the supplier's invoice, registered in hcp with the supplier preselected (its amounts are purchase amounts). */
const NUEVA_FACTURA: TerceroNuevo = { label: 'Nueva factura', to: paths.hcp, flags: ['compras', 'hcp'], accion: 'editarfacturaproveedor' };

/**
 * /compras/proveedor/:proveedorId and /compras/proveedor/nuevo-proveedor: the shared party record with,
 * once saved, the purchases per year and the supplier's documents.
 */
/** Issue 26: what the shop owes the supplier (unpaid instalments of its invoices) and of it what is overdue. */
function Deuda({ proveedor }: { proveedor: Proveedor }) {
  return (
    <dl>
      <dt>Pendiente de pago</dt>
      <dd data-testid="pendiente-pago">{formatMoney(proveedor.pendiente_pago ?? 0)}</dd>
      <dt>Vencido</dt>
      <dd data-testid="vencido-pago">{formatMoney(proveedor.vencido_pago ?? 0)}</dd>
      <dt>Vencimientos</dt>
      <dd>
        <Link to={`${paths.pagos}?proveedor_id=${proveedor.id}`}>Ver en Pagos</Link>
      </dd>
    </dl>
  );
}

export function ProveedorPage({ id }: { id?: string }) {
  // Issue 24: a supplier's purchases per year are purchase amounts — only with «ver precios de compra, costes y márgenes».
  const costes = usePermisos().tiene('ver_costes');
  const { flags } = useShell();
  return (
    <TerceroRecordPage<Proveedor>
      tercero={TERCEROS.proveedor}
      id={id}
      schema={proveedorSchema}
      list={paths.proveedores}
      record={paths.proveedor}
      // What is owed to a supplier is purchase amounts too (issue 24).
      resumen={flags.hcp === 1 && costes ? { titulo: 'Pendiente de pago', render: (p) => <Deuda proveedor={p} /> } : undefined}
      nuevos={costes ? [NUEVO_PEDIDO, NUEVA_FACTURA] : [NUEVO_PEDIDO]}
      porEjercicio={costes ? { titulo: 'Compras por ejercicio', vacio: 'Todavía no hay compras de este proveedor.', filas: (p) => p.compras_por_ejercicio } : undefined}
      documentos={DOCUMENTOS}
    />
  );
}
