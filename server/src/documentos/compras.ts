import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, MESSAGES, documentoCompraSchema as cabecera } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { fail } from '../errors.ts';
import type { Database } from '../db/schema.ts';
import { almacenActivo } from './almacen.ts';
import { registrarTipo } from './tipos.ts';
import type { DocRow, TipoEffects } from './tipos.ts';
import { cerrarPendiente } from './enlaces.ts';
import { precioNetoSql } from './sql.ts';

/**
 * The purchase documents (issue 7) on the engine: pedido, albarán and devolución de compra. What the
 * engine does for them generically comes from their rows of DOCUMENTO_TIPOS (the party from
 * `tercero`, stock on save from `stockAlGuardar`, the albarán a receipt makes from `hijo`, with its
 * links and pending units); this file adds the header, the supplier's defaults, the last purchase
 * price, the pedido's "finalizar" (closes what is pending) and the devolución's origin (albaranes).
 */

/** The purchase header (shared/domain, as the forms validate it) and the pedido's delivery date. */
export const documentoCompraSchema = { ...cabecera, fecha_entrega: { type: 'date' } } satisfies Schema;

const base = (columns: readonly string[]): TipoEffects<typeof documentoCompraSchema> => ({
  schema: documentoCompraSchema,
  headerColumns: columns,
  precioPorDefecto: 'compra',
  almacenLineas: (h) => h.almacen_id,
  // The supplier's payment method and retención are the defaults: the engine reads them with the party.
  async validate({ trx, header, errors }) {
    await almacenActivo(trx, header.almacen_id, 'almacen_id', errors);
  },
  acciones: {},
});

const COLUMNAS = ['proveedor_id', 'almacen_id', 'forma_pago', 'retencion', 'observaciones', 'observaciones_cliente'] as const;

/** The albarán adds the supplier's own delivery-note number (issue 17: hcp shows and searches it). */
export const albaranCompraSchema = { ...documentoCompraSchema, albaran_proveedor: { type: 'string', max: 60 } } satisfies Schema;

export const pedidoCompraEffects: TipoEffects<typeof documentoCompraSchema> = {
  ...base([...COLUMNAS, 'fecha_entrega']),
  acciones: {
    /** What is still pending is closed (its undo gives it back). */
    finalizar: cerrarPendiente,
  },
};

/**
 * An albarán or devolución a supplier invoice covers (hcp) was finished by it: only undoing the
 * reconciliation (eliminarfacturaproveedor) brings it back to Pendiente, never its own undo (RESULT 2, naming the
 * invoice and what to do).
 */
const conciliado = {
  async deshacerfinalizacion({ trx, doc }: { trx: Transaction<Database>; doc: DocRow }) {
    const f = await facturaProveedorDe(trx, doc.id);
    if (f) throw fail(MESSAGES.conciliadoEnFactura.replace('{factura}', f), '2');
  },
};

/** The supplier invoice (its number as the supplier gave it) that covers a purchase document, if any. */
export async function facturaProveedorDe(trx: Transaction<Database>, documentoId: number): Promise<string | null> {
  const f = await trx
    .selectFrom('facturas_proveedor_documentos as fd')
    .innerJoin('facturas_proveedor as f', 'f.id', 'fd.factura_id')
    .select('f.numero_proveedor')
    .where('fd.documento_id', '=', documentoId)
    .executeTakeFirst();
  return f?.numero_proveedor ?? null;
}

export const albaranCompraEffects: TipoEffects<typeof documentoCompraSchema> = {
  ...base([...COLUMNAS, 'albaran_proveedor']),
  schema: albaranCompraSchema as typeof documentoCompraSchema,
  antesDe: conciliado,
  /** The articles' last purchase price: the net unit price of the albarán's last line of each (one statement). */
  async alGuardar({ trx, dialect, docId }) {
    await sql`update articulos set precio_compra = (
        select ${precioNetoSql(dialect, 'l')} from documento_lineas l where l.documento_id = ${docId} and l.articulo_id = articulos.id
        order by l.orden desc limit 1)
      where id in (select articulo_id from documento_lineas where documento_id = ${docId})`.execute(trx);
  },
};

export const devolucionCompraEffects: TipoEffects<typeof documentoCompraSchema> = {
  ...base(COLUMNAS),
  antesDe: conciliado,
  origenes: ['albarancompra'],
};

/** The purchase document types, registered with the engine (actions/compras makes their op.asp actions). */
export const tiposCompra = [
  registrarTipo(DOCUMENTO_TIPOS.pedidocompra, pedidoCompraEffects),
  registrarTipo(DOCUMENTO_TIPOS.albarancompra, albaranCompraEffects),
  registrarTipo(DOCUMENTO_TIPOS.devolucioncompra, devolucionCompraEffects),
];
