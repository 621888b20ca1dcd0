import { numeroDocumento } from '../domain/documentos';
import type { Totales } from '../domain/documentos';
import type { RegistroTpv } from '../domain/tpv';
import { generarAlta, qrDeAlta } from './registro';
import type { AltaGenerada, Anterior, Emisor, Sistema } from './registro';

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
