/**
 * VERI*FACTU submission (issue 9): what `listadoverifactu` answers and how each record stands with the
 * AEAT. The server sends the records; the screens show these states and warnings.
 */

/**
 * Where a record stands with the AEAT: waiting in the queue, sent without an answer yet, or the AEAT's answer; `demo`:
 * a record of the demo company's generated past, never sent.
 */
export const ESTADOS_ENVIO = ['pendiente', 'enviado', 'correcto', 'aceptado_con_errores', 'incorrecto', 'demo'] as const;
export type EstadoEnvio = (typeof ESTADOS_ENVIO)[number];
export const ESTADO_ENVIO_LABEL: Record<EstadoEnvio, string> = {
  pendiente: 'Pendiente de envío',
  enviado: 'Enviado',
  correcto: 'Correcto',
  aceptado_con_errores: 'Aceptado con errores',
  incorrecto: 'Incorrecto',
  demo: 'De demostración (no se envía)',
};

/** The label of a state as the server writes it (an unknown one as it comes). */
export const estadoEnvioLabel = (estado: string | null | undefined): string =>
  estado ? (ESTADO_ENVIO_LABEL[estado as EstadoEnvio] ?? estado) : '';

/** The AEAT's answers that call for a correction (a new record with Subsanacion = S). */
export const ESTADOS_A_SUBSANAR: readonly EstadoEnvio[] = ['incorrecto', 'aceptado_con_errores'];

/** Whether a record can be corrected by a subsanación: an alta the AEAT refused or accepted with errors, not yet corrected. */
export function puedeSubsanar(r: { tipo: string; estado_envio?: string | null; subsanado_por?: number | null }): boolean {
  // Issue 16: a refused anulación is sent again (RechazoPrevio = S).
  if (r.tipo === 'anulacion') return r.estado_envio === 'incorrecto' && !r.subsanado_por;
  return r.tipo === 'alta' && ESTADOS_A_SUBSANAR.includes(r.estado_envio as EstadoEnvio) && !r.subsanado_por;
}

export const ENTORNOS_VERIFACTU = ['pruebas', 'produccion'] as const;
export type EntornoVerifactu = (typeof ENTORNOS_VERIFACTU)[number];
export const ENTORNO_VERIFACTU_LABEL: Record<EntornoVerifactu, string> = {
  pruebas: 'Pruebas (preproducción de la AEAT)',
  produccion: 'Producción',
};

/** The company's client certificate, as the server describes it (never the file nor its password). */
export type CertificadoVerifactu = {
  titular: string;
  nif: string;
  emisor: string;
  /** aaaa-mm-dd. */
  caduca: string;
  /** Days until it expires (negative once expired). */
  dias: number;
  /** It signs itself (no recognised authority issued it): the AEAT will not accept it. */
  autofirmado?: boolean;
  /** Issue 16: a seal certificate (the records go to the seal endpoints www10 / prewww10). */
  sello?: boolean;
  /** Issue 16: the certificate is a representative's or advisor's (named in each request's Cabecera as Representante). */
  representante?: boolean;
};

/** The SistemaInformatico block every record carries. */
export type SistemaInformatico = {
  /** The producer. */
  nombre_razon: string;
  nif: string;
  nombre: string;
  id: string;
  version: string;
  numero_instalacion: string;
  tipo_uso_posible_solo_verifactu: string;
  tipo_uso_posible_multi_ot: string;
  indicador_multiples_ot: string;
  /** Issue 16: 1 when the producer is the one the installation's distributor set (MANAGER_PRODUCTOR_* or deploy.json); 0: the company itself. */
  productor_configurado?: 0 | 1;
  /** Issue 22 (Orden HAC/1177/2024 art. 15): the producer's full postal address ('' when the distributor did not set one). */
  direccion?: string;
  /** The components of the system, each with its version and what it does (the back office and server, the till). */
  componentes?: { nombre: string; version: string; descripcion: string }[];
  /** Where and when (aaaa-mm-dd) the declaración responsable is signed. */
  lugar_firma?: string;
  fecha_firma?: string;
};

/** The submission queue. Timestamps are ISO; null when there is none. */
export type ColaVerifactu = {
  pendientes: number;
  /** When the oldest pending record was written. */
  pendiente_desde: string | null;
  incorrectos: number;
  aceptados_con_errores: number;
  ultimo_envio: string | null;
  /** Not before then (the AEAT's TiempoEsperaEnvio). */
  proximo_envio: string | null;
  /** The last transport failure (no network, timeout, 5xx). */
  ultimo_error: string | null;
};

/** `clave` 'obligacion': the company must send every record from its date and they are not being sent (shown on the invoice screens too). */
/**
 * A warning; `clave` 'obligacion' (records not being sent near or past the obligation date) and 'envio' (issue 22: a live
 * company's records not sent for over an hour, or sending failing) are shown wherever invoices are made.
 */
