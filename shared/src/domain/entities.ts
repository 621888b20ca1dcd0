import type { ModuleFlags } from './flags';
import type { RolSesion } from './roles';

/** Company configuration record: company data plus the 26 `conf_` flag fields (0/1). */
export type Configuracion = {
  id: number;
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
  /** 1: retail or hospitality (simplified invoices up to 3.000 €, not 400 €). */
  minorista?: 0 | 1;
  /** 1 (default): stock may go below zero (with a warning on the line); 0: a document that would leave it below zero is refused. */
  stock_negativo?: 0 | 1;
  /** Issue 16: the company's indirect tax, 'iva' (default), 'igic' (Canarias) or 'ipsi' (Ceuta, Melilla). */
  impuesto?: 'iva' | 'igic' | 'ipsi';
  /** The company's account (IBAN) where transfers are paid: Facturae's AccountToBeCredited (issue 16). */
  iban?: string | null;
  /** Issue 26: its bank's BIC (the SEPA files' debtor / creditor agent) and its SEPA creditor identifier (ES…ZZZ…NIF). */
  bic?: string | null;
  acreedor_sepa?: string | null;
} & Record<`conf_${string}`, 0 | 1>;

export type Usuario = {
  id: number;
  nombre: string;
  email: string;
  activo: 0 | 1;
  ultimo_acceso: string | null;
  creado: string;
  /**
   * The user's role (roles.ts) and its name, in lists and records; absent where a role reads users only to pick one
   * (a parte's worker: id, nombre and activo).
   */
  rol_id?: number;
  rol_nombre?: string;
  /** Issue 23: 1 when the user has a PIN for the till (`editarpintpv` sets or removes it). */
  con_pin?: 0 | 1;
};

export const SERIE_TIPOS = ['normal', 'rectificativa', 'simplificada'] as const;
export type SerieTipo = (typeof SERIE_TIPOS)[number];
export const SERIE_TIPO_LABEL: Record<SerieTipo, string> = {
  normal: 'Normal',
  rectificativa: 'Rectificativa',
  simplificada: 'Simplificada (tickets)',
};

export type Serie = {
  id: number;
  codigo: string;
  descripcion: string;
  tipo: SerieTipo;
  activo: 0 | 1;
  /** Issue 23: the name of the TPV terminal whose serie it is (its tickets or its returns): never the back office's. */
  terminal?: string | null;
};

/** One month of the home chart: totals in cents of purchase and sales orders. */
export type GraficoMes = { mes: string; compras: number | null; ventas: number | null };

export type Archivo = { id: string; url: string; nombre: string; tipo: string };

export type SessionInfo = { user: Usuario; flags: ModuleFlags };

/**
 * Who is logged in, as `identificar` and `sesion` answer it: with the role and its rights, read again by the
 * server on every request (a role changed applies to the next one).
 */
export type UsuarioSesion = Pick<Usuario, 'id' | 'nombre' | 'email'> & { rol?: RolSesion };

export const ESTADOS_ACTIVO = { 1: 'Activo', 0: 'Inactivo' } as const;

/**
 * `listadodemo` (issue 22): whether the company is still the demo (a sandbox), what «Empezar con mis datos»
 * (`eliminardemo`) would remove (`borra`: everything of the trial, generated or typed) and what stays (`conserva`: the
 * configuration, and the masters if the owner keeps them), and why it can't run (`bloqueo`: the company is live
 * already, or the AEAT accepted one of its records in production), or null.
 */
export type EstadoDemo = {
  demo: boolean;
  bloqueo: string | null;
  borra: {
    documentos: number;
    facturas: number;
    tickets: number;
    registros: number;
    cobros: number;
    movimientos: number;
    cajas: number;
    cierres: number;
    facturas_proveedor: number;
    envios: number;
  };
  conserva: { articulos: number; clientes: number; proveedores: number; almacenes: number; series: number; usuarios: number; terminales: number; familias: number };
};

/** `eliminardemo`'s choice: keep the demo's articles, customers and suppliers, or start with none. */
export const MAESTROS_DEMO = ['conservar', 'ninguno'] as const;
export type MaestrosDemo = (typeof MAESTROS_DEMO)[number];
