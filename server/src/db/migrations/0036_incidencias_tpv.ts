import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { notNull, withId } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * Issue 23 — what a till issued, the books keep. An upload that breaks a business rule (a ticket over the simplified
 * invoice's limit, a price or discount beyond the cashier's rights, a return beyond what was sold, a withdrawal beyond
 * the drawer, a clock that went back) is stored as issued and leaves an incidence here for the manager, with the way to
 * put it right; a record that is truly corrupt (its huella, chain or number don't hold) is not stored as a record: it is
 * kept aside here whole (`datos`, the upload as received) and reported. Never deleted: resolved (when, by whom).
 * `uuid` + `tipo` unique: the same upload sent again leaves no second incidence.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('tpv_incidencias'), dialect)
    .addColumn('terminal_id', 'integer', (c) => c.notNull().references('tpv_terminales.id'))
    .addColumn('caja_id', 'integer', (c) => c.references('tpv_cajas.id'))
    .addColumn('documento_id', 'integer', (c) => c.references('documentos.id'))
    .addColumn('movimiento_id', 'integer', (c) => c.references('tpv_movimientos.id'))
    .addColumn('uuid', 'text')
    .addColumn('tipo', 'text', (c) =>
      c.notNull().check(sql`tipo in ('limite', 'precio', 'descuento', 'devolucion', 'facturado', 'retirada', 'reloj', 'articulo', 'caja', 'registro')`),
    )
    .addColumn('detalle', 'text', notNull)
    .addColumn('remedio', 'text', notNull)
    .addColumn('datos', 'text')
    .addColumn('fecha', 'text', notNull)
    .addColumn('usuario_id', 'integer')
    .addColumn('resuelta', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('resuelta_fecha', 'text')
    .addColumn('resuelta_por', 'integer')
    .execute();
  await db.schema.createIndex('tpv_incidencias_uuid_tipo').on('tpv_incidencias').columns(['uuid', 'tipo']).unique().execute();
  await db.schema.createIndex('tpv_incidencias_caja').on('tpv_incidencias').column('caja_id').execute();
  await db.schema.createIndex('tpv_incidencias_documento').on('tpv_incidencias').column('documento_id').execute();
}
