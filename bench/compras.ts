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
import {
  ACC_COLS, DOC_COLS, EMPRESAS, LEDGER_COLS, LINE_COLS, LUGARES, POBLACIONES, addDays, articulosGenerados, bulk, bulkArticulos, cif, filaDocumento, int,
  LINEAS, N, RUNS, WRITE_RUNS, neto, rand, seguirSecuencias, semilla, siguienteId, ultimoAno,
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

  // Documents, in memory first: ids assigned as they are made, numbers later in date order.
  let docId = await next('documentos');
  let lineId = await next('documento_lineas');
  let accId = await next('documento_acciones');
  type L = { id: number; articulo: number; cantidad: number; precio: number; descuento: number; pendiente: number };
  type D = { id: number; tipo: string; fecha: string; estado: string; prov: (typeof provs)[number]; almacen: number; lineas: L[]; entrega: string | null };
  const docs: D[] = [];
  const lines: unknown[][] = [];
  const acciones: unknown[][] = [];
  const enlaces: unknown[][] = [];
  const ledger: unknown[][] = [];
  const accion = (documento: number, verbo: string, fecha: string, antes: string, detalle: unknown) => {
    acciones.push([accId, documento, verbo, `${fecha}T12:00:00.000Z`, admin.id, antes, detalle ? JSON.stringify(detalle) : null, null]);
    return accId++;
  };
  const year = ultimoAno(hoy);
  /** Nothing after yesterday. */
  const hasta = (fecha: string) => (fecha < hoy ? fecha : addDays(hoy, -1));
  const finalizadoSi = (fecha: string) => fecha < addDays(hoy, -45) && rand() < 0.85;
  // An albarán (from a receipt: linked to the order's lines, its ledger rows carry the receipt's action).
  const albaran = (fecha: string, prov: D['prov'], almacen: number, ls: Omit<L, 'id' | 'pendiente'>[], recepcion: { accion: number; padres: number[] } | null) => {
    const d: D = { id: docId++, tipo: 'albarancompra', fecha, estado: finalizadoSi(fecha) ? 'finalizado' : 'pendiente', prov, almacen, lineas: [], entrega: null };
    for (const [k, l] of ls.entries()) {
      const line = { ...l, id: lineId++, pendiente: 0 };
      d.lineas.push(line);
      if (recepcion) enlaces.push([line.id, recepcion.padres[k], l.cantidad]);
      ledger.push([l.articulo + firstArt, almacen, null, null, l.cantidad, 'compra', 'albarancompra', d.id, line.id, recepcion?.accion ?? null, fecha, neto(l.precio, l.descuento)]);
    }
    if (d.estado === 'finalizado') accion(d.id, 'finalizar', addDays(fecha, 30), 'pendiente', null);
    docs.push(d);
    return d;
  };
  const precioDe = (a: number) => Math.floor((Number(arts[a].precio_compra) * (90 + int(21))) / 100);
  const descuentoDe = () => (rand() < 0.2 ? [500, 1000, 1500][int(3)] : 0);

  const nPedidos = Math.round(DOCS * 0.3);
  const nDevoluciones = Math.round(DOCS * 0.05);
  for (let i = 0; i < nPedidos && docs.length < DOCS - nDevoluciones; i++) {
    const prov = pickProv();
    const fecha = year[int(year.length)];
    const almacen = rand() < 0.8 ? almacenes[0] : almacenes[1];
    const d: D = { id: docId++, tipo: 'pedidocompra', fecha, estado: 'creado', prov, almacen, lineas: [], entrega: addDays(fecha, 7) };
    for (const a of pickLines(prov.id, LINEAS)) {
      const cantidad = (1 + int(24)) * 1000;
      d.lineas.push({ id: lineId++, articulo: a, cantidad, precio: precioDe(a), descuento: descuentoDe(), pendiente: cantidad });
    }
    docs.push(d);
    const u = rand();
    if (u < 0.08) continue; // still Creado
    accion(d.id, 'enviar', fecha, 'creado', null);
    d.estado = 'enviado';
    if (u < 0.16) continue; // sent, nothing received yet
    // One or two receipts: the first everything or part of each line, the second (if any) the rest.
    let dia = addDays(fecha, 2 + int(8));
    for (let receipt = 0; receipt < 2 && dia < hoy && d.lineas.some((l) => l.pendiente > 0); receipt++) {
      const todo = receipt === 1 || rand() < 0.6;
      const tomadas = d.lineas
        .map((l) => ({ l, q: todo ? l.pendiente : Math.floor((l.pendiente * int(100)) / 100_000) * 1000 }))
        .filter(({ q }) => q > 0);
      if (!tomadas.length) break;
      const antes = d.estado;
      for (const { l, q } of tomadas) l.pendiente -= q;
      const queda = d.lineas.some((l) => l.pendiente > 0);
      d.estado = queda ? 'recibido_parcial' : 'recibido';
      const hijoId = docId; // the albarán made next
      const acc = accion(d.id, 'recibir', dia, antes, { hijo: hijoId });
      albaran(dia, prov, almacen, tomadas.map(({ l, q }) => ({ articulo: l.articulo, cantidad: q, precio: l.precio, descuento: l.descuento })), {
        accion: acc,
        padres: tomadas.map(({ l }) => l.id),
      });
      if (!queda || rand() < 0.5) break;
      dia = addDays(dia, 3 + int(12));
    }
    // Some partly received orders are closed: what was pending is kept in the action's detalle.
    if (d.estado === 'recibido_parcial' && rand() < 0.4) {
      const pendiente = d.lineas.filter((l) => l.pendiente > 0).map((l) => [l.id, -l.pendiente]);
      accion(d.id, 'finalizar', hasta(addDays(dia, 20)), d.estado, { pendiente });
      for (const l of d.lineas) l.pendiente = 0;
      d.estado = 'finalizado';
    }
  }
  // Albaranes entered directly, up to the number of documents less the devoluciones.
  while (docs.length < DOCS - nDevoluciones) {
    const prov = pickProv();
    const almacen = rand() < 0.8 ? almacenes[0] : almacenes[1];
    albaran(
      year[int(year.length)],
      prov,
      almacen,
      pickLines(prov.id, LINEAS).map((a) => ({ articulo: a, cantidad: (1 + int(24)) * 1000, precio: precioDe(a), descuento: descuentoDe() })),
      null,
    );
  }
  // Devoluciones: part of an albarán's lines (one devolución per albarán at most), linked to them.
  const albaranes = docs.filter((d) => d.tipo === 'albarancompra');
  const usados = new Set<number>();
  for (let i = 0; i < nDevoluciones && usados.size < albaranes.length; i++) {
    let a = albaranes[int(albaranes.length)];
    while (usados.has(a.id)) a = albaranes[int(albaranes.length)];
    usados.add(a.id);
    const fecha = hasta(addDays(a.fecha, 1 + int(20)));
    const d: D = { id: docId++, tipo: 'devolucioncompra', fecha, estado: finalizadoSi(fecha) ? 'finalizado' : 'pendiente', prov: a.prov, almacen: a.almacen, lineas: [], entrega: null };
    for (const l of a.lineas) {
      const cantidad = Math.max(1000, Math.floor(l.cantidad / 4000) * 1000);
      const line = { id: lineId++, articulo: l.articulo, cantidad, precio: l.precio, descuento: l.descuento, pendiente: 0 };
      d.lineas.push(line);
      enlaces.push([line.id, l.id, cantidad]);
      ledger.push([l.articulo + firstArt, d.almacen, null, null, -cantidad, 'devolucion_compra', 'devolucioncompra', d.id, line.id, null, fecha, neto(l.precio, l.descuento)]);
    }
    if (d.estado === 'finalizado') accion(d.id, 'finalizar', addDays(fecha, 30), 'pendiente', null);
    docs.push(d);
  }

  // Numbers per (tipo, ejercicio) in date order, and the counters after them; the articles' last purchase price.
  const contadores = new Map<string, { ultimo: number; fecha: string }>();
  const numero = new Map<number, number>();
  const ultimoPrecio = new Map<number, number>();
  for (const d of [...docs].sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : a.id - b.id))) {
    const key = `${d.tipo}|${d.fecha.slice(0, 4)}`;
    const c = contadores.get(key) ?? { ultimo: 0, fecha: d.fecha };
    c.ultimo++;
    c.fecha = d.fecha;
    contadores.set(key, c);
    numero.set(d.id, c.ultimo);
    if (d.tipo === 'albarancompra') for (const l of d.lineas) ultimoPrecio.set(l.articulo, neto(l.precio, l.descuento));
  }
  for (const [a, p] of ultimoPrecio) arts[a].precio_compra = p;
  await bulkArticulos(r, arts);

  const docRows: unknown[][] = [];
  for (const d of docs) {
    const ls = d.lineas.map((l) => ({ ...l, tipo_iva: arts[l.articulo].tipo_iva }));
    const header = { id: d.id, tipo: d.tipo, numero: numero.get(d.id)!, fecha: d.fecha, estado: d.estado, almacen: d.almacen, tercero: d.prov, admin: admin.id };
    docRows.push(filaDocumento({ ...header, fecha_entrega: d.entrega }, 'proveedor_id', ls));
    for (const [k, l] of ls.entries()) {
      const a = arts[l.articulo];
      lines.push([l.id, d.id, k + 1, a.id, a.codigo, a.descripcion, a.tipo_iva, l.cantidad, l.precio, l.descuento, 0, l.pendiente, null, null, null, null]);
    }
  }
  await bulk(r, 'documentos', DOC_COLS, docRows);
  await bulk(r, 'documento_lineas', LINE_COLS, lines);
  await bulk(r, 'documento_acciones', ACC_COLS, acciones);
  await bulk(r, 'documento_enlaces', ['linea_id', 'padre_linea_id', 'cantidad'], enlaces);
  // The ledger in date order, as the documents were saved.
  ledger.sort((a, b) => ((a[10] as string) < (b[10] as string) ? -1 : (a[10] as string) > (b[10] as string) ? 1 : 0));
  await bulk(r, 'stock_movimientos', LEDGER_COLS, ledger);
  await bulk(
    r,
    'contadores',
    ['tipo', 'serie_id', 'ejercicio', 'ultimo', 'ultima_fecha'],
    [...contadores].map(([k, c]) => [k.split('|')[0], 0, Number(k.split('|')[1]), c.ultimo, c.fecha]),
  );
  await seguirSecuencias(r, ['proveedores', 'articulos', 'documentos', 'documento_lineas', 'documento_acciones']);
  const counts: Record<string, number> = {};
  for (const d of docs) counts[d.tipo] = (counts[d.tipo] ?? 0) + 1;
  counts.lineas = lines.length;
  counts.enlaces = enlaces.length;
  counts.ledger = ledger.length;
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
