import { describe, expect, it } from 'vitest';
import { MESSAGES, acreedorSepaDeNif, isValidAcreedorSepa } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { backends, useTestApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar } from './documentos-fixtures.ts';
import { XSD_PAIN008, validarXml } from './xsd.ts';

/**
 * Issue 26, remesas SEPA: the company's creditor identifier (validated by the EPC's algorithm) beside its IBAN, the
 * customer's mandate beside its IBAN; a remesa gathers the due, uncollected instalments of the invoices paid by
 * «Recibo domiciliado» (chosen or all), its pain.008.001.02 file validates against the schema with FRST / RCUR from
 * the mandate's history and the control sum of its amounts; paid, each receipt's cobro is recorded; a returned receipt
 * reopens its instalment with its date and reason code.
 */

const HOY = todayIn('Europe/Madrid');
const diaMas = (fecha: string, n: number) => {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

type Recibo = Row & { id: number; documento_id: number; cliente_id: number; importe: number; secuencia: string; esquema: string; cobro_id: number | null; devuelto_fecha: string | null; devuelto_motivo: string | null };
type Remesa = Row & { id: number; estado: string; total: number; num_recibos: number; devueltos: number; recibos: Recibo[] };
type Pendiente = Row & { clave: string; documento_id: number; cliente_id: number; importe: number; vencimiento: string; problema: string | null };

describe('the SEPA creditor identifier (EPC algorithm)', () => {
  it('checks the control digits over the NIF and the country, not the business code', () => {
    // The EPC's own example, and a Spanish one with the suffix ZZZ or 000.
    expect(isValidAcreedorSepa('DE98ZZZ09999999999')).toBe(true);
    expect(isValidAcreedorSepa('DE97ZZZ09999999999')).toBe(false);
    expect(isValidAcreedorSepa('ES97ZZZB12345678')).toBe(true);
    expect(isValidAcreedorSepa('es97 000 b12345678')).toBe(true);
    expect(isValidAcreedorSepa('ES96ZZZB12345678')).toBe(false);
    expect(isValidAcreedorSepa('ES97ZZZB1234567')).toBe(false);
    expect(acreedorSepaDeNif('B12345678')).toBe('ES97000B12345678');
  });
});

describe.each(backends())('remesas SEPA ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let serieA: number;
  let art: Row;
  const c: Record<string, Row> = {};
  const f: Record<string, Row> = {};
  const post = (ac: string, body: Record<string, unknown>) => enviar<Remesa>(t, ac, body);
  const pendientes = async (hasta: string) => (await list(t, t.cookie, 'listadorecibospendientes', { hasta })).rows as Pendiente[];
  const factura = async (cliente: Row) => {
    const d = await guardar(t, 'editarfactura', {
      fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, forma_pago: cliente.forma_pago, lineas: [{ articulo_id: art.id, cantidad: 1_000, precio: 1_000_000 }],
    });
    return guardar(t, 'emitirfactura', { id: d.id });
  };
  const porCobrar = async (id: number) => (await list(t, t.cookie, 'listadofacturas', { id })).rows[0].por_cobrar;

  it('configuration: the creditor identifier is validated and kept beside the IBAN; customers hold their mandate', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    serieA = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows.find((s) => s.codigo === 'A')!.id;
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    const mal = await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, acreedor_sepa: 'ES00ZZZB12345678' } });
    expect(mal.json().errors).toEqual({ acreedor_sepa: MESSAGES.acreedorSepaNoValido });
    const acreedor = acreedorSepaDeNif(conf.nif, 'ZZZ');
    const bien = await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, iban: 'ES91 2100 0418 4502 0005 1332', bic: 'CAIXESBBXXX', acreedor_sepa: acreedor.toLowerCase() } });
    expect(bien.json().RESULT).toBe('0');
    expect((await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0]).toMatchObject({ acreedor_sepa: acreedor, bic: 'CAIXESBBXXX' });

    const malo = await enviar(t, 'editarcliente', { nif: 'B85612349', razon_social: 'X', mandato_referencia: 'MANDATO#1', mandato_esquema: 'XYZ' });
    expect(malo.body.errors).toMatchObject({ mandato_referencia: MESSAGES.mandatoReferenciaNoValida, mandato_esquema: MESSAGES.selectOption });
    c.nuevo = await save(t, t.cookie, 'editarcliente', {
      nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020', forma_pago: 'recibo_30', iban: 'ES76 2077 0024 0031 0257 5766',
      mandato_referencia: 'RH-2026-001', mandato_fecha: diaMas(HOY, -10), mandato_secuencia: 'FRST', mandato_esquema: 'CORE',
    });
    expect(c.nuevo).toMatchObject({ iban: 'ES7620770024003102575766', mandato_referencia: 'RH-2026-001', mandato_esquema: 'CORE' });
    c.veterano = await save(t, t.cookie, 'editarcliente', {
      nif: 'A28017895', razon_social: 'Construcciones Peñalara, S.A.', codigo_postal: '28700', forma_pago: 'recibo_30_60', iban: 'ES60 0049 1500 0512 3456 7892',
      bic: 'BSCHESMMXXX', mandato_referencia: 'CP-0007', mandato_fecha: '2024-03-01', mandato_secuencia: 'RCUR', mandato_esquema: 'B2B',
    });
    c.sinMandato = await save(t, t.cookie, 'editarcliente', { nif: 'B64538309', razon_social: 'Talleres Ebro, S.L.', codigo_postal: '50001', forma_pago: 'recibo_30' });
    // 100,00 € + 21 % = 121,00 €.
    art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('REM-1', { precio_venta: 1_000_000 }));
    for (const k of ['nuevo', 'veterano', 'sinMandato']) f[k] = await factura(c[k]);
  });

  let r1: Remesa;
  it('editarremesa gathers the due instalments of direct-debit invoices; a customer without a mandate is named and refused', async () => {
    const lista = await pendientes(diaMas(HOY, 60));
    expect(lista.map((p) => [p.documento_id, p.vencimiento, p.importe, p.problema])).toEqual([
      [f.nuevo.id, diaMas(HOY, 30), 12_100, null],
      [f.veterano.id, diaMas(HOY, 30), 6_050, null],
      [f.sinMandato.id, diaMas(HOY, 30), 12_100, MESSAGES.clienteSinMandato],
      [f.veterano.id, diaMas(HOY, 60), 6_050, null],
    ]);
    const conProblema = await post('editarremesa', { fecha_cargo: diaMas(HOY, 1), hasta: diaMas(HOY, 30), recibos: [lista[2].clave] });
    expect(conProblema.body).toMatchObject({ RESULT: '1', message: `Talleres Ebro, S.L.: ${MESSAGES.clienteSinMandato}` });
    expect((await post('editarremesa', { fecha_cargo: diaMas(HOY, -1), hasta: HOY })).body.errors).toEqual({ fecha_cargo: MESSAGES.remesaFechaCargo });
    expect((await post('editarremesa', { fecha_cargo: HOY, hasta: HOY })).body).toMatchObject({ RESULT: '1', message: MESSAGES.remesaVacia });
    expect((await list(t, t.cookie, 'listadoremesas')).total).toBe(0);

    // Up to 30 days, all that can go: the new mandate's first collection (FRST), the recurrent one's (RCUR, B2B).
    const res = await post('editarremesa', { fecha_cargo: diaMas(HOY, 2), hasta: diaMas(HOY, 30) });
    expect(res.body).toMatchObject({ RESULT: '0', message: MESSAGES.remesaCreada });
    r1 = res.body.data![0];
    expect(r1).toMatchObject({ estado: 'emitida', num_recibos: 2, total: 18_150 });
    expect(r1.recibos.map((r) => [r.documento_id, r.importe, r.secuencia, r.esquema])).toEqual([
      [f.nuevo.id, 12_100, 'FRST', 'CORE'],
      [f.veterano.id, 6_050, 'RCUR', 'B2B'],
    ]);
    // Taken: no longer offered.
    expect((await pendientes(diaMas(HOY, 60))).map((p) => p.clave)).toEqual([lista[2].clave, lista[3].clave]);
  });

  it('descargarremesa answers pain.008.001.02, valid against the schema: a block per scheme and sequence, the control sum the sum of the amounts', async () => {
    const res = await t.op('descargarremesa', { cookie: t.cookie, query: { id: String(r1.id) } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const xml = res.body;
    validarXml(xml, XSD_PAIN008);
    const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
    expect(xml).toMatch(/<GrpHdr>[\s\S]*<NbOfTxs>2<\/NbOfTxs>\s*<CtrlSum>181.50<\/CtrlSum>/);
    const bloques = [...xml.matchAll(/<PmtInf>([\s\S]*?)<\/PmtInf>/g)].map((m) => m[1]);
    expect(bloques).toHaveLength(2);
    for (const b of bloques) {
      const importes = [...b.matchAll(/<InstdAmt Ccy="EUR">([\d.]+)<\/InstdAmt>/g)].map((m) => m[1]);
      const suma = importes.reduce((s, x) => s + Math.round(Number(x) * 100), 0);
      expect(b).toContain(`<CtrlSum>${(suma / 100).toFixed(2)}</CtrlSum>`);
      expect(b).toContain(`<ReqdColltnDt>${diaMas(HOY, 2)}</ReqdColltnDt>`);
      expect(b).toContain(`<CdtrSchmeId><Id><PrvtId><Othr><Id>${conf.acreedor_sepa}</Id>`);
    }
    expect(bloques[0]).toContain('<LclInstrm><Cd>CORE</Cd></LclInstrm><SeqTp>FRST</SeqTp>');
    expect(bloques[0]).toContain('<MndtId>RH-2026-001</MndtId>');
    expect(bloques[0]).toContain('<IBAN>ES7620770024003102575766</IBAN>');
    expect(bloques[0]).toContain('<InstdAmt Ccy="EUR">121.00</InstdAmt>');
    expect(bloques[1]).toContain('<LclInstrm><Cd>B2B</Cd></LclInstrm><SeqTp>RCUR</SeqTp>');
    expect(bloques[1]).toContain('<DbtrAgt><FinInstnId><BIC>BSCHESMMXXX</BIC></FinInstnId></DbtrAgt>');
    // Accents and ñ in the EPC's basic Latin set.
    expect(bloques[1]).toContain('<Nm>Construcciones Penalara, S.A.</Nm>');
  });

  it('paid: each receipt\'s cobro on its invoice; a returned receipt reopens its instalment with date and reason; the next remesa takes it again as FRST', async () => {
    const antes = await post('devolverrecibo', { id: r1.recibos[0].id, fecha: HOY, motivo: 'AM04' });
    expect(antes.body).toMatchObject({ RESULT: '1', message: MESSAGES.remesaNoPagada });
    const pagada = await post('pagarremesa', { id: r1.id });
    expect(pagada.body).toMatchObject({ RESULT: '0', message: MESSAGES.remesaMarcadaPagada });
    expect(pagada.body.data![0]).toMatchObject({ estado: 'pagada', pagada_fecha: diaMas(HOY, 2) });
    expect(await porCobrar(f.nuevo.id)).toBe(0);
    expect(await porCobrar(f.veterano.id)).toBe(6_050);
    expect((await post('pagarremesa', { id: r1.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.remesaPagada });
    // Its cobro is the remesa's: removed only by returning the receipt.
    const cobro = pagada.body.data![0].recibos[0].cobro_id!;
    expect((await enviar(t, 'eliminarcobro', { id: cobro })).body).toMatchObject({ RESULT: '1', message: MESSAGES.cobroDeRemesa.replace('{remesa}', String(r1.id)) });

    expect((await post('devolverrecibo', { id: r1.recibos[0].id, fecha: HOY, motivo: 'XX99' })).body.errors).toEqual({ motivo: MESSAGES.selectOption });
    const devuelto = await post('devolverrecibo', { id: r1.recibos[0].id, fecha: diaMas(HOY, 5), motivo: 'AM04' });
    expect(devuelto.body).toMatchObject({ RESULT: '0', message: MESSAGES.reciboDevuelto });
    expect(devuelto.body.data![0]).toMatchObject({ devueltos: 1 });
    expect(devuelto.body.data![0].recibos[0]).toMatchObject({ devuelto_fecha: diaMas(HOY, 5), devuelto_motivo: 'AM04', cobro_id: null });
    expect(await porCobrar(f.nuevo.id)).toBe(12_100);
    expect((await post('devolverrecibo', { id: r1.recibos[0].id, fecha: HOY, motivo: 'AM04' })).body.message).toBe(MESSAGES.reciboYaDevuelto);

    // Reopened: offered again; its first collection was returned, so it is still FRST; the recurrent one stays RCUR.
    const lista = await pendientes(diaMas(HOY, 60));
    const claves = lista.filter((p) => p.cliente_id !== c.sinMandato.id).map((p) => p.clave);
    expect(claves).toEqual([`${f.nuevo.id}:0`, `${f.veterano.id}:1`]);
    const r2 = (await post('editarremesa', { fecha_cargo: diaMas(HOY, 7), hasta: diaMas(HOY, 60), recibos: claves })).body.data![0];
    expect(r2.recibos.map((r) => [r.documento_id, r.importe, r.secuencia])).toEqual([
      [f.nuevo.id, 12_100, 'FRST'],
      [f.veterano.id, 6_050, 'RCUR'],
    ]);
    validarXml((await t.op('descargarremesa', { cookie: t.cookie, query: { id: String(r2.id) } })).body, XSD_PAIN008);
    // Not paid yet: it can be undone, and its instalments are free again.
    expect((await post('eliminarremesa', { id: r2.id })).body.RESULT).toBe('0');
    expect((await post('eliminarremesa', { id: r1.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.remesaPagada });
    expect((await pendientes(diaMas(HOY, 60))).length).toBe(3);
    // After a collection that was not returned, the same new mandate's next receipt is RCUR.
    const r3 = (await post('editarremesa', { fecha_cargo: diaMas(HOY, 7), hasta: diaMas(HOY, 60), recibos: [`${f.nuevo.id}:0`] })).body.data![0];
    await post('pagarremesa', { id: r3.id });
    const f4 = await factura(c.nuevo);
    const r4 = (await post('editarremesa', { fecha_cargo: diaMas(HOY, 7), hasta: diaMas(HOY, 60), recibos: [`${f4.id}:0`] })).body.data![0];
    expect(r4.recibos.map((r) => r.secuencia)).toEqual(['RCUR']);
  });
});
