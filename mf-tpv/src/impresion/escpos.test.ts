import { describe, expect, it } from 'vitest';
import { informeZDeCierre, type CierreTpv, type TicketPdf } from 'shared';
import { APERTURA_CAJON, codificar, COLUMNAS, dosColumnas, EscPos, ticketEscPos, zEscPos } from './escpos';

/** Where `parte` starts in `todo`, or -1. */
function buscar(todo: Uint8Array, parte: number[] | Uint8Array): number {
  const p = [...parte];
  for (let i = 0; i + p.length <= todo.length; i++) if (p.every((b, j) => todo[i + j] === b)) return i;
  return -1;
}
const contiene = (todo: Uint8Array, texto: string) => buscar(todo, codificar(texto)) >= 0;

const QR = 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345678&numserie=T1%202026%2F000042&fecha=27-11-2026&importe=7.70';
const TICKET: TicketPdf = {
  empresa: { nombre: 'Ferretería Núñez', nif: 'B12345678', lineas: ['Calle Mayor 1, Soria'] },
  titulo: 'Factura simplificada',
  numero: 'T1 2026/000042',
  fecha: '27/11/2026, 10:15',
  terminal: 'Caja 1',
  cajero: 'Ana',
  lineas: [
    { nombre: 'Café molido 250 g', cantidad: '1', precio: '2,75 €', importe: '2,75 €' },
    { nombre: 'Pan de pueblo', cantidad: '1', precio: '4,95 €', importe: '4,95 €' },
  ],
  desglose: [
    { tipo: '21 %', base: '2,27 €', cuota: '0,48 €' },
    { tipo: '4 %', base: '4,76 €', cuota: '0,19 €' },
  ],
  total: '7,70 €',
  pagos: [{ forma: 'Efectivo', importe: '10,00 €' }],
  cambio: '2,30 €',
  qr: QR,
  emision: { entorno: 'produccion', demo: 0, verifactu: 1 },
  pie: 'Gracias por su compra',
};

