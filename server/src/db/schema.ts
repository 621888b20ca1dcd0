import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Articulo, Configuracion, Familia, Proceso, Serie, Subfamilia, Usuario } from 'shared/domain';

/** Integer 0/1 flag column. */
type Flag = 0 | 1;

/** The table of a shared/domain record: its id generated, every other column as the record declares it. */
type TableOf<T extends { id: number }> = { id: Generated<number> } & Omit<T, 'id'>;

export type ConfiguracionTable = TableOf<Configuracion>;

export type UsuariosTable = TableOf<Usuario> & { password_hash: string };

export type SesionesTable = {
  token_hash: string;
  usuario_id: number;
  creada: string;
  expira: string;
  ip: string | null;
  agente: string | null;
};

export type RecuperacionesTable = {
  token_hash: string;
  usuario_id: number;
  expira: string;
  usada: Flag;
};

export type IntentosLoginTable = {
  id: Generated<number>;
  clave: string;
  fecha: string;
};

export type SeriesTable = TableOf<Serie>;

export type ArchivosTable = {
  id: string;
  nombre: string;
  tipo: string;
  tamano: number;
  datos: ColumnType<Buffer, Buffer | Uint8Array, Buffer | Uint8Array>;
  creado: string;
};

export type DocumentosTable = {
  id: Generated<number>;
  tipo: string;
  serie_id: number | null;
  numero: number | null;
  fecha: string;
  estado: string;
  /** Cents. */
  total: number;
  creado: string;
};

export type Database = {
  configuracion: ConfiguracionTable;
  usuarios: UsuariosTable;
  sesiones: SesionesTable;
  recuperaciones: RecuperacionesTable;
  intentos_login: IntentosLoginTable;
  series: SeriesTable;
  archivos: ArchivosTable;
  documentos: DocumentosTable;
  almacenes: AlmacenesTable;
  familias: FamiliasTable;
  subfamilias: SubfamiliasTable;
  marcas: MarcasTable;
  materiales: MaterialesTable;
  procesos: ProcesosTable;
  articulos: ArticulosTable;
  articulo_materiales: ArticuloMaterialesTable;
  articulo_procesos: ArticuloProcesosTable;
  articulo_componentes: ArticuloComponentesTable;
  articulo_proporciones: ArticuloProporcionesTable;
  stock_movimientos: StockMovimientosTable;
};

// Catalogue (issue 3). Scales: prices and costs in ten-thousandths, PVP in cents, quantities in
// thousandths, percentages in hundredths; always integers.

/** familias, marcas, materiales, almacenes: code, name, active. */
export type MaestroTable = TableOf<Familia>;
export type AlmacenesTable = MaestroTable;
export type FamiliasTable = MaestroTable;
export type MarcasTable = MaestroTable;
export type MaterialesTable = MaestroTable;
/** familia_nombre is the list's join, not a column. */
export type SubfamiliasTable = TableOf<Omit<Subfamilia, 'familia_nombre'>>;
/** tiempo in minutes, coste in ten-thousandths of a euro. */
export type ProcesosTable = TableOf<Proceso>;

/** What the article record carries besides its columns: the list's joins, the figures, the links. */
type ArticuloNotColumns =
  | 'familia_nombre'
  | 'subfamilia_nombre'
  | 'marca_nombre'
  | 'precio_medio_compra'
  | 'precio_medio_venta'
  | 'unidades_compradas'
  | 'unidades_vendidas'
  | 'stock_total'
  | 'stock'
  | 'materiales'
  | 'procesos'
  | 'componentes'
  | 'proporciones';

export type ArticulosTable = TableOf<Omit<Articulo, ArticuloNotColumns>> & {
  /** Normalised words of codigo, referencia, descripcion, palabras_clave, codigo_barras (the search index's text). */
  busqueda: string;
  /** descripcion without accents, lower case: the sort key of "by description". */
  orden_descripcion: string;
  /** Σ stock_movimientos.cantidad of the article, kept by database triggers; never written by the application. */
  stock_total: ColumnType<number, never, never>;
};

export type ArticuloMaterialesTable = { articulo_id: number; material_id: number };
export type ArticuloProcesosTable = { articulo_id: number; proceso_id: number };
export type ArticuloComponentesTable = { articulo_id: number; componente_id: number; cantidad: number };
export type ArticuloProporcionesTable = { articulo_id: number; material_id: number; porcentaje: number };

/** The stock ledger: stock of an article in a warehouse = Σ cantidad of its rows. */
export type StockMovimientosTable = {
  id: Generated<number>;
  articulo_id: number;
  almacen_id: number;
  ubicacion: string | null;
  /** Signed, thousandths: + in, − out. */
  cantidad: number;
  causa: string;
  documento_tipo: string | null;
  documento_id: number | null;
  /** 'YYYY-MM-DD' or an ISO timestamp. */
  fecha: string;
  /** Net unit price of the movement, ten-thousandths. */
  precio: number;
};

export type ConfiguracionRow = Selectable<ConfiguracionTable>;
export type UsuarioRow = Selectable<UsuariosTable>;
export type SerieRow = Selectable<SeriesTable>;
export type NewDocumento = Insertable<DocumentosTable>;
export type ArticuloRow = Selectable<ArticulosTable>;
export type NewArticulo = Insertable<ArticulosTable>;
export type NewStockMovimiento = Insertable<StockMovimientosTable>;
