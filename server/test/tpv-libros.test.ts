import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CONF_FIELDS, MESSAGES_TPV, MESSAGES } from 'shared/domain';
import type { Serie, TicketSubido } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { informeVentas } from '../src/informes/ventas.ts';
import { STEPS } from '../src/db/migrations/index.ts';
import { backends, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar } from './documentos-fixtures.ts';
import { validarXml } from './xsd.ts';

/**
 * Issue 23: a terminal's series are its own (the back office never numbers in them, a terminal never takes a serie
 * with others' documents), and the full invoice (F3) replaces the ticket in the books: the sale counted once, in the
 * libro de expedidas, the 303, the 347 and the sales report (aggregated and detailed alike), the Z keeping the cash.
 */
const HOY = todayIn('Europe/Madrid');
const AYER = new Date(Date.parse(`${HOY}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

let seq = 0;
const uuid = () => `00000000-0000-4000-9000-${String(++seq).padStart(12, '0')}`;

type Informe = { data: Row[]; totales: Record<string, number>; total: number };

async function todosLosModulos(t: SuiteApp) {
  const conf = (await t.op('listadoconfiguraciones', { cookie: t.cookie })).json().data[0];
  const res = await t.op('editarconfiguracion', { cookie: t.cookie, body: { ...conf, ...Object.fromEntries(CONF_FIELDS.map((f) => [f, 1])) } });
  expect(res.statusCode).toBe(200);
}

describe.each(backends())('TPV: its own series, the F3 in the books ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  const serie: Record<string, number> = {};
  let a: Row; // 21 %, «Pan» at the till
  let b: Row; // 10 %
  let terminal: Row;
  let cliente: Row;
  let clienteRe: Row;

  const informe = async (ac: string, q: Record<string, string | number>): Promise<Informe> => {
    const res = await t.op(ac, { cookie: t.cookie, query: Object.fromEntries(Object.entries({ porPagina: 10_000, ...q }).map(([k, v]) => [k, String(v)])) });
    expect(res.statusCode).toBe(200);
    return res.json() as Informe;
  };
  /** What the books say of the period: the libro (rows and totals), the 303's boxes, the sales report (aggregated = detailed). */
  const libros = async () => {
    const libro = await informe('librofacturasexpedidas', { desde: AYER, hasta: HOY });
    const m303 = await informe('modelo303', { desde: AYER, hasta: HOY });
    const cas = Object.fromEntries(m303.data.map((f) => [f.casilla, f.importe]));
    const paging = { orden: null, dir: null, pagina: 1, porPagina: 10_000 };
    const f = { desde: AYER, hasta: HOY };
    const agregado = await informeVentas(t.app.manager, f, 'tipo', paging, 'agregado');
    const detalle = await informeVentas(t.app.manager, f, 'tipo', paging, 'detalle');
    expect(agregado).toEqual(detalle);
    const ventas = agregado as unknown as Informe;
    // By terminal: the F3 is its ticket's terminal's sale.
    const porTerminal = (await informeVentas(t.app.manager, f, 'terminal', paging, 'agregado')) as unknown as Informe;
    expect(porTerminal).toEqual(await informeVentas(t.app.manager, f, 'terminal', paging, 'detalle'));
    return {
      libro: { base: libro.totales.base, iva: libro.totales.iva, recargo: libro.totales.recargo, documentos: libro.totales.documentos },
      // The issued ones (issue 25: a Facturado ticket and a cancelled invoice keep a row of their own, amounts 0).
      numeros: [...new Set(libro.data.filter((r) => r.estado === 'Emitida').map((r) => String(r.numero_factura)))].sort(),
      filas: libro.data,
      m303: { '07': cas['07'], '09': cas['09'], '04': cas['04'], '06': cas['06'], '22': cas['22'] ?? 0, '24': cas['24'] ?? 0, '27': cas['27'] },
      ventas: { base: ventas.totales.base, iva: ventas.totales.iva, recargo: ventas.totales.recargo, coste: ventas.totales.coste, unidades: ventas.totales.unidades },
      tipos: Object.fromEntries(ventas.data.map((r) => [r.clave, r.base])),
      terminales: Object.fromEntries(porTerminal.data.map((r) => [String(r.clave), r.base])),
    };
  };

  it('setup: the seed gives the till its own returns serie «TR»; articles, customers', async () => {
    await todosLosModulos(t);
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows as unknown as Serie[];
    for (const s of series) serie[s.codigo] = s.id;
    expect(series.map((s) => [s.codigo, s.tipo, s.terminal ?? null])).toEqual([
      ['A', 'normal', null], ['R', 'rectificativa', null], ['T', 'simplificada', null], ['TR', 'rectificativa', null],
    ]);
    a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('LIB-A', { precio_venta: 10_000, nombre_tpv: 'Pan', descripcion: 'Pan de pueblo 500 g' }));
    b = await save(t, t.cookie, 'editararticulo', nuevoArticulo('LIB-B', { precio_venta: 20_000, tipo_iva: '10', descripcion: 'Aceite de oliva 1 l' }));
    cliente = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020', direccion: 'C/ Mayor 1' });
    clienteRe = await save(t, t.cookie, 'editarcliente', { nif: '12345678Z', razon_social: 'Ferretería López', codigo_postal: '41001', direccion: 'C/ Sierpes 2', recargo: 1 });
  });

  it('a terminal never takes a serie with others\' documents; the back office never numbers in a terminal\'s serie', async () => {
    // A back-office rectificativa draft in R: R is no longer free for a till.
    const f1 = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serie.A, lineas: [{ articulo_id: b.id, cantidad: 1_000, precio: 20_000 }] });
    const emitida = await save(t, t.cookie, 'emitirfactura', { id: f1.id });
    await save(t, t.cookie, 'editarrectificativa', { fecha: HOY, serie_id: serie.R, factura_id: emitida.id, tipo: 'R1', lineas: [{ articulo_id: b.id, cantidad: -1_000, precio: 20_000 }] });
    const conR = await enviar(t, 'editarterminal', { nombre: 'Caja 1', almacen_id: principal, serie_id: serie.T, serie_rectificativa_id: serie.R, formas_pago: ['efectivo'] });
    expect(conR.status).toBe(400);
    expect(conR.body.errors).toEqual({ serie_rectificativa_id: MESSAGES_TPV.serieConDocumentos.replace('{codigo}', 'R') });
    terminal = await save(t, t.cookie, 'editarterminal', { nombre: 'Caja 1', almacen_id: principal, serie_id: serie.T, serie_rectificativa_id: serie.TR, formas_pago: ['efectivo', 'tarjeta'] });
    expect(terminal).toMatchObject({ serie_codigo: 'T', serie_rectificativa_codigo: 'TR' });
    // Saved again as it is: its own series, no others' documents.
    await save(t, t.cookie, 'editarterminal', { id: terminal.id, nombre: 'Caja 1', almacen_id: principal, serie_id: serie.T, serie_rectificativa_id: serie.TR, formas_pago: ['efectivo', 'tarjeta'] });

    // Its series keep their kind and stay active while the terminal uses them.
    const fija = MESSAGES.serieDeTerminalFija.replace('{terminal}', 'Caja 1');
    expect((await enviar(t, 'editarserie', { id: serie.TR, codigo: 'TR', descripcion: 'Devoluciones', tipo: 'normal', activo: 1 })).body.errors).toEqual({ tipo: fija });
    expect((await enviar(t, 'editarserie', { id: serie.T, codigo: 'T', descripcion: 'Tickets', tipo: 'simplificada', activo: 0 })).body.errors).toEqual({ activo: fija });
    expect(await save(t, t.cookie, 'editarserie', { id: serie.T, codigo: 'T', descripcion: 'Tickets de Caja 1', tipo: 'simplificada', activo: 1 })).toMatchObject({ descripcion: 'Tickets de Caja 1', terminal: 'Caja 1' });

    // The series list names the terminal: the back office's forms leave those out.
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows as unknown as Serie[];
    expect(Object.fromEntries(series.map((s) => [s.codigo, s.terminal ?? null]))).toEqual({ A: null, R: null, T: 'Caja 1', TR: 'Caja 1' });

    // A back-office F2 in the till's T, a rectificativa in its TR: refused with the reason, nothing saved.
    const antes = Number((await t.app.manager.db.selectFrom('documentos').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const f2 = await enviar(t, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serie.T, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 10_000 }] });
    expect(f2.status).toBe(400);
    expect(f2.body.errors).toEqual({ serie_id: MESSAGES.serieDeTerminal.replace('{codigo}', 'T').replace('{terminal}', 'Caja 1') });
    const r1 = await enviar(t, 'editarrectificativa', { fecha: HOY, serie_id: serie.TR, factura_id: emitida.id, tipo: 'R1', lineas: [{ articulo_id: b.id, cantidad: -1_000, precio: 20_000 }] });
    expect(r1.body.errors).toEqual({ serie_id: MESSAGES.serieDeTerminal.replace('{codigo}', 'TR').replace('{terminal}', 'Caja 1') });
    expect(Number((await t.app.manager.db.selectFrom('documentos').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(antes);

    // A draft made in T before a terminal took it cannot be issued there either.
    const terminal2 = await save(t, t.cookie, 'editarserie', { codigo: 'T2', descripcion: 'Tickets caja 2', tipo: 'simplificada', activo: 1 });
    const borrador = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: terminal2.id, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 10_000 }] });
    const tr2 = await save(t, t.cookie, 'editarserie', { codigo: 'TR2', descripcion: 'Devoluciones caja 2', tipo: 'rectificativa', activo: 1 });
    // T2 holds a back-office draft: no terminal takes it.
    const caja2 = await enviar(t, 'editarterminal', { nombre: 'Caja 2', almacen_id: principal, serie_id: terminal2.id, serie_rectificativa_id: tr2.id, formas_pago: ['efectivo'] });
    expect(caja2.body.errors).toEqual({ serie_id: MESSAGES_TPV.serieConDocumentos.replace('{codigo}', 'T2') });
    // Forced into a terminal behind the API's back (as an installation configured before issue 23): the draft is not issued in it.
    const { id: otro } = await t.app.manager.db
      .insertInto('tpv_terminales')
      .values({ nombre: 'Caja 2', almacen_id: principal, serie_id: terminal2.id, serie_rectificativa_id: tr2.id, cliente_id: null, numero_instalacion: 'B86420973-TPV-X', formas_pago: '["efectivo"]', fondo: 0, activo: 1, creado: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const emitir = await enviar(t, 'emitirfactura', { id: borrador.id });
    expect(emitir.body.message).toBe(MESSAGES.serieDeTerminal.replace('{codigo}', 'T2').replace('{terminal}', 'Caja 2'));
    expect((await list(t, t.cookie, 'listadofacturas', { id: borrador.id })).rows[0]).toMatchObject({ estado: 'borrador', numero: 'Borrador' });
    await t.app.manager.db.deleteFrom('tpv_terminales').where('id', '=', otro).execute();
  });

  let t1: TicketSubido;
  let t2: TicketSubido;
  it('the F3 replaces the ticket in the books: libro, 303, sales report (aggregated and detailed) count the sale once; the Z keeps the cash', async () => {
    await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
    const subir = async (lineas: Record<string, unknown>[], importe: number) => {
      const r = await t.op('subirtickets', { cookie: t.cookie, body: { terminal_id: terminal.id, tickets: [{ uuid: uuid(), fecha_hora: new Date().toISOString(), lineas, pagos: [{ forma: 'efectivo', importe }] }] } });
      expect(r.json().RESULT).toBe('0');
      return r.json().data[0] as TicketSubido;
    };
    // 2 × 1,21 (21 %) + 1 × 2,20 (10 %) = 4,62; and 1 × 1,21.
    t1 = await subir([{ articulo_id: a.id, cantidad: 2_000, precio: 12_100 }, { articulo_id: b.id, cantidad: 1_000, precio: 22_000 }], 462);
    t2 = await subir([{ articulo_id: a.id, cantidad: 1_000, precio: 12_100 }], 121);
    expect(t1.total).toBe(462);
    // The first ticket was sold yesterday (its day moved back: the F3 is then of a later day).
    await t.app.manager.db.updateTable('documentos').set({ fecha: AYER }).where('id', '=', t1.id).execute();

    const antes = await libros();
    expect(antes.numeros).toContain(t1.numero);
    expect(antes.numeros).toContain(t2.numero);

    // F3 of the first ticket for a customer not in recargo.
    const f3 = (await save(t, t.cookie, 'facturarticket', { id: t1.id, cliente_id: cliente.id })) as Row & Record<string, unknown>;
    expect(f3).toMatchObject({ tipo_factura: 'F3', total: 462, base: 400, iva: 62, recargo: 0, fecha: HOY, fecha_operacion: AYER });
    const despues = await libros();
    // The same sale, counted once: the same totals; the ticket's number gone from the libro, the F3's there.
    expect(despues.libro).toEqual(antes.libro);
    expect(despues.m303).toEqual(antes.m303);
    expect(despues.ventas).toEqual(antes.ventas);
    expect(antes.terminales[String(terminal.id)]).toBe(antes.tipos.ticket);
    expect(despues.terminales).toEqual(antes.terminales);
    expect(despues.numeros).not.toContain(t1.numero);
    expect(despues.numeros).toContain(f3.numero);
    expect(despues.numeros).toContain(t2.numero);
    // Its number still accounted for (issue 25): «Sustituida» by the F3, amounts 0.
    expect(despues.filas.filter((r) => r.numero_factura === t1.numero)).toEqual([
      expect.objectContaining({ estado: 'Sustituida', concepto: `Sustituida por ${f3.numero}`, sustituida_por: f3.numero, base: 0, iva: 0, total: 0 }),
    ]);
    // Moved from the tickets to the invoices in the sales report.
    expect(despues.tipos.ticket).toBe(antes.tipos.ticket - 400);
    expect(despues.tipos.factura).toBe((antes.tipos.factura ?? 0) + 400);
    // The libro's row of the F3 names the ticket's day as the operation's.
    expect(despues.filas.find((r) => r.numero_factura === f3.numero)).toMatchObject({ fecha_expedicion: HOY, fecha_operacion: AYER, tipo_factura: 'F3', nif_destinatario: 'B85612349' });
    // The record: F3, FechaOperacion the ticket's day, FacturasSustituidas naming it.
    const xml = (f3.registro as { xml?: string } | null)?.xml ?? (await t.app.manager.db.selectFrom('registros_facturacion').select('xml').where('documento_id', '=', f3.id as number).executeTakeFirstOrThrow()).xml;
    const [y, m, d] = AYER.split('-');
    expect(xml).toContain(`<sf:FechaOperacion>${d}-${m}-${y}</sf:FechaOperacion>`);
    expect(xml).toContain(`<sf:NumSerieFactura>${t1.numero}</sf:NumSerieFactura>`);
    validarXml([xml]);
    // What its QR and legend follow, as any invoice's (the till prints the F3's PDF from this answer): the environment and the record's frozen demo / sending flags.
    expect(f3.registro).toMatchObject({ entorno: 'produccion', demo: 0, verifactu: 0, num_serie: f3.numero });
    expect(f3.factura_numero).toBe(t1.numero);
    // Its lines carry the articles' descriptions, not the till's short names.
    expect((f3.lineas as Row[]).map((l) => l.descripcion)).toEqual(['Pan de pueblo 500 g', 'Aceite de oliva 1 l']);

    // F3 of the second ticket for a customer in recargo de equivalencia: 1,00 base × 5,2 % = 0,05 more, the rest as it was.
    // The demo company's F3 is marked demo on its record (its PDF: «DEMOSTRACIÓN — sin validez fiscal»).
    await t.app.manager.db.updateTable('verifactu').set({ demo: 1 }).where('id', '=', 1).execute();
    const f3re = (await save(t, t.cookie, 'facturarticket', { id: t2.id, cliente_id: clienteRe.id })) as Row & Record<string, unknown>;
    await t.app.manager.db.updateTable('verifactu').set({ demo: 0 }).where('id', '=', 1).execute();
    expect(f3re.registro).toMatchObject({ demo: 1, entorno: 'pruebas' });
    expect(f3re).toMatchObject({ tipo_factura: 'F3', con_recargo: 1, base: 100, iva: 21, recargo: 5, total: 126, fecha_operacion: null });
    expect(f3re.desglose).toEqual([{ tipo_iva: '21', base: 100, iva: 21, recargo: 5 }]);
    const conRe = await libros();
    expect(conRe.libro).toEqual({ ...antes.libro, recargo: antes.libro.recargo + 5 });
    expect(conRe.m303).toMatchObject({ '07': antes.m303['07'], '09': antes.m303['09'], '22': 100, '24': 5, '27': antes.m303['27'] + 5 });
    expect(conRe.ventas).toEqual({ ...antes.ventas, recargo: antes.ventas.recargo + 5 });
    expect(conRe.numeros).not.toContain(t2.numero);
    const xmlRe = (await t.app.manager.db.selectFrom('registros_facturacion').select('xml').where('documento_id', '=', f3re.id as number).executeTakeFirstOrThrow()).xml;
    expect(xmlRe).toContain('<sf:CuotaRecargoEquivalencia>0.05</sf:CuotaRecargoEquivalencia>');
    expect(xmlRe).toContain('<sf:ImporteTotal>1.26</sf:ImporteTotal>');
    validarXml([xmlRe]);

    // The first F3 annulled (a wrong customer): its ticket is the sale again — Emitido, back in the books, replaceable.
    const anulada = await save(t, t.cookie, 'anularfactura', { id: f3.id });
    expect(anulada).toMatchObject({ estado: 'anulada' });
    expect((await list(t, t.cookie, 'listadotickets', { id: t1.id })).rows[0]).toMatchObject({ estado: 'emitido' });
    const trasAnular = await libros();
    expect(trasAnular.libro).toEqual({ ...antes.libro, recargo: antes.libro.recargo + 5 });
    expect(trasAnular.ventas).toEqual({ ...antes.ventas, recargo: antes.ventas.recargo + 5 });
    expect(trasAnular.numeros).toContain(t1.numero);
    expect(trasAnular.numeros).not.toContain(f3.numero);
    expect(trasAnular.tipos.ticket).toBe(antes.tipos.ticket - 100);
    const otra = (await save(t, t.cookie, 'facturarticket', { id: t1.id, cliente_id: cliente.id })) as Row & Record<string, unknown>;
    expect(otra).toMatchObject({ tipo_factura: 'F3', total: 462 });
    expect((await libros()).libro).toEqual({ ...antes.libro, recargo: antes.libro.recargo + 5 });

    // 347: the F3s are declared (they name their customer); the tickets never were.
    const m347 = await informe('modelo347', { ejercicio: Number(HOY.slice(0, 4)) });
    expect(m347.data.filter((r) => r.nif === '12345678Z')).toEqual([]); // 1,26 € is far below the 3.005,06 € threshold

    // The Z: the till's cash is the tickets', as taken.
    const cierre = await save(t, t.cookie, 'editarcierretpv', { terminal_id: terminal.id, contado: [{ forma: 'efectivo', importe: 583 }] });
    expect(cierre).toMatchObject({ tickets: 2, total: 583, diferencia: 0 });
  });

  it('migration 0038: a terminal returning into a serie with others\' documents gets a returns serie of its own; the F3s and their tickets are refreshed in the aggregates', async () => {
    const db = t.app.manager.db;
    // An installation configured before issue 23: a till returning into the back office's R (which holds a rectificativa).
    const t3 = await save(t, t.cookie, 'editarserie', { codigo: 'T3', descripcion: 'Tickets caja 3', tipo: 'simplificada', activo: 1 });
    const { id: caja3 } = await db
      .insertInto('tpv_terminales')
      .values({ nombre: 'Caja 3', almacen_id: principal, serie_id: t3.id, serie_rectificativa_id: serie.R, cliente_id: null, numero_instalacion: 'B86420973-TPV-3', formas_pago: '["efectivo"]', fondo: 0, activo: 1, creado: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const enR = await db.selectFrom('documentos').select(['id', 'numero', 'estado']).where('serie_id', '=', serie.R).orderBy('id').execute();
    expect(enR.length).toBeGreaterThan(0);
    await sql`delete from informe_pendientes`.execute(db);

    const paso = STEPS.find(([n]) => n === '0038_series_tpv')!;
    await paso[1].up(db, t.app.manager.dialect);

    const caja = await db.selectFrom('tpv_terminales').select(['serie_id', 'serie_rectificativa_id']).where('id', '=', caja3).executeTakeFirstOrThrow();
    expect(caja.serie_id).toBe(t3.id);
    // «TR» is the seed's (Caja 1's): the new one is TR<id>.
    const nueva = await db.selectFrom('series').select(['codigo', 'descripcion', 'tipo', 'activo']).where('id', '=', caja.serie_rectificativa_id).executeTakeFirstOrThrow();
    expect(nueva).toEqual({ codigo: `TR${caja3}`, descripcion: 'Devoluciones del TPV «Caja 3»', tipo: 'rectificativa', activo: 1 });
    // Caja 1 kept its own series; R's documents are as they were.
    expect(await db.selectFrom('tpv_terminales').select(['serie_id', 'serie_rectificativa_id']).where('id', '=', terminal.id as number).executeTakeFirstOrThrow()).toEqual({ serie_id: serie.T, serie_rectificativa_id: serie.TR });
    expect(await db.selectFrom('documentos').select(['id', 'numero', 'estado']).where('serie_id', '=', serie.R).orderBy('id').execute()).toEqual(enR);
    // The two Facturado tickets and the F3s naming a ticket (the annulled one too: harmless) wait for the aggregates' refresh.
    const pendientes = (await sql<{ documento_id: number; tipo: string }>`select documento_id, tipo from informe_pendientes order by documento_id`.execute(db)).rows;
    expect(pendientes.map((p) => p.tipo).sort()).toEqual(['factura', 'factura', 'factura', 'ticket', 'ticket']);
    expect(pendientes.map((p) => Number(p.documento_id))).toEqual(expect.arrayContaining([t1.id, t2.id]));
    // Editing the terminal now passes: its series are its own.
    await save(t, t.cookie, 'editarterminal', { id: caja3, nombre: 'Caja 3', almacen_id: principal, serie_id: t3.id, serie_rectificativa_id: caja.serie_rectificativa_id, formas_pago: ['efectivo'] });
  });
});
