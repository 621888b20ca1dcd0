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
    if (Array.isArray(v)) return v.forEach((x) => walk(x, `${camino}[]`));
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
    if (Array.isArray(v)) return v.forEach(walk);
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.add(k), walk(x));
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
});
