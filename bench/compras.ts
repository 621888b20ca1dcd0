// Purchases on the document engine at scale, on SQLite and on PostgreSQL: `pnpm bench:compras`.
// Generates a year of purchases — 2.000 suppliers, 100.000 articles, 30.000 documents of 10 lines: pedidos
// (sent, received in one or two receipts, some closed) with the albaranes their receipts made, albaranes
// entered directly and devoluciones from albaranes — written set-based straight into the tables (documentos,
// documento_lineas, documento_enlaces, documento_acciones, stock_movimientos, contadores) as the engine
// would have left them, then measures, each against the raw SQL of the same answer in the same run:
// - saving a 20-line albarán de compra with its stock (editaralbarancompra, a new document each run);
// - receiving 25 of the 50 lines of a sent order (recibirpedidocompra: the child albarán, links, ledger, pending);
// - a supplier's albaranes list page sorted by date, newest first (listadoalbaranescompra proveedor_id);
// - opening a 200-line order with its receipts (listadopedidoscompra&id=).
// A write's answer is the document after it, so its raw counterpart also reads the document back.
// BENCH_SUPPLIERS (2000), BENCH_ARTICLES (100000), BENCH_DOCS (30000), BENCH_RUNS (300), BENCH_ONLY (sqlite|postgres),
// DATABASE_URL, BENCH_KEEP=1.
import os from 'node:os';
import { FORMA_PAGO_IDS, calcularTotales } from 'shared/domain';
import type { Documento, TipoIva } from 'shared/domain';
import { escribirCompras, generarCompras } from '../server/src/demo/compras.ts';
import {
  EMPRESAS, LUGARES, POBLACIONES, articulosGenerados, bulk, bulkArticulos, cif, int, LINEAS, N, RUNS, WRITE_RUNS, neto, rand, seguirSecuencias, semilla,
  siguienteId, ultimoAno,
} from './datos.ts';
import {
  activarFlags, callHandler, generarDatos, login, medirLectura, ms, onBothEngines, param, rawEnlaces, rawInsertarLineas, rawReadBack, rawSiguienteNumero, rawStockDeLineas, row, type Row, type Runner,
} from './runners.ts';

const SUPPLIERS = Number(process.env.BENCH_SUPPLIERS ?? 2_000);
const DOCS = Number(process.env.BENCH_DOCS ?? 30_000);

type Gen = {
  admin: { id: number; nombre: string; email: string };
  almacenes: number[];
  proveedores: number[];
  articulos: number[];
  /** Per supplier, the first article of its catalogue window. */
  catalogo: (proveedor: number) => number[];
  counts: Record<string, number>;
  busiest: number;
};

