import { formatMoney, presentacionQr, TITULO_QR, type EmpresaPdf, type InformeZ, type TicketPdf } from 'shared';

/**
 * A small ESC/POS encoder (issue 23): the byte stream an 80 mm thermal printer of the Epson TM-T20 / TM-T88 family
 * (and the many that copy its command set) prints without a dialog — the same ticket and Z as the HTML roll
 * (`RolloTicket`, `RolloZ`), the fiscal QR first, and the cash drawer's kick. Only the commands below are used:
 *
 * | bytes | command |
 * |---|---|
 * | `1B 40` | ESC @ — initialise |
 * | `1B 74 13` | ESC t 19 — character table PC858 (Latin-1 with €) |
 * | `1B 61 n` | ESC a — align: 0 left, 1 centre, 2 right |
 * | `1B 45 n` | ESC E — bold on (1) / off (0) |
 * | `1D 21 n` | GS ! — character size (0x11: double width and height) |
 * | `1B 64 n` | ESC d — print and feed n lines |
 * | `1D 28 6B …` | GS ( k — QR code: model 2 (fn 65), module size (fn 67), error correction M (fn 69), store (fn 80), print (fn 81) |
 * | `1D 56 42 00` | GS V 66 0 — feed to the cutter and partial cut |
 * | `1B 70 00 19 FA` | ESC p 0 25 250 — pulse on drawer pin 2: 50 ms on, 500 ms off |
 *
 * Tested against this encoder's byte stream only: no physical printer was available (docs/tpv.md).
 */

/** Characters per line of an 80 mm roll in font A (12 × 24 dots, 576 dots printable). */
export const COLUMNAS = 48;

const ESC = 0x1b;
const GS = 0x1d;

/** PC858 (ESC t 19): what a Spanish ticket needs beyond ASCII. Anything else prints as «?». */
const PC858: Record<string, number> = {
  Ç: 0x80, ü: 0x81, é: 0x82, â: 0x83, ä: 0x84, à: 0x85, ç: 0x87, ê: 0x88, ë: 0x89, è: 0x8a, ï: 0x8b, î: 0x8c, ì: 0x8d, Ä: 0x8e,
  É: 0x90, ô: 0x93, ö: 0x94, ò: 0x95, û: 0x96, ù: 0x97, Ö: 0x99, Ü: 0x9a, á: 0xa0, í: 0xa1, ó: 0xa2, ú: 0xa3, ñ: 0xa4, Ñ: 0xa5,
  ª: 0xa6, º: 0xa7, '¿': 0xa8, '¡': 0xad, '«': 0xae, '»': 0xaf, Á: 0xb5, Â: 0xb6, À: 0xb7, Ê: 0xd2, Ë: 0xd3, È: 0xd4, '€': 0xd5,
  Í: 0xd6, Î: 0xd7, Ï: 0xd8, Ó: 0xe0, Ô: 0xe2, Ò: 0xe3, Ú: 0xe9, Û: 0xea, Ù: 0xeb, '·': 0xfa, '×': 0x9e,
};
/** Typography a receipt printer has no glyph for, written as ASCII. */
const SUSTITUTOS: Record<string, string> = { '—': '-', '–': '-', '‘': "'", '’': "'", '“': '"', '”': '"', '…': '...', '\u00a0': ' ', '\u202f': ' ' };

/** A text in PC858 bytes (unknown characters as «?»). */
export function codificar(texto: string): number[] {
  const out: number[] = [];
  for (const ch of texto) {
    const s = SUSTITUTOS[ch];
    if (s !== undefined) {
      for (const c of s) out.push(c.charCodeAt(0));
      continue;
    }
    const code = ch.codePointAt(0)!;
    if (code >= 0x20 && code < 0x7f) out.push(code);
    else out.push(PC858[ch] ?? 0x3f);
  }
  return out;
}

/** The printed width of a text (one column per character). */
const ancho = (s: string) => [...s].length;

/** A left text and a right one on one line of `columnas` (the left cut if both do not fit). */
export function dosColumnas(izq: string, der: string, columnas = COLUMNAS): string {
  const hueco = columnas - ancho(der) - 1;
  const i = ancho(izq) > hueco ? [...izq].slice(0, Math.max(0, hueco)).join('') : izq;
  return i + ' '.repeat(Math.max(1, columnas - ancho(i) - ancho(der))) + der;
}