export type AvisoVerifactu = { nivel: 'error' | 'aviso'; texto: string; clave?: 'obligacion' | 'fin' | 'envio' | 'entorno' };

/** One step of getting VERI*FACTU ready, done or missing, with what to do. */
export type PasoVerifactu = { id: 'certificado' | 'prueba' | 'produccion'; titulo: string; hecho: boolean; detalle: string };

/**
 * When the company must send every record (RD 1007/2023 as amended by RD 254/2025): 1 January 2027 for companies paying
 * Impuesto sobre Sociedades, 1 July 2027 for the rest (the default).
 */
export const FECHAS_OBLIGACION_VERIFACTU = [
  { value: '2027-01-01', label: '1 de enero de 2027 (empresas que tributan por el Impuesto sobre Sociedades)' },
  { value: '2027-07-01', label: '1 de julio de 2027 (el resto: autónomos y demás obligados)' },
] as const;

/** Where the obligation date comes from: the NIF of a legal entity or of a natural person, no NIF known, or the owner. */
export type OrigenFechaObligacion = 'sociedad' | 'persona' | 'sin_nif' | 'manual';

/**
 * The obligation date a NIF gives (issue 22; RD 1007/2023, disposición final 4.ª as amended by RD 254/2025): a legal
 * entity's NIF (first letter A, B, C, D, E, F, G, H, J, N, P, Q, R, S, U, V or W — it pays Impuesto sobre Sociedades)
 * → 1 January 2027; a natural person's (DNI: digits; NIE: X, Y, Z; K, L, M) → 1 July 2027; no NIF or one not
 * recognised → 1 July 2027 ('sin_nif': the owner is told to check it).
 */
export function fechaObligacionPorNif(nif: string | null | undefined): { fecha: string; origen: Exclude<OrigenFechaObligacion, 'manual'> } {
  const n = String(nif ?? '').trim().toUpperCase().replace(/^ES/, '').replace(/[\s.-]/g, '');
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(n)) return { fecha: '2027-01-01', origen: 'sociedad' };
  if (/^(\d{8}|[XYZKLM]\d{7})[A-Z]$/.test(n)) return { fecha: '2027-07-01', origen: 'persona' };
  return { fecha: '2027-07-01', origen: 'sin_nif' };
}

/** What the configuration page says about where the obligation date comes from. */
export function textoOrigenObligacion(origen: OrigenFechaObligacion, nif: string): string {
  switch (origen) {
    case 'sociedad':
      return `Por el NIF de la empresa (${nif}): una sociedad o entidad que tributa por el Impuesto sobre Sociedades. Si no es así, elija otra fecha.`;
    case 'persona':
      return `Por el NIF de la empresa (${nif}): una persona física (autónomo). Si no es así, elija otra fecha.`;
    case 'sin_nif':
      return 'La empresa no tiene un NIF reconocible en Configuración › Empresa: se toma el 1 de julio de 2027. Compruébelo.';
    default:
      return 'Elegida a mano: ya no sigue al NIF de la empresa. Elija la fecha que da el NIF para volver a seguirlo.';
  }
}

/** Days before the obligation date from which the screens warn when records are not being sent. */
export const AVISO_OBLIGACION_DIAS = 30;

/** What `listadoverifactu` answers (data[0]). */
export type VerifactuInfo = {
  activo: 0 | 1;
  entorno: EntornoVerifactu;
  /** The AEAT's URL of that environment. */
  endpoint: string;
  certificado: CertificadoVerifactu | null;
  sistema: SistemaInformatico;
  /** The producer's declaración responsable. */
  declaracion: string;
  cola: ColaVerifactu;
  avisos: AvisoVerifactu[];
  /** aaaa-mm-dd: from then every record must reach the AEAT. */
  fecha_obligacion: string;
  /** Where that date comes from (issue 22): the company's NIF, or the owner ('manual'). */
  fecha_obligacion_origen?: OrigenFechaObligacion;
  /** The date the company's NIF gives (what the setting follows unless set by hand). */
  fecha_obligacion_nif?: string;
  /** Days from today to that date (negative once it has passed). */
  dias_obligacion: number;
  /** Records are reaching the AEAT for real: a valid certificate of a recognised authority, sending on, in «Producción». */
  enviando: boolean;
  /** The checklist: certificate, a test sending in «Pruebas», the switch to «Producción». */
  pasos: PasoVerifactu[];
  /**
   * «Dejar VERI*FACTU al acabar el año» (issue 16): the last day of the year the company leaves it (aaaa-mm-dd), when
   * the AEAT took a submission saying it (FechaFinVeriFactu), and whether it can still be undone (before that day ends).
   */
  fin?: { fecha: string; comunicado: string | null; deshacer: boolean } | null;
};

/** Days before expiry from which the certificate is warned about. */
export const AVISO_CADUCIDAD_DIAS = 30;
