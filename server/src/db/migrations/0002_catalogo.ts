import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { withId, notNull } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/** The warehouse every installation has: stock per warehouse starts here. */
export const DEFAULT_ALMACEN = { codigo: 'PRINCIPAL', nombre: 'Almacén principal', activo: 1 } as const;

/**
 * The catalogue (issue 3): familias, subfamilias, marcas, materiales, procesos, articulos and their
 * links; almacenes and the stock ledger the derived figures are read from. Codes and sort keys use
 * the binary collation on PostgreSQL too, so lists sort the same on both engines.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const bigint = pg ? 'bigint' : 'integer';
  const binaryText = pg ? sql`text collate "C"` : sql`text`;
  const maestro = (name: string) =>
    withId(db.schema.createTable(name), dialect)
      .addColumn('codigo', binaryText, (c) => c.notNull().unique())
      .addColumn('nombre', 'text', notNull)
      .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1));

  await maestro('almacenes').execute();
  await db.insertInto('almacenes').values(DEFAULT_ALMACEN).execute();
  await maestro('familias').execute();
  await maestro('subfamilias').addColumn('familia_id', 'integer', (c) => c.notNull().references('familias.id')).execute();
  await db.schema.createIndex('subfamilias_familia').on('subfamilias').column('familia_id').execute();
  await maestro('marcas').execute();
  await maestro('materiales').execute();
  await maestro('procesos')
    .addColumn('tiempo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('coste', bigint, (c) => c.notNull().defaultTo(0))
    .execute();

  const price = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await withId(db.schema.createTable('articulos'), dialect)
    // Unique on SQLite by the column; on PostgreSQL by an index that also carries the id (below).
    .addColumn('codigo', binaryText, (c) => (pg ? c.notNull() : c.notNull().unique()))
    .addColumn('referencia', binaryText)
    .addColumn('descripcion', 'text', notNull)
    .addColumn('descripcion_larga', 'text')
    .addColumn('unidad_medida', 'text', (c) => c.notNull().defaultTo('ud'))
    .addColumn('familia_id', 'integer', (c) => c.references('familias.id'))
    .addColumn('subfamilia_id', 'integer', (c) => c.references('subfamilias.id'))
    .addColumn('marca_id', 'integer', (c) => c.references('marcas.id'))
    .addColumn('precio_compra', bigint, price)
    .addColumn('precio_venta', bigint, price)
    .addColumn('tarifa_2', bigint, price)
    .addColumn('tarifa_3', bigint, price)
    .addColumn('pvp_1', bigint, price)
    .addColumn('pvp_2', bigint, price)
    .addColumn('pvp_3', bigint, price)
    .addColumn('tipo_iva', 'text', (c) => c.notNull().defaultTo('21').check(sql`tipo_iva in ('21', '10', '4', 'exento')`))
    .addColumn('palabras_clave', 'text')
    .addColumn('nombre_tpv', 'text')
    .addColumn('codigo_barras', binaryText, (c) => c.unique())
    .addColumn('tiempo', 'integer')
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('foto', 'text')
    .addColumn('seo_slug', 'text')
    .addColumn('seo_titulo', 'text')
    .addColumn('seo_descripcion', 'text')
    .addColumn('busqueda', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('orden_descripcion', binaryText, (c) => c.notNull().defaultTo(''))
    .addColumn('stock_total', bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  if (pg) {
    // `select id … order by codigo limit … offset …` as an index-only scan (SQLite's indexes carry the rowid anyway).
    await sql`create unique index articulos_codigo_key on articulos (codigo) include (id)`.execute(db);
    // The exact number of articles, kept per statement: an unfiltered count(*) reads 100.000 rows on PostgreSQL.
    await sql`create table articulos_cuenta (id integer primary key check (id = 1), n bigint not null)`.execute(db);
    await sql`insert into articulos_cuenta (id, n) values (1, 0)`.execute(db);
    await sql`create function articulos_cuenta_ins() returns trigger language plpgsql as $$
      begin update articulos_cuenta set n = n + (select count(*) from nuevos) where id = 1; return null; end $$`.execute(db);
    await sql`create function articulos_cuenta_del() returns trigger language plpgsql as $$
      begin update articulos_cuenta set n = n - (select count(*) from viejos) where id = 1; return null; end $$`.execute(db);
    await sql`create function articulos_cuenta_trunc() returns trigger language plpgsql as $$
      begin update articulos_cuenta set n = 0 where id = 1; return null; end $$`.execute(db);
    await sql`create trigger articulos_cuenta_ins after insert on articulos referencing new table as nuevos
      for each statement execute function articulos_cuenta_ins()`.execute(db);
    await sql`create trigger articulos_cuenta_del after delete on articulos referencing old table as viejos
      for each statement execute function articulos_cuenta_del()`.execute(db);
    await sql`create trigger articulos_cuenta_trunc after truncate on articulos for each statement execute function articulos_cuenta_trunc()`.execute(db);
  }
  // One index per sortable column, with the id as tie-breaker (SQLite adds the rowid by itself);
  // each filter column leads an index ordered by código, the default sort.
  const index = (name: string, columns: string[]) => db.schema.createIndex(name).on('articulos').columns(columns).execute();
  await index('articulos_orden_descripcion', ['orden_descripcion', 'id']);
  await index('articulos_referencia', ['referencia', 'id']);
  await index('articulos_precio_venta', ['precio_venta', 'id']);
  await index('articulos_pvp_1', ['pvp_1', 'id']);
  await index('articulos_stock_total', ['stock_total', 'id']);
  await index('articulos_familia', ['familia_id', 'codigo']);
  await index('articulos_subfamilia', ['subfamilia_id', 'codigo']);
  await index('articulos_marca', ['marca_id', 'codigo']);
  await index('articulos_activo', ['activo', 'codigo']);

  // Word-prefix search over `busqueda` (words of [a-z0-9] separated by one space, see catalogo/busqueda.ts).
  if (pg) {
    await sql`create index articulos_busqueda on articulos using gin (array_to_tsvector(string_to_array(busqueda, ' ')))`.execute(db);
  } else {
    await sql`create virtual table articulos_fts using fts5(busqueda, content='articulos', content_rowid='id', tokenize='unicode61', prefix='1 2 3')`.execute(db);
    await sql`create trigger articulos_fts_ai after insert on articulos begin
      insert into articulos_fts(rowid, busqueda) values (new.id, new.busqueda); end`.execute(db);
    await sql`create trigger articulos_fts_ad after delete on articulos begin
      insert into articulos_fts(articulos_fts, rowid, busqueda) values ('delete', old.id, old.busqueda); end`.execute(db);
    await sql`create trigger articulos_fts_au after update of busqueda on articulos begin
      insert into articulos_fts(articulos_fts, rowid, busqueda) values ('delete', old.id, old.busqueda);
      insert into articulos_fts(rowid, busqueda) values (new.id, new.busqueda); end`.execute(db);
  }

  const link = (name: string, other: string, otherTable: string) =>
    db.schema
      .createTable(name)
      .addColumn('articulo_id', 'integer', (c) => c.notNull().references('articulos.id'))
      .addColumn(other, 'integer', (c) => c.notNull().references(`${otherTable}.id`));
  await link('articulo_materiales', 'material_id', 'materiales').addPrimaryKeyConstraint('articulo_materiales_pk', ['articulo_id', 'material_id']).execute();
  await link('articulo_procesos', 'proceso_id', 'procesos').addPrimaryKeyConstraint('articulo_procesos_pk', ['articulo_id', 'proceso_id']).execute();
  await link('articulo_componentes', 'componente_id', 'articulos')
    .addColumn('cantidad', bigint, notNull)
    .addPrimaryKeyConstraint('articulo_componentes_pk', ['articulo_id', 'componente_id'])
    .execute();
  await link('articulo_proporciones', 'material_id', 'materiales')
    .addColumn('porcentaje', 'integer', notNull)
    .addPrimaryKeyConstraint('articulo_proporciones_pk', ['articulo_id', 'material_id'])
    .execute();
  await db.schema.createIndex('articulo_materiales_material').on('articulo_materiales').column('material_id').execute();
  await db.schema.createIndex('articulo_procesos_proceso').on('articulo_procesos').column('proceso_id').execute();
  await db.schema.createIndex('articulo_componentes_componente').on('articulo_componentes').column('componente_id').execute();
  await db.schema.createIndex('articulo_proporciones_material').on('articulo_proporciones').column('material_id').execute();

  // The stock ledger: later sections (compras, ventas, almacenes) write it; the catalogue reads it.
  await withId(db.schema.createTable('stock_movimientos'), dialect)
    .addColumn('articulo_id', 'integer', (c) => c.notNull().references('articulos.id'))
    .addColumn('almacen_id', 'integer', (c) => c.notNull().references('almacenes.id'))
    .addColumn('ubicacion', 'text')
    .addColumn('cantidad', bigint, notNull)
    .addColumn('causa', 'text', notNull)
    .addColumn('documento_tipo', 'text')
    .addColumn('documento_id', 'integer')
    .addColumn('fecha', 'text', notNull)
    .addColumn('precio', bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('stock_movimientos_articulo').on('stock_movimientos').columns(['articulo_id', 'almacen_id']).execute();
  await db.schema.createIndex('stock_movimientos_almacen').on('stock_movimientos').columns(['almacen_id', 'articulo_id']).execute();
  await db.schema.createIndex('stock_movimientos_documento').on('stock_movimientos').columns(['documento_tipo', 'documento_id']).execute();

  // articulos.stock_total = Σ ledger, kept by the database whoever writes the ledger (the list sorts by it).
  if (pg) {
    await sql`create function stock_movimientos_total() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          update articulos set stock_total = stock_total - old.cantidad where id = old.articulo_id;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          update articulos set stock_total = stock_total + new.cantidad where id = new.articulo_id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger stock_movimientos_total after insert or update of cantidad, articulo_id or delete on stock_movimientos
      for each row execute function stock_movimientos_total()`.execute(db);
  } else {
    await sql`create trigger stock_movimientos_ai after insert on stock_movimientos begin
      update articulos set stock_total = stock_total + new.cantidad where id = new.articulo_id; end`.execute(db);
    await sql`create trigger stock_movimientos_ad after delete on stock_movimientos begin
      update articulos set stock_total = stock_total - old.cantidad where id = old.articulo_id; end`.execute(db);
    await sql`create trigger stock_movimientos_au after update of cantidad, articulo_id on stock_movimientos begin
      update articulos set stock_total = stock_total - old.cantidad where id = old.articulo_id;
      update articulos set stock_total = stock_total + new.cantidad where id = new.articulo_id; end`.execute(db);
  }
}