/** Words wrapped to lines of `columnas`. */
export function partir(texto: string, columnas = COLUMNAS): string[] {
  const out: string[] = [];
  let linea = '';
  for (const palabra of texto.split(/\s+/).filter(Boolean)) {
    if (!linea) linea = palabra;
    else if (ancho(linea) + 1 + ancho(palabra) <= columnas) linea += ` ${palabra}`;
    else {
      out.push(linea);
      linea = palabra;
    }
    while (ancho(linea) > columnas) {
      out.push([...linea].slice(0, columnas).join(''));
      linea = [...linea].slice(columnas).join('');
    }
  }
  if (linea) out.push(linea);
  return out;
}

/** Builds an ESC/POS byte stream command by command. */
export class EscPos {
  private readonly b: number[] = [];

  /** ESC @ and the PC858 table. */
  iniciar(): this {
    this.b.push(ESC, 0x40, ESC, 0x74, 19);
    return this;
  }

  alinear(a: 'izquierda' | 'centro' | 'derecha'): this {
    this.b.push(ESC, 0x61, a === 'izquierda' ? 0 : a === 'centro' ? 1 : 2);
    return this;
  }

  negrita(on: boolean): this {
    this.b.push(ESC, 0x45, on ? 1 : 0);
    return this;
  }

  /** Double width and height (the total), or normal. */
  doble(on: boolean): this {
    this.b.push(GS, 0x21, on ? 0x11 : 0x00);
    return this;
  }

  /** A line of text (wrapped to the roll's width) ending in LF. */
  linea(texto = ''): this {
    const partes = texto ? partir(texto) : [''];
    for (const p of partes) this.b.push(...codificar(p), 0x0a);
    return this;
  }

  /** A row: text on the left, amount on the right (`columnas` halves in double width). */
  fila(izq: string, der: string, columnas = COLUMNAS): this {
    this.b.push(...codificar(dosColumnas(izq, der, columnas)), 0x0a);
    return this;
  }

  raya(): this {
    return this.linea('-'.repeat(COLUMNAS));
  }

  avanzar(n: number): this {
    this.b.push(ESC, 0x64, Math.max(0, Math.min(255, n)));
    return this;
  }

  /**
   * A QR code (GS ( k, model 2, error correction M): the fiscal QR's URL as bytes. `modulo` is the size of a module in
   * dots (6 ≈ 0,75 mm on a 203 dpi head: a 3–4 cm code, what the AEAT's specification asks of a ticket's QR).
   */
  qr(datos: string, modulo = 6): this {
    const d = [...new TextEncoder().encode(datos)];
    const k = (...p: number[]) => this.b.push(GS, 0x28, 0x6b, ...p);
    k(0x04, 0x00, 0x31, 0x41, 0x32, 0x00); // fn 65: model 2
    k(0x03, 0x00, 0x31, 0x43, Math.max(1, Math.min(16, modulo))); // fn 67: module size
    k(0x03, 0x00, 0x31, 0x45, 0x31); // fn 69: error correction M
    const n = d.length + 3;
    k(n & 0xff, n >> 8, 0x31, 0x50, 0x30, ...d); // fn 80: store the data
    k(0x03, 0x00, 0x31, 0x51, 0x30); // fn 81: print it
    this.b.push(0x0a);
    return this;
  }

  /** Feeds past the cutter and cuts (partial cut: the ticket hangs from a point until torn). */
  cortar(): this {
    this.b.push(GS, 0x56, 0x42, 0x00);
    return this;
  }

  /** Opens the cash drawer: a pulse on pin 2 (50 ms on, 500 ms off). */
  abrirCajon(): this {
    this.b.push(ESC, 0x70, 0x00, 0x19, 0xfa);
    return this;
  }

  bytes(): Uint8Array {
    return Uint8Array.from(this.b);
  }
}

/** The command that opens the drawer, as bytes (for tests and a lone «abrir cajón»). */
export const APERTURA_CAJON = Uint8Array.from([ESC, 0x70, 0x00, 0x19, 0xfa]);

function cabecera(p: EscPos, empresa: EmpresaPdf | null | undefined) {
  if (!empresa) return;
  p.alinear('centro').negrita(true).linea(empresa.nombre).negrita(false);
  if (empresa.nif) p.linea(`NIF ${empresa.nif}`);
  for (const l of empresa.lineas ?? []) p.linea(l);
  p.alinear('izquierda');
}

/**
 * A ticket as the 80 mm roll prints it (`RolloTicket`): the fiscal QR first with its title and legend, the shop, the
 * title, number and date, the lines, the total, the payments and change, the tax breakdown, the footer; then the
 * cut, and the drawer's kick when `abrirCajon` (paid in cash).
 */
