import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { notNull, withId } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/**
 * The activity log (docs: audit trail): one line per change, written in the change's own transaction.
 * Append-only: no action updates or deletes a line, and a restore keeps them. The user's name is kept as it
 * was (users can be deleted), so usuario_id has no foreign key.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('actividad'), dialect)
    .addColumn('fecha', 'text', notNull)
    .addColumn('usuario_id', 'integer')
    .addColumn('usuario_nombre', 'text')
    .addColumn('ip', 'text')
    .addColumn('accion', 'text', notNull)
    .addColumn('tipo', 'text', notNull)
    .addColumn('entidad', 'text')
    .addColumn('entidad_id', 'integer')
    .addColumn('numero', 'text')
    .addColumn('antes', 'text')
    .addColumn('despues', 'text')
    .execute();
  await db.schema.createIndex('actividad_fecha').on('actividad').column('fecha').execute();
  await db.schema.createIndex('actividad_usuario').on('actividad').columns(['usuario_id', 'fecha']).execute();
  await db.schema.createIndex('actividad_entidad').on('actividad').columns(['entidad', 'entidad_id', 'fecha']).execute();
}
