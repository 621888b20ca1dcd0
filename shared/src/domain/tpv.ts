import { IVA_RATE, TIPOS_IVA } from './catalogo';
import type { Impuesto, TipoIva } from './catalogo';
import { divRound } from './decimal';
import { medioPagoLabel, type MedioPago } from './mediosPago';
import { RECARGO_RATE } from './documentos';
import type { DesgloseIva, Totales } from './documentos';
import type { Schema } from './validation';

/**
 * The TPV (issue 13; docs/tpv.md; the protocol in docs/tpv-servidor.md): what the till, the back office's TPV
 * screens and the server share. Money in cents, quantities in thousandths, unit prices in ten-thousandths,
 * percentages in hundredths.
 */

/** The medios de pago (mediosPago.ts) a terminal may offer, in the till's order (a split payment is several `pagos`). */
export const FORMAS_PAGO_TPV = ['efectivo', 'tarjeta', 'bizum', 'vale'] as const satisfies readonly MedioPago[];
export type FormaPagoTpv = (typeof FORMAS_PAGO_TPV)[number];
export const FORMA_PAGO_TPV_LABEL = Object.fromEntries(FORMAS_PAGO_TPV.map((f) => [f, medioPagoLabel(f)])) as Record<FormaPagoTpv, string>;

/**
 * How a till prints its tickets and Z (issue 23, a terminal's «Impresora»): the browser's print dialog (default), or an
 * ESC/POS thermal printer driven from the till without a dialog — through WebUSB or through WebSerial.
 */
export const IMPRESORAS_TPV = ['navegador', 'usb', 'serie'] as const;
export type ImpresoraTpv = (typeof IMPRESORAS_TPV)[number];
export const IMPRESORA_TPV_LABEL: Record<ImpresoraTpv, string> = {
  navegador: 'Navegador (diálogo de impresión)',
  usb: 'ESC/POS por USB (WebUSB)',
  serie: 'ESC/POS por puerto serie (WebSerial)',
};
/** Minutes without use before the till locks and asks for a PIN, by default; 0 = never (a terminal's «Bloqueo»). */
export const BLOQUEO_MINUTOS_TPV = 5;
/** The longest a terminal may wait before locking (a working day), minutes. */
export const BLOQUEO_MAX_MINUTOS_TPV = 720;

/** Euro notes and coins, cents: the drawer counted by denomination. */
export const DENOMINACIONES = [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1] as const;

/** The most tickets one `subirtickets` carries. */
export const MAX_TICKETS_SUBIDA = 500;

/** A ticket line as the till sends it: `precio` is the unit price WITH IVA (ten-thousandths), as the till shows it. */
export type LineaTicket = { articulo_id: number; cantidad: number; precio: number; descuento?: number };
export type PagoTpv = { forma: FormaPagoTpv; importe: number };

/** The record a till made offline (shared/fiscal registroTicket), sent with the ticket. */
export type RegistroTpv = {
  num_serie: string;
  /** dd-mm-aaaa. */
  fecha_expedicion: string;
  /** F2 a ticket (subirtickets), R5 a return (devolverticket). */
  tipo_factura: 'F2' | 'R5';
  cuota_total: string;
  importe_total: string;
  huella_anterior: string;
  fecha_hora_huso: string;
  huella: string;
  xml: string;
  /**
   * Issue 22: what the till made it for (its terminal's `entorno`, `demo`, `verifactu` when it made it) and printed it
   * with. The server stores it only when it agrees with the company's state (demo and environment); otherwise it stores
   * the company's and answers it in `emision` (the till reprints from that).
   */
  entorno?: 'produccion' | 'pruebas';
  demo?: 0 | 1;
  verifactu?: 0 | 1;
};

export type TicketSubida = {
  /** Made by the till (crypto.randomUUID): the ticket's identity; a repeated upload is the same ticket. */
  uuid: string;
  /** When it was sold (ISO 8601 with offset). */
  fecha_hora: string;
  lineas: LineaTicket[];
  pagos: PagoTpv[];
  /** Only when the till issued it offline. */
  registro?: RegistroTpv;
};