export function ticketEscPos(datos: TicketPdf, opts: { abrirCajon?: boolean } = {}): Uint8Array {
  const p = new EscPos().iniciar();
  if (datos.qr) {
    const { leyenda } = presentacionQr(datos.emision);
    p.alinear('centro').linea(TITULO_QR).qr(datos.qr);
    if (leyenda) p.negrita(true).linea(leyenda).negrita(false);
    p.alinear('izquierda').raya();
  }
  cabecera(p, datos.empresa);
  p.raya();
  p.alinear('centro').negrita(true).linea(datos.titulo).negrita(false).alinear('izquierda');
  p.fila(`Nº ${datos.numero}`, datos.fecha);
  if (datos.terminal) p.linea(`${datos.terminal}${datos.cajero ? ` · Le atendió: ${datos.cajero}` : ''}`);
  p.raya();
  for (const l of datos.lineas) {
    p.linea(l.nombre);
    p.fila(`  ${l.cantidad} x ${l.precio}${l.descuento ? ` dto. ${l.descuento}` : ''}`, l.importe);
  }
  p.raya();
  // Double width halves the columns: the TOTAL row is laid out for 24.
  p.negrita(true).doble(true).fila('TOTAL', datos.total, COLUMNAS / 2).doble(false).negrita(false);
  for (const pago of datos.pagos) p.fila(pago.forma, pago.importe);
  if (datos.cambio) p.fila('Cambio', datos.cambio);
  const impuesto = datos.impuesto ?? 'IVA';
  p.fila(impuesto, `${'Base'.padStart(12)}${'Cuota'.padStart(12)}`);
  for (const d of datos.desglose) p.fila(d.tipo, `${d.base.padStart(12)}${d.cuota.padStart(12)}`);
  p.linea(`${impuesto} incluido`);
  if (datos.pie) p.alinear('centro').linea(datos.pie).alinear('izquierda');
  p.avanzar(3).cortar();
  if (opts.abrirCajon) p.abrirCajon();
  return p.bytes();
}

const fechaZ = (iso: string) =>
  iso ? new Date(iso).toLocaleString('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }) : '';

/** The Z report as the 80 mm roll prints it (`RolloZ`): the same data as its PDF. */
export function zEscPos(z: InformeZ, empresa: EmpresaPdf | null): Uint8Array {
  const p = new EscPos().iniciar();
  cabecera(p, empresa);
  p.raya();
  p.alinear('centro').negrita(true).linea('Informe Z').negrita(false);
  if (z.demo) p.negrita(true).linea('DEMOSTRACIÓN — sin validez fiscal').negrita(false);
  p.linea(`Cierre nº ${z.codigo} · ${z.terminal}`).alinear('izquierda');
  if (z.cajero) p.linea(`Cajero: ${z.cajero}`);
  p.linea(`Apertura: ${fechaZ(z.apertura)}`);
  p.linea(`Cierre: ${fechaZ(z.cierre)}`);
  if (z.numeros) p.linea(`Tickets ${z.numeros.primero} a ${z.numeros.ultimo}`);
  p.raya();
  p.fila('Tickets', String(z.tickets)).fila('Devoluciones', String(z.devoluciones));
  p.negrita(true).fila('TOTAL', formatMoney(z.total)).negrita(false);
  if (z.cajeros?.length) {
    p.raya().negrita(true).linea('Por cajero').negrita(false);
    for (const c of z.cajeros) p.fila(`${c.nombre} (${c.tickets}${c.devoluciones ? ` + ${c.devoluciones} dev.` : ''})`, formatMoney(c.total));
  }
  p.raya().negrita(true).linea('Efectivo').negrita(false);
  for (const d of z.desgloseEfectivo ?? []) p.fila(d.label, formatMoney(d.importe));
  p.negrita(true).fila('Esperado', formatMoney(z.esperado)).negrita(false);
  p.fila('Contado', formatMoney(z.contado));
  p.negrita(true).fila('Diferencia', formatMoney(z.diferencia)).negrita(false);
  p.raya().fila('Forma', `${'Esperado'.padStart(14)}${'Contado'.padStart(14)}`);
  for (const f of z.formas) p.fila(f.label, `${formatMoney(f.esperado).padStart(14)}${formatMoney(f.contado).padStart(14)}`);
  p.raya().fila('IVA', `${'Base'.padStart(11)}${'Cuota'.padStart(11)}${'Total'.padStart(11)}`);
  for (const i of z.ivas) p.fila(i.label, `${formatMoney(i.base).padStart(11)}${formatMoney(i.iva).padStart(11)}${formatMoney(i.total).padStart(11)}`);
  if (z.movimientos?.length) {
    p.raya().negrita(true).linea('Movimientos de caja').negrita(false);
    for (const m of z.movimientos) p.fila(`${m.label}${m.concepto ? `: ${m.concepto}` : ''}`, formatMoney(m.importe));
  }
  p.avanzar(3).cortar();
  return p.bytes();
}