async function generate(r: Runner, hoy: string): Promise<Gen> {
  semilla(20261207);
  const db = r.app.manager.db;
  const admin = await db.selectFrom('usuarios').select(['id', 'nombre', 'email']).orderBy('id').executeTakeFirstOrThrow();
  const almacenes = (await db.selectFrom('almacenes').select('id').orderBy('id').execute()).map((a) => a.id);
  if (almacenes.length < 2) {
    const a = await db.insertInto('almacenes').values({ codigo: 'TIENDA', nombre: 'Tienda', activo: 1 } as never).returning('id').executeTakeFirstOrThrow();
    almacenes.push(a.id);
  }
  const next = (table: string) => siguienteId(r, table);

  // Suppliers: a few of them much busier than the rest.
  const firstProv = await next('proveedores');
  const provs = Array.from({ length: SUPPLIERS }, (_, i) => ({
    id: firstProv + i,
    forma_pago: FORMA_PAGO_IDS[int(FORMA_PAGO_IDS.length)] as string,
    retencion: rand() < 0.05 ? 1500 : 0,
  }));
  await bulk(
    r,
    'proveedores',
    ['id', 'codigo', 'nif', 'razon_social', 'nombre_comercial', 'codigo_postal', 'poblacion', 'provincia', 'email', 'forma_pago', 'retencion', 'activo'],
    provs.map((p, i) => {
      const pob = POBLACIONES[i % POBLACIONES.length];
      return [
        p.id, `PB${String(i + 1).padStart(5, '0')}`, cif(5_000_000 + i * 37), `${EMPRESAS[i % EMPRESAS.length]} ${LUGARES[int(LUGARES.length)]} ${i + 1}, S.L.`, null,
        `${String(1 + (i % 50)).padStart(2, '0')}00${i % 10}`, pob, pob, `pedidos${i + 1}@proveedor.es`, p.forma_pago, p.retencion, 1,
      ];
    }),
  );

  // Articles (their last purchase price is set once the albaranes are known).
  const firstArt = await next('articulos');
  const arts = articulosGenerados(firstArt, N, 'CMP');
  // Each supplier sells a window of 200 articles of the catalogue (windows overlap).
  const catalogo = (p: number) => {
    const start = Math.floor(((p - firstProv) * N) / SUPPLIERS);
    return Array.from({ length: Math.min(200, N) }, (_, k) => (start + k) % N);
  };
  const pickLines = (p: number, n: number) => {
    const cat = catalogo(p);
    const chosen = new Set<number>();
    while (chosen.size < Math.min(n, cat.length)) chosen.add(cat[int(cat.length)]);
    return [...chosen];
  };
  const pickProv = () => provs[rand() < 0.3 ? int(Math.min(20, SUPPLIERS)) : int(SUPPLIERS)];

  // Documents, in memory first (ids assigned as they are made, numbers in date order), by the server's generator.
  const generados = generarCompras({
    hoy,
    dias: ultimoAno(hoy),
    admin: admin.id,
    almacenes: [almacenes[0], almacenes[1]],
    articulos: arts,
    docs: DOCS,
    lineas: LINEAS,
    ids: { doc: await next('documentos'), linea: await next('documento_lineas'), accion: await next('documento_acciones') },
    pickProv,
    pickLines,
  });
  const { docs } = generados;
  const albaranes = docs.filter((d) => d.tipo === 'albarancompra');
  for (const [a, p] of generados.ultimoPrecio) arts[a].precio_compra = p;
  await bulkArticulos(r, arts);
  const lineas = await escribirCompras(r, generados, arts, admin.id);
  await seguirSecuencias(r, ['proveedores', 'articulos']);
  const counts: Record<string, number> = {};
  for (const d of docs) counts[d.tipo] = (counts[d.tipo] ?? 0) + 1;
  counts.lineas = lineas;
  counts.enlaces = generados.enlaces.length;
  counts.ledger = generados.ledger.length;
  const porProv = new Map<number, number>();
  for (const d of albaranes) porProv.set(d.prov.id, (porProv.get(d.prov.id) ?? 0) + 1);
  const busiest = [...porProv].sort((a, b) => b[1] - a[1])[0][0];
  return {
    admin,
    almacenes,
    proveedores: provs.map((p) => p.id),
    articulos: arts.map((a) => a.id),
    catalogo: (p) => catalogo(p).map((a) => a + firstArt),
    counts,
    busiest,
  };
}