/** One row of `subirtickets`' answer per ticket, in order. */
export type TicketSubido = {
  uuid: string;
  id: number;
  /** Displayed number: 'T1 2026/000012' (the record's NumSerieFactura). */
  numero: string;
  /** Cents. */
  total: number;
  /** Cash handed over beyond the total. */
  cambio: number;
  huella: string;
  xml: string;
  qr_url: string;
  /** The record's FechaHoraHusoGenRegistro and FechaExpedicionFactura (dd-mm-aaaa): with `numero` and `huella`, what the next offline record chains to. */
  fecha_hora_huso: string;
  fecha_expedicion: string;
  /** 1: its record was made by the till offline. */
  offline: 0 | 1;
  /** 1: this uuid was already stored: the same row, nothing changed. */
  repetido: 0 | 1;
  /** Issue 22: what its record was made for, as stored: the QR's host and legend of every print (presentacionQr). */
  emision: EmisionTpv;
  /** Issue 23: the vales that paid it and the balance each has left (printed on the ticket). */
  vales?: { codigo: string; importe: number; saldo: number }[];
};

/** Issue 22: what a record is (or a terminal's records are) made for: presentacionQr's input. */
export type EmisionTpv = { entorno: 'produccion' | 'pruebas'; demo: 0 | 1; verifactu: 0 | 1 };

export type Terminal = {
  id: number;
  nombre: string;
  almacen_id: number;
  almacen_nombre?: string | null;
  serie_id: number;
  serie_codigo?: string | null;
  serie_rectificativa_id: number;
  serie_rectificativa_codigo?: string | null;
  cliente_id: number | null;
  cliente_nombre?: string | null;
  numero_instalacion: string;
  formas_pago: FormaPagoTpv[];
  fondo: number;
  activo: 0 | 1;
  /** Issue 23: 1 = blind count: the till hides the expected cash until the count is entered (and cajatpv omits it). */
  arqueo_ciego?: 0 | 1;
  /** Issue 23: minutes without use before the till locks and asks for a PIN (0 = never). */
  bloqueo_minutos?: number;
  /** Issue 23: how the till prints (the browser's dialog, or an ESC/POS printer by WebUSB / WebSerial). */
  impresora?: ImpresoraTpv;
  /** When a browser was paired with it (ISO), or null. */
  emparejado: string | null;
  caja_abierta?: { id: number; apertura: string; fondo: number; usuario_nombre: string | null } | null;
};

/** A customer as the till sees it (`clientestpv`, `altaclientetpv`): what a full invoice (F3) names, nothing more. */
export type ClienteTpv = {
  id: number;
  codigo: string;
  nif: string;
  razon_social: string;
  nombre_comercial: string | null;
  direccion: string | null;
  codigo_postal: string | null;
  poblacion: string | null;
  /** altaclientetpv: 1 when a customer with that NIF already existed (answered unchanged). */
  existente?: 0 | 1;
  /** 1: in recargo de equivalencia (a full invoice charges it: the till shows the total to pay). */
  recargo?: 0 | 1;
};

/** What a paired till reads of its terminal (`terminaltpv`, `emparejarterminal`). */
export type TerminalTpv = Terminal & {
  serie: { id: number; codigo: string };
  serie_rectificativa: { id: number; codigo: string };
  emisor: { nif: string; nombre: string };
  /** The company's tax (issue 16): an all-exempt ticket's record and print name it, not IVA by default. */
  impuesto?: Impuesto;
  /** SistemaInformatico of the records (the till's offline records name it exactly so). */
  sistema: { nombre: string; id: string; version: string; productor?: { nif: string; nombre: string } | null };
  /** The business's time zone (FechaHoraHusoGenRegistro). */
  zona_horaria: string;
  /**
   * Issue 22: what the till's records are made for (the server's emisionActual rules: the demo company's for «Pruebas»
   * and demo; a live company's for «Producción»; `verifactu` 1 while sending is on). The till stores them with each
   * record it makes and prints its QR's host and legend from them (presentacionQr); a terminal that does not say
   * (`entorno` absent: an older server) never prints production.
   */
  entorno?: 'produccion' | 'pruebas';
  demo?: 0 | 1;
  verifactu?: 0 | 1;
  /** The serie's last ticket number of the current year. */
  ultimo: { ejercicio: number; numero: number };
  /** The rectificativa serie's last number of the current year (a return made offline takes the next). */
  ultimo_rectificativa?: { ejercicio: number; numero: number };
  /** The terminal chain's last record: what the next offline record chains to (null: none yet). */
  cadena: { huella: string; num_serie: string; fecha_expedicion: string; fecha_hora_huso: string } | null;
  /**
   * Issue 22: when the company last started afresh («Empezar con mis datos»), or null. The chain's end and the
   * numbering a till kept under another value are not this terminal's any more: it starts again from `ultimo`/`cadena`.
   */
  inicio?: string | null;
  cajeros: { id: number; nombre: string; con_pin: 0 | 1 }[];
  /** Issue 23: the most a simplified invoice may total, cents with IVA (400 €; 3.000 € with the company's «minorista» setting). */
  limite_simplificada?: number;
};

