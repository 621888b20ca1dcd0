import { describe, expect, it } from 'vitest';
import { todayIn } from '../src/context.ts';
import { list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';
import { backends, useTestApp } from './helpers.ts';

/**
 * Issue 26: the home page says what is waiting — overdue receivables (amount, count, the worst three customers),
 * orders to serve and to receive, stock below minimum, VERI*FACTU records unsent — each with its filtered list, and
 * only what the user's role may see.
 */

const HOY = todayIn('Europe/Madrid');
const HACE_40 = todayIn('Europe/Madrid', new Date(Date.now() - 40 * 24 * 60 * 60 * 1000));
const CLAVE = 'Clave-inicio-2026';

type Pendiente = { clave: string; titulo: string; documentos: number; importe: number | null; ruta: string; detalle?: { nombre: string; importe: number }[] };

describe.each(backends())('resumeninicio ($name)', (backend) => {
  const t = useTestApp(backend);

  it('what waits, with the amounts and the filtered list of each; a narrow role sees only its part, the till nothing', async () => {
    const almacen = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const serie = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
    const vacio = (await t.op('resumeninicio', { cookie: t.cookie })).json() as { RESULT: string; data: Pendiente[] };
    expect(vacio).toEqual({ RESULT: '0', data: [] });

    const a = (await save(t, t.cookie, 'editararticulo', nuevoArticulo('INI-A', { precio_venta: 1_000_000, stock_minimo: 20_000 }))).id;
    const cliente = async (nombre: string, nif: string) => (await save(t, t.cookie, 'editarcliente', { nif, razon_social: nombre, codigo_postal: '28020', forma_pago: 'transferencia' })).id;
    const c1 = await cliente('Reformas Hernández, S.L.', 'B85612349');
    const c2 = await cliente('Droguería Sol, S.L.', 'B12345674');
    // Two invoices 40 days old, unpaid (transfer: due on their date): 121,00 € and 242,00 €; one of today, not overdue.
    const factura = async (c: number, fecha: string, unidades: number) => {
      const b = await save(t, t.cookie, 'editarfactura', { fecha, cliente_id: c, almacen_id: almacen, serie_id: serie, lineas: [{ articulo_id: a, cantidad: unidades * 1_000, precio: 1_000_000 }] });
      return save(t, t.cookie, 'emitirfactura', { id: b.id });
    };
    await factura(c1, HACE_40, 1);
    await factura(c2, HACE_40, 2);
    await factura(c1, HOY, 1);
    // A confirmed sales order; a purchase order sent.
    const pv = await save(t, t.cookie, 'editarpedidoventa', { fecha: HOY, cliente_id: c1, almacen_id: almacen, lineas: [{ articulo_id: a, cantidad: 3_000, precio: 1_000_000 }] });
    await save(t, t.cookie, 'confirmarpedidoventa', { id: pv.id });
    const prov = (await save(t, t.cookie, 'editarproveedor', { nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', codigo_postal: '08005' })).id;
    const pc = await save(t, t.cookie, 'editarpedidocompra', { fecha: HOY, proveedor_id: prov, almacen_id: almacen, lineas: [{ articulo_id: a, cantidad: 10_000, precio: 500_000 }] });
    await save(t, t.cookie, 'enviarpedidocompra', { id: pc.id });
    // A second order received and its supplier's invoice (40 days old, due on its date): 605,00 € owed, overdue.
    await setFlags(t, t.cookie, { compras: 1, compras_pedidos: 1, compras_albaranes: 1, hcp: 1 });
    const pc2 = await save(t, t.cookie, 'editarpedidocompra', { fecha: HACE_40, proveedor_id: prov, almacen_id: almacen, lineas: [{ articulo_id: a, cantidad: 10_000, precio: 500_000 }] });
    const recibido = (await save(t, t.cookie, 'recibirpedidocompra', { id: pc2.id })) as unknown as { hijos: { id: number }[] };
    await save(t, t.cookie, 'editarfacturaproveedor', { proveedor_id: prov, numero_proveedor: 'FP-40', fecha: HACE_40, total: 60_500, albaranes: [recibido.hijos[0]!.id] });

    const res = (await t.op('resumeninicio', { cookie: t.cookie })).json() as { data: Pendiente[] };
    const por = Object.fromEntries(res.data.map((p) => [p.clave, p]));
    expect(por.cobros_vencidos).toEqual({
      clave: 'cobros_vencidos', titulo: 'Cobros vencidos', documentos: 2, importe: 36_300, ruta: '/ventas/facturas?cobro=vencida',
      detalle: [{ nombre: 'Droguería Sol, S.L.', importe: 24_200 }, { nombre: 'Reformas Hernández, S.L.', importe: 12_100 }],
    });
    expect(por.pedidoventa_confirmado).toMatchObject({ documentos: 1, importe: 36_300, ruta: '/ventas/pedidos?estado=confirmado' });
    expect(por.pedidocompra_enviado).toMatchObject({ documentos: 1, importe: 60_500, ruta: '/compras/pedidos?estado=enviado' });
    expect(por.pagos_vencidos).toEqual({ clave: 'pagos_vencidos', titulo: 'Pagos a proveedores vencidos', documentos: 1, importe: 60_500, ruta: '/compras/pagos?estado=vencido' });
    expect(por.pagos_semana).toBeUndefined();
    // 20 units of minimum, 6 in stock (10 bought, 4 sold).
    expect(por.bajo_minimo).toMatchObject({ documentos: 1, importe: null, ruta: '/informes/info-inventario?vista=bajo_minimo' });
    // The records of the three invoices, while sending is off: waiting.
    const { rows } = await list(t, t.cookie, 'listadoregistrosfacturacion', { porPagina: 100 });
    const sinEnviar = rows.filter((r) => r.estado_envio === 'pendiente').length;
    if (sinEnviar) expect(por.registros_pendientes).toMatchObject({ documentos: sinEnviar, ruta: '/ventas/registros?estado_envio=pendiente' });
    else expect(por.registros_pendientes).toBeUndefined();

    // A warehouse role (almacenes + informes «ver», nothing of sales or purchases): only the stock below minimum.
    const rol = await save(t, t.cookie, 'editarrol', { nombre: 'Solo almacén', derechos: { areas: { almacenes: ['ver'], informes: ['ver'] }, especiales: [], descuento_maximo: 0 } });
    await save(t, t.cookie, 'editarusuario', { nombre: 'alm', email: 'alm@inicio.es', password: CLAVE, rol_id: rol.id });
    const alm = (await t.op('resumeninicio', { cookie: await t.login('alm@inicio.es', CLAVE) })).json() as { data: Pendiente[] };
    expect(alm.data.map((p) => p.clave)).toEqual(['bajo_minimo']);
    // The till's cashier: nothing of the back office (the till's home page does not ask).
    const caja = (await list(t, t.cookie, 'listadoroles', { porPagina: 100 })).rows.find((r) => r.clave === 'caja')!;
    await save(t, t.cookie, 'editarusuario', { nombre: 'caja', email: 'caja@inicio.es', password: CLAVE, rol_id: caja.id });
    const cajero = await t.op('resumeninicio', { cookie: await t.login('caja@inicio.es', CLAVE) });
    expect(cajero.statusCode).toBe(403);
  });
});
