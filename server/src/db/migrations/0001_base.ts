import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { notNull, withId } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/**
 * The configuration's 26 module flags (`conf_<flag>`, integer 0/1, default 0) in the order this step created them: frozen
 * from shared/src/domain/flags.ts CONF_FIELDS at commit 9ad9f41, as every database so far has them. A flag added later
 * is a new migration that adds its column (docs/recetas.md), never a name pushed onto this list.
 */
const CONF_FIELDS = [
  'conf_almacenes', 'conf_compras', 'conf_compuestos', 'conf_materiales', 'conf_procesos', 'conf_proporciones', 'conf_seo',
  'conf_tarifa_2', 'conf_tarifa_3', 'conf_tpv', 'conf_ventas', 'conf_listado', 'conf_hcp', 'conf_hfa', 'conf_pvp', 'conf_pvp_t2',
  'conf_pvp_t3', 'conf_partes', 'conf_furgoneta', 'conf_ventas_pedidos', 'conf_ventas_albaranes', 'conf_ventas_devoluciones',
  'conf_compras_pedidos', 'conf_compras_albaranes', 'conf_compras_devoluciones', 'conf_ventas_facturas',
] as const;

/** Configuración, usuarios, sesiones, login attempts, series, archivos and the documents' first columns (issue 1). */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const blob = dialect === 'sqlite' ? 'blob' : 'bytea';
  const bigint = dialect === 'sqlite' ? 'integer' : 'bigint';
    let conf = withId(db.schema.createTable('configuracion'), dialect)
      .addColumn('razon_social', 'text', notNull)
      .addColumn('nombre_comercial', 'text')
      .addColumn('nif', 'text', notNull)
      .addColumn('direccion', 'text')
      .addColumn('codigo_postal', 'text')
      .addColumn('poblacion', 'text')
      .addColumn('provincia', 'text')
      .addColumn('telefono', 'text')
      .addColumn('email', 'text')
      .addColumn('logo', 'text')
      .addColumn('favicon', 'text');
    for (const f of CONF_FIELDS) conf = conf.addColumn(f, 'integer', (c) => c.notNull().defaultTo(0));
    await conf.execute();

    await withId(db.schema.createTable('usuarios'), dialect)
      .addColumn('nombre', 'text', notNull)
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', notNull)
      .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('ultimo_acceso', 'text')
      .addColumn('creado', 'text', notNull)
      .execute();

    // No foreign key to usuarios: a restore replaces usuarios and must keep live sessions.
    await db.schema
      .createTable('sesiones')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('usuario_id', 'integer', notNull)
      .addColumn('creada', 'text', notNull)
      .addColumn('expira', 'text', notNull)
      .addColumn('ip', 'text')
      .addColumn('agente', 'text')
      .execute();
    await db.schema.createIndex('sesiones_usuario').on('sesiones').column('usuario_id').execute();

    await db.schema
      .createTable('recuperaciones')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('usuario_id', 'integer', notNull)
      .addColumn('expira', 'text', notNull)
      .addColumn('usada', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('recuperaciones_usuario').on('recuperaciones').column('usuario_id').execute();

    await withId(db.schema.createTable('intentos_login'), dialect)
      .addColumn('clave', 'text', notNull)
      .addColumn('fecha', 'text', notNull)
      .execute();
    await db.schema.createIndex('intentos_login_clave').on('intentos_login').columns(['clave', 'fecha']).execute();

    await withId(db.schema.createTable('series'), dialect)
      .addColumn('codigo', 'text', (c) => c.notNull().unique())
      .addColumn('descripcion', 'text', notNull)
      .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('normal', 'rectificativa', 'simplificada')`))
      .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();

    await db.schema
      .createTable('archivos')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('nombre', 'text', notNull)
      .addColumn('tipo', 'text', notNull)
      .addColumn('tamano', 'integer', notNull)
      .addColumn('datos', blob, notNull)
      .addColumn('creado', 'text', notNull)
      .execute();

    await withId(db.schema.createTable('documentos'), dialect)
      .addColumn('tipo', 'text', notNull)
      .addColumn('serie_id', 'integer', (c) => c.references('series.id'))
      .addColumn('numero', 'integer')
      .addColumn('fecha', 'text', notNull)
      .addColumn('estado', 'text', notNull)
      .addColumn('total', bigint, (c) => c.notNull().defaultTo(0))
      .addColumn('creado', 'text', notNull)
      .execute();
    await db.schema.createIndex('documentos_tipo_fecha').on('documentos').columns(['tipo', 'fecha']).execute();
    await db.schema.createIndex('documentos_serie').on('documentos').column('serie_id').execute();
}