export type BotonTpv = { posicion: number; articulo_id: number; color: string | null; etiqueta: string | null; codigo?: string; precio?: number; tipo_iva?: TipoIva };
export type PaginaTpv = { id?: number; orden?: number; nombre: string; familia_id: number | null; color: string | null; botones: BotonTpv[] };

/** Issue 23: a cashier who sold in a caja (the Z names them all): their tickets, returns and net total (cents). */
export type CajeroCierre = { usuario_id: number | null; nombre: string; tickets: number; devoluciones: number; total: number };

export type FormaCierre = { forma: FormaPagoTpv; ventas: number; devoluciones: number; esperado: number; contado: number; diferencia: number };

/** A closing (and the Z report's data); the open caja's running figures (`cajatpv`) have `id`/`codigo` null. */
export type CierreTpv = {
  id: number | null;
  terminal_id: number;
  terminal_nombre: string;
  codigo: number | null;
  caja_id: number;
  usuario_id: number | null;
  usuario_nombre: string | null;
  apertura: string;
  cierre: string | null;
  fondo: number;
  tickets: number;
  devoluciones: number;
  /** Sales − returns, cents. */
  total: number;
  formas: FormaCierre[];
  efectivo: { fondo: number; cobrado: number; cambio: number; devuelto: number; entradas: number; salidas: number; esperado: number; contado: number; diferencia: number };
  /** Σ contado − Σ esperado. */
  diferencia: number;
  impuestos: { tipo_iva: TipoIva; base: number; iva: number; total: number }[];
  movimientos: { fecha_hora: string; importe: number; motivo: string; usuario_nombre: string | null }[];
  denominaciones: { valor: number; cantidad: number }[] | null;
  primer_numero: string | null;
  ultimo_numero: string | null;
  /** Issue 22: 1 when made by the demo company: its Z prints «DEMOSTRACIÓN — sin validez fiscal». */
  demo?: 0 | 1;
  /** Issue 23: every cashier who sold in this caja (absent in closings made before). */
  cajeros?: CajeroCierre[];
  /** Issue 23: what the uploads of this caja broke (stored as issued) or kept aside, for the manager. */
  incidencias?: IncidenciaTpv[];
};

/**
 * The open caja as `cajatpv` answers a blind-count terminal (issue 23): what it is, never what the drawer should hold
 * (nor the sales, payments and movements it is made of) until the closing with the count is saved.
 */
export type CajaCiegaTpv = Pick<
  CierreTpv,
  'id' | 'terminal_id' | 'terminal_nombre' | 'codigo' | 'caja_id' | 'usuario_id' | 'usuario_nombre' | 'apertura' | 'cierre' | 'fondo' | 'tickets' | 'devoluciones'
> & { ciego: 1; formas: { forma: FormaPagoTpv }[] };

/**
 * A ticket's totals from unit prices WITH IVA (docs/tpv.md): each line's amount with IVA exact (cantidad × precio ×
 * (1 − descuento), scale 11); per IVA rate their sum rounded once to cents half-up — the rate's total T —; its base
 * round(T / (1 + tipo)) half-up and its IVA T − base. Base + IVA is then exactly what the till showed, and the
 * ticket's total is Σ T. No recargo (simplified invoices of a shop).
 */
export function totalesTicket(lineas: readonly { cantidad: number | bigint; precio: number | bigint; descuento?: number | bigint; tipo_iva: TipoIva }[]): Totales {
  const grupos = new Map<TipoIva, bigint>();
  for (const l of lineas) {
    const bruto = BigInt(l.cantidad) * BigInt(l.precio) * (10000n - BigInt(l.descuento ?? 0));
    grupos.set(l.tipo_iva, (grupos.get(l.tipo_iva) ?? 0n) + bruto);
  }
  const desglose: DesgloseIva[] = [];
  let base = 0n;
  let iva = 0n;
  for (const tipo of TIPOS_IVA.filter((t) => grupos.has(t))) {
    const t = divRound(grupos.get(tipo)!, 10n ** 9n);
    const b = divRound(t * 10000n, 10000n + IVA_RATE[tipo]);
    desglose.push({ tipo_iva: tipo, base: Number(b), iva: Number(t - b), recargo: 0 });
    base += b;
    iva += t - b;
  }
  return { base: Number(base), iva: Number(iva), recargo: 0, retencion_importe: 0, total: Number(base + iva), desglose };
}

