import { toPlain } from './decimal';
import type { TipoFactura } from './documentos';

/**
 * VERI*FACTU (docs/fiscal.md; the AEAT's texts in docs/fuentes/aeat/): the pure pieces both sides
 * need. The server builds and chains the records (SHA-256 of these inputs), the PDF prints the QR of
 * `urlQr`. Amounts travel as cents and are written with '.' and two decimals.
 */

/** Simplified invoices: the most one may add up to, IVA included, cents (3.000 € where the configuration says retail). */
export const LIMITE_SIMPLIFICADA = 40_000;
export const LIMITE_SIMPLIFICADA_MINORISTA = 300_000;

/** 'aaaa-mm-dd' → 'dd-mm-aaaa' (the records' dates). */
export function fechaAeat(fecha: string): string {
  const [a, m, d] = fecha.slice(0, 10).split('-');
  return `${d}-${m}-${a}`;
}

/** Cents → '123.45' ('-12.30' for negatives), as the records and the QR write amounts. */
export function importeAeat(cents: number | bigint): string {
  return toPlain(cents, 2);
}

export type HuellaAlta = {
  IDEmisorFactura: string;
  NumSerieFactura: string;
  /** dd-mm-aaaa. */
  FechaExpedicionFactura: string;
  TipoFactura: TipoFactura;
  /** '12.35': IVA + recargo. */
  CuotaTotal: string;
  /** '123.45': base + IVA + recargo (retención is outside the record). */
  ImporteTotal: string;
  /** The previous record's huella of the same issuer; '' for the first. */
  Huella: string;
  /** aaaa-mm-ddThh:mm:ss+hh:mm. */
  FechaHoraHusoGenRegistro: string;
};

export type HuellaAnulacion = {
  IDEmisorFacturaAnulada: string;
  NumSerieFacturaAnulada: string;
  FechaExpedicionFacturaAnulada: string;
  Huella: string;
  FechaHoraHusoGenRegistro: string;
};

const ORDEN_ALTA = ['IDEmisorFactura', 'NumSerieFactura', 'FechaExpedicionFactura', 'TipoFactura', 'CuotaTotal', 'ImporteTotal', 'Huella', 'FechaHoraHusoGenRegistro'] as const;
const ORDEN_ANULACION = ['IDEmisorFacturaAnulada', 'NumSerieFacturaAnulada', 'FechaExpedicionFacturaAnulada', 'Huella', 'FechaHoraHusoGenRegistro'] as const;

/** The text whose SHA-256 (upper-case hex) is the huella: `name=value` in the AEAT's order, joined by '&', values trimmed, not escaped. */
export function entradaHuella(campos: HuellaAlta | HuellaAnulacion): string {
  const orden = 'IDEmisorFactura' in campos ? ORDEN_ALTA : ORDEN_ANULACION;
  const c = campos as Record<string, string>;
  return orden.map((k) => `${k}=${(c[k] ?? '').trim()}`).join('&');
}

/** Where the QR points (DetalleEspecificacTecnCodigoQRfactura: production or the AEAT's test environment). */
export const QR_BASE = {
  produccion: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR',
  pruebas: 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR',
} as const;