/** Reads: interleaved raw / handler / inject, in a rotating order, so the three see the same machine. */
async function reads(r: Runner, gen: Gen, cookie: string, grande: number): Promise<Row[]> {
  const d = r.name;
  const out: Row[] = [];
  const measure = async (label: string, note: (total: number) => string, input: (k: number) => Record<string, string>, ac: string, raw: (k: number) => Promise<void>) => {
    out.push(await medirLectura(r, cookie, RUNS, label, note, ac, input, raw));
  };

  // A supplier's albaranes, newest first: a random supplier (most have a few), and the busiest one.
  const listRaw = async (prov: number) => {
    await r.rawQuery(
      `select count(*) as n, cast(coalesce(sum(d.total), 0) as text) as total from documentos d where d.tipo = 'albarancompra' and d.proveedor_id = ${param(d, 1)}`,
      [prov],
    );
    await r.rawQuery(
      `select d.id, d.tipo, d.serie_id, d.numero, d.ejercicio, d.fecha, d.estado, d.almacen_id, d.almacen_destino_id, d.familia_id, d.ubicacion_id,
         d.cliente_id, d.proveedor_id, d.forma_pago, d.fecha_entrega, d.retencion, d.con_recargo, d.observaciones, d.base, d.iva, d.recargo,
         d.retencion_importe, d.total, d.desglose, d.clave, d.creado, d.modificado, ao.nombre as almacen_nombre, ad.nombre as almacen_destino_nombre,
         te.razon_social as proveedor_nombre, te.nif as proveedor_nif, (select count(*) from documento_lineas l where l.documento_id = d.id) as num_lineas
       from documentos d left join almacenes ao on ao.id = d.almacen_id left join almacenes ad on ad.id = d.almacen_destino_id
       left join proveedores te on te.id = d.proveedor_id
       where d.tipo = 'albarancompra' and d.proveedor_id = ${param(d, 1)} order by d.fecha desc, d.id desc limit 25 offset 0`,
      [prov],
    );
  };
  const provDe = (k: number) => gen.proveedores[(k * 7919) % gen.proveedores.length];
  await measure(
    'albaranes of a supplier, page 1 by date desc',
    () => 'random supplier',
    (k) => ({ proveedor_id: String(provDe(k)), orden: 'fecha', dir: 'desc', porPagina: '25' }),
    'listadoalbaranescompra',
    (k) => listRaw(provDe(k)),
  );
  await measure(
    'albaranes of the busiest supplier, page 1',
    (total) => `${total} albaranes`,
    () => ({ proveedor_id: String(gen.busiest), orden: 'fecha', dir: 'desc', porPagina: '25' }),
    'listadoalbaranescompra',
    () => listRaw(gen.busiest),
  );
  await measure(
    'open a 200-line order (2 receipts)',
    () => '200 lines, 2 albaranes',
    () => ({ id: String(grande) }),
    'listadopedidoscompra',
    () => rawReadBack(r, 'pedidocompra', grande),
  );
  return out;
}

type Linea = { articulo_id: number; cantidad: number; precio: number; descuento: number };

