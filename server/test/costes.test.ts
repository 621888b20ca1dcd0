import { beforeAll, describe, expect, it } from 'vitest';
import { AREAS, CONF_FIELD, DERECHOS_ESPECIALES, DOCUMENTO_TIPOS, FLAG_NAMES, MESSAGES, NIVELES } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { createRegistry } from '../src/actions/index.ts';
import { todayIn } from '../src/context.ts';
import { backends, expectCleanAnswer, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { llamadasGet } from './recorrido-get.ts';
import type { Llamada } from './recorrido-get.ts';

/**
 * Issue 24, «Costs only for who may see them»: every GET action of the registry walked, with every module on and the
 * demo's year, as a role that may see everything but «Ver precios de compra, costes y márgenes» — no cost field in
 * any answer, no sort by one honoured — and as Almacén. This file's own definition of a cost (not the server's list):
 * a name about costs, margins or stock value anywhere; and every amount in the answers about purchases and the
 * documents valued at cost (purchases, movements, inventories, losses), the supplier invoices and the purchase reports.
 */

const REGISTRY = createRegistry();
const HOY = todayIn('Europe/Madrid');
const HACE_UN_ANO = `${Number(HOY.slice(0, 4)) - 1}${HOY.slice(4)}`;
const CLAVE = 'Clave-costes-2026';

/** A cost by its name, in any answer. */
const NOMBRE_COSTE = /(^|_)(coste|costes|margen|valor)(_|$)|precio_compra|precio_medio($|_compra)|ultimo_precio|importe_pedir/;
/** Amounts: costs in the answers about purchases and the documents at cost. */
const IMPORTE = /^(precio|descuento|importe|base|iva|recargo|cuota|total|retencion_importe|desglose|facturado|pendiente_facturar|pendiente_recibir|devoluciones|compras|compras_por_ejercicio)$/;
const A_COSTE = ['pedidocompra', 'albarancompra', 'devolucioncompra', 'movimiento', 'inventario', 'perdida'] as const;
const SOBRE_COMPRAS = new Set([
  ...A_COSTE.map((t) => `listado${DOCUMENTO_TIPOS[t].plural}`),
  'listadopendienteshcp', 'listadofacturasproveedor', 'informecompras', 'informeproveedores', 'graficoinicio',
]);
/** Per action, amounts that are costs there only (a movement's precio is a purchase's price; a supplier's year). */
const IMPORTE_DE: Record<string, RegExp> = { informemovimientos: /^precio$/, listadoproveedores: /^compras_por_ejercicio$/ };

function esCoste(ac: string, campo: string): boolean {
  return NOMBRE_COSTE.test(campo) || (SOBRE_COMPRAS.has(ac) && IMPORTE.test(campo)) || (IMPORTE_DE[ac]?.test(campo) ?? false);
}

/** Every cost field of an answer, as paths ('data[].lineas[].precio'); the top level's `total` is the row count. */
function costes(ac: string, body: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, camino: string) => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x, `${camino}[]`);
      return;
    }
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (camino === '' && ['RESULT', 'message', 'total', 'errors'].includes(k)) continue;
      if (esCoste(ac, k)) out.add(`${camino}.${k}`);
      walk(x, `${camino}.${k}`);
    }
  };
  walk(body, '');
  return [...out];
}

/** Every field name of an answer's rows (at any depth). */
function campos(body: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.add(k);
        walk(x);
      }
  };
  walk((body as { data?: unknown }).data);
  walk((body as { totales?: unknown }).totales);
  return out;
}

const get = async (t: SuiteApp, cookie: string, l: Llamada) => {
  const res = await t.op(l.ac, { cookie, query: l.query });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & { data?: Row[] } };
};