/**
 * A full invoice made of a ticket's lines (an F3 replacing it, an F1 at the till) for a customer in recargo de
 * equivalencia: each IVA group charged its recargo on its base, half-up per group as every invoice (art. 154-163 LIVA;
 * a simplified invoice never carries it). Answers the groups with their recargo (0 when the customer is not in it).
 */
export function recargoTicket(desglose: readonly DesgloseIva[], conRecargo: boolean): DesgloseIva[] {
  return desglose.map((p) => {
    const cobra = conRecargo && (!p.operacion || p.operacion === 'S1') && p.iva !== 0;
    return { ...p, recargo: cobra ? Number(divRound(BigInt(p.base) * RECARGO_RATE[p.tipo_iva], 10000n)) : 0 };
  });
}

/**
 * A refund «como se pagó» (issue 23): `reembolso` cents split over the ticket's payments in the proportion each method
 * took of it (its share of the total: cash net of the change), exactly — each method's floor, the cents left over to the
 * largest remainders (the first method on a tie). A cash + card ticket is refunded in cash and by card, not all in cash.
 */
export function reembolsoComoSePago(pagos: readonly { forma: FormaPagoTpv; importe: number }[], reembolso: number): { forma: FormaPagoTpv; importe: number }[] {
  const porForma = new Map<FormaPagoTpv, number>();
  for (const p of pagos) if (p.importe > 0) porForma.set(p.forma, (porForma.get(p.forma) ?? 0) + p.importe);
  const formas = [...porForma.entries()];
  const pagado = formas.reduce((s, [, x]) => s + x, 0);
  if (!formas.length || pagado <= 0 || reembolso <= 0) return reembolso > 0 ? [{ forma: formas[0]?.[0] ?? 'efectivo', importe: reembolso }] : [];
  const total = BigInt(reembolso);
  const partes = formas.map(([forma, x], i) => {
    const exacto = total * BigInt(x);
    return { forma, i, importe: exacto / BigInt(pagado), resto: exacto % BigInt(pagado) };
  });
  let queda = total - partes.reduce((s, p) => s + p.importe, 0n);
  for (const p of [...partes].sort((a, b) => (a.resto === b.resto ? a.i - b.i : a.resto > b.resto ? -1 : 1))) {
    if (queda <= 0n) break;
    p.importe += 1n;
    queda -= 1n;
  }
  return partes.filter((p) => p.importe > 0n).map((p) => ({ forma: p.forma, importe: Number(p.importe) }));
}

/** Units of measure sold whole at the till (issue 23): an article by the unit («ud») is never sold or returned as 1,5. */
export const UNIDADES_ENTERAS: readonly string[] = ['ud'];

/**
 * Why `cantidad` (thousandths) of an article measured in `unidad` may not go on a ticket or a return: a fraction of a
 * whole unit. Null when it may.
 */
export function cantidadNoEntera(unidad: string | null | undefined, cantidad: number | bigint, articulo: string): string | null {
  if (!unidad || !UNIDADES_ENTERAS.includes(unidad) || BigInt(cantidad) % 1000n === 0n) return null;
  const texto = (Number(cantidad) / 1000).toLocaleString('es-ES', { maximumFractionDigits: 3 });
  return textoTpv(MESSAGES_TPV.cantidadEntera, { articulo, cantidad: texto });
}

/** A unit price with IVA → without it (ten-thousandths, half-up): what a ticket line keeps as the engine's `precio`. */
export const precioSinIva = (precioIva: number | bigint, tipo: TipoIva): number => Number(divRound(BigInt(precioIva) * 10000n, 10000n + IVA_RATE[tipo]));

/** Change due: what the payments exceed the total by (only cash may exceed it). */
export function cambioDe(total: number, pagos: readonly PagoTpv[]): number {
  return Math.max(0, pagos.reduce((s, p) => s + p.importe, 0) - total);
}