/** Writes: each run on a document of its own (the orders received are created and sent beforehand, untimed). */
async function writes(r: Runner, gen: Gen, hoy: string): Promise<Row[]> {
  const d = r.name;
  const out: Row[] = [];
  const almacen = gen.almacenes[0];
  const lineasDe = (prov: number, n: number): Linea[] => {
    const cat = gen.catalogo(prov);
    const start = int(cat.length);
    return Array.from({ length: n }, (_, k) => ({
      articulo_id: cat[(start + k) % cat.length],
      cantidad: (1 + int(20)) * 1000,
      precio: 10_000 + int(500_000),
      descuento: k % 5 === 0 ? 1000 : 0,
    }));
  };

  // 1. A 20-line albarán de compra, new each run.
  {
    const times = { raw: [] as number[], handler: [] as number[] };
    for (let i = -5; i < WRITE_RUNS; i++) {
      for (const which of i % 2 ? [0, 1] : [1, 0]) {
        const prov = gen.proveedores[int(gen.proveedores.length)];
        const lineas = lineasDe(prov, 20);
        const clave = crypto.randomUUID();
        const t0 = process.hrtime.bigint();
        if (which === 1) {
          const res = await callHandler(r, 'editaralbarancompra', { fecha: hoy, proveedor_id: prov, almacen_id: almacen, lineas, clave }, gen.admin);
          if (res.RESULT !== '0') throw new Error(`editaralbarancompra: ${res.message}`);
        } else {
          let id = 0;
          await r.rawTransaction(async () => {
            await r.rawQuery(`select id from documentos where clave = ${param(d, 1)}`, [clave]);
            const [p] = (await r.rawQuery(`select activo, forma_pago, retencion from proveedores where id = ${param(d, 1)}`, [prov])) as {
              activo: number;
              forma_pago: string | null;
              retencion: number;
            }[];
            await r.rawQuery(`select activo from almacenes where id = ${param(d, 1)}`, [almacen]);
            const ids = lineas.map((l) => l.articulo_id);
            const arts = (await r.rawQuery(
              `select id, codigo, descripcion, tipo_iva, familia_id, precio_compra from articulos where id in (${ids.map((_, k) => param(d, k + 1)).join(', ')})`,
              ids,
            )) as { id: number; codigo: string; descripcion: string; tipo_iva: TipoIva }[];
            const byId = new Map(arts.map((a) => [Number(a.id), a]));
            const ls = lineas.map((l) => ({ ...l, ...byId.get(l.articulo_id)! }));
            const t = calcularTotales(ls, { retencion: p.retencion });
            const numero = await rawSiguienteNumero(r, 'albarancompra', 0, hoy);
            const now = new Date().toISOString();
            const [doc] = (await r.rawQuery(
              `insert into documentos (tipo, serie_id, numero, ejercicio, fecha, estado, almacen_id, proveedor_id, forma_pago, retencion, observaciones,
                 base, iva, recargo, retencion_importe, total, desglose, clave, creado, creado_por)
               values ('albarancompra', null, ${[...Array(18)].map((_, k) => param(d, k + 1)).join(', ')}) returning id`,
              [numero, Number(hoy.slice(0, 4)), hoy, 'pendiente', almacen, prov, p.forma_pago, p.retencion, null, t.base, t.iva, t.recargo, t.retencion_importe, t.total, JSON.stringify(t.desglose), clave, now, gen.admin.id],
            )) as { id: number }[];
            id = Number(doc.id);
            await rawInsertarLineas(r, id, ls.map((l) => ({ ...l, pendiente: 0 })));
            await rawStockDeLineas(r, { tipo: 'albarancompra', docId: id, almacen, signo: 1, causa: 'compra', accionId: null, fecha: hoy });
            // The articles' last purchase price: the net price of each one's last line, computed here.
            const ultimo = new Map(ls.map((l) => [l.articulo_id, neto(l.precio, l.descuento)]));
            await r.rawQuery(
              `update articulos set precio_compra = case id ${[...ultimo].map((_, k) => `when ${param(d, 2 * k + 1)} then ${param(d, 2 * k + 2)}`).join(' ')} else precio_compra end
               where id in (${[...ultimo].map((_, k) => param(d, 2 * ultimo.size + k + 1)).join(', ')})`,
              [...[...ultimo].flat(), ...ultimo.keys()],
            );
          });
          await rawReadBack(r, 'albarancompra', id);
        }
        if (i >= 0) times[which === 0 ? 'raw' : 'handler'].push(ms(t0));
      }
    }
    out.push(row('save a 20-line albarán de compra', `${WRITE_RUNS} runs, new each`, times.raw, times.handler));
  }

  // 2. Receiving 25 of the 50 lines of a sent order, a fresh order each run.
  {
    const crear = async () => {
      const prov = gen.proveedores[int(gen.proveedores.length)];
      const res = await callHandler<Documento>(
        r,
        'editarpedidocompra',
        { fecha: hoy, proveedor_id: prov, almacen_id: almacen, lineas: lineasDe(prov, 50), clave: crypto.randomUUID() },
        gen.admin,
      );
      if (res.RESULT !== '0') throw new Error(`editarpedidocompra: ${res.message}`);
      const sent = await callHandler<Documento>(r, 'enviarpedidocompra', { id: res.data![0].id }, gen.admin);
      if (sent.RESULT !== '0') throw new Error(`enviarpedidocompra: ${sent.message}`);
      return sent.data![0];
    };
    const runs = Array.from({ length: WRITE_RUNS + 5 }, () => null as null | [Documento, Documento]);
    for (let i = 0; i < runs.length; i++) runs[i] = [await crear(), await crear()];
    const times = { raw: [] as number[], handler: [] as number[] };
    for (let i = -5; i < WRITE_RUNS; i++) {
      const [hDoc, rDoc] = runs[i + 5]!;
      const tomar = (x: Documento) => x.lineas!.filter((_, k) => k % 2 === 0).map((l) => ({ id: l.id, cantidad: l.cantidad }));
      for (const which of i % 2 ? [0, 1] : [1, 0]) {
        const t0 = process.hrtime.bigint();
        if (which === 1) {
          const res = await callHandler(r, 'recibirpedidocompra', { id: hDoc.id, lineas: tomar(hDoc) }, gen.admin);
          if (res.RESULT !== '0') throw new Error(`recibirpedidocompra: ${res.message}`);
        } else {
          const pedido = rDoc.id;
          const pedidas = new Map(tomar(rDoc).map((l) => [l.id, l.cantidad]));
          await r.rawTransaction(async () => {
            const [p] = (await r.rawQuery(
              `select estado, almacen_id, proveedor_id, forma_pago, retencion from documentos where id = ${param(d, 1)} and tipo = 'pedidocompra'${d === 'postgres' ? ' for update' : ''}`,
              [pedido],
            )) as { estado: string; almacen_id: number; proveedor_id: number; forma_pago: string | null; retencion: number }[];
            if (p.estado !== 'enviado') throw new Error(p.estado);
            const [acc] = (await r.rawQuery(
              `insert into documento_acciones (documento_id, accion, fecha, usuario_id, estado_antes) values (${param(d, 1)}, 'recibir', ${param(d, 2)}, ${param(d, 3)}, ${param(d, 4)}) returning id`,
              [pedido, new Date().toISOString(), gen.admin.id, p.estado],
            )) as { id: number }[];
            const lineas = (await r.rawQuery(
              `select id, articulo_id, codigo, descripcion, tipo_iva, cantidad, precio, descuento, pendiente, ubicacion_id from documento_lineas
               where documento_id = ${param(d, 1)} order by orden`,
              [pedido],
            )) as { id: number; articulo_id: number; codigo: string; descripcion: string; tipo_iva: TipoIva; cantidad: number; precio: number; descuento: number; pendiente: number }[];
            const hijas = lineas.filter((l) => (pedidas.get(l.id) ?? 0) > 0).map((l) => ({ ...l, cantidad: pedidas.get(l.id)!, padre: l.id }));
            const t = calcularTotales(hijas, { retencion: p.retencion });
            const numero = await rawSiguienteNumero(r, 'albarancompra', 0, hoy);
            const [hijo] = (await r.rawQuery(
              `insert into documentos (tipo, serie_id, numero, ejercicio, fecha, estado, almacen_id, proveedor_id, forma_pago, retencion,
                 base, iva, recargo, retencion_importe, total, desglose, creado, creado_por)
               values ('albarancompra', null, ${[...Array(16)].map((_, k) => param(d, k + 1)).join(', ')}) returning id`,
              [numero, Number(hoy.slice(0, 4)), hoy, 'pendiente', p.almacen_id, p.proveedor_id, p.forma_pago, p.retencion, t.base, t.iva, t.recargo, t.retencion_importe, t.total, JSON.stringify(t.desglose), new Date().toISOString(), gen.admin.id],
            )) as { id: number }[];
            const nuevas = await rawInsertarLineas(r, hijo.id, hijas.map((l) => ({ ...l, pendiente: 0 })), true);
            await rawEnlaces(r, hijas.map((l, k) => [nuevas[k], l.padre, l.cantidad]));
            await rawStockDeLineas(r, { tipo: 'albarancompra', docId: hijo.id, almacen: p.almacen_id, signo: 1, causa: 'compra', accionId: acc.id, fecha: hoy });
            const ultimo = new Map(hijas.map((l) => [l.articulo_id, neto(l.precio, l.descuento)]));
            await r.rawQuery(
              `update articulos set precio_compra = case id ${[...ultimo].map((_, k) => `when ${param(d, 2 * k + 1)} then ${param(d, 2 * k + 2)}`).join(' ')} else precio_compra end
               where id in (${[...ultimo].map((_, k) => param(d, 2 * ultimo.size + k + 1)).join(', ')})`,
              [...[...ultimo].flat(), ...ultimo.keys()],
            );
            await r.rawQuery(
              `update documento_lineas set pendiente = pendiente - (case id ${hijas.map((_, k) => `when ${param(d, 2 * k + 1)} then ${param(d, 2 * k + 2)}`).join(' ')} else 0 end)
               where id in (${hijas.map((_, k) => param(d, 2 * hijas.length + k + 1)).join(', ')})`,
              [...hijas.flatMap((l) => [l.padre, l.cantidad]), ...hijas.map((l) => l.padre)],
            );
            const queda = lineas.some((l) => l.pendiente - (pedidas.get(l.id) ?? 0) > 0);
            await r.rawQuery(`update documento_acciones set detalle = ${param(d, 1)} where id = ${param(d, 2)}`, [JSON.stringify({ hijo: hijo.id }), acc.id]);
            await r.rawQuery(`update documentos set estado = ${param(d, 1)}, modificado = ${param(d, 2)}, modificado_por = ${param(d, 3)} where id = ${param(d, 4)}`, [
              queda ? 'recibido_parcial' : 'recibido',
              new Date().toISOString(),
              gen.admin.id,
              pedido,
            ]);
          });
          await rawReadBack(r, 'pedidocompra', pedido);
        }
        if (i >= 0) times[which === 0 ? 'raw' : 'handler'].push(ms(t0));
      }
    }
    out.push(row('receive 25 of 50 lines of an order', `${WRITE_RUNS} runs, fresh order each`, times.raw, times.handler));
  }
  return out;
}

