import { LEYENDA_DEMO, LEYENDA_QR, QR_BASE, presentacionQr } from 'shared';
import { huellaDe } from 'shared/fiscal';
import { datosTicket } from '../impresion/ticket';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { almacenColaIdb, type TicketLocal } from '../datos/cola';
import { IndiceCatalogo } from '../datos/catalogo';
import { articuloDePrueba, cajaDePrueba, respuestaOk, terminalDePrueba } from '../pruebas';
import { colaDe, reiniciarCola, useCaja } from './estado';

const PAN = articuloDePrueba(3, { codigo: 'PAN', nombre: 'Pan', descripcion: 'Pan', precio: 11000, tipo_iva: '4' });
const TERMINAL = terminalDePrueba({
  fondo: 0,
  caja_abierta: undefined,
  ultimo: { ejercicio: new Date().getFullYear(), numero: 4 },
  cadena: { huella: 'F'.repeat(64), num_serie: `T1 ${new Date().getFullYear()}/000004`, fecha_expedicion: '01-01-2026', fecha_hora_huso: '2026-01-01T10:00:00+01:00' },
});

let red = false;
let recibidos: TicketLocal[] = [];

beforeEach(() => {
  red = false;
  recibidos = [];
});
cajaDePrueba(
  (_url, init) => {
    if (!red) throw new TypeError('Failed to fetch');
    const body = JSON.parse(String(init?.body));
    const data = body.tickets.map((t: TicketLocal) => {
      if (!recibidos.some((r) => r.uuid === t.uuid)) recibidos.push(t);
      return { uuid: t.uuid, id: 1, numero: t.registro?.num_serie, total: 110, huella: t.registro?.huella, qr_url: 'https://www2.agenciatributaria.gob.es/x', offline: 1, repetido: 0 };
    });
    return respuestaOk(data);
  },
  () => ({ terminal: TERMINAL, indice: new IndiceCatalogo([PAN]) }),
);

async function vender() {
  useCaja.getState().añadirArticulo(PAN);
  return useCaja.getState().cobrar([{ forma: 'efectivo', importe: 200 }]);
}

describe('sin conexión', () => {
  it('cada ticket se guarda con su registro hecho por el terminal, encadenado y numerado; al volver llegan una vez y en orden', async () => {
    const a = await vender();
    const b = await vender();
    const año = new Date().getFullYear();
    expect(a.estado).toBe('pendiente');
    expect(a.registro?.num_serie).toBe(`T1 ${año}/000005`);
    expect(b.registro?.num_serie).toBe(`T1 ${año}/000006`);
    // Chained: the first to the terminal's last record, the second to the first.
    expect(a.registro?.huella_anterior).toBe('F'.repeat(64));
    expect(b.registro?.huella_anterior).toBe(a.registro?.huella);
    expect(a.registro?.huella).toBe(
      huellaDe({
        IDEmisorFactura: 'B12345678',
        NumSerieFactura: a.registro!.num_serie,
        FechaExpedicionFactura: a.registro!.fecha_expedicion,
        TipoFactura: 'F2',
        CuotaTotal: a.registro!.cuota_total,
        ImporteTotal: a.registro!.importe_total,
        Huella: a.registro!.huella_anterior,
        FechaHoraHusoGenRegistro: a.registro!.fecha_hora_huso,
      }),
    );
    expect(a.registro).toMatchObject({ importe_total: '1.10', cuota_total: '0.04', tipo_factura: 'F2' });
    expect(a.registro?.xml).toContain(a.registro!.huella);
    expect(a.qr_url).toContain('numserie=T1');

    // A reload: a new queue over the same IndexedDB still has both, in order.
    reiniciarCola();
    const cola = colaDe(TERMINAL, () => undefined);
    expect((await cola.pendientes()).map((t) => t.uuid)).toEqual([a.uuid, b.uuid]);

    red = true;
    await cola.vaciar();
    expect(recibidos.map((t) => t.uuid)).toEqual([a.uuid, b.uuid]);
    expect(recibidos[0].registro?.huella).toBe(a.registro?.huella);
    expect((await almacenColaIdb.todos()).every((t) => t.estado === 'subido')).toBe(true);
    // Uploading again changes nothing on this side and sends nothing new.
    await cola.vaciar();
    expect(recibidos).toHaveLength(2);
  });
});