describe.each(backends())('costs only for who may see them ($name)', (backend) => {
  const t = useTestApp(backend, { demo: true, demoStock: true });
  let sinCostes: string;
  let almacen: string;
  let llamadas: Llamada[];

  beforeAll(async () => {
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    for (const f of FLAG_NAMES) conf[CONF_FIELD[f]] = 1;
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: conf })).json().RESULT).toBe('0');
    // Everything, every named right but the costs.
    const rol = await save(t, t.cookie, 'editarrol', {
      nombre: 'Todo sin costes',
      derechos: { areas: Object.fromEntries(AREAS.map((a) => [a, NIVELES])), especiales: DERECHOS_ESPECIALES.filter((e) => e !== 'ver_costes'), descuento_maximo: 10000 },
    });
    const roles = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows;
    const usuario = async (email: string, rolId: number) => {
      await save(t, t.cookie, 'editarusuario', { nombre: email.split('@')[0], email, password: CLAVE, rol_id: rolId });
      return t.login(email, CLAVE);
    };
    sinCostes = await usuario('sincostes@costes.es', rol.id);
    almacen = await usuario('almacen@costes.es', roles.find((r) => r.clave === 'almacen')!.id);
    llamadas = await llamadasGet(t, t.cookie, REGISTRY, HACE_UN_ANO, HOY);
  }, 120_000);

  it('the walk reaches the data: the administrator gets the costs these doors gave away (the test can fail)', { timeout: 120_000 }, async () => {
    const vistos = new Set<string>();
    for (const l of llamadas) {
      const { body } = await get(t, t.cookie, l);
      for (const c of costes(l.ac, body)) vistos.add(`${l.ac} ${c}`);
    }
    for (const puerta of [
      'listadostockalmacen .data[].coste_medio', 'listadostockalmacen .data[].valor', 'listadostockalmacen .valor_total',
      'listadoprocesos .data[].coste', 'listadopedidoscompra .data[].lineas[].precio', 'listadopedidoscompra .data[].total',
      'listadoalbaranescompra .data[].lineas[].precio', 'listadodevolucionescompra .data[].total', 'informemovimientos .data[].precio',
      'informecompras .data[].precio_medio', 'informecompras .data[].base', 'informearticulos .data[].margen', 'informeinventario .data[].valor',
      'listadoarticulos .data[].precio_compra', 'listadoproveedores .data[].compras_por_ejercicio', 'graficoinicio .data[].compras',
    ]) expect(vistos, puerta).toContain(puerta);
  });

  for (const quien of ['sinCostes', 'almacen'] as const) {
    it(`${quien}: no GET action answers a cost field, and none sorts by one (the default order instead)`, { timeout: 300_000 }, async () => {
      const cookie = quien === 'sinCostes' ? sinCostes : almacen;
      const fugas: string[] = [];
      let conDatos = 0;
      const porAccion = new Map<string, Set<string>>();
      for (const l of llamadas) {
        const { status, body } = await get(t, cookie, l);
        if (status === 403) continue;
        if (Array.isArray(body.data) && body.data.length) conDatos++;
        for (const c of costes(l.ac, body)) fugas.push(`${l.ac} ${JSON.stringify(l.query)}: ${c}`);
      }
      expect(fugas).toEqual([]);
      if (quien === 'sinCostes') expect(conDatos).toBeGreaterThan(100);
      // Sorting: every cost field the administrator's answers of the action have, and every cost among its sort keys.
      for (const l of llamadas) {
        const schema = (REGISTRY.get(l.ac)!.input ?? {}) as Schema;
        if (!('orden' in schema)) continue;
        const admin = await get(t, t.cookie, l);
        const orden = schema.orden as { type: string; values?: readonly string[] };
        // A list's sort keys are a closed list (anything else is a 400 for everyone): its costs; a report's, any column.
        const candidatas = orden.values ? orden.values : [...campos(admin.body)];
        const claves = new Set(candidatas.filter((c) => esCoste(l.ac, c)));
        if (!claves.size) continue;
        const porDefecto = await get(t, cookie, l);
        if (porDefecto.status === 403) continue;
        const hechas = porAccion.get(l.ac) ?? new Set();
        for (const c of claves) {
          const clave = `${JSON.stringify(l.query)} ${c}`;
          if (hechas.has(clave)) continue;
          hechas.add(clave);
          for (const dir of [undefined, 'desc']) {
            const q = { ...l.query, orden: c, ...(dir ? { dir } : {}) };
            const r = await get(t, cookie, { ac: l.ac, query: q });
            if (r.status !== 200 || JSON.stringify(r.body.data) !== JSON.stringify(porDefecto.body.data)) {
              fugas.push(`${l.ac} ${JSON.stringify(q)}: ${r.status}, not the default order`);
            }
          }
        }
        porAccion.set(l.ac, hechas);
      }
      expect(fugas).toEqual([]);
    });
  }

  for (const quien of ['sinCostes', 'almacen'] as const) {
    it(`${quien}: no filter by a cost either (the articles below cost are not singled out)`, { timeout: 120_000 }, async () => {
      const cookie = quien === 'sinCostes' ? sinCostes : almacen;
      const fugas: string[] = [];
      const pruebas: { filtrada: Llamada; sin: Llamada }[] = [];
      for (const l of llamadas) {
        if (typeof l.query.vista === 'string' && esCoste(l.ac, l.query.vista)) {
          const { vista: _v, ...sin } = l.query;
          pruebas.push({ filtrada: l, sin: { ac: l.ac, query: sin } });
        }
      }
      const tarifas = llamadas.find((l) => l.ac === 'informetarifas')!;
      pruebas.push({ filtrada: { ac: 'informetarifas', query: { ...tarifas.query, bajo_coste: '1' } }, sin: tarifas });
      expect(pruebas.length).toBeGreaterThanOrEqual(2);
      for (const p of pruebas) {
        const a = await get(t, cookie, p.filtrada);
        if (a.status === 403) continue;
        const b = await get(t, cookie, p.sin);
        if (JSON.stringify(a.body.data) !== JSON.stringify(b.body.data) || a.body.total !== b.body.total) fugas.push(`${p.filtrada.ac} ${JSON.stringify(p.filtrada.query)}`);
      }
      expect(fugas).toEqual([]);
      // The administrator's filter does filter (so this can fail).
      const todas = await get(t, t.cookie, tarifas);
      const bajo = await get(t, t.cookie, { ac: 'informetarifas', query: { ...tarifas.query, bajo_coste: '1' } });
      expect(Number(bajo.body.total)).toBeLessThan(Number(todas.body.total));
    });
  }

  it('the administrator\'s sort by a cost is honoured (so the test above can tell)', async () => {
    const almacenId = (await list(t, t.cookie, 'listadoalmacenes')).rows[0]!.id;
    const q = { almacen_id: String(almacenId), porPagina: '100' };
    const porDefecto = (await get(t, t.cookie, { ac: 'listadostockalmacen', query: q })).body.data!;
    const porValor = (await get(t, t.cookie, { ac: 'listadostockalmacen', query: { ...q, orden: 'valor', dir: 'desc' } })).body.data!;
    expect(porValor.map((r) => r.articulo_id)).not.toEqual(porDefecto.map((r) => r.articulo_id));
    const valores = porValor.map((r) => Number(r.valor ?? 0));
    expect(valores).toEqual([...valores].sort((a, b) => b - a));
  });

  it('Almacén reads a purchase order to receive it: supplier, articles and quantities, without prices or totals; no supplier invoices', async () => {
    const pedidos = await list(t, almacen, 'listadopedidoscompra');
    expect(pedidos.rows.length).toBeGreaterThan(0);
    const pedido = (await list(t, almacen, 'listadopedidoscompra', { id: pedidos.rows[0]!.id })).rows[0] as Row & { lineas: Row[] };
    expect(pedido).toMatchObject({ numero: expect.any(String), proveedor_nombre: expect.any(String) });
    expect(pedido.lineas.length).toBeGreaterThan(0);
    for (const l of pedido.lineas) {
      expect(l).toMatchObject({ codigo: expect.any(String), cantidad: expect.any(Number), pendiente: expect.any(Number) });
      expect(Object.keys(l).filter((k) => ['precio', 'descuento', 'importe', 'base', 'total'].includes(k))).toEqual([]);
    }
    expect(Object.keys(pedido).filter((k) => ['base', 'iva', 'total', 'desglose', 'retencion_importe'].includes(k))).toEqual([]);
    // The administrator's answer of the same order has them.
    const suyo = (await list(t, t.cookie, 'listadopedidoscompra', { id: pedido.id })).rows[0] as Row & { lineas: Row[] };
    expect(suyo.total).toEqual(expect.any(Number));
    expect(suyo.lineas[0]!.precio).toEqual(expect.any(Number));
    // Supplier invoices are nothing but amounts: refused, naming the right.
    const hcp = await t.op('listadofacturasproveedor', { cookie: almacen });
    expect(hcp.statusCode).toBe(403);
    expect(expectCleanAnswer(hcp)).toMatchObject({ RESULT: '1', message: MESSAGES.rolSinDerechoEspecial.replace('{accion}', 'ver precios de compra, costes ni márgenes'), derecho: 'ver_costes' });
  });

  it('a process saved by a role without ver_costes keeps its cost (its screen never had it); a new one takes what is sent', async () => {
    const p = await save(t, t.cookie, 'editarproceso', { codigo: 'COST-1', nombre: 'Soldadura', tiempo: 30, coste: 255_000 });
    const r = await t.op('editarproceso', { cookie: sinCostes, body: { id: p.id, codigo: 'COST-1', nombre: 'Soldadura TIG', tiempo: 45, coste: 0 } });
    expect(expectCleanAnswer(r)).toMatchObject({ RESULT: '0' });
    expect((r.json().data as Row[])[0]!.coste).toBeUndefined();
    expect((await list(t, t.cookie, 'listadoprocesos', { id: p.id })).rows[0]).toMatchObject({ nombre: 'Soldadura TIG', tiempo: 45, coste: 255_000 });
    const nuevo = (await t.op('editarproceso', { cookie: sinCostes, body: { codigo: 'COST-2', nombre: 'Pintura', tiempo: 10, coste: 99_000 } })).json().data[0] as Row;
    expect((await list(t, t.cookie, 'listadoprocesos', { id: nuevo.id })).rows[0]).toMatchObject({ coste: 99_000 });
  });

  describe('Almacén receives against an order (issue 24, smaller item)', () => {
    type Linea = Row & { cantidad: number; pendiente: number; precio?: number; descuento?: number };
    type Doc = Row & { estado: string; lineas: Linea[]; hijos: { tipo: string; id: number }[]; total?: number };
    let pedido: Doc;
    let almacenId: number;
    let arts: Row[];
    const stock = async (articuloId: number) => {
      const r = (await list(t, t.cookie, 'listadoarticulos', { id: articuloId })).rows[0]!;
      return (r.stock as { almacen_id: number; stock: number }[]).find((s) => s.almacen_id === almacenId)?.stock ?? 0;
    };
    const post = async (cookie: string, ac: string, body: Record<string, unknown>) => {
      const res = await t.op(ac, { cookie, body });
      return { status: res.statusCode, body: expectCleanAnswer(res) as Record<string, unknown> & { data?: Doc[]; derecho?: string } };
    };

    beforeAll(async () => {
      almacenId = (await list(t, t.cookie, 'listadoalmacenes')).rows[0]!.id;
      arts = (await list(t, t.cookie, 'listadoarticulos', { activo: 1 })).rows.filter((a) => !a.kit).slice(0, 2);
      const proveedor = (await list(t, t.cookie, 'listadoproveedores')).rows[0]!;
      pedido = (await save(t, t.cookie, 'editarpedidocompra', {
        fecha: HOY, proveedor_id: proveedor.id, almacen_id: almacenId,
        lineas: [{ articulo_id: arts[0]!.id, cantidad: 10_000, precio: 12_345 }, { articulo_id: arts[1]!.id, cantidad: 4_000, precio: 6_789, descuento: 500 }],
      })) as Doc;
    });

    it('cannot send nor e-mail a purchase order (Compras › crear y modificar); the buyer can', async () => {
      const refusal = MESSAGES.rolSinDerecho.replace('{accion}', 'crear ni modificar').replace('{area}', 'Compras');
      for (const ac of ['enviarpedidocompra', 'enviarcorreopedidocompra']) {
        const r = await post(almacen, ac, { id: pedido.id });
        expect(r.status, ac).toBe(403);
        expect(r.body, ac).toMatchObject({ RESULT: '1', message: refusal, derecho: 'compras.editar' });
      }
      // Nothing changed; the administrator sends it, and Almacén cannot undo that either.
      expect(((await list(t, t.cookie, 'listadopedidoscompra', { id: pedido.id })).rows[0] as Doc).estado).toBe('creado');
      expect((await post(t.cookie, 'enviarpedidocompra', { id: pedido.id })).body.data![0]!.estado).toBe('enviado');
      expect((await post(almacen, 'deshacerenviopedidocompra', { id: pedido.id })).status).toBe(403);
      // The session tells the screens so (the «Enviar» button and «Enviar por correo» hide).
      const acciones = (await t.op('sesion', { cookie: almacen })).json().acciones as Record<string, string>;
      expect([acciones.enviarpedidocompra, acciones.enviarcorreopedidocompra, acciones.recibirpedidocompra]).toEqual(['compras.editar', 'compras.editar', 'compras.acciones']);
    });

    it('records a partial delivery (one line short, one absent), then the rest of one line, then closes the order short — without prices', async () => {
      const [l1, l2] = pedido.lineas;
      const antes = [await stock(arts[0]!.id), await stock(arts[1]!.id)];
      const r1 = await post(almacen, 'recibirpedidocompra', { id: pedido.id, lineas: [{ id: l1!.id, cantidad: 6_000 }, { id: l2!.id, cantidad: 0 }], albaran_proveedor: 'ALB-77' });
      expect(r1.status).toBe(200);
      const d1 = r1.body.data![0]!;
      expect(d1.estado).toBe('recibido_parcial');
      expect(d1.lineas.map((l) => [l.cantidad, l.pendiente])).toEqual([[10_000, 4_000], [4_000, 4_000]]);
      // The answer Almacén gets has no prices.
      expect(costes('recibirpedidocompra', d1)).toEqual([]);
      expect([await stock(arts[0]!.id), await stock(arts[1]!.id)]).toEqual([antes[0]! + 6_000, antes[1]!]);
      // Its albarán carries what arrived, at the order's prices (the administrator sees them).
      const albaran = (await list(t, t.cookie, 'listadoalbaranescompra', { id: d1.hijos.find((h) => h.tipo === 'albarancompra')!.id })).rows[0] as Doc;
      expect(albaran).toMatchObject({ albaran_proveedor: 'ALB-77' });
      expect(albaran.lineas.map((l) => [l.articulo_id, l.cantidad, l.precio])).toEqual([[arts[0]!.id, 6_000, 12_345]]);
      // Three more of the first line: still short.
      const r2 = await post(almacen, 'recibirpedidocompra', { id: pedido.id, lineas: [{ id: l1!.id, cantidad: 3_000 }, { id: l2!.id, cantidad: 0 }] });
      expect(r2.body.data![0]!.lineas.map((l) => l.pendiente)).toEqual([1_000, 4_000]);
      // The supplier will not send the rest: the order is closed short.
      const r3 = await post(almacen, 'finalizarpedidocompra', { id: pedido.id });
      expect(r3.status).toBe(200);
      expect(r3.body.data![0]!.estado).toBe('finalizado');
      expect([await stock(arts[0]!.id), await stock(arts[1]!.id)]).toEqual([antes[0]! + 9_000, antes[1]!]);
    });

    it('a buyer without ver_costes saves an order back without its prices: the saved prices stay', async () => {
      const roles = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows;
      const comprador = roles.find((r) => r.nombre === 'Todo sin costes')!;
      expect(comprador).toBeTruthy();
      const proveedor = (await list(t, t.cookie, 'listadoproveedores')).rows[0]!;
      const p = (await save(t, t.cookie, 'editarpedidocompra', {
        fecha: HOY, proveedor_id: proveedor.id, almacen_id: almacenId, lineas: [{ articulo_id: arts[0]!.id, cantidad: 2_000, precio: 11_111, descuento: 700 }],
      })) as Doc;
      const visto = (await list(t, sinCostes, 'listadopedidoscompra', { id: p.id })).rows[0] as Doc;
      expect(visto.lineas[0]!.precio).toBeUndefined();
      // Back as its screen sends it: its lines without prices, one quantity changed, a line added.
      const r = await post(sinCostes, 'editarpedidocompra', {
        id: p.id, fecha: HOY, proveedor_id: proveedor.id, almacen_id: almacenId,
        lineas: [{ id: visto.lineas[0]!.id, articulo_id: arts[0]!.id, cantidad: 3_000 }, { articulo_id: arts[1]!.id, cantidad: 1_000 }],
      });
      expect(r.status).toBe(200);
      const guardado = (await list(t, t.cookie, 'listadopedidoscompra', { id: p.id })).rows[0] as Doc;
      const art1 = (await list(t, t.cookie, 'listadoarticulos', { id: arts[1]!.id })).rows[0]!;
      expect(guardado.lineas.map((l) => [l.cantidad, l.precio, l.descuento])).toEqual([[3_000, 11_111, 700], [1_000, art1.precio_compra, 0]]);
    });
  });
});