export const terminalSchema = {
  id: { type: 'int', min: 1 },
  nombre: { type: 'string', required: true, max: 60 },
  almacen_id: { type: 'int', required: true, min: 1 },
  serie_id: { type: 'int', required: true, min: 1 },
  serie_rectificativa_id: { type: 'int', required: true, min: 1 },
  cliente_id: { type: 'int', min: 1 },
  numero_instalacion: { type: 'string', max: 100 },
  fondo: { type: 'int', min: 0, max: 100_000_000 },
  arqueo_ciego: { type: 'flag' },
  bloqueo_minutos: { type: 'int', min: 0, max: BLOQUEO_MAX_MINUTOS_TPV },
  impresora: { type: 'enum', values: IMPRESORAS_TPV },
  activo: { type: 'flag' },
} satisfies Schema;

/** The till's messages (the server's refusals and the till's own). */
export const MESSAGES_TPV = {
  terminalNoEmparejado: 'Este navegador no está emparejado con ningún terminal. Pida un código de emparejamiento en Ventas › Terminales.',
  codigoNoValido: 'El código de emparejamiento no es válido o ha caducado. Pida uno nuevo en Ventas › Terminales.',
  terminalInactivo: 'El terminal está desactivado.',
  terminalNoExiste: 'El terminal no existe.',
  serieDeOtroTerminal: 'Esa serie ya es de otro terminal: cada terminal necesita sus propias series.',
  serieConDocumentos: 'La serie {codigo} ya tiene documentos de la oficina o de otro terminal: un terminal necesita series solo suyas. Cree una nueva en Configuración › Series.',
  serieTicketsNoValida: 'Elija una serie de facturas simplificadas activa.',
  serieRectificativaNoValida: 'Elija una serie de rectificativas activa.',
  seriesIguales: 'La serie de tickets y la de rectificativas deben ser distintas.',
  formasPagoRequeridas: 'Elija al menos una forma de pago.',
  formaPagoNoValida: 'Forma de pago no válida: {forma}.',
  formaPagoNoOfrecida: 'El terminal no admite la forma de pago {forma}.',
  instalacionFija: 'El terminal ya tiene tickets: su número de instalación no puede cambiar (nombra su cadena de registros).',
  instalacionUsada:
    'Ese número de instalación ya ha nombrado una cadena de registros de facturación (de otro terminal o de la propia empresa): elija otro, o déjelo en blanco para que se asigne uno único.',
  terminalConTickets: 'El terminal tiene tickets o cajas: desactívelo en lugar de eliminarlo.',
  pinNoValido: 'El PIN debe tener de 4 a 8 cifras.',
  pinIncorrecto: 'Usuario o PIN incorrectos.',
  pinActualIncorrecto: 'El PIN actual no es correcto.',
  pinSoloPropio: 'En la caja cada cajero cambia solo su propio PIN; el de otro usuario se pone en Configuración › Usuarios.',
  sesionPinSoloTpv:
    'Una sesión abierta con el PIN en el TPV solo puede usar el TPV. Para la oficina, entre con su correo y contraseña.',
  cajaDeOtroTerminal: 'Esa caja es de otro terminal: desde este TPV solo se abre, se mueve y se cierra la caja de este terminal.',
  cajaSinTerminal: 'La caja de un terminal se abre, se mueve y se cierra desde el TPV emparejado de ese terminal.',
  cajaYaAbierta: 'La caja de este terminal ya está abierta.',
  cajaNoAbierta: 'La caja de este terminal no está abierta: ábrala con el fondo antes de vender.',
  importeMovimiento: 'Indique un importe distinto de cero.',
  salidaSuperaEfectivo: 'No hay tanto efectivo en el cajón ({efectivo}).',
  movimientoOfflineDatos: 'Un movimiento hecho sin conexión necesita su identificador (uuid) y la fecha y hora en que se hizo.',
  cajaDelMovimientoCerrada: 'La caja en la que se hizo el movimiento ya está cerrada: anótelo en la caja abierta o como corrección del cierre.',
  ticketSinLineas: 'El ticket no tiene líneas.',
  ticketUuid: 'Cada ticket necesita su identificador (uuid).',
  ticketUuidRepetido: 'El identificador {uuid} aparece dos veces en el envío.',
  ticketLinea: 'Línea {n}: {motivo}',
  articuloNoExiste: 'el artículo no existe o está inactivo.',
  cantidadNoValida: 'la cantidad no es válida.',
  precioNoValido: 'el precio no es válido.',
  descuentoNoValido: 'el descuento no es válido.',
  pagosNoCubren: 'Los pagos ({pagado}) no cubren el total del ticket ({total}).',
  soloEfectivoExcede: 'Solo el efectivo puede superar el total (para dar el cambio).',
  pagoNoValido: 'Los importes de los pagos deben ser positivos.',
  fechaHoraNoValida: 'La fecha y hora del ticket no es válida.',
  ticketRechazado: 'Ticket {uuid}: {motivo}',
  // The offline record's checks (docs/tpv.md).
  registroNumero: 'el número del registro ({recibido}) no es el siguiente de la serie del terminal ({esperado}).',
  registroImportes: 'los importes del registro (cuota {cuota}, total {importe}) no coinciden con las líneas del ticket (cuota {cuotaLineas}, total {importeLineas}).',
  registroCadena: 'el registro no se encadena con el último registro del terminal (huella anterior {recibida}, se esperaba {esperada}).',
  registroHuella: 'la huella del registro no corresponde a sus datos: el registro se ha alterado.',
  registroXml: 'el XML del registro no corresponde a sus datos: el registro se ha alterado.',
  registroFecha: 'la fecha y hora del registro no es válida, es anterior a la del registro anterior o posterior a ahora.',
  registroTipo: 'un ticket es una factura simplificada (F2).',
  registroCampos: 'el registro está incompleto.',
  devolucionSinLineas: 'Elija las líneas y cantidades que se devuelven.',
  devolucionLineaAjena: 'La línea {id} no es de este ticket.',
  devolucionExcede: 'Línea {n}: se devuelven {cantidad} y quedan por devolver {queda}.',
  devolucionPagos: 'Los reembolsos ({pagado}) deben sumar el importe de la devolución ({total}).',
  devolucionRechazada: 'Devolución {uuid}: {motivo}',
  registroTipoDevolucion: 'una devolución es una rectificativa R5.',
  devolucionOfflineDatos: 'Una devolución hecha sin conexión necesita su identificador (uuid) y la fecha y hora en que se hizo.',
  devolucionTicket: 'Indique el ticket que se devuelve (su id o su uuid).',
  noEsTicket: 'El documento no es un ticket.',
  ticketYaFacturado: 'El ticket ya se sustituyó por una factura completa: una devolución se hace con una rectificativa de esa factura.',
  ticketNoFacturable: 'Solo se puede sustituir por una factura completa un ticket emitido y sin devoluciones.',
  serieNormalRequerida: 'No hay ninguna serie de facturas normal activa: cree una en Configuración › Series.',
  denominacionNoValida: 'Denominación no válida: {valor}.',
  // Issue 23: what an upload breaks is stored and flagged (tpv_incidencias), each with its detail.
  registroFechaFormato: 'la fecha y hora del registro no es válida o no es del día de su fecha de expedición.',
  incidenciaRelojAtras: 'Registro {numero}: su hora ({hora}) es anterior a la del registro anterior de la cadena ({anterior}).',
  incidenciaRelojAdelantado: 'Registro {numero}: su hora ({hora}) es posterior a la del servidor ({ahora}).',
  incidenciaLimite: 'Ticket {numero}: {total}, más que el límite de la factura simplificada ({limite}).',
  incidenciaPrecio: 'Ticket {numero}, línea {n} ({articulo}): cobrado a {precio} y su PVP es {pvp}; {cajero} no puede cambiar precios.',
  incidenciaDescuento: 'Ticket {numero}, línea {n} ({articulo}): descuento del {descuento}, y a {cajero} se le permite hasta el {maximo}.',
  incidenciaArticulo: 'Ticket {numero}, línea {n}: el artículo {articulo} está desactivado.',
  incidenciaDevolucion: 'Devolución {numero} del ticket {ticket}, línea {n}: devuelve {cantidad} y quedaban por devolver {queda}.',
  clienteBusquedaCorta: 'Escriba al menos 3 letras o el NIF.',
  devolucionDiaAnterior: 'El ticket es de un día anterior: su rol solo permite devolver tickets de hoy. Llame a un encargado.',
  incidenciaDevolucionAnterior: 'Devolución {numero} del ticket {ticket}, del {fecha}: {cajero} no puede devolver tickets de días anteriores.',
  incidenciaFacturado: 'Devolución {numero} del ticket {ticket}, que ya estaba sustituido por una factura completa.',
  incidenciaRetirada: 'Salida de {importe} «{motivo}» con {efectivo} de efectivo en la caja.',
  incidenciaApartado: '{que} {uuid}: {motivo}',
  incidenciaCaja: '{que} ({total}): cuando llegó, la caja del terminal ya estaba cerrada en el servidor.',
  // The till's own stops (issue 23): before payment, before a record.
  ticketSuperaLimite:
    'Este ticket ({total}) supera el límite de la factura simplificada ({limite} IVA incluido): no se puede cobrar como ticket. Pida al cliente su NIF y sus datos y hágale una factura completa aquí: «Factura completa (F1)».',
  ticketSuperaLimiteSinConexion:
    'Este ticket ({total}) supera el límite de la factura simplificada ({limite} IVA incluido): no se puede cobrar como ticket, y la factura completa necesita conexión con el servidor. Aparque la venta (F8) y hágala cuando vuelva la conexión.',
  // Issue 23: a full invoice (F1) at the till, for a sale over the simplified invoice's limit.
  valeSinDerecho: 'Su rol no permite reembolsar con un vale. Llame a un encargado.',
  valeSinConexion: 'Los vales necesitan conexión con el servidor: sin ella no se da ni se acepta ningún vale.',
  valeCodigo: 'Escanee o escriba el código del vale.',
  valeNoExiste: 'El vale {codigo} no existe.',
  valeUsado: 'El vale {codigo} ya se usó.',
  valeImporte: 'El vale {codigo} es de {importe}: se usa entero, en una compra de al menos ese importe.',
  // Issue 23: a return without a ticket (right «devolver_sin_ticket»), refunded as the customer chooses.
  devolucionSinTicketLineas: 'Elija los artículos y las cantidades que se devuelven.',
  devolucionSinTicketArticulo: 'Línea {n}: el artículo no existe o está desactivado.',
  devolucionSinTicketPrecio: 'Línea {n} ({articulo}): el precio ({precio}) no es su PVP ({pvp}) y su rol no permite cambiar precios.',
  devolucionSinTicketPagos: 'Elija cómo se reembolsa la devolución (efectivo, tarjeta, vale…).',
  devolucionEfectivoCaja: 'En la caja hay {efectivo} de efectivo: no se pueden devolver {importe} en efectivo. Reembolse el resto con otra forma de pago.',
  devolucionSinTicketSinDerecho: 'Su rol no permite hacer devoluciones sin ticket. Llame a un encargado.',
  incidenciaSinTicketSinDerecho: 'Devolución sin ticket {numero} ({importe}) hecha sin conexión por {cajero}, cuyo rol no permite devoluciones sin ticket.',
  incidenciaEfectivo: 'Devolución {numero}: {importe} en efectivo con {efectivo} de efectivo en la caja.',
  valeSaldo: 'El vale {codigo} tiene {saldo}: no se pueden pagar {importe} con él.',
  cantidadEntera: '«{articulo}» se vende por unidades: la cantidad debe ser un número entero, no {cantidad}.',
  facturaVentaSinCliente: 'Elija el cliente de la factura completa (con su NIF).',
  facturaVentaClienteSinNif: 'El cliente no tiene un NIF válido: una factura completa nombra al destinatario con su NIF.',
  relojAtrasado:
    'El reloj de este equipo ({ahora}) va por detrás del último registro de la caja ({anterior}): sin conexión no se puede vender con el reloj atrasado. Ponga el equipo en fecha y hora (automáticas) y vuelva a cobrar.',
  relojAtrasadoEnLinea:
    'El reloj de este equipo ({ahora}) va por detrás del último registro de la caja ({anterior}): la caja hace el registro de cada ticket con su hora y no puede vender con el reloj atrasado. Ponga el equipo en fecha y hora (automáticas) y vuelva a cobrar.',
  // docs/tpv.md «The doubtful ticket»: a till's record of a ticket the server had already registered (an older till).
  incidenciaRegistroDuplicado:
    'Ticket {numero}: la caja hizo su propio registro (huella {recibida}) de un ticket que el servidor ya tenía registrado (huella {guardada}). En los libros queda el del servidor, con el mismo número e importe; los registros que la caja encadenó después del suyo se apartan y se corrigen con registros nuevos.',
  registroDuplicadoTpv:
    'El servidor ya tenía este ticket con su propio registro: en los libros queda el suyo, con el mismo número e importe. Lo que esta caja encadenó después puede quedar apartado: avise al encargado.',
} as const;

