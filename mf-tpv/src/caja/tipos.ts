import type { Configuracion, TipoIva, UsuarioSesion } from 'shared';
import type { FormaPago } from '../venta/importes';

/** The protocol's shapes (docs/tpv-servidor.md): shared with the server. */
export type { BotonTpv, CierreTpv, FormaCierre, PaginaTpv, TerminalTpv } from 'shared';

export type Sesion = { user: UsuarioSesion; config: Configuracion | null };

/** `listadotickets&id=`: a ticket with its lines (what was returned of each) and payments. */
export type TicketServidor = {
  id: number;
  numero: string;
  /** aaaa-mm-dd: its date (FechaExpedicionFactura); its uuid (made by the till that sold it). */
  fecha?: string;
  uuid?: string | null;
  fecha_hora?: string;
  total: number;
  estado?: string;
  lineas: { id: number; articulo_id: number; codigo: string; descripcion: string; cantidad: number; precio_iva?: number | null; precio: number; descuento: number; tipo_iva: TipoIva; devuelto?: number }[];
  pagos: { forma: FormaPago; importe: number; entregado?: number }[];
  registro?: { qr_url?: string; huella?: string; num_serie?: string; fecha_expedicion?: string } | null;
};

export type DevolucionHecha = {
  id: number;
  numero: string;
  total: number;
  ticket_id: number;
  huella: string;
  qr_url: string;
  pagos?: { forma: FormaPago; importe: number }[];
  /** Issue 23: the store credit given as its refund (its code, to print). */
  vales?: { codigo: string; importe: number }[];
};
