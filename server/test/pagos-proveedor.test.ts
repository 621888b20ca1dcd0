import { describe, expect, it } from 'vitest';
import { MESSAGES } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { finDeSemana } from '../src/actions/compras/pagos.ts';
import { backends, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save, setFlags } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar } from './documentos-fixtures.ts';
import { XSD_PAIN001, validarXml } from './xsd.ts';

/**
 * Issue 26, cuentas a pagar: a supplier invoice (hcp) gets its due dates from the supplier's forma de pago (or typed),
 * is paid in parts (pagarfacturaproveedor, eliminarpagoproveedor), an abono nets it, Compras › Pagos lists what is due
 * with its totals, the supplier's record shows what is owed, and the chosen instalments are paid by a SEPA transfer
 * file (pain.001.001.03, valid against its schema) that checks the suppliers' IBANs.
 */

const HOY = todayIn('Europe/Madrid');
const diaMas = (fecha: string, n: number) => {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

type Plazo = { fecha: string; importe: number; pendiente: number };
type Factura = Row & {
  por_pagar: number;
  pago_fecha: string | null;
  vencimientos: string[];
  plazos_cubiertos: number;
  cuenta: { importe: number; pagado: number; saldo: number; plazos: Plazo[]; pagos: { id: number; importe: number; fecha: string; forma: string | null }[] };
};
type Venc = Row & { clave: string; factura_id: number; fecha: string; pendiente: number; iban_valido: boolean };

describe.each(backends())('pagos a proveedores ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let prov: Row;
  let sinIban: Row;
  let art: Row;
  const post = (ac: string, body: Record<string, unknown>) => enviar<Factura>(t, ac, body);
  const albaran = (p: Row, precio: number, cantidad = 1_000) =>
    guardar(t, 'editaralbarancompra', { fecha: HOY, proveedor_id: p.id, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad, precio }] });
  const factura = async (body: Record<string, unknown>) => {
    const r = await post('editarfacturaproveedor', body);
    expect(r.body.RESULT, JSON.stringify(r.body)).toBe('0');
    return r.body.data![0] as Factura;
  };
  const leer = async (id: number) => (await list(t, t.cookie, 'listadofacturasproveedor', { id })).rows[0] as Factura;
  const vencimientos = async (q: Record<string, string | number> = {}) => {
    const r = await list(t, t.cookie, 'listadovencimientosproveedor', q);
    return { rows: r.rows as Venc[], resumen: r.body.resumen as { vencido: number; semana: number; total: number; por_proveedor: Row[] } };
  };

  it('setup: purchases and hcp on; a supplier paying at 30 and 60 days with an IBAN, another without one', async () => {
    await setFlags(t, t.cookie, { almacenes: 1, compras: 1, compras_albaranes: 1, compras_devoluciones: 1, hcp: 1 });
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    prov = await save(t, t.cookie, 'editarproveedor', {
      nif: 'B28456713', razon_social: 'Suministros Castilla, S.L.', codigo_postal: '28045', iban: 'ES76 2077 0024 0031 0257 5766', forma_pago: 'recibo_30_60',
    });
    sinIban = await save(t, t.cookie, 'editarproveedor', { nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', codigo_postal: '08005', forma_pago: 'transferencia' });
    // 21 % IVA: 100,00 € → 121,00 €.
    art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('PAG-1', { precio_compra: 1_000_000 }));
  });

  let f1: Factura;
  it('an invoice gets its vencimientos from the supplier\'s forma de pago; paid in parts, in order; the undo reopens it', async () => {
    const a = await albaran(prov, 1_000_000);
    f1 = await factura({ proveedor_id: prov.id, numero_proveedor: 'FC-2026/0101', fecha: HOY, total: 12_100, albaranes: [a.id] });
    expect(f1).toMatchObject({ forma_pago: 'recibo_30_60', vencimientos: [diaMas(HOY, 30), diaMas(HOY, 60)], por_pagar: 12_100, pago_fecha: null });
    expect(f1.cuenta.plazos).toEqual([
      { fecha: diaMas(HOY, 30), importe: 6_050, pendiente: 6_050 },
      { fecha: diaMas(HOY, 60), importe: 6_050, pendiente: 6_050 },
    ]);
    expect((await list(t, t.cookie, 'listadofacturasproveedor', { pago: 'pendiente' })).rows.map((r) => [r.id, r.por_pagar])).toEqual([[f1.id, 12_100]]);

    const demasiado = await post('pagarfacturaproveedor', { id: f1.id, fecha: HOY, importe: 12_101 });
    expect(demasiado).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.cobroSuperaPendiente.replace('{importe}', '121,00 €') } });
    let r = await post('pagarfacturaproveedor', { id: f1.id, fecha: HOY, importe: 4_000, forma: 'transferencia' });
    expect(r.body).toMatchObject({ RESULT: '0', message: MESSAGES.pagoRegistrado });
    expect(r.body.data![0]).toMatchObject({ por_pagar: 8_100, plazos_cubiertos: 0, cuenta: { pagado: 4_000, saldo: 8_100 } });
    expect(r.body.data![0].cuenta.plazos.map((p) => p.pendiente)).toEqual([2_050, 6_050]);
    r = await post('pagarfacturaproveedor', { id: f1.id, fecha: HOY, importe: 2_050 });
    expect(r.body.data![0]).toMatchObject({ por_pagar: 6_050, plazos_cubiertos: 1 });
    // Without importe: everything left, with the invoice's forma de pago.
    r = await post('pagarfacturaproveedor', { id: f1.id, fecha: HOY });
    expect(r.body.data![0]).toMatchObject({ por_pagar: 0, pago_fecha: HOY, plazos_cubiertos: 2 });
    expect(r.body.data![0].cuenta.pagos.map((p) => [p.importe, p.forma])).toEqual([[4_000, 'transferencia'], [2_050, 'recibo_30_60'], [6_050, 'recibo_30_60']]);
    expect((await post('pagarfacturaproveedor', { id: f1.id, fecha: HOY })).body).toMatchObject({ RESULT: '1', message: MESSAGES.facturaProveedorSinPendiente });
    expect((await list(t, t.cookie, 'listadofacturasproveedor', { pago: 'pagada' })).rows.map((r) => r.id)).toEqual([f1.id]);
    // Its undo refused while it has payments.
    expect((await post('eliminarfacturaproveedor', { id: f1.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.facturaProveedorConPagos });
    // The last payment undone: owed again.
    const quitado = await post('eliminarpagoproveedor', { id: r.body.data![0].cuenta.pagos[2].id });
    expect(quitado.body).toMatchObject({ RESULT: '0', message: MESSAGES.pagoEliminado });
    expect(quitado.body.data![0]).toMatchObject({ por_pagar: 6_050, pago_fecha: null, plazos_cubiertos: 1 });
    // How it was paid: a medio de pago the back office offers (as for a cobro); the till's «vale» is refused and changes nothing.
    const vale = await post('pagarfacturaproveedor', { id: f1.id, fecha: HOY, importe: 1_000, forma: 'vale' });
    expect(vale).toMatchObject({ status: 400, body: { RESULT: '1', errors: { forma: expect.any(String) } } });
    expect(await leer(f1.id)).toMatchObject({ por_pagar: 6_050 });
    const cheque = await post('pagarfacturaproveedor', { id: f1.id, fecha: HOY, importe: 1_000, forma: 'cheque' });
    expect(cheque.body.data![0]).toMatchObject({ por_pagar: 5_050 });
    expect(cheque.body.data![0].cuenta.pagos.map((p) => p.forma)).toEqual(['transferencia', 'recibo_30_60', 'cheque']);
    const sinCheque = await post('eliminarpagoproveedor', { id: cheque.body.data![0].cuenta.pagos[2].id });
    expect(sinCheque.body.data![0]).toMatchObject({ por_pagar: 6_050, plazos_cubiertos: 1 });
  });

  it('typed vencimientos; an abono (a devolución invoiced by the supplier) nets what is owed; refusals change nothing', async () => {
    const a = await albaran(prov, 1_000_000, 2_000);
    const typed = [diaMas(HOY, 45), diaMas(HOY, 15)];
    const f2 = await factura({ proveedor_id: prov.id, numero_proveedor: 'FC-2026/0102', fecha: HOY, total: 24_200, albaranes: [a.id], vencimientos: typed });
    expect(f2.vencimientos).toEqual([diaMas(HOY, 15), diaMas(HOY, 45)]);
    expect(f2.cuenta.plazos.map((p) => p.importe)).toEqual([12_100, 12_100]);
    const malas = await post('editarfacturaproveedor', { proveedor_id: prov.id, numero_proveedor: 'X', fecha: HOY, total: 1, albaranes: [a.id], vencimientos: [diaMas(HOY, -1)] });
    expect(malas).toMatchObject({ status: 400, body: { errors: { vencimientos: MESSAGES.vencimientosNoValidos } } });

    const dev = await guardar(t, 'editardevolucioncompra', {
      fecha: HOY, proveedor_id: prov.id, almacen_id: principal, lineas: [{ articulo_id: art.id, cantidad: 1_000, precio: 1_000_000, origen_linea_id: (a.lineas as Row[])[0].id }],
    });
    const otro = await post('editarfacturaproveedor', { proveedor_id: sinIban.id, numero_proveedor: 'AB-1', fecha: HOY, total: -12_100, devoluciones: [dev.id], rectifica_id: f2.id });
    expect(otro.status).toBe(400);
    const abono = await factura({ proveedor_id: prov.id, numero_proveedor: 'AB-2026/0007', fecha: HOY, total: -12_100, devoluciones: [dev.id], rectifica_id: f2.id });
    expect(abono).toMatchObject({ rectifica_id: f2.id, por_pagar: 0 });
    const neta = await leer(f2.id);
    expect(neta).toMatchObject({ por_pagar: 12_100, cuenta: { importe: 12_100, saldo: 12_100 } });
    expect(neta.cuenta.plazos).toEqual([
      { fecha: diaMas(HOY, 15), importe: 6_050, pendiente: 6_050 },
      { fecha: diaMas(HOY, 45), importe: 6_050, pendiente: 6_050 },
    ]);
    expect((await post('eliminarfacturaproveedor', { id: f2.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.facturaProveedorConAbonos });
    // Paying all of it, then the abono undone: the invoice owes again what the abono netted.
    await post('pagarfacturaproveedor', { id: f2.id, fecha: HOY });
    expect((await post('eliminarfacturaproveedor', { id: abono.id })).body.RESULT).toBe('0');
    expect(await leer(f2.id)).toMatchObject({ por_pagar: 12_100, pago_fecha: null });
  });

  it('Compras › Pagos: overdue, due this week, by supplier with totals; the supplier\'s record shows what is owed', async () => {
    // An invoice of the other supplier dated 40 days ago, due at once: overdue.
    const a = await albaran(sinIban, 500_000);
    const f3 = await factura({ proveedor_id: sinIban.id, numero_proveedor: 'DM-88', fecha: diaMas(HOY, -40), total: 6_050, albaranes: [a.id] });
    expect(f3.vencimientos).toEqual([diaMas(HOY, -40)]);
    const todo = await vencimientos();
    // f1's second instalment (6.050), f2 (2 × 6.050, net of its payment and abono: 12.100 owed again → both instalments), f3.
    expect(todo.resumen.total).toBe(6_050 + 12_100 + 6_050);
    expect(todo.resumen.vencido).toBe(6_050);
    const semana = todo.rows.filter((r) => r.fecha >= HOY && r.fecha <= finDeSemana(HOY)).reduce((s, r) => s + r.pendiente, 0);
    expect(todo.resumen.semana).toBe(semana);
    expect((await vencimientos({ estado: 'vencido' })).rows.map((r) => r.clave)).toEqual([`${f3.id}:0`]);
    expect(todo.resumen.por_proveedor).toEqual([
      expect.objectContaining({ proveedor_id: prov.id, pendiente: 18_150, vencido: 0 }),
      expect.objectContaining({ proveedor_id: sinIban.id, pendiente: 6_050, vencido: 6_050 }),
    ]);
    expect((await vencimientos({ proveedor_id: sinIban.id })).rows.map((r) => [r.clave, r.iban_valido])).toEqual([[`${f3.id}:0`, false]]);
    const ficha = (await list(t, t.cookie, 'listadoproveedores', { id: sinIban.id })).rows[0];
    expect(ficha).toMatchObject({ pendiente_pago: 6_050, vencido_pago: 6_050 });
    expect((await list(t, t.cookie, 'listadoproveedores', { id: prov.id })).rows[0]).toMatchObject({ pendiente_pago: 18_150, vencido_pago: 0 });
  });

  it('the SEPA transfer file (pain.001.001.03) of chosen instalments: valid against the schema, amounts and control sum, payments recorded; a bad IBAN refused', async () => {
    const todo = await vencimientos();
    const claves = todo.rows.filter((r) => r.iban_valido).map((r) => r.clave);
    const sinConfig = await t.op('transferenciaproveedores', { cookie: t.cookie, body: { fecha: HOY, plazos: claves } });
    expect(sinConfig.json()).toMatchObject({ RESULT: '1', message: MESSAGES.empresaSinIban });
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    const mal = await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, iban: 'ES91 2100 0418 4502 0005 1332', bic: 'caixesbb' } });
    expect(mal.json().errors).toEqual({ bic: MESSAGES.bicNoValido });
    expect((await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, iban: 'ES91 2100 0418 4502 0005 1332', bic: 'CAIXESBBXXX' } })).json().RESULT).toBe('0');

    const f3 = todo.rows.find((r) => !r.iban_valido)!;
    const rechazo = await t.op('transferenciaproveedores', { cookie: t.cookie, body: { fecha: HOY, plazos: [...claves, f3.clave] } });
    expect(rechazo.json()).toMatchObject({ RESULT: '1', message: MESSAGES.proveedorSinIban.replace('{nombre}', 'Distribuciones Mediterráneo, S.L.') });
    expect((await vencimientos()).resumen.total).toBe(todo.resumen.total);

    const res = await t.op('transferenciaproveedores', { cookie: t.cookie, body: { fecha: HOY, plazos: claves } });
    expect(res.statusCode).toBe(200);
    const respuesta = res.json() as { RESULT: string; message: string; data: { nombre: string; xml: string; pagos: number; total: number }[] };
    expect(respuesta).toMatchObject({ RESULT: '0', message: MESSAGES.transferenciaGenerada.replace('{n}', String(claves.length)) });
    expect(respuesta.data[0]).toMatchObject({ nombre: `transferencias-${HOY}.xml`, pagos: claves.length });
    const xml = respuesta.data[0].xml;
    validarXml(xml, XSD_PAIN001);
    const elegidos = todo.rows.filter((r) => r.iban_valido);
    const suma = elegidos.reduce((s, r) => s + r.pendiente, 0);
    expect(respuesta.data[0].total).toBe(suma);
    expect(xml).toContain(`<NbOfTxs>${elegidos.length}</NbOfTxs>`);
    expect(xml).toContain(`<CtrlSum>${(suma / 100).toFixed(2)}</CtrlSum>`);
    const importes = [...xml.matchAll(/<InstdAmt Ccy="EUR">([\d.]+)<\/InstdAmt>/g)].map((m) => Math.round(Number(m[1]) * 100));
    expect(importes).toEqual(elegidos.map((r) => r.pendiente));
    expect(xml).toContain('<IBAN>ES7620770024003102575766</IBAN>');
    expect(xml).toContain('<DbtrAcct><Id><IBAN>ES9121000418450200051332</IBAN></Id></DbtrAcct>');
    expect(xml).toContain('<BIC>CAIXESBBXXX</BIC>');
    expect(xml).toContain(`<ReqdExctnDt>${HOY}</ReqdExctnDt>`);
    // Paid: only the other supplier's instalment is left; a second file of the same instalments is refused.
    expect((await vencimientos()).rows.map((r) => r.clave)).toEqual([f3.clave]);
    const otra = await t.op('transferenciaproveedores', { cookie: t.cookie, body: { fecha: HOY, plazos: claves } });
    expect(otra.json()).toMatchObject({ RESULT: '1', message: MESSAGES.plazoNoPendiente });
    expect((await t.op('transferenciaproveedores', { cookie: t.cookie, body: { fecha: HOY, plazos: [] } })).json().errors).toEqual({ plazos: MESSAGES.sinPlazos });
  });
});