/** Fills `{name}` placeholders. */
export const textoTpv = (plantilla: string, datos: Record<string, string | number>): string =>
  plantilla.replace(/\{(\w+)\}/g, (m, k: string) => (k in datos ? String(datos[k]) : m));

/**
 * Issue 23 (docs/tpv.md «What a till issued, the books keep»): what an upload from a till broke. The ticket, return or
 * movement is stored as issued — it was printed, its record exists — and the incidence tells the manager what to do;
 * `registro`: a record that is truly corrupt (its huella, chain or number don't hold), kept aside whole, not in the books.
 */
export const TIPOS_INCIDENCIA_TPV = ['limite', 'precio', 'descuento', 'devolucion', 'facturado', 'retirada', 'reloj', 'articulo', 'caja', 'registro'] as const;
export type TipoIncidenciaTpv = (typeof TIPOS_INCIDENCIA_TPV)[number];

/** Each kind: what happened, in a word, and how it is put right. */
export const INCIDENCIA_TPV: Record<TipoIncidenciaTpv, { etiqueta: string; remedio: string }> = {
  limite: {
    etiqueta: 'Supera el límite de la factura simplificada',
    remedio: 'Emita una factura completa (F3) a nombre del cliente que sustituya al ticket: «Factura completa» en el TPV o en Ventas › Tickets.',
  },
  precio: {
    etiqueta: 'Precio distinto del PVP sin derecho a cambiar precios',
    remedio: 'Compruebe la venta con el cajero. Si el precio cobrado fue un error, corríjalo con una rectificativa (R5) del ticket por la diferencia.',
  },
  descuento: {
    etiqueta: 'Descuento mayor que el permitido al cajero',
    remedio: 'Compruebe la venta con el cajero. Si el descuento no procedía, corríjalo con una rectificativa (R5) del ticket por la diferencia.',
  },
  devolucion: {
    etiqueta: 'Devolución que el cajero no podía hacer (más de lo vendido, o sin ticket sin ese derecho)',
    remedio: 'Compruebe con el cajero qué se devolvió. Si sobra, anule la rectificativa (R5) en Ventas o haga otra que la corrija, y anote el dinero con un movimiento de caja.',
  },
  facturado: {
    etiqueta: 'Devolución de un ticket ya sustituido por una factura completa',
    remedio: 'La devolución rectifica el ticket: rectifique también la factura completa (F3) que lo sustituye, en Ventas › Facturas, por lo devuelto.',
  },
  retirada: {
    etiqueta: 'Salida de efectivo mayor que el efectivo de la caja',
    remedio: 'Cuente el cajón y anote la diferencia con un movimiento de caja o en el cierre.',
  },
  reloj: {
    etiqueta: 'La hora del registro no sigue a la del anterior',
    remedio: 'Ponga en hora el reloj del TPV. El registro se guarda como se emitió; si la fecha impresa es errónea, corrija la factura con una rectificativa.',
  },
  articulo: {
    etiqueta: 'Artículo desactivado vendido sin conexión',
    remedio: 'Revise el artículo en el catálogo y el precio cobrado; si la venta no procedía, corríjala con una rectificativa (R5) del ticket.',
  },
  caja: {
    etiqueta: 'Hecho sin conexión con la caja ya cerrada',
    remedio: 'No cuenta en ningún cierre: anote su importe en la caja abierta con un movimiento de caja (o cuéntelo en el próximo cierre).',
  },
  registro: {
    etiqueta: 'Registro dañado: apartado, no está en los libros',
    remedio: 'El registro no cuadra (huella, encadenamiento o número): no se ha guardado. Conserve el ticket impreso y corrija la venta con un registro nuevo (una factura o una rectificativa emitida en la oficina); avise a soporte.',
  },
};

/** An incidence as the back office and the Z show it. */
export type IncidenciaTpv = {
  id: number;
  terminal_id: number;
  caja_id: number | null;
  documento_id: number | null;
  /** A return's: the ticket it returns. */
  ticket_id: number | null;
  /** The ticket's or return's number, when it was stored. */
  numero: string | null;
  uuid: string | null;
  tipo: TipoIncidenciaTpv;
  etiqueta: string;
  detalle: string;
  remedio: string;
  fecha: string;
  resuelta: 0 | 1;
};
