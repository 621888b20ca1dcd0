import { CONF_FIELDS, DOCUMENTO_TIPOS } from 'shared/domain';
import type { TipoActividad } from 'shared/domain';
import type { Database } from '../db/schema.ts';

/**
 * What the log knows of an entity: its table, the column users know it by (its `numero`) and, for masters and
 * configuration, that a line carries the fields before and after (`diff`), without the ones that are derived or secret.
 */
export type EntidadAuditada = {
  tabla: keyof Database;
  numero?: string;
  diff?: boolean;
  /** Only these columns in the before/after (else every column but `NUNCA`). */
  campos?: readonly string[];
  /** The one row a settings action changes when the request names none. */
  idFijo?: number;
  /** …or the first row by id (the company's configuration). */
  primero?: boolean;
  documento?: boolean;
};

/** Never in a before/after: keys, secrets, and what the server derives or stamps itself. */
export const NUNCA = new Set([
  'id',
  'password_hash',
  'busqueda',
  'orden_descripcion',
  'stock_total',
  'creado',
  'modificado',
  'ultimo_acceso',
  'certificado',
  'certificado_iv',
  'certificado_tag',
  // Issue 24: no secret or hash ever goes into the trail (a deleted user's line kept its pin_hash).
  'pin_hash',
  'token_hash',
  'codigo_hash',
]);

/** Any column named like a secret, whatever its table (a safety net under NUNCA for columns added later). */
export const PARECE_SECRETO = /hash|token|secret|password|contrasena|clave_privada|certificado_(iv|tag)/i;

const maestro = (tabla: keyof Database, numero = 'codigo'): EntidadAuditada => ({ tabla, numero, diff: true });

export const ENTIDADES: Record<string, EntidadAuditada> = {
  configuracion: { tabla: 'configuracion', diff: true, numero: 'nif', primero: true },
  verifactu: { tabla: 'verifactu', diff: true, idFijo: 1, campos: ['activo', 'entorno', 'titular', 'nif', 'emisor_certificado', 'caduca'] },
  usuario: maestro('usuarios', 'email'),
  // Issue 24: a role's change is a change of rights: its name and rights before and after.
  rol: { tabla: 'roles', numero: 'nombre', diff: true, campos: ['nombre', 'derechos'] },
  serie: maestro('series'),
  familia: maestro('familias'),
  subfamilia: maestro('subfamilias'),
  marca: maestro('marcas'),
  material: maestro('materiales'),
  proceso: maestro('procesos'),
  articulo: maestro('articulos'),
  almacen: maestro('almacenes'),
  ubicacion: maestro('ubicaciones'),
  proveedor: maestro('proveedores'),
  cliente: maestro('clientes'),
  facturaproveedor: { tabla: 'facturas_proveedor', numero: 'numero_proveedor' },
  // Issue 23: what a till's upload broke, or a record kept aside (the line carries its kind, detail and remedy).
  incidenciatpv: { tabla: 'tpv_incidencias', diff: true, campos: ['terminal_id', 'caja_id', 'documento_id', 'uuid', 'tipo', 'detalle', 'remedio', 'resuelta'] },
  ...Object.fromEntries(Object.values(DOCUMENTO_TIPOS).map((d) => [d.entidad, { tabla: 'documentos', documento: true } satisfies EntidadAuditada])),
};

/** The configuration's module flags: a save that changes one is a «módulos» line. */
export const FLAGS = new Set<string>(CONF_FIELDS);

/** Entities by length, longest first: `emitirrectificativa` is a rectificativa's, not a factura's. */
const SUFIJOS = Object.keys(ENTIDADES).sort((a, b) => b.length - a.length);

/** Actions with a kind and entity of their own (the rest follow editar… / eliminar… / <verbo><entidad>). */
const ESPECIALES: Record<string, { tipo: TipoActividad; entidad: string | null }> = {
  identificar: { tipo: 'login', entidad: 'usuario' },
  // The till's PIN login, and a PIN set (the user it names, never the PIN or its hash).
  identificartpv: { tipo: 'login', entidad: 'usuario' },
  editarpintpv: { tipo: 'pin', entidad: 'usuario' },
  restablecer: { tipo: 'restablecer', entidad: 'usuario' },
  restaurarcopia: { tipo: 'restauracion', entidad: 'copia' },
  subircertificadoverifactu: { tipo: 'certificado', entidad: 'verifactu' },
  eliminarcertificadoverifactu: { tipo: 'certificado', entidad: 'verifactu' },
};

/** POST actions that change nothing a user would audit (a logout, a recovery mail asked for). */
export const SIN_ACTIVIDAD = new Set(['cerrarsesion', 'recordar']);

/** The kind and entity of an op.asp action, from its name. */
export function clasificar(accion: string): { tipo: TipoActividad; entidad: string | null } {
  const especial = ESPECIALES[accion];
  if (especial) return especial;
  for (const [prefijo, tipo] of [
    ['editar', 'guardar'],
    ['eliminar', 'eliminar'],
  ] as const) {
    if (accion.startsWith(prefijo)) return { tipo, entidad: accion.slice(prefijo.length) };
  }
  return { tipo: 'accion', entidad: SUFIJOS.find((e) => accion.endsWith(e) && accion.length > e.length) ?? null };
}
