// The TPV's upload path (issue 13): `pnpm bench:tpv`. On SQLite, one server (in-process, every request through the
// dispatcher by app.inject) and BENCH_TPV_TERMINALS (10) tills uploading BENCH_TPV_TICKETS (20.000) tickets of 1-8
// lines concurrently, each till one ticket per request as it sells online (the server generates each record), 5 % of
// uploads sent twice (a lost answer) and every 10th ticket of a till issued offline by the till itself with
// shared/fiscal and verified by the server. Prints tickets/s and p50/p95/max per ticket (request to answer with its
// record), then checks: numbers gapless per terminal, no ticket doubled, every chain verified, stock = ledger.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { totalesTicket } from 'shared/domain';
import type { TerminalTpv, TicketSubido, TipoIva } from 'shared/domain';
import { fechaHoraHuso, registroTicket, registroTpvDe } from 'shared/fiscal';
import type { Anterior } from 'shared/fiscal';
import { buildApp } from '../server/src/app.ts';

const TERMINALES = Number(process.env.BENCH_TPV_TERMINALS ?? 10);
const TICKETS = Number(process.env.BENCH_TPV_TICKETS ?? 20_000);
const ARTICULOS = 200;
/** Progress every this many tickets (10 % of the run, at least 500). */
const TRAMO = Math.max(500, Math.round(TICKETS / 10));
const ADMIN = { email: 'bench@demo.es', password: 'Bench-clave-2026' };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-bench-tpv-'));
  const app = await buildApp({ dataDir, staticRoot: dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoStock: false, demo: false });
  try {
    const op = async (ac: string, body?: unknown, cookie = '', query: Record<string, string> = {}) => {
      const r = await app.inject({ method: body === undefined ? 'GET' : 'POST', url: '/api/op.asp', query: { ac, ...query }, headers: cookie ? { cookie } : {}, ...(body !== undefined ? { payload: body as object } : {}) });
      return { json: r.json() as { RESULT: string; message?: string; data?: Record<string, unknown>[] }, cookies: r.cookies };
    };
    const login = await op('identificar', ADMIN);
    const cookie = `mtpv_sesion=${login.cookies.find((c) => c.name === 'mtpv_sesion')!.value}`;
    const almacen = (await op('listadoalmacenes', undefined, cookie)).json.data![0].id as number;
    // Articles at 21 %, 10 % and 4 %, prices with IVA from 0,50 € to 20 €.
    const arts: { id: number; precio: number; tipo: TipoIva }[] = [];
    for (let i = 0; i < ARTICULOS; i++) {
      const tipo = (['21', '10', '4'] as const)[i % 3];
      const neto = 5_000 + ((i * 7919) % 190_000);
      const r = await op('editararticulo', { codigo: `TPV-${i}`, descripcion: `Artículo de mostrador ${i}`, unidad_medida: 'ud', precio_venta: neto, tipo_iva: tipo }, cookie);
      const a = r.json.data![0] as { id: number; pvp_1: number };
      arts.push({ id: a.id, precio: Number(a.pvp_1) * 100, tipo });
    }
    // One terminal per till, each with its own two series and an open caja.
    const tills: { id: number; cookie: string; info: TerminalTpv }[] = [];
    for (let k = 1; k <= TERMINALES; k++) {
      const t = (await op('editarserie', { codigo: `BT${k}`, descripcion: `Tickets ${k}`, tipo: 'simplificada', activo: 1 }, cookie)).json.data![0].id;
      const r = (await op('editarserie', { codigo: `BR${k}`, descripcion: `Rectificativas ${k}`, tipo: 'rectificativa', activo: 1 }, cookie)).json.data![0].id;
      const term = (await op('editarterminal', { nombre: `Caja ${k}`, almacen_id: almacen, serie_id: t, serie_rectificativa_id: r, formas_pago: ['efectivo', 'tarjeta'], fondo: 10_000 }, cookie)).json.data![0].id as number;
      const codigo = (await op('codigoterminal', { id: term }, cookie)).json.data![0].codigo;
      const par = await op('emparejarterminal', { codigo });
      const tc = `mtpv_terminal=${par.cookies.find((c) => c.name === 'mtpv_terminal')!.value}`;
      await op('abrircajatpv', { terminal_id: term }, cookie);
      tills.push({ id: term, cookie: tc, info: par.json.data![0] as unknown as TerminalTpv });
    }

    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const tiempos: number[] = [];
    let repetidos = 0;
    let offline = 0;
    const porTerminal = Math.ceil(TICKETS / TERMINALES);
    const t0 = performance.now();
    await Promise.all(
      tills.map(async (till, k) => {
        let anterior: Anterior | null = null;
        let numero = 0;
        for (let i = 0; i < porTerminal && k * porTerminal + i < TICKETS; i++) {
          const lineas = Array.from({ length: 1 + rnd(8) }, () => {
            const a = arts[rnd(arts.length)];
            return { articulo_id: a.id, cantidad: (1 + rnd(3)) * 1000, precio: a.precio, tipo_iva: a.tipo };
          });
          const totales = totalesTicket(lineas);
          const ticket: Record<string, unknown> = {
            uuid: `bench-${k}-${i}`,
            fecha_hora: new Date().toISOString(),
            lineas: lineas.map(({ tipo_iva: _, ...l }) => l),
            pagos: [{ forma: 'efectivo', importe: totales.total + rnd(500) }],
          };
          if (i % 10 === 9) {
            // Issued offline: the till's own record, chained to what it last heard.
            const ts = fechaHoraHuso(new Date(), till.info.zona_horaria);
            const g = registroTicket({
              emisor: till.info.emisor, instalacion: till.info.numero_instalacion, sistema: till.info.sistema, serieCodigo: till.info.serie.codigo,
              ejercicio: Number(ts.slice(0, 4)), numero: numero + 1, fecha: ts.slice(0, 10), totales, anterior, ts,
            });
            ticket.registro = registroTpvDe(g);
            offline++;
          }
          const s = performance.now();
          const r = await op('subirtickets', { terminal_id: till.id, tickets: [ticket] }, cookie);
          tiempos.push(performance.now() - s);
          if (tiempos.length % TRAMO === 0) {
            // Progress by slices: how the per-ticket time grows as the day fills (each terminal re-sums its day).
            const ult = tiempos.slice(-TRAMO);
            console.log(`  ${tiempos.length} tickets en ${((performance.now() - t0) / 1000).toFixed(0)} s; los últimos ${TRAMO}: p50 ${pct(ult, 50).toFixed(1)} ms, p95 ${pct(ult, 95).toFixed(1)} ms · carga ${os.loadavg()[0].toFixed(1)}`);
          }
          if (r.json.RESULT !== '0') throw new Error(`subirtickets: ${r.json.message}`);
          const fila = r.json.data![0] as unknown as TicketSubido;
          if (rnd(100) < 5) {
            // The answer "lost": sent again, must be the same row.
            const again = (await op('subirtickets', { terminal_id: till.id, tickets: [ticket] }, cookie)).json.data![0] as unknown as TicketSubido;
            if (again.id !== fila.id || again.repetido !== 1) throw new Error('a repeated upload made another ticket');
            repetidos++;
          }
          numero = Number(fila.numero.split('/')[1]);
          anterior = { id_emisor: till.info.emisor.nif, num_serie: fila.numero, fecha_expedicion: fila.fecha_expedicion, huella: fila.huella, fecha_hora_huso: fila.fecha_hora_huso };
        }
      }),
    );
    const total = performance.now() - t0;
    const n = tiempos.length;
    console.log(`TPV en SQLite: ${TERMINALES} terminales, ${n} tickets de 1-8 líneas (${offline} emitidos sin conexión por el TPV, ${repetidos} envíos repetidos)`);
    console.log(`  ${(n / (total / 1000)).toFixed(0)} tickets/s; por ticket con su registro: p50 ${pct(tiempos, 50).toFixed(2)} ms, p95 ${pct(tiempos, 95).toFixed(2)} ms, máx ${Math.max(...tiempos).toFixed(2)} ms`);

    // Checks.
    const db = app.manager.db;
    let huecos = 0;
    for (const till of tills) {
      const nums = (await db.selectFrom('documentos').select('numero').where('tipo', '=', 'ticket').where('serie_id', '=', till.info.serie.id).orderBy('numero').execute()).map((r) => Number(r.numero));
      nums.forEach((x, i) => {
        if (x !== i + 1) huecos++;
      });
    }
    const docs = Number((await db.selectFrom('tpv_tickets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const cadenas = (await op('comprobarregistrosfacturacion', undefined, cookie)).json.data as { emisor: string; correcto: boolean; total: number }[];
    const libro = new Map((await db.selectFrom('stock_movimientos').select(['articulo_id', (eb) => eb.fn.sum<number>('cantidad').as('s')]).groupBy('articulo_id').execute()).map((r) => [r.articulo_id, Number(r.s)]));
    const descuadres = (await db.selectFrom('articulos').select(['id', 'stock_total']).execute()).filter((a) => Number(a.stock_total) !== (libro.get(a.id) ?? 0)).length;
    console.log(`  comprobado: ${docs} tickets guardados (${docs - n} de más), ${huecos} números saltados, ${cadenas.filter((c) => c.correcto).length}/${cadenas.length} cadenas correctas (${cadenas.reduce((s, c) => s + c.total, 0)} registros), ${descuadres} artículos con stock distinto del libro`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
