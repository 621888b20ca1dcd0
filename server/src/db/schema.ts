import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { SerieTipo, TipoIva, UnidadMedida } from 'shared/domain';

/** Integer 0/1 flag column. */
type Flag = 0 | 1;

export type ConfiguracionTable = {
  id: Generated<number>;
  razon_social: string;
  nombre_comercial: string | null;
  nif: string;
  direccion: string | null;
  codigo_postal: string | null;
  poblacion: string | null;
  provincia: string | null;
  telefono: string | null;
  email: string | null;
  logo: string | null;
  favicon: string | null;
} & { [conf: `conf_${string}`]: Flag };

export type UsuariosTable = {
  id: Generated<number>;
  nombre: string;
  email: string;
  password_hash: string;
  activo: Flag;
  ultimo_acceso: string | null;
  creado: string;
};

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

export type SeriesTable = {
  id: Generated<number>;
  codigo: string;
  descripcion: string;
  tipo: SerieTipo;
  activo: Flag;
};

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
export type MaestroTable = {
  id: Generated<number>;
  codigo: string;
  nombre: string;
  activo: Flag;
};
export type AlmacenesTable = MaestroTable;
export type FamiliasTable = MaestroTable;
export type MarcasTable = MaestroTable;
export type MaterialesTable = MaestroTable;
export type SubfamiliasTable = MaestroTable & { familia_id: number };
export type ProcesosTable = MaestroTable & {
  /** Minutes. */
  tiempo: number;
  /** Ten-thousandths of a euro. */
  coste: number;
};

export type ArticulosTable = {
  id: Generated<number>;
  codigo: string;
  referencia: string | null;
  descripcion: string;
  descripcion_larga: string | null;
  unidad_medida: UnidadMedida;
  familia_id: number | null;
  subfamilia_id: number | null;
  marca_id: number | null;
  precio_compra: number;
  precio_venta: number;
  tarifa_2: number;
  tarifa_3: number;
  pvp_1: number;
  pvp_2: number;
  pvp_3: number;
  tipo_iva: TipoIva;
  palabras_clave: string | null;
  nombre_tpv: string | null;
  codigo_barras: string | null;
  tiempo: number | null;
  activo: Flag;
  foto: string | null;
  seo_slug: string | null;
  seo_titulo: string | null;
  seo_descripcion: string | null;
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
