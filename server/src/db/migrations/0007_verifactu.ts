import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId, notNull } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/**
 * VERI*FACTU submission (issue 9): the one-row settings (on/off, environment, the company's certificate encrypted
 * with a key outside the database, the AEAT's waiting time and the sender's lease), each record's answer, and the
 * log of submissions.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const blob = dialect === 'sqlite' ? 'blob' : 'bytea';
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await db.schema
    .createTable('verifactu')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('activo', 'integer', zero)
    .addColumn('entorno', 'text', (c) => c.notNull().defaultTo('pruebas').check(sql`entorno in ('pruebas', 'produccion')`))
    // AES-256-GCM of { pfx, password }: ciphertext, nonce and tag.
    .addColumn('certificado', blob)
    .addColumn('certificado_iv', blob)
    .addColumn('certificado_tag', blob)
    .addColumn('titular', 'text')
    .addColumn('nif', 'text')
    .addColumn('emisor_certificado', 'text')
    .addColumn('caduca', 'text')
    // The AEAT's TiempoEsperaEnvio (seconds) and when the next submission may leave.
    .addColumn('tiempo_espera', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('proximo_envio', 'text')
    .addColumn('ultimo_envio', 'text')
    .addColumn('ultimo_error', 'text')
    // Consecutive transport failures (the backoff's exponent).
    .addColumn('fallos', 'integer', zero)
    // Who is sending now, until when: one sender among every instance.
    .addColumn('lease_id', 'text')
    .addColumn('lease_hasta', 'text')
    .execute();
  await db.insertInto('verifactu').values({ id: 1 }).execute();

  await withId(db.schema.createTable('verifactu_envios'), dialect)
    .addColumn('fecha', 'text', notNull)
    .addColumn('emisor', 'text', notNull)
    .addColumn('entorno', 'text', notNull)
    .addColumn('registros', 'integer', notNull)
    .addColumn('estado', 'text', notNull)
    .addColumn('csv', 'text')
    .addColumn('tiempo_espera', 'integer')
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('respuesta', 'text')
    .execute();

  for (const [name, type] of [
    ['csv', 'text'],
    ['codigo_error', 'text'],
    ['descripcion_error', 'text'],
    ['enviado', 'text'],
    ['envio_id', 'integer'],
    ['subsana_id', 'integer'],
  ] as const) {
    await db.schema.alterTable('registros_facturacion').addColumn(name, type).execute();
  }
  await db.schema.createIndex('registros_facturacion_envio').on('registros_facturacion').columns(['estado_envio', 'id']).execute();
  await db.schema.createIndex('registros_facturacion_subsana').on('registros_facturacion').column('subsana_id').execute();
}
