import { numeroDocumento } from '../domain/documentos';
import type { Totales } from '../domain/documentos';
import type { Impuesto } from '../domain/catalogo';
import type { RegistroTpv } from '../domain/tpv';
import { generarAlta, qrDeAlta } from './registro';
import type { AltaGenerada, Anterior, DatosAlta, Emisor, Sistema } from './registro';

/**
 * A ticket's registro de alta (F2), as the server makes it online and the till makes it offline (docs/tpv.md): the
 * same function on both sides, so the server recomputes an offline record exactly and refuses anything altered.
 */
export type DatosTicket = {
  emisor: Emisor;
  /** The terminal's NumeroInstalacion (its own chain). */
  instalacion: string;
  sistema: Sistema;
  /** The terminal's serie (simplificada): code, the ticket's year and number. */
  serieCodigo: string;
  ejercicio: number;
  numero: number;
  /** aaaa-mm-dd: the ticket's date (FechaExpedicionFactura). */
  fecha: string;
  /** totalesTicket of its lines. */
  totales: Pick<Totales, 'base' | 'iva' | 'recargo' | 'total' | 'desglose'>;
  /** The last record of the terminal's chain (null: the first). */
  anterior: Anterior | null;
  /** FechaHoraHusoGenRegistro: 'aaaa-mm-ddThh:mm:ss+hh:mm' (fechaHoraHuso). */
  ts: string;
  /** The VERI*FACTU environment the records go to (terminaltpv's `entorno`): the QR points at its host. */
  entorno?: 'produccion' | 'pruebas';
  /** The company's tax (terminaltpv's `impuesto`): the record's Impuesto even when every line is exempt. */
  impuesto?: Impuesto;
};

export const DESCRIPCION_TICKET = 'Venta en mostrador';

/** The ticket's displayed number, which the record names (NumSerieFactura): 'T1 2026/000012'. */
export const numSerieTicket = (serieCodigo: string, ejercicio: number, numero: number) => numeroDocumento(serieCodigo, ejercicio, numero);

export function registroTicket(t: DatosTicket): AltaGenerada & { numSerie: string; qr_url: string } {
  const numSerie = numSerieTicket(t.serieCodigo, t.ejercicio, t.numero);
  const alta = generarAlta(
    {
      emisor: t.emisor,
      numSerie,
      fecha: t.fecha,
      tipoFactura: 'F2',
      descripcion: DESCRIPCION_TICKET,
      destinatario: null,
      desglose: t.totales.desglose,
      conRecargo: false,
      impuesto: t.impuesto,
      cuotaTotal: t.totales.iva + t.totales.recargo,
      importeTotal: t.totales.base + t.totales.iva + t.totales.recargo,
    },
    t.anterior,
    t.ts,
    t.instalacion,
    t.sistema,
  );
  return { ...alta, numSerie, qr_url: qrDeAlta(alta.campos, t.entorno ?? 'produccion') };
}

/** What the till sends as a ticket's `registro` in subirtickets, from registroTicket's result (unaltered). */
export function registroTpvDe(r: ReturnType<typeof registroTicket>): RegistroTpv {
  return {
    num_serie: r.numSerie,
    fecha_expedicion: r.campos.FechaExpedicionFactura,
    tipo_factura: 'F2',
    cuota_total: r.campos.CuotaTotal,
    importe_total: r.campos.ImporteTotal,
    huella_anterior: r.campos.Huella,
    fecha_hora_huso: r.campos.FechaHoraHusoGenRegistro,
    huella: r.huella,
    xml: r.xml,
  };
}

/** The ticket a return (R5) corrects, as its record named it: number and date (aaaa-mm-dd); its base and IVA. */
export type TicketRectificado = { numSerie: string; fecha: string; base: number; cuota: number };

/** The description of an R5 made at the till without a ticket (issue 23): it names no invoice it corrects. */
export const DESCRIPCION_DEVOLUCION_SIN_TICKET = 'Devolución sin ticket';

/** The description an R5 of a ticket carries (the server's default for a rectificativa without observations). */
export const descripcionDevolucion = (numSerie: string) => `Rectificación de la factura ${numSerie}`;

/**
 * A return's registro de alta (R5 by differences, naming the ticket it corrects) made by a till offline and re-made by
 * the server to verify it: the terminal's rectificativa serie and number, its own chain, the returned lines' totals
 * (negative). The server's online R5 carries the same fields, so either side makes the same record.
 */
export function registroDevolucion(t: DatosTicket & { rectificado: TicketRectificado | null }): AltaGenerada & { numSerie: string; qr_url: string } {
  const numSerie = numSerieTicket(t.serieCodigo, t.ejercicio, t.numero);
  const alta = generarAlta(datosDevolucion(t, numSerie), t.anterior, t.ts, t.instalacion, t.sistema);
  return { ...alta, numSerie, qr_url: qrDeAlta(alta.campos, t.entorno ?? 'produccion') };
}

/** The DatosAlta of an R5 of a ticket (what registroDevolucion hashes). */
export function datosDevolucion(t: Omit<DatosTicket, 'anterior' | 'ts'> & { rectificado: TicketRectificado | null }, numSerie: string): DatosAlta {
  const r = t.rectificado;
  return {
    emisor: t.emisor,
    numSerie,
    fecha: t.fecha,
    tipoFactura: 'R5',
    descripcion: r ? descripcionDevolucion(r.numSerie) : DESCRIPCION_DEVOLUCION_SIN_TICKET,
    destinatario: null,
    // A return without a ticket (issue 23) names no invoice: FacturasRectificadas is optional (Validaciones 4).
    rectificativa: r
      ? { tipo: 'I', facturas: [{ nif: t.emisor.nif, numSerie: r.numSerie, fecha: r.fecha }], importe: { base: r.base, cuota: r.cuota, recargo: 0 } }
      : { tipo: 'I', facturas: [] },
    desglose: t.totales.desglose,
    conRecargo: false,
    impuesto: t.impuesto,
    cuotaTotal: t.totales.iva + t.totales.recargo,
    importeTotal: t.totales.base + t.totales.iva + t.totales.recargo,
  };
}

/** What the till sends as a return's `registro` in devolverticket (unaltered). */
export function registroTpvDeDevolucion(r: ReturnType<typeof registroDevolucion>): RegistroTpv {
  return { ...registroTpvDe(r), tipo_factura: 'R5' };
}
