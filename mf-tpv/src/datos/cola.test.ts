import { describe, expect, it } from 'vitest';
import { ColaTickets, Rechazo, almacenColaIdb, type AlmacenCola, type FilaSubida, type TicketLocal } from './cola';
import { vaciar } from './almacen';

function memoria(): AlmacenCola & { filas: Map<string, TicketLocal> } {
  const filas = new Map<string, TicketLocal>();
  return {
    filas,
    guardar: async (t) => void filas.set(t.uuid, structuredClone(t)),
    todos: async () => [...filas.values()].map((t) => structuredClone(t)),
  };
}

const ticket = (uuid: string, seq: number): TicketLocal => ({
  uuid,
  seq,
  terminal_id: 1,
  fecha_hora: '2026-11-26T10:00:00+01:00',
  lineas: [{ articulo_id: 1, cantidad: 1000, precio: 10000, descuento: 0, codigo: 'A', nombre: 'A', tipo_iva: '21' }],
  pagos: [{ forma: 'efectivo', importe: 100 }],
  total: 100,
  cambio: 0,
  estado: 'pendiente',
});

/** A fake server: stores each uuid once, numbers in arrival order, can be made unreachable. */
function servidor() {
  const recibidos: string[] = [];
  const filas = new Map<string, FilaSubida>();
  const s = {
    caido: false,
    llamadas: 0,
    recibidos,
    enviar: async (ts: TicketLocal[]): Promise<FilaSubida[]> => {
      s.llamadas++;
      if (s.caido) throw new Error('Sin conexión con el servidor');
      return ts.map((t) => {
        const ya = filas.get(t.uuid);
        if (ya) return { ...ya, repetido: 1 };
        recibidos.push(t.uuid);
        const fila = { uuid: t.uuid, id: recibidos.length, numero: `T 2026/${String(recibidos.length).padStart(6, '0')}`, total: t.total, huella: 'H', qr_url: 'https://x' };
        filas.set(t.uuid, fila);
        return fila;
      });
    },
  };
  return s;
}

