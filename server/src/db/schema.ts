import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { SerieTipo } from 'shared/domain';

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
};

export type ConfiguracionRow = Selectable<ConfiguracionTable>;
export type UsuarioRow = Selectable<UsuariosTable>;
export type SerieRow = Selectable<SeriesTable>;
export type NewDocumento = Insertable<DocumentosTable>;
