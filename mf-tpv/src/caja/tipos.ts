import type { Configuracion, TipoIva, UsuarioSesion } from 'shared';
import type { FormaPago } from '../venta/importes';

/**
 * The protocol's shapes the till reads (server/README.md «TPV»; shared/src/domain/tpv.ts on the server's branch
 * carries the same types).
 */
export type TerminalTpv = {
  id: number;
  nombre: string;
  almacen_id: number;
  almacen_nombre?: string | null;
  formas_pago: FormaPago[];
  fondo: number;
  activo: 0 | 1;
  numero_instalacion: string;
  caja_abierta?: { id: number; apertura: string; fondo: number; usuario_nombre: string | null } | null;
  serie: { id: number; codigo: string };
  serie_rectificativa: { id: number; codigo: string };
  emisor: { nif: string; nombre: string };
  sistema?: { nombre: string; id: string; version: string };
  zona_horaria?: string;
  ultimo: { ejercicio: number; numero: number };
  cadena: { huella: string; num_serie: string; fecha_expedicion: string; fecha_hora_huso: string } | null;
  cajeros: { id: number; nombre: string; con_pin: 0 | 1 }[];
};

export type Sesion = { user: UsuarioSesion; config: Configuracion | null };

export type BotonTpv = { posicion: number; articulo_id: number; color: string | null; etiqueta: string | null; codigo?: string; precio?: number; tipo_iva?: TipoIva };
export type PaginaTpv = { id?: number; orden?: number; nombre: string; familia_id: number | null; color: string | null; botones: BotonTpv[] };

export type FormaCierre = { forma: FormaPago; ventas: number; devoluciones: number; esperado: number; contado: number; diferencia: number };

export type CierreTpv = {
  id: number | null;
  terminal_id: number;
  terminal_nombre: string;
  codigo: number | null;
  caja_id: number;
  usuario_nombre: string | null;
  apertura: string;
  cierre: string | null;
  fondo: number;
  tickets: number;
  devoluciones: number;
  total: number;
  formas: FormaCierre[];
  efectivo: { fondo: number; cobrado: number; cambio: number; devuelto: number; entradas: number; salidas: number; esperado: number; contado: number; diferencia: number };
  diferencia: number;
  impuestos: { tipo_iva: TipoIva; base: number; iva: number; total: number }[];
  movimientos: { fecha_hora: string; importe: number; motivo: string; usuario_nombre: string | null }[];
  denominaciones: { valor: number; cantidad: number }[] | null;
  primer_numero: string | null;
  ultimo_numero: string | null;
};

/** `listadotickets&id=`: a ticket with its lines (what was returned of each) and payments. */
export type TicketServidor = {
  id: number;
  numero: string;
  fecha_hora?: string;
  total: number;
  estado?: string;
  lineas: { id: number; articulo_id: number; codigo: string; descripcion: string; cantidad: number; precio_iva?: number | null; precio: number; descuento: number; tipo_iva: TipoIva; devuelto?: number }[];
  pagos: { forma: FormaPago; importe: number; entregado?: number }[];
  registro?: { qr_url?: string; huella?: string } | null;
};

export type DevolucionHecha = { id: number; numero: string; total: number; ticket_id: number; huella: string; qr_url: string; pagos?: { forma: FormaPago; importe: number }[] };
