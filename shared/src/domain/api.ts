import type { FieldErrors } from './validation';

/** RESULT codes of op.asp: 0 ok, 1 generic failure, 2 associated data forbids it, 3 nothing found. */
export type ResultCode = '0' | '1' | '2' | '3';

export type ApiResponse<T = unknown> = {
  RESULT: ResultCode;
  data?: T[];
  /** Lists: number of rows matching the filters, before paging. */
  total?: number;
  /** Spanish message for RESULT 1/2/3 and HTTP errors. */
  message?: string;
  /** Field errors (HTTP 400). */
  errors?: FieldErrors;
  /** identificar, sesion: the logged-in user (UsuarioSesion). */
  user?: unknown;
  /** identificar, sesion: what each op.asp action needs (`codificarNecesidad`), for the screens to hide what would be refused. */
  acciones?: Record<string, string>;
  /** identificar, sesion: 1 while the company is the demo (issue 22; the header's band), 0 once live. */
  demo?: 0 | 1;
  /** A 403 refused by the user's role: what is missing ('catalogo.eliminar', 'anular_facturas'). */
  derecho?: string;
};

/** Query parameters every `listado<entidades>` accepts. */
export type ListParams = {
  id?: number | string;
  pagina?: number;
  porPagina?: number;
  orden?: string;
  dir?: 'asc' | 'desc';
  q?: string;
  [filter: string]: string | number | undefined;
};

export const API_BASE = '/api';
export const OP_PATH = '/op.asp';
export const HEARTBEAT_PATH = '/logueado.asp';
/** Public deploy description: remotes (manifest URL, prefix, menu) and branding. */
export const DEPLOY_PATH = '/deploy.json';

/**
 * Issue 26: what `resumeninicio` answers, one row per thing waiting on the home page: a count (documents, records or
 * articles), the money waiting where there is some (cents), the filtered list that shows it and, for the overdue
 * receivables, the three customers who owe most.
 */
export type PendienteInicio = {
  clave: string;
  titulo: string;
  documentos: number;
  importe: number | null;
  ruta: string;
  detalle?: { nombre: string; importe: number }[];
};
