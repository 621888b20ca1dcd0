import { Migrator, sql } from 'kysely';
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely, Migration, MigrationProvider } from 'kysely';
import { CONF_FIELDS } from 'shared/domain';
import type { DialectName } from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/** Adds an auto-increment integer primary key `id` in the dialect's own way. */
function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName): CreateTableBuilder<T, 'id'> {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'serial', (c) => c.primaryKey());
}

const notNull = (c: ColumnDefinitionBuilder) => c.notNull();

function migrations(dialect: DialectName): Record<string, Migration> {
  const blob = dialect === 'sqlite' ? 'blob' : 'bytea';
  const bigint = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    '0001_base': {
      async up(db: AnyDb) {
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
      },
    },
    '0002_catalogo': {
      async up(db: AnyDb) {
        await catalogo(db, dialect);
      },
    },
    '0003_documentos': {
      async up(db: AnyDb) {
        await documentos(db, dialect);
      },
    },
    '0004_busqueda': {
      async up(db: AnyDb) {
        await busqueda(db, dialect);
      },
    },
    '0005_compras': {
      async up(db: AnyDb) {
        await compras(db, dialect);
      },
    },
    '0006_ventas': {
      async up(db: AnyDb) {
        await ventas(db, dialect);
      },
    },
    '0007_verifactu': {
      async up(db: AnyDb) {
        await verifactu(db, dialect);
      },
    },
    // docs/documents.md: negative stock allowed (1, the default: shops sell what has not been received yet) or refused (0).
    '0008_stock_negativo': {
      async up(db: AnyDb) {
        await db.schema.alterTable('configuracion').addColumn('stock_negativo', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      },
    },
  };
}

/** The warehouse every installation has: stock per warehouse starts here. */
export const DEFAULT_ALMACEN = { codigo: 'PRINCIPAL', nombre: 'Almacén principal', activo: 1 } as const;

/**
 * The catalogue (issue 3): familias, subfamilias, marcas, materiales, procesos, articulos and their
 * links; almacenes and the stock ledger the derived figures are read from. Codes and sort keys use
 * the binary collation on PostgreSQL too, so lists sort the same on both engines.
 */
