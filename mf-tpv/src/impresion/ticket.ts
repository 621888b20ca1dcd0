import { IMPUESTO_NOMBRE, empresaPdf, formatDecimal, formatMoney, impuestoDe, porcentajeTipo, presentacionQr, urlQr, type Configuracion, type EmisionRegistro, type TicketPdf } from 'shared';
import { numeroTicket, type TicketLocal } from '../datos/cola';
import type { TerminalTpv } from '../caja/tipos';
import { FORMA_PAGO_LABEL, importeLinea, totalesTicket } from '../venta/importes';

/**
 * What a ticket's record was made for (issue 22): the server's answer (as stored), else what the till stored with its
 * own record (offline); never the terminal's word of today. Null: printed as a test, never production.
 */
export function emisionTicket(t: TicketLocal): EmisionRegistro | null {
  if (t.respuesta?.emision) return t.respuesta.emision;
  if (t.registro?.entorno) return { entorno: t.registro.entorno, demo: t.registro.demo, verifactu: t.registro.verifactu };
  return null;
}

/** The fiscal QR of a ticket: the server's, or made from the till's own record (offline). */
export function qrTicket(t: TicketLocal, terminal: TerminalTpv | null): string | null {
  if (t.respuesta?.qr_url) return t.respuesta.qr_url;
  if (t.qr_url) return t.qr_url;
  if (t.registro && terminal) {
    return urlQr({ nif: terminal.emisor.nif, numserie: t.registro.num_serie, fecha: t.registro.fecha_expedicion, importe: t.total }, presentacionQr(emisionTicket(t)).entorno);
  }
  return null;
}

/**
 * A payment as printed; a vale's (issue 23) names its code and the balance it left — the server's answer once it has
 * one (what was stored), else what the till computed when it read the vale.
 */
function formaPagoImpresa(t: TicketLocal, p: TicketLocal['pagos'][number]): string {
  const forma = FORMA_PAGO_LABEL[p.forma] ?? p.forma;
  if (!p.vale) return forma;
  const saldo = t.respuesta?.vales?.find((v) => v.codigo === p.vale)?.saldo ?? p.saldo;
  return saldo === undefined ? `${forma} ${p.vale}` : `${forma} ${p.vale} · saldo ${formatMoney(saldo)}`;
}

/** What the ticket prints (the 80 mm PDF and the browser's print share it). */
export function datosTicket(t: TicketLocal, terminal: TerminalTpv | null, config: Configuracion | null): TicketPdf {
  const totales = totalesTicket(t.lineas);
  const empresa = empresaPdf(config) ?? (terminal ? { nombre: terminal.emisor.nombre, nif: terminal.emisor.nif } : null);
  return {
    empresa,
    titulo: 'Factura simplificada',
    numero: numeroTicket(t) ?? 'pendiente',
    fecha: new Date(t.fecha_hora).toLocaleString('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }),
    terminal: terminal?.nombre,
    cajero: t.cajero,
    lineas: t.lineas.map((l) => ({
      nombre: l.nombre,
      cantidad: formatDecimal(l.cantidad, 3, 0),
      precio: formatMoney(Math.round(l.precio / 100)),
      importe: formatMoney(importeLinea(l)),
      descuento: l.descuento ? `${formatDecimal(l.descuento, 2, 0)} %` : undefined,
    })),
    desglose: totales.desglose.map((d) => ({ tipo: porcentajeTipo(d.tipo_iva), base: formatMoney(d.base), cuota: formatMoney(d.cuota) })),
    // Issue 16: IGIC or IPSI as the lines' types say (a Canary or Ceuta/Melilla company), else the company's tax.
    impuesto: IMPUESTO_NOMBRE[impuestoDe(totales.desglose, terminal?.impuesto)],
    total: formatMoney(t.total),
    pagos: t.pagos.map((p) => ({ forma: formaPagoImpresa(t, p), importe: formatMoney(p.importe) })),
    cambio: t.cambio ? formatMoney(t.cambio) : undefined,
    qr: qrTicket(t, terminal),
    emision: emisionTicket(t),
    pie: 'Gracias por su compra',
  };
}

export const nombreFicheroTicket = (numero: string) => `ticket-${numero.replace(/[^\w-]+/g, '_')}.pdf`;