describe('el entorno de VERI*FACTU', () => {
  it('sin conexión, el QR y el registro del ticket son lo que el terminal dice que son sus registros; reimpreso, lo que se guardó con él', async () => {
    useCaja.setState({ terminal: { ...TERMINAL, entorno: 'pruebas', demo: 1, verifactu: 0 } });
    const a = await vender();
    expect(a.estado).toBe('pendiente');
    expect(a.qr_url?.startsWith(`${QR_BASE.pruebas}?`)).toBe(true);
    expect(a.qr_url).toContain('numserie=T1');
    // Stored with the record (and sent with it on upload): what it was made for.
    expect(a.registro).toMatchObject({ entorno: 'pruebas', demo: 1, verifactu: 0 });
    const impreso = datosTicket(a, { ...TERMINAL, entorno: 'pruebas', demo: 1 }, null);
    expect(impreso.qr).toBe(a.qr_url);
    expect(presentacionQr(impreso.emision).leyenda).toBe(LEYENDA_DEMO);

    // The company goes live: a new ticket is made for «Producción»; the demo's ticket still reprints as demo.
    useCaja.setState({ terminal: { ...TERMINAL, entorno: 'produccion', demo: 0, verifactu: 1 } });
    const b = await vender();
    expect(b.qr_url?.startsWith(`${QR_BASE.produccion}?`)).toBe(true);
    expect(b.registro).toMatchObject({ entorno: 'produccion', demo: 0, verifactu: 1 });
    expect(presentacionQr(datosTicket(b, TERMINAL, null).emision).leyenda).toBe(LEYENDA_QR);
    const reimpreso = datosTicket(a, { ...TERMINAL, entorno: 'produccion', demo: 0, verifactu: 1 }, null);
    expect(reimpreso.qr?.startsWith(`${QR_BASE.pruebas}?`)).toBe(true);
    expect(presentacionQr(reimpreso.emision).leyenda).toBe(LEYENDA_DEMO);

    // A terminal that does not say what its records are made for never makes (or prints) production.
    const { entorno: _e, demo: _d, verifactu: _v, ...mudo } = TERMINAL;
    useCaja.setState({ terminal: mudo });
    const c = await vender();
    expect(c.qr_url?.startsWith(`${QR_BASE.pruebas}?`)).toBe(true);
    expect(presentacionQr(datosTicket(c, mudo, null).emision).leyenda).not.toBe(LEYENDA_QR);
  });
});

describe('una respuesta perdida', () => {
  it('el servidor ya tenía el ticket: su registro manda y lo que la caja hizo después se encadena de nuevo, con los mismos números', async () => {
    const año = new Date().getFullYear();
    // A server with the terminal's chain: it checks each offline record's link and keeps one row per uuid.
    let cabeza = { numero: 4, huella: 'F'.repeat(64) };
    const filas = new Map<string, Record<string, unknown>>();
    let perderRespuesta = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        if (!red) throw new TypeError('Failed to fetch');
        const body = JSON.parse(String(init?.body));
        const data = [];
        for (const t of body.tickets as TicketLocal[]) {
          const ya = filas.get(t.uuid);
          if (ya) {
            data.push({ ...ya, repetido: 1 });
            continue;
          }
          if (t.registro && t.registro.huella_anterior !== cabeza.huella) {
            return new Response(JSON.stringify({ RESULT: '1', message: `Ticket ${t.uuid}: la cadena no enlaza` }), { status: 400 });
          }
          const numero = cabeza.numero + 1;
          const huella = t.registro?.huella ?? `${String(numero).padStart(2, '0')}`.padEnd(64, 'S');
          const fila = { uuid: t.uuid, id: numero, numero: `T1 ${año}/${String(numero).padStart(6, '0')}`, total: t.total, huella, qr_url: 'q', fecha_hora_huso: `${año}-11-26T10:00:00+01:00`, offline: t.registro ? 1 : 0, repetido: 0 };
          filas.set(t.uuid, fila);
          cabeza = { numero, huella };
          data.push(fila);
        }
        if (perderRespuesta) {
          perderRespuesta = false;
          throw new TypeError('Failed to fetch');
        }
        return new Response(JSON.stringify({ RESULT: '0', data }), { status: 200 });
      }),
    );
    red = true;
    // A: sent online, stored by the server, the answer lost: the till makes its own record and marks it doubtful.
    const a = await vender();
    expect(a).toMatchObject({ estado: 'pendiente', dudoso: true });
    expect(a.registro?.num_serie).toBe(`T1 ${año}/000005`);
    // B: issued behind it, chained to the till's record of A.
    red = false;
    const b = await vender();
    expect(b.registro?.huella_anterior).toBe(a.registro?.huella);
    red = true;
    await colaDe(TERMINAL, () => undefined).vaciar();
    const todos = await almacenColaIdb.todos();
    const A = todos.find((x) => x.uuid === a.uuid)!;
    const B = todos.find((x) => x.uuid === b.uuid)!;
    // A: the server's row (its record); B: chained anew to it, same number, accepted.
    expect(A).toMatchObject({ estado: 'subido', respuesta: { repetido: 1, numero: `T1 ${año}/000005` } });
    expect(B.estado).toBe('subido');
    expect(B.registro?.num_serie).toBe(`T1 ${año}/000006`);
    expect(B.registro?.huella_anterior).toBe(A.respuesta?.huella);
    expect(B.qr_url).toBe(b.qr_url);
    expect([...filas.keys()]).toEqual([a.uuid, b.uuid]);
  });
});