/** The fiscal QR's content: each value URL-encoded. `importe` is the record's ImporteTotal. */
export function urlQr(
  d: { nif: string; numserie: string; fecha: string; importe: number | bigint },
  entorno: keyof typeof QR_BASE = 'produccion',
): string {
  const q = [
    ['nif', d.nif.trim()],
    ['numserie', d.numserie.trim()],
    ['fecha', /^\d{4}-/.test(d.fecha) ? fechaAeat(d.fecha) : d.fecha],
    ['importe', importeAeat(d.importe)],
  ];
  return `${QR_BASE[entorno]}?${q.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}

/** The legend printed under the QR (VERI*FACTU mode). */
export const LEYENDA_QR = 'Factura verificable en la sede electrónica de la AEAT';
/** What an invoice whose records go to the AEAT's test environment prints instead: it is a test, with no fiscal value. */
export const LEYENDA_QR_PRUEBAS = 'FACTURA DE PRUEBA: registro para el entorno de pruebas de la AEAT, sin validez fiscal';
export const TITULO_QR = 'QR tributario:';
/** Issue 22: what every document, ticket and Z of the demo company prints (its records never reach the AEAT's production). */
export const LEYENDA_DEMO = 'DEMOSTRACIÓN — sin validez fiscal';

/**
 * What a record was made for (issue 22, stored on it at creation: registros_facturacion.entorno/demo/verifactu, the
 * till's records likewise), never the setting of the day.
 */
export type EmisionRegistro = { entorno?: 'produccion' | 'pruebas' | null; demo?: boolean | number | null; verifactu?: boolean | number | null };

/**
 * The QR's host and the legend printed with it, from what the record was made for (docs/fiscal.md «Lo que se imprime»):
 * - demo: the test host, «DEMOSTRACIÓN — sin validez fiscal»;
 * - made for «Pruebas»: the test host, the test legend (never «enviado»: whether it was sent is the owner's screen's business);
 * - «Producción», sending on (a VERI*FACTU record, pending or sent alike): «Factura verificable en la sede electrónica de la AEAT»;
 * - «Producción», sending not on yet: the QR alone (Orden HAC/1177/2024 art. 20–21: the «verificable» legend is for
 *   VERI*FACTU systems only).
 * A record that says nothing (a terminal or document without an environment) is never taken for production.
 */
export function presentacionQr(e: EmisionRegistro | null | undefined): { entorno: 'produccion' | 'pruebas'; leyenda: string | null } {
  if (!e || Number(e.demo ?? 0) === 1 || e.demo === true) return { entorno: 'pruebas', leyenda: LEYENDA_DEMO };
  if (e.entorno !== 'produccion') return { entorno: 'pruebas', leyenda: LEYENDA_QR_PRUEBAS };
  const verifactu = e.verifactu === true || Number(e.verifactu ?? 0) === 1;
  return { entorno: 'produccion', leyenda: verifactu ? LEYENDA_QR : null };
}

/** A record of the VERI*FACTU chain as listadoregistrosfacturacion answers it. */
export type RegistroFacturacion = {
  id: number;
  /** Place in the issuer's chain, from 1. */
  orden: number;
  tipo: 'alta' | 'anulacion';
  documento_id: number;
  documento_tipo: 'factura' | 'rectificativa';
  /** The invoice's displayed number (NumSerieFactura). */
  num_serie: string;
  id_emisor: string;
  /** dd-mm-aaaa. */
  fecha_expedicion: string;
  tipo_factura: TipoFactura | null;
  cuota_total: string | null;
  importe_total: string | null;
  huella_anterior: string;
  huella: string;
  fecha_hora_huso: string;
  /** The RegistroAlta / RegistroAnulacion XML, valid against SuministroLR.xsd. */
  xml: string;
  /** Submission (issue 9): 'pendiente' until sent, then the AEAT's answer (ESTADO_ENVIO_LABEL). */
  estado_envio: string;
  /** The CSV of the submission that carried it. */
  csv?: string | null;
  /** The AEAT's code and text for this record (Incorrecto, AceptadoConErrores). */
  codigo_error?: string | null;
  descripcion_error?: string | null;
  /** When it was sent (ISO). */
  enviado?: string | null;
  /** The id of the record (a subsanación) that corrects it. */
  subsanado_por?: number | null;
  /** The record it corrects (a subsanación, or an anulación sent again). */
  subsana_id?: number | null;
  /** Issue 16: 1 when generated while the submission was failing (sent with Incidencia = S). */
  incidencia?: number;
  /** Issue 22: what it was made for, frozen at its creation (presentacionQr): 'produccion' | 'pruebas', demo 0/1, made while sending 0/1. */
  entorno?: 'produccion' | 'pruebas';
  demo?: number;
  verifactu?: number;
};

/** What the chain check (comprobarregistrosfacturacion) answers. */
export type ComprobacionCadena = {
  /** The issuer (NIF) whose chain this is: one chain per issuer. */
  emisor?: string;
  total: number;
  correcto: boolean;
  /** The first record whose huella or link does not match, with why. */
  rotura: { id: number; orden: number; num_serie: string; motivo: string } | null;
};
