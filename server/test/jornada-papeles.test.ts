import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import fs from 'node:fs';
import path from 'node:path';
import { backends, multipart, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { guardar, leerDocumento } from './documentos-fixtures.ts';

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
});
