import { LEYENDA_DEMO, LEYENDA_QR, QR_BASE, presentacionQr } from 'shared';
import { fechaHoraHuso, huellaDe } from 'shared/fiscal';
import { datosTicket } from '../impresion/ticket';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { almacenColaIdb, type TicketLocal } from '../datos/cola';
import { IndiceCatalogo } from '../datos/catalogo';
import { articuloDePrueba, cajaDePrueba, respuestaOk, terminalDePrueba } from '../pruebas';
import { colaDe, reiniciarCola, useCaja } from './estado';
import { crearRegistroOffline } from './registro';

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

/**
 * A server with the terminal's chain, as `subirtickets` keeps it: one row per uuid (a repeated uuid answers it), a
 * record chained to anything but the chain's last is refused; a ticket without a record gets the server's own.
 */
function servidorConCadena(cabeza: { numero: number; huella: string }) {
  const año = new Date().getFullYear();
  const filas = new Map<string, Record<string, unknown>>();
  const recibidos: { uuid: string; registro?: TicketLocal['registro']; en_linea?: number }[] = [];
  const s = { perderRespuesta: false, rechazar: null as string | null, filas, recibidos };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      if (!red) throw new TypeError('Failed to fetch');
      const body = JSON.parse(String(init?.body));
      const data = [];
      for (const t of body.tickets as (TicketLocal & { en_linea?: number })[]) {
        recibidos.push({ uuid: t.uuid, registro: t.registro, en_linea: t.en_linea });
        const ya = filas.get(t.uuid);
        if (ya) {
          data.push({ ...ya, repetido: 1 });
          continue;
        }
        if (s.rechazar) return new Response(JSON.stringify({ RESULT: '1', message: `Ticket ${t.uuid}: ${s.rechazar}` }), { status: 400 });
        if (t.registro && t.registro.huella_anterior !== cabeza.huella) {
          return new Response(JSON.stringify({ RESULT: '1', message: `Ticket ${t.uuid}: el registro no se encadena con el último registro del terminal.` }), { status: 400 });
        }
        const numero = cabeza.numero + 1;
        const huella = t.registro?.huella ?? `${String(numero).padStart(2, '0')}`.padEnd(64, 'S');
        const fila = {
          uuid: t.uuid, id: numero, numero: `T1 ${año}/${String(numero).padStart(6, '0')}`, total: t.total, huella, qr_url: 'q',
          fecha_hora_huso: t.registro?.fecha_hora_huso ?? `${año}-11-26T10:00:00+01:00`, offline: t.registro && !t.en_linea ? 1 : 0, repetido: 0,
        };
        filas.set(t.uuid, fila);
        cabeza = { numero, huella };
        data.push(fila);
      }
      if (s.perderRespuesta) {
        s.perderRespuesta = false;
        throw new TypeError('Failed to fetch');
      }
      return new Response(JSON.stringify({ RESULT: '0', data }), { status: 200 });
    }),
  );
  return s;
}