async function catalogo(db: AnyDb, dialect: DialectName): Promise<void> {
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

/**
 * The document engine and the warehouses (issue 6): the documents' header columns, their lines,
 * links, action log and numbering counters; ubicaciones; van fields on almacenes; and the ledger's
 * location, line and action. See server/src/documentos/ and docs/documents.md.
 */
async function documentos(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const bigint = pg ? 'bigint' : 'integer';
  const binaryText = pg ? sql`text collate "C"` : sql`text`;
  // SQLite adds one column per ALTER TABLE.
  const addColumns = async (table: string, columns: [string, 'text' | 'integer' | 'bigint', ((c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder)?][]) => {
    for (const [name, type, build] of columns) await db.schema.alterTable(table).addColumn(name, type, build ?? ((c) => c)).execute();
  };
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

  await addColumns('almacenes', [
    ['direccion', 'text'],
    ['es_furgoneta', 'integer', zero],
    ['matricula', 'text'],
    // No foreign key: a restore replaces usuarios, and deleting a driver must not be refused by a van.
    ['conductor_id', 'integer'],
  ]);

  await withId(db.schema.createTable('ubicaciones'), dialect)
    .addColumn('almacen_id', 'integer', (c) => c.notNull().references('almacenes.id'))
    .addColumn('codigo', binaryText, notNull)
    .addColumn('descripcion', 'text')
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint('ubicaciones_almacen_codigo', ['almacen_id', 'codigo'])
    .execute();

  await db.schema
    .createTable('articulo_ubicaciones')
    .addColumn('articulo_id', 'integer', (c) => c.notNull().references('articulos.id'))
    .addColumn('almacen_id', 'integer', (c) => c.notNull().references('almacenes.id'))
    .addColumn('ubicacion_id', 'integer', (c) => c.notNull().references('ubicaciones.id'))
    .addPrimaryKeyConstraint('articulo_ubicaciones_pk', ['articulo_id', 'almacen_id'])
    .execute();
  await db.schema.createIndex('articulo_ubicaciones_ubicacion').on('articulo_ubicaciones').column('ubicacion_id').execute();
  await db.schema.createIndex('articulo_ubicaciones_almacen').on('articulo_ubicaciones').column('almacen_id').execute();

  await addColumns('documentos', [
    ['ejercicio', 'integer', zero],
    ['almacen_id', 'integer', (c) => c.references('almacenes.id')],
    ['almacen_destino_id', 'integer', (c) => c.references('almacenes.id')],
    ['familia_id', 'integer', (c) => c.references('familias.id')],
    ['ubicacion_id', 'integer', (c) => c.references('ubicaciones.id')],
    // Their tables come with compras and ventas.
    ['cliente_id', 'integer'],
    ['proveedor_id', 'integer'],
    ['forma_pago', 'text'],
    ['fecha_entrega', 'text'],
    ['retencion', 'integer', zero],
    ['con_recargo', 'integer', zero],
    ['observaciones', 'text'],
    ['base', bigint, zero],
    ['iva', bigint, zero],
    ['recargo', bigint, zero],
    ['retencion_importe', bigint, zero],
    ['desglose', 'text'],
    ['clave', 'text'],
    ['creado_por', 'integer'],
    ['modificado', 'text'],
    ['modificado_por', 'integer'],
  ]);
  await db.schema.createIndex('documentos_clave').on('documentos').column('clave').unique().execute();
  await db.schema.dropIndex('documentos_tipo_fecha').execute();
  await db.schema.createIndex('documentos_tipo_fecha').on('documentos').columns(['tipo', 'fecha', 'id']).execute();
  await db.schema.createIndex('documentos_tipo_numero').on('documentos').columns(['tipo', 'ejercicio', 'numero']).execute();
  await db.schema.createIndex('documentos_tipo_estado').on('documentos').columns(['tipo', 'estado']).execute();
  await db.schema.createIndex('documentos_almacen').on('documentos').column('almacen_id').execute();
  await db.schema.createIndex('documentos_almacen_destino').on('documentos').column('almacen_destino_id').execute();
  await db.schema.createIndex('documentos_familia').on('documentos').column('familia_id').execute();
  await db.schema.createIndex('documentos_ubicacion').on('documentos').column('ubicacion_id').execute();

  await withId(db.schema.createTable('documento_lineas'), dialect)
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('orden', 'integer', notNull)
    .addColumn('articulo_id', 'integer', (c) => c.notNull().references('articulos.id'))
    .addColumn('codigo', 'text', notNull)
    .addColumn('descripcion', 'text', notNull)
    .addColumn('tipo_iva', 'text', notNull)
    .addColumn('cantidad', bigint, zero)
    .addColumn('precio', bigint, zero)
    .addColumn('descuento', 'integer', zero)
    .addColumn('recargo', 'integer', zero)
    .addColumn('pendiente', bigint, zero)
    .addColumn('almacen_id', 'integer', (c) => c.references('almacenes.id'))
    .addColumn('ubicacion_id', 'integer', (c) => c.references('ubicaciones.id'))
    .addColumn('motivo', 'text')
    .addColumn('teorico', bigint)
    .execute();
  await db.schema.createIndex('documento_lineas_documento').on('documento_lineas').columns(['documento_id', 'orden']).execute();
  await db.schema.createIndex('documento_lineas_articulo').on('documento_lineas').columns(['articulo_id', 'pendiente']).execute();
  await db.schema.createIndex('documento_lineas_almacen').on('documento_lineas').column('almacen_id').execute();
  await db.schema.createIndex('documento_lineas_ubicacion').on('documento_lineas').column('ubicacion_id').execute();

  await withId(db.schema.createTable('documento_enlaces'), dialect)
    .addColumn('linea_id', 'integer', (c) => c.notNull().references('documento_lineas.id'))
    .addColumn('padre_linea_id', 'integer', (c) => c.notNull().references('documento_lineas.id'))
    .addColumn('cantidad', bigint, zero)
    .execute();
  await db.schema.createIndex('documento_enlaces_linea').on('documento_enlaces').column('linea_id').execute();
  await db.schema.createIndex('documento_enlaces_padre').on('documento_enlaces').column('padre_linea_id').execute();

  await withId(db.schema.createTable('documento_acciones'), dialect)
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('accion', 'text', notNull)
    .addColumn('fecha', 'text', notNull)
    .addColumn('usuario_id', 'integer')
    .addColumn('estado_antes', 'text', notNull)
    .addColumn('detalle', 'text')
    // No foreign key: it points forward (a restore inserts rows in id order).
    .addColumn('deshecha_por', 'integer')
    .execute();
  await db.schema.createIndex('documento_acciones_documento').on('documento_acciones').columns(['documento_id', 'accion', 'id']).execute();

  await db.schema
    .createTable('contadores')
    .addColumn('tipo', 'text', notNull)
    .addColumn('serie_id', 'integer', zero)
    .addColumn('ejercicio', 'integer', notNull)
    .addColumn('ultimo', 'integer', zero)
    .addColumn('ultima_fecha', 'text')
    .addPrimaryKeyConstraint('contadores_pk', ['tipo', 'serie_id', 'ejercicio'])
    .execute();

  await addColumns('stock_movimientos', [
    ['ubicacion_id', 'integer', (c) => c.references('ubicaciones.id')],
    // No foreign key: a document's lines are rewritten while it is editable; the ledger keeps the id it had.
    ['documento_linea_id', 'integer'],
    ['accion_id', 'integer', (c) => c.references('documento_acciones.id')],
  ]);
  // Covering indexes: stock of an article per warehouse, and its movements with the running balance, read only the index.
  await db.schema.dropIndex('stock_movimientos_articulo').execute();
  await db.schema.createIndex('stock_movimientos_articulo').on('stock_movimientos').columns(['articulo_id', 'almacen_id', 'id', 'cantidad']).execute();
  await db.schema.createIndex('stock_movimientos_articulo_id').on('stock_movimientos').columns(['articulo_id', 'id', 'cantidad']).execute();
  await db.schema.createIndex('stock_movimientos_accion').on('stock_movimientos').column('accion_id').execute();
  await db.schema.createIndex('stock_movimientos_ubicacion').on('stock_movimientos').columns(['ubicacion_id', 'articulo_id']).execute();
}

/**
 * Search inside words (issue 6): "nillo" finds "tornillo" (see actions/catalogo/busqueda.ts). A
 * trigram index over `busqueda` answers `like '%fragment%'` for fragments of 3+ characters; the word
 * index of 0002 stays for words of one or two characters (they start a word).
 * - SQLite: an FTS5 external-content table with the trigram tokenizer, kept by triggers like
 *   articulos_fts, and filled from the existing articles.
 * - PostgreSQL: pg_trgm (a contrib extension, "trusted" since 13: the database owner may create it;
 *   otherwise a superuser runs `create extension pg_trgm` once) and a GIN index with its operator
 *   class, named through the schema the extension lives in, whatever the search_path.
 */
async function busqueda(db: AnyDb, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`create extension if not exists pg_trgm`.execute(db);
    const ext = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`.execute(db);
    const schema = ext.rows[0]?.schema ?? 'public';
    await sql`create index articulos_busqueda_trgm on articulos using gin (busqueda ${sql.id(schema, 'gin_trgm_ops')})`.execute(db);
    return;
  }
  await sql`create virtual table articulos_tri using fts5(busqueda, content='articulos', content_rowid='id', tokenize='trigram')`.execute(db);
  await sql`create trigger articulos_tri_ai after insert on articulos begin
    insert into articulos_tri(rowid, busqueda) values (new.id, new.busqueda); end`.execute(db);
  await sql`create trigger articulos_tri_ad after delete on articulos begin
    insert into articulos_tri(articulos_tri, rowid, busqueda) values ('delete', old.id, old.busqueda); end`.execute(db);
  await sql`create trigger articulos_tri_au after update of busqueda on articulos begin
    insert into articulos_tri(articulos_tri, rowid, busqueda) values ('delete', old.id, old.busqueda);
    insert into articulos_tri(rowid, busqueda) values (new.id, new.busqueda); end`.execute(db);
  await sql`insert into articulos_tri(articulos_tri) values ('rebuild')`.execute(db);
}

/**
 * Purchases (issue 7): proveedores (code and NIF unique; indexes for the list's sort keys), the
 * supplier invoices hcp records and the documents each covers (a document in one invoice at most),
 * and the documents' supplier filter (documentos.proveedor_id has existed since 0003, without a
 * foreign key: its table comes now; the list page sorted by date for one supplier reads this index).
 */
async function compras(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const bigint = pg ? 'bigint' : 'integer';
  const binaryText = pg ? sql`text collate "C"` : sql`text`;
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await withId(db.schema.createTable('proveedores'), dialect)
    .addColumn('codigo', binaryText, (c) => c.notNull().unique())
    .addColumn('nif', binaryText, (c) => c.notNull().unique())
    .addColumn('razon_social', 'text', notNull)
    .addColumn('nombre_comercial', 'text')
    .addColumn('direccion', 'text')
    .addColumn('codigo_postal', 'text')
    .addColumn('poblacion', 'text')
    .addColumn('provincia', 'text')
    .addColumn('telefono', 'text')
    .addColumn('email', 'text')
    .addColumn('iban', 'text')
    .addColumn('forma_pago', 'text')
    .addColumn('retencion', 'integer', zero)
    .addColumn('observaciones', 'text')
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('proveedores_razon_social').on('proveedores').columns(['razon_social', 'id']).execute();
  await db.schema.createIndex('proveedores_poblacion').on('proveedores').columns(['poblacion', 'id']).execute();

  await db.schema.createIndex('documentos_tipo_proveedor').on('documentos').columns(['tipo', 'proveedor_id', 'fecha', 'id']).execute();
  await db.schema.createIndex('documentos_proveedor').on('documentos').column('proveedor_id').execute();

  await withId(db.schema.createTable('facturas_proveedor'), dialect)
    .addColumn('proveedor_id', 'integer', (c) => c.notNull().references('proveedores.id'))
    .addColumn('numero_proveedor', 'text', notNull)
    .addColumn('fecha', 'text', notNull)
    // Cents: the invoice's total as typed, and what its documents add up to (devoluciones negative).
    .addColumn('total', bigint, zero)
    .addColumn('base', bigint, zero)
    .addColumn('iva', bigint, zero)
    .addColumn('total_documentos', bigint, zero)
    .addColumn('creado', 'text', notNull)
    .addColumn('creado_por', 'integer')
    .execute();
  await db.schema.createIndex('facturas_proveedor_proveedor').on('facturas_proveedor').columns(['proveedor_id', 'fecha', 'id']).execute();
  await db.schema.createIndex('facturas_proveedor_fecha').on('facturas_proveedor').columns(['fecha', 'id']).execute();
  await db.schema
    .createTable('facturas_proveedor_documentos')
    .addColumn('factura_id', 'integer', (c) => c.notNull().references('facturas_proveedor.id'))
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id').unique())
    .addPrimaryKeyConstraint('facturas_proveedor_documentos_pk', ['factura_id', 'documento_id'])
    .execute();
}

/**
 * Sales (issue 8): clientes (like proveedores, plus recargo, tarifa and a default discount); the invoice's
 * header columns (tipo de factura, the invoice a rectificativa corrects and how, the payment), the parte's
 * worker and hours; the VERI*FACTU records, append-only, one chain per issuer whose head row
 * (registros_cadena) is locked by the emission that extends it; the retail setting of simplified invoices.
 */
async function ventas(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const bigint = pg ? 'bigint' : 'integer';
  const binaryText = pg ? sql`text collate "C"` : sql`text`;
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await withId(db.schema.createTable('clientes'), dialect)
    .addColumn('codigo', binaryText, (c) => c.notNull().unique())
    .addColumn('nif', binaryText, (c) => c.notNull().unique())
    .addColumn('razon_social', 'text', notNull)
    .addColumn('nombre_comercial', 'text')
    .addColumn('direccion', 'text')
    .addColumn('codigo_postal', 'text')
    .addColumn('poblacion', 'text')
    .addColumn('provincia', 'text')
    .addColumn('telefono', 'text')
    .addColumn('email', 'text')
    .addColumn('iban', 'text')
    .addColumn('forma_pago', 'text')
    .addColumn('retencion', 'integer', zero)
    .addColumn('recargo', 'integer', zero)
    .addColumn('tarifa', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('descuento', 'integer', zero)
    .addColumn('observaciones', 'text')
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('clientes_razon_social').on('clientes').columns(['razon_social', 'id']).execute();
  await db.schema.createIndex('clientes_poblacion').on('clientes').columns(['poblacion', 'id']).execute();
  await db.schema.createIndex('documentos_tipo_cliente').on('documentos').columns(['tipo', 'cliente_id', 'fecha', 'id']).execute();
  await db.schema.createIndex('documentos_cliente').on('documentos').column('cliente_id').execute();

  for (const [name, type] of [
    ['tipo_factura', 'text'],
    ['factura_id', 'integer'],
    ['modo_rectificacion', 'text'],
    ['cobro_fecha', 'text'],
    ['cobro_forma', 'text'],
    ['usuario_id', 'integer'],
  ] as const) {
    await db.schema.alterTable('documentos').addColumn(name, type).execute();
  }
  await db.schema.createIndex('documentos_factura').on('documentos').column('factura_id').execute();
  await db.schema.alterTable('configuracion').addColumn('minorista', 'integer', zero).execute();

  await withId(db.schema.createTable('parte_horas'), dialect)
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('orden', 'integer', notNull)
    .addColumn('proceso_id', 'integer', (c) => c.notNull().references('procesos.id'))
    .addColumn('horas', bigint, zero)
    .addColumn('precio', bigint, zero)
    .execute();
  await db.schema.createIndex('parte_horas_documento').on('parte_horas').columns(['documento_id', 'orden']).execute();
  await db.schema.createIndex('parte_horas_proceso').on('parte_horas').column('proceso_id').execute();

  await withId(db.schema.createTable('registros_facturacion'), dialect)
    .addColumn('emisor', 'text', notNull)
    .addColumn('orden', 'integer', notNull)
    .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('alta', 'anulacion')`))
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('num_serie', 'text', notNull)
    .addColumn('fecha_expedicion', 'text', notNull)
    .addColumn('tipo_factura', 'text')
    .addColumn('cuota_total', 'text')
    .addColumn('importe_total', 'text')
    .addColumn('huella_anterior', 'text', notNull)
    .addColumn('huella', 'text', notNull)
    .addColumn('fecha_hora_huso', 'text', notNull)
    .addColumn('xml', 'text', notNull)
    .addColumn('estado_envio', 'text', (c) => c.notNull().defaultTo('pendiente'))
    .addColumn('creado', 'text', notNull)
    .addUniqueConstraint('registros_facturacion_orden', ['emisor', 'orden'])
    .execute();
  await db.schema.createIndex('registros_facturacion_documento').on('registros_facturacion').columns(['documento_id', 'id']).execute();
  await db.schema
    .createTable('registros_cadena')
    .addColumn('emisor', 'text', (c) => c.primaryKey())
    .addColumn('ultimo_orden', 'integer', zero)
    .addColumn('ultima_huella', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

/**
 * VERI*FACTU submission (issue 9): the one-row settings (on/off, environment, the company's certificate encrypted
 * with a key outside the database, the AEAT's waiting time and the sender's lease), each record's answer, and the
 * log of submissions.
 */
async function verifactu(db: AnyDb, dialect: DialectName): Promise<void> {
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

/** Runs every pending migration; several instances starting at once are serialised by Kysely's lock. */
export async function migrate(db: AnyDb, dialect: DialectName): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
}
