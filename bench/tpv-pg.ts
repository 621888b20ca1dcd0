// The TPV's upload path on PostgreSQL with TWO server instances against one database (issue 13): `pnpm bench:tpv-pg`.
// A throwaway cluster (or DATABASE_URL, in a schema of its own), two real servers (`server/scripts/spawn-server.mjs`,
// each its own process), BENCH_TPV_TERMINALS (10) tills uploading BENCH_TPV_TICKETS (10.000) tickets of 1-8 lines
// over HTTP, each till alternating between the instances; every 10th ticket issued offline by the till itself
// (shared/fiscal) and 5 % of uploads sent twice (a lost answer). With BENCH_TPV_OUTAGE=1 (`pnpm bench:tpv-pg:outage`)
// also: each till offline for random stretches (it issues and chains its own records, then uploads them in order),
// and an instance killed with SIGKILL (kill -9) twice mid-run and started again; a request cut by the kill is
// retried as it was on the other instance (the uuid makes that harmless). Prints tickets/s and p50/p95 per ticket
// (issued to answered with its record, retries included), the machine's load (`uptime`: the machine is shared),
// then checks in the database: 0 tickets lost, 0 doubled, 0 numbers skipped per terminal, every chain verified,
// stock = ledger.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import pg from 'pg';
import { totalesTicket } from 'shared/domain';
import type { TerminalTpv, TicketSubido, TipoIva } from 'shared/domain';
import { fechaHoraHuso, registroTicket, registroTpvDe } from 'shared/fiscal';
import type { Anterior } from 'shared/fiscal';
// @ts-expect-error plain ESM helper shared with e2e/
import { startServer } from '../server/scripts/spawn-server.mjs';
import { postgresUrl } from './runners.ts';

const TERMINALES = Number(process.env.BENCH_TPV_TERMINALS ?? 10);
const TICKETS = Number(process.env.BENCH_TPV_TICKETS ?? 10_000);
const OUTAGE = process.env.BENCH_TPV_OUTAGE === '1';
const ARTICULOS = 60;
const ADMIN = { email: 'bench@demo.es', password: 'Bench-clave-2026' };

type Servidor = { baseUrl: string; kill(): void; stop(): Promise<void>; vivo: boolean; nombre: string };
type Respuesta = { RESULT: string; message?: string; data?: Record<string, unknown>[] };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const dormir = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uptime = () => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `carga ${os.loadavg().map((x) => x.toFixed(2)).join(', ')}`;
  }
};

/** No answer at all (refused, reset, cut by a kill, timed out): the till tries again. */
class SinRespuesta extends Error {}