describe('una respuesta perdida (docs/tpv.md «The doubtful ticket»)', () => {
  it('cobrado con conexión y sin respuesta: el ticket lleva el registro que la caja hizo antes de enviarlo; los dos siguientes, impresos sin conexión, llegan con las huellas y números impresos y la cadena entera', async () => {
    const año = new Date().getFullYear();
    const servidor = servidorConCadena({ numero: 4, huella: 'F'.repeat(64) });
    red = true;
    servidor.perderRespuesta = true;
    // A: sent online with its record (the server stores that very record), the answer lost: printed with it.
    const a = await vender();
    expect(a.estado).toBe('pendiente');
    expect(a.registro).toMatchObject({ num_serie: `T1 ${año}/000005`, huella_anterior: 'F'.repeat(64) });
    expect(servidor.recibidos[0]).toMatchObject({ uuid: a.uuid, en_linea: 1, registro: { huella: a.registro!.huella } });
    expect(servidor.filas.get(a.uuid)).toMatchObject({ huella: a.registro!.huella });
    // B and C printed without the connection, chained after A's record.
    red = false;
    const b = await vender();
    const c = await vender();
    expect(b.registro).toMatchObject({ num_serie: `T1 ${año}/000006`, huella_anterior: a.registro!.huella });
    expect(c.registro).toMatchObject({ num_serie: `T1 ${año}/000007`, huella_anterior: b.registro!.huella });
    const impresos = [a, b, c].map((x) => ({ uuid: x.uuid, registro: x.registro, qr_url: x.qr_url }));

    red = true;
    await colaDe(TERMINAL, () => undefined).vaciar();
    const todos = await almacenColaIdb.todos();
    // Each one uploaded once more at most, never with another record; A answered by the server's row (the same record).
    for (const x of impresos) {
      const guardado = todos.find((y) => y.uuid === x.uuid)!;
      expect(guardado.estado).toBe('subido');
      expect({ uuid: guardado.uuid, registro: guardado.registro, qr_url: guardado.qr_url }).toEqual(x);
      expect(guardado.respuesta?.huella).toBe(x.registro!.huella);
      expect(guardado.respuesta?.numero).toBe(x.registro!.num_serie);
      expect(servidor.recibidos.filter((r) => r.uuid === x.uuid).every((r) => r.registro?.huella === x.registro!.huella)).toBe(true);
    }
    expect(todos.find((y) => y.uuid === a.uuid)!.respuesta).toMatchObject({ repetido: 1 });
    // Uploaded after the lost answer: printed records, not «en línea» any more.
    expect(servidor.recibidos.filter((r) => r.uuid !== a.uuid).every((r) => r.en_linea === undefined)).toBe(true);
    expect([...servidor.filas.keys()]).toEqual([a.uuid, b.uuid, c.uuid]);
    expect(todos.some((y) => y.dudoso)).toBe(false);
  });

  it('cobrado con conexión y rechazado: su registro nunca se emitió — la cadena vuelve atrás y el siguiente ticket lleva ese número', async () => {
    const año = new Date().getFullYear();
    const servidor = servidorConCadena({ numero: 4, huella: 'F'.repeat(64) });
    red = true;
    servidor.rechazar = 'Su rol no permite cambiar el precio de un artículo en un documento. (línea 1)';
    useCaja.getState().añadirArticulo(PAN);
    await expect(useCaja.getState().cobrar([{ forma: 'efectivo', importe: 200 }])).rejects.toThrow(servidor.rechazar);
    expect(servidor.recibidos[0].en_linea).toBe(1);
    const [r] = await almacenColaIdb.todos();
    expect(r).toMatchObject({ estado: 'rechazado' });
    expect(r.registro).toBeUndefined();
    servidor.rechazar = null;
    const otro = await useCaja.getState().cobrar([{ forma: 'efectivo', importe: 200 }]);
    expect(otro.estado).toBe('subido');
    expect(otro.registro).toMatchObject({ num_serie: `T1 ${año}/000005`, huella_anterior: 'F'.repeat(64) });
    expect(otro.respuesta?.huella).toBe(otro.registro!.huella);
  });

  it('con conexión y el reloj atrasado respecto al último registro tampoco vende: el registro es de la caja; nada se envía', async () => {
    const servidor = servidorConCadena({ numero: 4, huella: 'F'.repeat(64) });
    red = true;
    const futuro = new Date(Date.now() + 3_600_000);
    useCaja.setState({ terminal: { ...TERMINAL, cadena: { ...TERMINAL.cadena!, fecha_hora_huso: fechaHoraHuso(futuro, 'Europe/Madrid') } } });
    useCaja.getState().añadirArticulo(PAN);
    await expect(useCaja.getState().cobrar([{ forma: 'efectivo', importe: 200 }])).rejects.toThrow(/va por detrás del último registro de la caja .*: la caja hace el registro de cada ticket con su hora/);
    expect(servidor.recibidos).toEqual([]);
    expect(useCaja.getState().lineas).toHaveLength(1);
    expect(await almacenColaIdb.todos()).toEqual([]);
  });

  it('una caja anterior dejó un ticket dudoso que el servidor ya tenía con su propio registro: nada impreso se reescribe — queda como incidencia, y lo encadenado después también, tal cual', async () => {
    const año = new Date().getFullYear();
    // The server registered A by itself (no record sent: the old till's online sale); its answer was lost.
    const servidor = servidorConCadena({ numero: 4, huella: 'F'.repeat(64) });
    red = true;
    const q = colaDe(TERMINAL, () => undefined);
    const base = { terminal_id: TERMINAL.id, fecha_hora: new Date().toISOString(), lineas: [{ articulo_id: 3, cantidad: 1000, precio: 11000, descuento: 0, codigo: 'PAN', nombre: 'Pan', tipo_iva: '4' as const }], pagos: [{ forma: 'efectivo' as const, importe: 110 }], total: 110, cambio: 0, estado: 'pendiente' as const };
    const soloServidor = await servidorSinRegistro(base);
    // The old till then made its own record of A (doubtful) and printed B after it.
    red = false;
    const a = { ...soloServidor, seq: await q.siguienteSeq(), dudoso: true, ...(await crearRegistroOffline(TERMINAL, soloServidor)) };
    await almacenColaIdb.guardar(a);
    useCaja.getState().añadirArticulo(PAN);
    const b = await useCaja.getState().cobrar([{ forma: 'efectivo', importe: 200 }]);
    expect(b.registro?.huella_anterior).toBe(a.registro.huella);
    red = true;
    await q.vaciar();
    const todos = await almacenColaIdb.todos();
    const A = todos.find((x) => x.uuid === a.uuid)!;
    const B = todos.find((x) => x.uuid === b.uuid)!;
    // A: the server's row for reprints, the till's record kept as printed; an incidence for the manager.
    expect(A).toMatchObject({ estado: 'incidencia', registro: a.registro, respuesta: { repetido: 1, numero: `T1 ${año}/000005` } });
    expect(A.incidencia).toMatch(/ya tenía este ticket con su propio registro/);
    // B: never chained again nor renumbered; refused by the server's chain, kept aside as printed.
    expect(B).toMatchObject({ estado: 'incidencia', registro: b.registro, qr_url: b.qr_url });
    expect(servidor.recibidos.filter((r) => r.uuid === b.uuid).every((r) => r.registro?.huella === b.registro!.huella)).toBe(true);
    expect((await colaDe(TERMINAL, () => undefined).pendientes()).length).toBe(0);

    async function servidorSinRegistro(t: Omit<TicketLocal, 'uuid' | 'seq'>): Promise<TicketLocal> {
      const x = { ...t, uuid: crypto.randomUUID(), seq: 1 } as TicketLocal;
      await fetch('/api', { method: 'POST', body: JSON.stringify({ tickets: [x] }) });
      return x;
    }
  });
});