/** The 200-line order opened by the read bench: sent, received in two parts (two albaranes linked to it). */
async function pedidoGrande(r: Runner, gen: Gen, hoy: string): Promise<number> {
  const prov = gen.busiest;
  const cat = gen.catalogo(prov);
  const lineas = Array.from({ length: 200 }, (_, k) => ({ articulo_id: cat[k % cat.length] + 0, cantidad: (2 + (k % 9)) * 1000, precio: 12_345 + k * 100 }));
  // A window has 200 articles at most: with fewer, lines repeat articles (allowed).
  const res = await callHandler<Documento>(r, 'editarpedidocompra', { fecha: hoy, proveedor_id: prov, almacen_id: gen.almacenes[0], lineas, clave: crypto.randomUUID() }, gen.admin);
  if (res.RESULT !== '0') throw new Error(`editarpedidocompra: ${res.message}`);
  const p = res.data![0];
  await callHandler(r, 'enviarpedidocompra', { id: p.id }, gen.admin);
  const mitad = p.lineas!.map((l) => ({ id: l.id, cantidad: 1000 }));
  const a = await callHandler(r, 'recibirpedidocompra', { id: p.id, lineas: mitad }, gen.admin);
  const b = await callHandler(r, 'recibirpedidocompra', { id: p.id, lineas: mitad.slice(0, 120) }, gen.admin);
  if (a.RESULT !== '0' || b.RESULT !== '0') throw new Error(`recibirpedidocompra: ${a.message ?? b.message}`);
  return p.id;
}

