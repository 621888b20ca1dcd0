/**
 * The audit trail (Configuración › Actividad): one line per change — who, when, from where, what — written by the
 * server in the change's own transaction. `listadoactividad` answers these lines; nobody edits or deletes them.
 */
import { DOCUMENTO_TIPOS, type DocumentoTipo } from './documentos';
import { CONF_FIELD, FLAG_INFO, FLAG_NAMES } from './flags';

/** What kind of change a line records. */
export const TIPOS_ACTIVIDAD = [
  'guardar',
  'accion',
  'eliminar',
  'login',
  'login_fallido',
  'login_bloqueado',
  'pin',
  'restablecer',
  'restauracion',
  'certificado',
  'modulos',
] as const;
export type TipoActividad = (typeof TIPOS_ACTIVIDAD)[number];

export const TIPO_ACTIVIDAD_LABEL: Record<TipoActividad, string> = {
  guardar: 'Guardar',
  accion: 'Acción',
  eliminar: 'Eliminar',
  login: 'Inicio de sesión',
  login_fallido: 'Inicio de sesión fallido',
  login_bloqueado: 'Inicio de sesión bloqueado (demasiados intentos)',
  pin: 'PIN del TPV',
  restablecer: 'Contraseña restablecida',
  restauracion: 'Restauración de copia',
  certificado: 'Certificado',
  modulos: 'Módulos',
};

/** One line of the log. `antes`/`despues`: the changed fields of a master or the configuration (null otherwise). */
export type LineaActividad = {
  id: number;
  /** ISO instant (UTC). */
  fecha: string;
  usuario_id: number | null;
  /** The user's name when the line was written (kept if the user is later renamed or deleted). */
  usuario_nombre: string | null;
  ip: string | null;
  /** The op.asp action (`editarfamilia`, `emitirfactura`…). */
  accion: string;
  tipo: TipoActividad;
  entidad: string | null;
  entidad_id: number | null;
  /** The number or code users see (`A 2026/000012`, `FAM01`). */
  numero: string | null;
  antes: Record<string, unknown> | null;
  despues: Record<string, unknown> | null;
};

/** Masters and settings the log names, with their screen when they have one ('' = none). */
const MAESTROS: Record<string, { label: string; ruta: (id: number) => string }> = {
  configuracion: { label: 'Configuración', ruta: () => '/config' },
  verifactu: { label: 'VERI*FACTU', ruta: () => '/config/verifactu' },
  usuario: { label: 'Usuario', ruta: (id) => `/config/usuario/${id}` },
  rol: { label: 'Rol', ruta: (id) => `/config/rol/${id}` },
  serie: { label: 'Serie', ruta: (id) => `/config/serie/${id}` },
  copia: { label: 'Copia de seguridad', ruta: () => '/config/utilidades' },
  demo: { label: 'Datos de demostración', ruta: () => '/config/utilidades' },
  articulo: { label: 'Artículo', ruta: (id) => `/catalogo/articulo/${id}` },
  familia: { label: 'Familia', ruta: (id) => `/catalogo/familia/${id}` },
  subfamilia: { label: 'Subfamilia', ruta: (id) => `/catalogo/subfamilia/${id}` },
  marca: { label: 'Marca', ruta: (id) => `/catalogo/marca/${id}` },
  material: { label: 'Material', ruta: (id) => `/catalogo/material/${id}` },
  proceso: { label: 'Proceso', ruta: (id) => `/catalogo/proceso/${id}` },
  almacen: { label: 'Almacén', ruta: (id) => `/almacenes/almacen/${id}` },
  ubicacion: { label: 'Ubicación', ruta: (id) => `/almacenes/ubicacion/${id}` },
  proveedor: { label: 'Proveedor', ruta: (id) => `/compras/proveedor/${id}` },
  cliente: { label: 'Cliente', ruta: (id) => `/ventas/cliente/${id}` },
  facturaproveedor: { label: 'Factura de proveedor', ruta: () => '/compras/hcp' },
  // Issue 23: what a till's upload broke (its line carries the kind, detail and remedy).
  incidenciatpv: { label: 'Incidencia del TPV', ruta: () => '/ventas/tickets' },
};

/** Every entity a line may name, for the filter: masters first, then the document types. */
export const ENTIDADES_ACTIVIDAD: readonly { id: string; label: string }[] = [
  ...Object.entries(MAESTROS).map(([id, m]) => ({ id, label: m.label })),
  ...Object.values(DOCUMENTO_TIPOS).map((d) => ({ id: d.entidad, label: d.singular })),
];

/** The Spanish name of an entity as the log stores it (an unknown one as it comes). */
export function entidadActividadLabel(entidad: string | null): string {
  if (!entidad) return '';
  return MAESTROS[entidad]?.label ?? DOCUMENTO_TIPOS[entidad as DocumentoTipo]?.singular ?? entidad;
}

/** The screen of what a line names: the document's or the master's own record; null when it has none (or was deleted). */
export function rutaActividad(l: Pick<LineaActividad, 'entidad' | 'entidad_id' | 'tipo'>): string | null {
  if (!l.entidad || l.tipo === 'eliminar') return null;
  const doc = DOCUMENTO_TIPOS[l.entidad as DocumentoTipo];
  if (doc) return l.entidad_id ? `${doc.ruta}/${l.entidad_id}` : null;
  const m = MAESTROS[l.entidad];
  return m && l.entidad_id !== null ? m.ruta(l.entidad_id) : (m?.ruta(0) ?? null);
}

/** The fields a line changed, in order: [campo, antes, después]. */
export function cambiosActividad(l: Pick<LineaActividad, 'antes' | 'despues'>): [string, unknown, unknown][] {
  const keys = [...new Set([...Object.keys(l.antes ?? {}), ...Object.keys(l.despues ?? {})])];
  return keys.map((k) => [k, l.antes?.[k] ?? null, l.despues?.[k] ?? null]);
}

/** A module switch by its configuration column: 'conf_materiales' → 'Módulo Materiales'. */
const MODULOS = new Map<string, string>(FLAG_NAMES.map((f) => [CONF_FIELD[f], `Módulo ${FLAG_INFO[f].label}`]));

/** How the screen names a changed field: a module by its label, other columns in words ('razon_social' → 'Razon social'). */
export function campoActividadLabel(campo: string): string {
  const modulo = MODULOS.get(campo);
  if (modulo) return modulo;
  const texto = campo.replace(/_/g, ' ');
  return texto.charAt(0).toUpperCase() + texto.slice(1);
}

/** A changed value as the screen shows it: switches as Sí / No, empty as '—'. */
export function valorActividad(campo: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if ((MODULOS.has(campo) || campo === 'activo') && (v === 0 || v === 1)) return v === 1 ? 'Sí' : 'No';
  return String(v);
}