describe('ESC/POS (issue 23)', () => {
  it('el ticket: inicializa con la tabla PC858, el QR tributario primero con su URL, el número, el total y el cambio; corta', () => {
    const b = ticketEscPos(TICKET);
    expect([...b.slice(0, 5)]).toEqual([0x1b, 0x40, 0x1b, 0x74, 19]);
    // The QR: GS ( k fn 80 stores the URL (its length + 3, little endian), fn 81 prints it.
    const url = [...new TextEncoder().encode(QR)];
    const n = url.length + 3;
    const guardar = buscar(b, [0x1d, 0x28, 0x6b, n & 0xff, n >> 8, 0x31, 0x50, 0x30, ...url]);
    expect(guardar).toBeGreaterThan(0);
    expect(buscar(b, [0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30])).toBeGreaterThan(guardar);
    // First, before the shop's name and the number.
    expect(guardar).toBeLessThan(buscar(b, codificar('Ferretería Núñez')));
    expect(contiene(b, 'QR tributario:')).toBe(true);
    // The legend, wrapped to the roll's 48 columns.
    expect(buscar(b, [...codificar('Factura verificable en la sede electrónica de la'), 0x0a, ...codificar('AEAT'), 0x0a])).toBeGreaterThan(0);
    expect(contiene(b, 'T1 2026/000042')).toBe(true);
    // TOTAL in double size, laid out for 24 columns.
    expect(buscar(b, [0x1d, 0x21, 0x11, ...codificar(dosColumnas('TOTAL', '7,70 €', COLUMNAS / 2))])).toBeGreaterThan(0);
    expect(contiene(b, dosColumnas('Cambio', '2,30 €'))).toBe(true);
    expect(contiene(b, 'Café molido 250 g')).toBe(true);
    // Cut at the end; no drawer kick unless asked.
    expect(buscar(b, [0x1d, 0x56, 0x42, 0x00])).toBe(b.length - 4);
    expect(buscar(b, APERTURA_CAJON)).toBe(-1);
  });

  it('pagado en efectivo, abre el cajón (ESC p, patilla 2) después de cortar', () => {
    const b = ticketEscPos(TICKET, { abrirCajon: true });
    expect(buscar(b, APERTURA_CAJON)).toBe(b.length - 5);
    expect([...APERTURA_CAJON]).toEqual([0x1b, 0x70, 0x00, 0x19, 0xfa]);
  });

  it('un ticket de la demostración lleva su leyenda; uno sin QR, ningún QR', () => {
    const demo = ticketEscPos({ ...TICKET, emision: { entorno: 'pruebas', demo: 1, verifactu: 1 } });
    expect(contiene(demo, 'DEMOSTRACIÓN - sin validez fiscal')).toBe(true);
    const sinQr = ticketEscPos({ ...TICKET, qr: null });
    expect(buscar(sinQr, [0x1d, 0x28, 0x6b])).toBe(-1);
    expect(contiene(sinQr, 'QR tributario:')).toBe(false);
  });

  it('los caracteres del español y el euro en PC858; lo desconocido como «?»', () => {
    expect(codificar('ñÑáéíóúü€ºª¿¡')).toEqual([0xa4, 0xa5, 0xa0, 0x82, 0xa1, 0xa2, 0xa3, 0x81, 0xd5, 0xa7, 0xa6, 0xa8, 0xad]);
    expect(codificar('1,00\u00a0€')).toEqual([0x31, 0x2c, 0x30, 0x30, 0x20, 0xd5]);
    expect(codificar('漢')).toEqual([0x3f]);
  });

  it('las líneas caben en 48 columnas: una fila larga se corta, un texto largo se parte', () => {
    expect(dosColumnas('Tornillo', '1,21 €')).toHaveLength(COLUMNAS);
    const larga = dosColumnas('Tornillo de cabeza avellanada inoxidable M4 x 40 mm (caja)', '12,10 €');
    expect(larga).toHaveLength(COLUMNAS);
    expect(larga.endsWith(' 12,10 €')).toBe(true);
    const b = new EscPos().linea('x '.repeat(40)).bytes();
    expect([...b].filter((c) => c === 0x0a)).toHaveLength(2);
  });

  it('el Z: el cierre, cada cajero, el total y el efectivo esperado y contado; corta sin abrir el cajón', () => {
    const cierre: CierreTpv = {
      id: 3, terminal_id: 7, terminal_nombre: 'Caja 1', codigo: 12, caja_id: 41, usuario_id: 2, usuario_nombre: 'Luis', apertura: '2026-11-27T08:00:00Z',
      cierre: '2026-11-27T21:00:00Z', fondo: 10_000, tickets: 3, devoluciones: 0, total: 1_000,
      formas: [{ forma: 'efectivo', ventas: 1_000, devoluciones: 0, esperado: 11_000, contado: 10_950, diferencia: -50 }],
      efectivo: { fondo: 10_000, cobrado: 1_000, cambio: 0, devuelto: 0, entradas: 0, salidas: 0, esperado: 11_000, contado: 10_950, diferencia: -50 },
      diferencia: -50, impuestos: [{ tipo_iva: '21', base: 826, iva: 174, total: 1_000 }], movimientos: [], denominaciones: null,
      primer_numero: 'T1 2026/000001', ultimo_numero: 'T1 2026/000003',
      cajeros: [
        { usuario_id: 1, nombre: 'Ana', tickets: 2, devoluciones: 0, total: 650 },
        { usuario_id: 2, nombre: 'Luis', tickets: 1, devoluciones: 0, total: 350 },
      ],
    };
    const b = zEscPos(informeZDeCierre(cierre), { nombre: 'Ferretería Núñez', nif: 'B12345678' });
    expect(contiene(b, 'Informe Z')).toBe(true);
    expect(contiene(b, 'Cierre nº 12 · Caja 1')).toBe(true);
    expect(contiene(b, dosColumnas('Ana (2)', '6,50 €'))).toBe(true);
    expect(contiene(b, dosColumnas('Luis (1)', '3,50 €'))).toBe(true);
    expect(contiene(b, dosColumnas('TOTAL', '10,00 €'))).toBe(true);
    expect(contiene(b, dosColumnas('Esperado', '110,00 €'))).toBe(true);
    expect(contiene(b, dosColumnas('Diferencia', '-0,50 €'))).toBe(true);
    expect(buscar(b, [0x1d, 0x56, 0x42, 0x00])).toBe(b.length - 4);
    expect(buscar(b, APERTURA_CAJON)).toBe(-1);
  });
});