async function bench(r: Runner) {
  const { hoy, gen, tiempo } = await generarDatos(r, generate);
  const c = gen.counts;
  console.log(
    `\n${r.name}: ${SUPPLIERS.toLocaleString('es-ES')} suppliers, ${N.toLocaleString('es-ES')} articles, ${(c.pedidocompra ?? 0).toLocaleString('es-ES')} pedidos + ` +
      `${(c.albarancompra ?? 0).toLocaleString('es-ES')} albaranes + ${(c.devolucioncompra ?? 0).toLocaleString('es-ES')} devoluciones ` +
      `(${c.lineas.toLocaleString('es-ES')} lines, ${c.enlaces.toLocaleString('es-ES')} links, ${c.ledger.toLocaleString('es-ES')} ledger rows) ` +
      tiempo,
  );
  const cookie = await login(r.app);
  await activarFlags(r, cookie, ['compras', 'compras_pedidos', 'compras_albaranes', 'compras_devoluciones', 'almacenes']);
  const grande = await pedidoGrande(r, gen, hoy);
  console.log(`${r.name}: reads, milliseconds over ${RUNS} runs (handler = validate + handler in-process; inject = the whole op.asp request; raw = the same SQL on the driver)`);
  console.table(await reads(r, gen, cookie, grande));
  console.log(`${r.name}: writes, milliseconds (each run on a fresh document; raw = the same writes by hand in one transaction + reading the document back)`);
  console.table(await writes(r, gen, hoy));
}

console.log(
  `Purchases bench: ${SUPPLIERS.toLocaleString('es-ES')} suppliers, ${N.toLocaleString('es-ES')} articles, ${DOCS.toLocaleString('es-ES')} documents of ${LINEAS} lines ` +
    `(Node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ''})`,
);
await onBothEngines('mtpv-bench-cmp-', bench);
