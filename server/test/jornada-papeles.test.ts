import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import fs from 'node:fs';
import path from 'node:path';
import { backends, multipart, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { guardar, leerDocumento, stockPorAlmacen } from './documentos-fixtures.ts';

const HOY = todayIn('Europe/Madrid');

/** Issue 17: what a clerk's day with the documents needs from the server. */
describe.each(backends())('a clerk’s papers ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let cliente: Row;
  let proveedor: Row;
  let art: Row;

  it('a NIF typed «ES B58378431» is stored as B58378431', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    cliente = await save(t, t.cookie, 'editarcliente', { nif: 'ES B58378431', razon_social: 'Ferretería Ruiz, S.L.' });
    expect(cliente.nif).toBe('B58378431');
    proveedor = await save(t, t.cookie, 'editarproveedor', { nif: 'b-4672.8192', razon_social: 'Suministros Levante, S.L.' });
    expect(proveedor.nif).toBe('B46728192');
    art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('PAP-1', { precio_venta: 10_000 }));
  });

  it('«Observaciones para el cliente» are kept apart from the internal observaciones, on sales and purchase documents', async () => {
    for (const [ac, plural, tercero] of [
      ['editaralbaranventa', 'albaranesventa', { cliente_id: cliente.id }],
      ['editarpedidocompra', 'pedidoscompra', { proveedor_id: proveedor.id }],
      ['editarfactura', 'facturas', { cliente_id: cliente.id, serie_id: undefined }],
    ] as const) {
      const body: Record<string, unknown> = {
        fecha: HOY, almacen_id: principal, ...tercero,
        observaciones: 'Paga tarde: pedir por adelantado', observaciones_cliente: 'Entregar por la puerta de atrás',
        lineas: [{ articulo_id: art.id, cantidad: 1_000 }],
      };
      if (ac === 'editarfactura') {
        const serie = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A');
        body.serie_id = serie?.id;
      }
      const d = await guardar<Row>(t, ac, body);
      const leido = await leerDocumento<Row>(t, plural, d.id);
      expect(leido, ac).toMatchObject({ observaciones: 'Paga tarde: pedir por adelantado', observaciones_cliente: 'Entregar por la puerta de atrás' });
      // Changed like any other header field.
      const cambiado = await guardar<Row>(t, ac, { ...body, id: d.id, observaciones_cliente: 'Llamar antes de ir' });
      expect(cambiado, ac).toMatchObject({ observaciones: 'Paga tarde: pedir por adelantado', observaciones_cliente: 'Llamar antes de ir' });
    }
  });

  it('a mailed order goes with the subject and message the clerk saw and changed; without them, the same defaults the dialog offers', async () => {
    const pedido = await guardar<Row & { numero: string }>(t, 'editarpedidocompra', {
      fecha: HOY, almacen_id: principal, proveedor_id: proveedor.id, lineas: [{ articulo_id: art.id, cantidad: 1_000 }],
    });
    const enviar = (fields: Record<string, string>) => {
      const m = multipart('archivo', 'pedido.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n% pedido\n'), fields);
      return t.op('enviarcorreopedidocompra', { cookie: t.cookie, method: 'POST', headers: m.headers, body: m.payload });
    };
    const outbox = path.join(t.dataDir, 'outbox');
    const correos = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8')) : []);
    // The supplier has no address: the one the clerk typed.
    let res = await enviar({ id: String(pedido.id), email: 'compras@levante.es', asunto: 'Pedido urgente', mensaje: 'Hola, necesitamos esto el lunes.' });
    expect(res.json()).toMatchObject({ RESULT: '0', data: [{ id: pedido.id, email: 'compras@levante.es' }] });
    const eml = correos().find((x) => x.includes('Subject: Pedido urgente'))!;
    expect(eml).toContain('To: compras@levante.es');
    expect(eml).toContain('Hola, necesitamos esto el lunes.');
    res = await enviar({ id: String(pedido.id), email: 'compras@levante.es' });
    expect(res.json().RESULT).toBe('0');
    expect(correos().some((x) => x.includes(`Les adjuntamos nuestro pedido ${pedido.numero}`))).toBe(true);
    expect((await enviar({ id: String(pedido.id), email: 'no es un correo' })).json()).toMatchObject({ RESULT: '1', errors: { email: MESSAGES.invalidEmail } });
  });

  it('a warehouse’s ledger: every entry and exit by date with its article and document; an undone reception reads as such', async () => {
    const tienda = (await save(t, t.cookie, 'editaralmacen', { codigo: 'TIENDA17', nombre: 'Tienda 17' })).id;
    const entrada = await guardar<Row & { numero: string }>(t, 'editaralbarancompra', {
      fecha: HOY, proveedor_id: proveedor.id, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 10_000, precio: 20_000 }],
    });
    const mov = await guardar<Row & { numero: string }>(t, 'editarmovimiento', {
      fecha: HOY, almacen_id: principal, almacen_destino_id: tienda, lineas: [{ articulo_id: art.id, cantidad: 4_000 }],
    });
    await guardar(t, 'enviarmovimiento', { id: mov.id });
    await guardar(t, 'recibirmovimiento', { id: mov.id });
    await guardar(t, 'deshacerrecepcionmovimiento', { id: mov.id });
    type Mov = Row & { causa: string; accion: string | null; cantidad: number; documento_numero: string | null; articulo_codigo: string; documento_tipo: string };
    const libro = async (almacen: number, q: Record<string, string | number> = {}) => (await list(t, t.cookie, 'listadomovimientosalmacen', { almacen_id: almacen, ...q })).rows as Mov[];
    const destino = await libro(tienda);
    // Newest first: the undo, then the reception.
    expect(destino.map((m) => [m.causa, m.accion, m.cantidad, m.documento_numero])).toEqual([
      ['traspaso', 'deshacerrecepcion', -4_000, mov.numero],
      ['traspaso', 'recibir', 4_000, mov.numero],
    ]);
    const origen = await libro(principal, { q: 'PAP-1' });
    expect(origen.every((m) => m.articulo_codigo === 'PAP-1')).toBe(true);
    expect(origen.find((m) => m.documento_tipo === 'movimiento')).toMatchObject({ accion: 'enviar', cantidad: -4_000 });
    expect(origen.find((m) => m.documento_tipo === 'albarancompra')).toMatchObject({ causa: 'compra', cantidad: 10_000, documento_numero: entrada.numero });
    // The transfer editor's stock of its lines in the origin: only the articles asked for.
    const stock = (await list(t, t.cookie, 'listadostockalmacen', { almacen_id: principal, ids: String(art.id) })).rows;
    expect(stock.map((r) => [r.articulo_id, r.stock])).toEqual([[art.id, (await stockPorAlmacen(t, art.id))[principal]]]);
    // Oldest first on request, and a refusal without a warehouse.
    const asc = await libro(tienda, { dir: 'asc' });
    expect(asc.map((m) => m.accion)).toEqual(['recibir', 'deshacerrecepcion']);
    expect((await t.op('listadomovimientosalmacen', { cookie: t.cookie })).json()).toMatchObject({ RESULT: '1', errors: { almacen_id: expect.any(String) } });
  });
});