async function op(base: string, ac: string, body?: unknown, cookie = '', query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams({ ac, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  let res: Response;
  try {
    res = await fetch(`${base}/api/op.asp?${qs}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (e) {
    throw new SinRespuesta((e as Error).message);
  }
  let json: Respuesta;
  try {
    json = (await res.json()) as Respuesta;
  } catch (e) {
    throw new SinRespuesta((e as Error).message);
  }
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return { json, cookies };
}

async function main() {
  const pgc = await postgresUrl('mtpv-bench-tpvpg-');
  if (!pgc) {
    console.log('postgres: SKIPPED (no DATABASE_URL and no initdb/pg_ctl on PATH: export PATH=$PATH:/usr/lib/postgresql/15/bin)');
    return;
  }
  const env = { DATABASE_URL: pgc.url, MANAGER_ADMIN_EMAIL: ADMIN.email, MANAGER_ADMIN_PASSWORD: ADMIN.password };
  const arrancar = async (nombre: string): Promise<Servidor> => ({ ...(await startServer({ env, quiet: true })), vivo: true, nombre });
  const servidores: Servidor[] = [];
  const db = new pg.Client({ connectionString: pgc.url });
  try {
    // One after the other: the first runs the migrations.
    servidores.push(await arrancar('A'));
    servidores.push(await arrancar('B'));
    await db.connect();
    const base = servidores[0].baseUrl;
    const login = await op(base, 'identificar', ADMIN);
    if (login.json.RESULT !== '0') throw new Error(`identificar: ${login.json.message}`);
    const cookie = login.cookies.find((c) => c.startsWith('mtpv_sesion='))!;
    const ok = async (ac: string, body?: unknown, query: Record<string, string | number> = {}) => {
      const r = await op(base, ac, body, cookie, query);
      if (r.json.RESULT !== '0') throw new Error(`${ac}: ${r.json.message}`);
      return r;
    };
    const almacen = (await ok('listadoalmacenes')).json.data![0].id as number;
    const arts: { id: number; precio: number; tipo: TipoIva }[] = [];
    for (let i = 0; i < ARTICULOS; i++) {
      const tipo = (['21', '10', '4'] as const)[i % 3];
      const neto = 5_000 + ((i * 7919) % 190_000);
      const a = (await ok('editararticulo', { codigo: `TPV-${i}`, descripcion: `Artículo de mostrador ${i}`, unidad_medida: 'ud', precio_venta: neto, tipo_iva: tipo })).json.data![0];
      arts.push({ id: a.id as number, precio: Number(a.pvp_1) * 100, tipo });
    }
    const tills: { id: number; info: TerminalTpv; serie: number }[] = [];
    for (let k = 1; k <= TERMINALES; k++) {
      const t = (await ok('editarserie', { codigo: `BT${k}`, descripcion: `Tickets ${k}`, tipo: 'simplificada', activo: 1 })).json.data![0].id as number;
      const r = (await ok('editarserie', { codigo: `BR${k}`, descripcion: `Rectificativas ${k}`, tipo: 'rectificativa', activo: 1 })).json.data![0].id as number;
      const term = (await ok('editarterminal', { nombre: `Caja ${k}`, almacen_id: almacen, serie_id: t, serie_rectificativa_id: r, formas_pago: ['efectivo', 'tarjeta'], fondo: 10_000 })).json
        .data![0].id as number;
      const codigo = (await ok('codigoterminal', { id: term })).json.data![0].codigo;
      // Paired through the other instance: the pairing, like everything, is in the database.
      const par = await op(servidores[1].baseUrl, 'emparejarterminal', { codigo });
      await ok('abrircajatpv', { terminal_id: term });
      tills.push({ id: term, info: par.json.data![0] as unknown as TerminalTpv, serie: t });
    }

    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const tiempos: number[] = [];
    let repetidos = 0;
    let offline = 0;
    let reintentos = 0;
    let emitidos = 0;
    const kills: string[] = [];
    const porTerminal = Math.ceil(TICKETS / TERMINALES);
    const total = Math.min(TICKETS, porTerminal * TERMINALES);

    /** An upload to a live instance, repeated as it was until an answer comes (a kill cuts it: the other one). */
    const subir = async (k: number, ticket: Record<string, unknown>, intento0 = 0): Promise<TicketSubido> => {
      for (let intento = intento0; ; intento++) {
        const vivos = servidores.filter((s) => s.vivo);
        const s = vivos[(k + intento) % vivos.length];
        if (!s) {
          await dormir(200);
          continue;
        }
        try {
          const r = await op(s.baseUrl, 'subirtickets', { terminal_id: tills[k].id, tickets: [ticket] }, cookie);
          if (r.json.RESULT !== '0') throw new Error(`subirtickets (${s.nombre}): ${r.json.message}`);
          return r.json.data![0] as unknown as TicketSubido;
        } catch (e) {
          if (!(e instanceof SinRespuesta)) throw e;
          reintentos++;
          await dormir(50);
        }
      }
    };

    // The outage: an instance killed with SIGKILL at a third and at two thirds of the run, started again 1 s later.
    const rearranques: Promise<void>[] = [];
    const matar = (cual: number) => {
      const s = servidores[cual];
      kills.push(`${s.nombre} a los ${emitidos} tickets`);
      s.vivo = false;
      s.kill();
      rearranques.push((async () => {
        await dormir(1_000);
        servidores[cual] = await arrancar(`${s.nombre}'`);
      })());
    };

    const carga0 = uptime();
    const t0 = performance.now();
    await Promise.all(
      tills.map(async (till, k) => {
        let anterior: Anterior | null = null;
        let numero = 0;
        // Offline: tickets issued with their own record, waiting to be uploaded in order.
        let sinConexion = 0;
        const cola: { ticket: Record<string, unknown>; emitido: number }[] = [];
        const vaciar = async () => {
          while (cola.length) {
            const { ticket, emitido } = cola.shift()!;
            const fila = await subir(k, ticket);
            tiempos.push(performance.now() - emitido);
            if (fila.huella !== (ticket.registro as { huella: string }).huella) throw new Error('the server altered a record made offline');
          }
        };
        for (let i = 0; i < porTerminal && k * porTerminal + i < TICKETS; i++) {
          emitidos++;
          if (OUTAGE && emitidos === Math.floor(total / 3)) matar(0);
          if (OUTAGE && emitidos === Math.floor((2 * total) / 3)) matar(1);
          if (OUTAGE && !sinConexion && !cola.length && rnd(200) === 0) sinConexion = 5 + rnd(40);
          const lineas = Array.from({ length: 1 + rnd(8) }, () => {
            const a = arts[rnd(arts.length)];
            return { articulo_id: a.id, cantidad: (1 + rnd(3)) * 1000, precio: a.precio, tipo_iva: a.tipo };
          });
          const totales = totalesTicket(lineas);
          const ticket: Record<string, unknown> = {
            uuid: `bench-pg-${k}-${i}`,
            fecha_hora: new Date().toISOString(),
            lineas: lineas.map(({ tipo_iva: _, ...l }) => l),
            pagos: [{ forma: 'efectivo', importe: totales.total + rnd(500) }],
          };
          const emitido = performance.now();
          if (sinConexion > 0 || i % 10 === 9) {
            // Issued by the till: its own record, chained to what it last made or heard.
            const ts = fechaHoraHuso(new Date(), till.info.zona_horaria);
            const g = registroTicket({
              emisor: till.info.emisor, instalacion: till.info.numero_instalacion, sistema: till.info.sistema, serieCodigo: till.info.serie.codigo,
              ejercicio: Number(ts.slice(0, 4)), numero: numero + 1, fecha: ts.slice(0, 10), totales, anterior, ts,
            });
            ticket.registro = registroTpvDe(g);
            offline++;
            numero++;
            anterior = { id_emisor: till.info.emisor.nif, num_serie: g.numSerie, fecha_expedicion: g.campos.FechaExpedicionFactura, huella: g.huella, fecha_hora_huso: ts };
            if (sinConexion > 0) {
              sinConexion--;
              cola.push({ ticket, emitido });
              if (sinConexion === 0) await vaciar();
              continue;
            }
            const fila = await subir(k, ticket);
            tiempos.push(performance.now() - emitido);
            if (fila.huella !== g.huella) throw new Error('the server altered a record made offline');
          } else {
            const fila = await subir(k, ticket);
            tiempos.push(performance.now() - emitido);
            numero = Number(fila.numero.split('/')[1]);
            anterior = { id_emisor: till.info.emisor.nif, num_serie: fila.numero, fecha_expedicion: fila.fecha_expedicion, huella: fila.huella, fecha_hora_huso: fila.fecha_hora_huso };
          }
          if (rnd(100) < 5) {
            // The answer "lost": sent again (on the other instance), it must be the same row.
            const again = await subir(k, ticket, 1);
            if (again.repetido !== 1 || again.numero !== (ticket.registro ? (ticket.registro as { num_serie: string }).num_serie : again.numero)) {
              throw new Error('a repeated upload made another ticket');
            }
            repetidos++;
          }
        }
        await vaciar();
      }),
    );
    const tiempo = performance.now() - t0;
    await Promise.all(rearranques);
    const n = tiempos.length;
    console.log(
      `TPV en PostgreSQL, dos instancias del servidor contra una base de datos: ${TERMINALES} terminales, ${n} tickets de 1-8 líneas (${offline} emitidos por el TPV sin conexión, ${repetidos} envíos repetidos${OUTAGE ? `; cortes: ${kills.length} kill -9 (${kills.join(', ')}), ${reintentos} peticiones sin respuesta reintentadas` : ''})`,
    );
    console.log(`  ${(n / (tiempo / 1000)).toFixed(0)} tickets/s; por ticket, de emitido a respondido con su registro: p50 ${pct(tiempos, 50).toFixed(1)} ms, p95 ${pct(tiempos, 95).toFixed(1)} ms, máx ${Math.max(...tiempos).toFixed(0)} ms`);
    console.log(`  máquina (compartida): al empezar «${carga0}»; al acabar «${uptime()}»`);

    // Checks, in the database.
    let huecos = 0;
    let faltan = 0;
    for (const [k, till] of tills.entries()) {
      const esperados = Math.max(0, Math.min(porTerminal, TICKETS - k * porTerminal));
      const { rows } = await db.query<{ numero: string }>(`select numero from documentos where tipo = 'ticket' and serie_id = $1 order by numero`, [till.serie]);
      rows.forEach((r, i) => {
        if (Number(r.numero) !== i + 1) huecos++;
      });
      faltan += esperados - rows.length;
    }
    const guardados = Number((await db.query<{ n: string }>(`select count(*) as n from tpv_tickets where uuid like 'bench-pg-%'`)).rows[0].n);
    const vivo = servidores.find((s) => s.vivo)!;
    const cadenas = (await op(vivo.baseUrl, 'comprobarregistrosfacturacion', undefined, cookie)).json.data as unknown as { emisor: string; correcto: boolean; total: number }[];
    const { rows: descuadres } = await db.query(
      `select a.id from articulos a left join (select articulo_id, sum(cantidad) as s from stock_movimientos group by articulo_id) l on l.articulo_id = a.id where a.stock_total <> coalesce(l.s, 0)`,
    );
    console.log(
      `  comprobado: ${guardados} tickets guardados de ${total} emitidos (${Math.max(0, faltan)} perdidos, ${Math.max(0, guardados - total)} de más), ${huecos} números saltados, ${cadenas.filter((c) => c.correcto).length}/${cadenas.length} cadenas correctas (${cadenas.reduce((s, c) => s + c.total, 0)} registros), ${descuadres.length} artículos con stock distinto del libro`,
    );
    if (faltan || guardados !== total || huecos || cadenas.some((c) => !c.correcto) || descuadres.length) process.exitCode = 1;
  } finally {
    await db.end().catch(() => undefined);
    for (const s of servidores) await s.stop().catch(() => undefined);
    await pgc.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
