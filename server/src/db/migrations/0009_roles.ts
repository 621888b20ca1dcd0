import type { Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { notNull, withId } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema.
type AnyDb = Kysely<any>;

/** Everything, as the Administrador role had it when roles arrived (every start brings the built-ins up to date). */
const TODO = JSON.stringify({
  areas: Object.fromEntries(
    ['catalogo', 'compras', 'ventas', 'facturas', 'almacenes', 'informes', 'tpv', 'configuracion', 'usuarios', 'copias', 'verifactu'].map((a) => [
      a,
      ['ver', 'editar', 'acciones', 'eliminar'],
    ]),
  ),
  especiales: ['cambiar_precio', 'descuento', 'anular_facturas', 'deshacer_anterior', 'ver_costes'],
  descuento_maximo: 10000,
});
const NADA = JSON.stringify({ areas: {}, especiales: [], descuento_maximo: 0 });

/**
 * Roles: who may do what (shared/domain/roles.ts). The five built-in roles (`clave` set, `predefinido` 1; their rights
 * are written again from the code on every start), and each user's role: everyone becomes Administrador, as
 * everyone could do everything until now.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('roles'), dialect)
    .addColumn('nombre', 'text', (c) => c.notNull().unique())
    .addColumn('clave', 'text', (c) => c.unique())
    .addColumn('predefinido', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: { areas: { <area>: [niveles] }, especiales: [...], descuento_maximo }.
    .addColumn('derechos', 'text', notNull)
    .addColumn('creado', 'text', notNull)
    .execute();
  const creado = new Date().toISOString();
  await db
    .insertInto('roles')
    .values([
      { nombre: 'Administrador', clave: 'administrador', predefinido: 1, derechos: TODO, creado },
      { nombre: 'Gestión', clave: 'gestion', predefinido: 1, derechos: NADA, creado },
      { nombre: 'Almacén', clave: 'almacen', predefinido: 1, derechos: NADA, creado },
      { nombre: 'Caja', clave: 'caja', predefinido: 1, derechos: NADA, creado },
      { nombre: 'Consulta', clave: 'consulta', predefinido: 1, derechos: NADA, creado },
    ])
    .execute();
  await db.schema.alterTable('usuarios').addColumn('rol_id', 'integer', (c) => c.references('roles.id')).execute();
  await db.schema.createIndex('usuarios_rol').on('usuarios').column('rol_id').execute();
  const admin = await db.selectFrom('roles').select('id').where('clave', '=', 'administrador').executeTakeFirstOrThrow();
  await db.updateTable('usuarios').set({ rol_id: admin.id }).execute();
}