describe('cola de tickets', () => {
  it('sube en el orden de emisión, por lotes', async () => {
    const alm = memoria();
    const srv = servidor();
    const cola = new ColaTickets(alm, srv.enviar, { lote: 2 });
    await alm.guardar(ticket('c', 3));
    await alm.guardar(ticket('a', 1));
    await alm.guardar(ticket('b', 2));
    await cola.vaciar();
    expect(srv.recibidos).toEqual(['a', 'b', 'c']);
    expect(srv.llamadas).toBe(2);
    expect([...alm.filas.values()].every((t) => t.estado === 'subido')).toBe(true);
    expect(alm.filas.get('c')?.respuesta?.numero).toBe('T 2026/000003');
  });

  it('sin red guarda y espera; al volver sube todo una vez y en orden', async () => {
    const alm = memoria();
    const srv = servidor();
    srv.caido = true;
    const cola = new ColaTickets(alm, srv.enviar);
    const estados: number[] = [];
    cola.suscribir((e) => estados.push(e.pendientes));
    await cola.añadir(ticket('a', 1));
    await cola.vaciar();
    await cola.añadir(ticket('b', 2));
    await cola.vaciar();
    expect(srv.recibidos).toEqual([]);
    expect((await cola.pendientes()).map((t) => t.uuid)).toEqual(['a', 'b']);
    srv.caido = false;
    await cola.vaciar();
    await cola.vaciar();
    expect(srv.recibidos).toEqual(['a', 'b']);
    expect(await cola.pendientes()).toEqual([]);
    expect(estados.at(-1)).toBe(0);
  });

  it('una respuesta perdida no duplica: el reenvío devuelve la misma fila', async () => {
    const alm = memoria();
    const srv = servidor();
    let perder = true;
    const cola = new ColaTickets(alm, async (ts) => {
      const filas = await srv.enviar(ts);
      if (perder) {
        perder = false;
        throw new Error('Se cortó la conexión');
      }
      return filas;
    });
    await cola.añadir(ticket('a', 1));
    await cola.vaciar();
    expect((await cola.pendientes()).length).toBe(1);
    await cola.vaciar();
    expect(srv.recibidos).toEqual(['a']);
    expect(alm.filas.get('a')?.respuesta).toMatchObject({ id: 1, repetido: 1 });
  });

  it('una cola que nunca se atasca: lo que el servidor rechaza espera aparte como incidencia, tal cual se imprimió, y todo lo de detrás sube', async () => {
    const alm = memoria();
    const srv = servidor();
    const registro = (n: number) => ({
      num_serie: `T 2026/00000${n}`, fecha_expedicion: '26-11-2026', tipo_factura: 'F2' as const, cuota_total: '0.17', importe_total: '1.00', huella_anterior: `H${n - 1}`,
      fecha_hora_huso: '2026-11-26T10:00:00+01:00', huella: `H${n}`, xml: '<x/>',
    });
    // The server refuses the record of «b» (corrupt), whatever batch it comes in.
    const cola = new ColaTickets(alm, async (ts) => {
      if (ts.some((t) => t.uuid === 'b')) throw new Rechazo('Ticket b: la huella del registro no corresponde a sus datos: el registro se ha alterado.');
      return srv.enviar(ts);
    });
    for (const [i, u] of ['a', 'b', 'c', 'd'].entries()) await alm.guardar({ ...ticket(u, i + 1), registro: registro(i + 1) });
    await cola.vaciar();
    expect(srv.recibidos).toEqual(['a', 'c', 'd']);
    expect(await cola.pendientes()).toEqual([]);
    expect(alm.filas.get('b')).toMatchObject({ estado: 'incidencia', incidencia: 'Ticket b: la huella del registro no corresponde a sus datos: el registro se ha alterado.', registro: registro(2) });
    // Nothing behind it was rewritten: c and d went as they were made.
    expect(alm.filas.get('c')).toMatchObject({ estado: 'subido', registro: registro(3) });
    // Tried again later: the incidence is not sent again (it waits for someone to resolve it), nothing jams.
    await cola.vaciar();
    expect(srv.recibidos).toEqual(['a', 'c', 'd']);
  });

  it('un ticket cobrado con conexión y rechazado (sin registro, nunca impreso) queda «rechazado», no como incidencia; sin red, en cambio, espera', async () => {
    const alm = memoria();
    let caido = true;
    const cola = new ColaTickets(alm, async () => {
      if (caido) throw new Error('Sin conexión con el servidor');
      throw new Rechazo('Una factura simplificada no puede superar 400,00 € IVA incluido');
    });
    await cola.añadir(ticket('a', 1));
    await cola.vaciar();
    expect(alm.filas.get('a')?.estado).toBe('pendiente');
    caido = false;
    await cola.vaciar();
    expect(alm.filas.get('a')).toMatchObject({ estado: 'rechazado', incidencia: 'Una factura simplificada no puede superar 400,00 € IVA incluido' });
  });

  it('un ticket con registro que la caja aún espera (con conexión, sin imprimir) y el servidor rechaza queda «rechazado» y sin registro; uno ya impreso, como incidencia con el suyo', async () => {
    const alm = memoria();
    const registro = { num_serie: 'T 2026/000001', fecha_expedicion: '26-11-2026', tipo_factura: 'F2' as const, cuota_total: '0.17', importe_total: '1.00', huella_anterior: '', fecha_hora_huso: '2026-11-26T10:00:00+01:00', huella: 'H1', xml: '<x/>' };
    const esperando = new Set(['a']);
    const cola = new ColaTickets(alm, async () => {
      throw new Rechazo('Una factura simplificada no puede superar 400,00 € IVA incluido');
    }, { sinImprimir: (t) => esperando.has(t.uuid) });
    await alm.guardar({ ...ticket('a', 1), registro, qr_url: 'https://q' });
    await alm.guardar({ ...ticket('b', 2), registro: { ...registro, huella: 'H2' }, qr_url: 'https://q' });
    await cola.vaciar();
    const a = alm.filas.get('a')!;
    expect(a).toMatchObject({ estado: 'rechazado', incidencia: 'Una factura simplificada no puede superar 400,00 € IVA incluido' });
    expect(a.registro).toBeUndefined();
    expect(a.qr_url).toBeUndefined();
    expect(alm.filas.get('b')).toMatchObject({ estado: 'incidencia', registro: { huella: 'H2' }, qr_url: 'https://q' });
  });

  it('dos intentos a la vez son un solo envío', async () => {
    const alm = memoria();
    const srv = servidor();
    const cola = new ColaTickets(alm, srv.enviar);
    await alm.guardar(ticket('a', 1));
    await Promise.all([cola.vaciar(), cola.vaciar(), cola.vaciar()]);
    expect(srv.llamadas).toBe(1);
  });

  it('el orden de emisión crece aunque el reloj no avance', async () => {
    const cola = new ColaTickets(memoria(), servidor().enviar);
    const a = await cola.siguienteSeq();
    const b = await cola.siguienteSeq();
    expect(b).toBeGreaterThan(a);
  });

  it('en IndexedDB: un ticket guardado sigue ahí tras «recargar» (otra cola sobre la misma base)', async () => {
    await vaciar('tickets');
    const srv = servidor();
    srv.caido = true;
    await new ColaTickets(almacenColaIdb, srv.enviar).añadir(ticket('x', 1));
    const otra = new ColaTickets(almacenColaIdb, srv.enviar);
    expect((await otra.pendientes()).map((t) => t.uuid)).toEqual(['x']);
    srv.caido = false;
    await otra.vaciar();
    expect(srv.recibidos).toEqual(['x']);
    expect((await almacenColaIdb.todos())[0]).toMatchObject({ uuid: 'x', estado: 'subido' });
  });
});

describe('catálogo en IndexedDB', () => {
  it('se reemplaza por trozos y quita los artículos que ya no vienen', async () => {
    const { reemplazar, leerTodo, vaciar: vaciarStore } = await import('./almacen');
    await vaciarStore('articulos');
    await reemplazar('articulos', [{ id: 1 }, { id: 2 }, { id: 3 }], 2);
    await reemplazar('articulos', [{ id: 2 }, { id: 3 }, { id: 4 }], 2);
    expect((await leerTodo<{ id: number }>('articulos')).map((a) => a.id)).toEqual([2, 3, 4]);
  });
});
