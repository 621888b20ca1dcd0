import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES_TPV, calcularTotales, totalesTicket } from 'shared/domain';
import type { TerminalTpv, TicketSubido } from 'shared/domain';
import { fechaHoraHuso, registroDevolucion, registroTicket, registroTpvDe, registroTpvDeDevolucion } from 'shared/fiscal';
import { todayIn } from '../src/context.ts';
import { backends, createTestApp, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar } from './documentos-fixtures.ts';
import { XSD_FACTURAE, validarXml } from './xsd.ts';
import { APERTURA, CIERRE, contenidoFacturae } from '../src/fiscal/facturae.ts';
import type { DatosFacturae } from '../src/fiscal/facturae.ts';

/**
 * Issue 22, «VERI*FACTU that cannot be misread»: every chain names the producer (the company's and each till's), the
 * declaración responsable carries what Orden HAC/1177/2024 art. 15 asks, Incidencia = S on every record that leaves late
 * because of an incident, and a till's NumeroInstalacion unique to the installation that made it.
 */

const HOY = todayIn('Europe/Madrid');
const ANIO = HOY.slice(0, 4);
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

const PRODUCTOR = {
  MANAGER_PRODUCTOR_NOMBRE: 'Distribuciones Informáticas Levante SL',
  MANAGER_PRODUCTOR_NIF: 'B12345674',
  MANAGER_PRODUCTOR_DIRECCION: 'Calle Colón 12, 46004 Valencia',
  MANAGER_PRODUCTOR_LUGAR: 'Valencia',
  MANAGER_PRODUCTOR_FECHA: '2026-10-15',
};
const sinProductor = () => {
  for (const k of Object.keys(PRODUCTOR)) delete process.env[k];
};

/** A terminal of Caja 1 paired, its caja open; an article at 21 %. */
async function tpv(t: SuiteApp) {
  const principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
  const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
  const terminal = await save(t, t.cookie, 'editarterminal', {
    nombre: 'Caja 1', almacen_id: principal, serie_id: series.find((s) => s.codigo === 'T')!.id, serie_rectificativa_id: series.find((s) => s.codigo === 'R')!.id,
    formas_pago: ['efectivo'], fondo: 0,
  });
  const { codigo } = (await save(t, t.cookie, 'codigoterminal', { id: terminal.id })) as unknown as { codigo: string };
  const par = await t.op('emparejarterminal', { body: { codigo } });
  const cookie = `mtpv_terminal=${par.cookies.find((x) => x.name === 'mtpv_terminal')!.value}`;
  await save(t, t.cookie, 'abrircajatpv', { terminal_id: terminal.id });
  const art = await save(t, t.cookie, 'editararticulo', nuevoArticulo(`REG-${++seq}`, { precio_venta: 10_000, nombre_tpv: 'Pan' }));
  const info = async () => (await t.op('terminaltpv', { cookie })).json().data[0] as TerminalTpv;
  const ticket = (fecha_hora = new Date().toISOString()) => ({
    uuid: uuid(), fecha_hora, lineas: [{ articulo_id: art.id, cantidad: 2_000, precio: 12_100 }], pagos: [{ forma: 'efectivo', importe: 2_420 }],
  });
  const subir = async (tickets: unknown[]) => {
    const r = (await t.op('subirtickets', { cookie: t.cookie, body: { terminal_id: terminal.id, tickets } })).json();
    if (r.RESULT !== '0') throw new Error(JSON.stringify(r));
    return r.data as TicketSubido[];
  };
  /** A ticket the till made offline at `instante`, its record made by the shared code with what the till was told. */
  const offline = async (instante: Date) => {
    const i = await info();
    const tk = ticket(instante.toISOString());
    const totales = totalesTicket(tk.lineas.map((l) => ({ ...l, tipo_iva: '21' as const })));
    const ts = fechaHoraHuso(instante, i.zona_horaria);
    const anterior = i.cadena ? { id_emisor: i.emisor.nif, ...i.cadena } : null;
    const gen = registroTicket({
      emisor: i.emisor, instalacion: i.numero_instalacion, sistema: i.sistema, serieCodigo: i.serie.codigo, ejercicio: Number(ANIO), numero: i.ultimo.numero + 1,
      fecha: ts.slice(0, 10), totales, anterior, ts,
    });
    return { ...tk, registro: registroTpvDe(gen) };
  };
  return { terminal, info, ticket, subir, offline };
}

const incidenciaDe = async (t: SuiteApp, documentoId: number) =>
  Number((await t.app.manager.db.selectFrom('registros_facturacion').select('incidencia').where('documento_id', '=', documentoId).executeTakeFirstOrThrow()).incidencia);

describe.each(backends())('the producer in every chain; the declaración responsable ($name)', (backend) => {
  const t = useTestApp(backend);
  afterEach(sinProductor);

  it('the till is told the producer and its records, online and offline, name it as the back office\'s do', async () => {
    Object.assign(process.env, PRODUCTOR);
    const caja = await tpv(t);
    const i = await caja.info();
    expect(i.sistema).toMatchObject({ nombre: 'Manager TPV', id: 'MT', productor: { nombre: PRODUCTOR.MANAGER_PRODUCTOR_NOMBRE, nif: 'B12345674' } });
    const [online] = await caja.subir([caja.ticket()]);
    const [fuera] = await caja.subir([await caja.offline(new Date())]);
    expect(fuera.offline).toBe(1);
    const sistema = '<sf:SistemaInformatico><sf:NombreRazon>Distribuciones Informáticas Levante SL</sf:NombreRazon><sf:NIF>B12345674</sf:NIF>';
    for (const x of [online.xml, fuera.xml]) {
      expect(x).toContain(sistema);
      // The issuer is still the company.
      expect(x).toMatch(/<sf:ObligadoEmision><sf:NombreRazon>[^<]+<\/sf:NombreRazon><sf:NIF>B86420973<\/sf:NIF><\/sf:ObligadoEmision>/);
    }
    validarXml([online.xml, fuera.xml]);
  });

  it('the declaración responsable carries art. 15: producer\'s name, NIF and address, system, id, version, components (mf-tpv too), date and place', async () => {
    Object.assign(process.env, PRODUCTOR);
    const info = (await list(t, t.cookie, 'listadoverifactu')).rows[0] as Row & { sistema: Row; declaracion: string };
    expect(info.sistema).toMatchObject({ nombre_razon: PRODUCTOR.MANAGER_PRODUCTOR_NOMBRE, nif: 'B12345674', direccion: 'Calle Colón 12, 46004 Valencia', lugar_firma: 'Valencia', fecha_firma: '2026-10-15' });
    const d = info.declaracion;
    for (const parte of [
      'Productor: Distribuciones Informáticas Levante SL, NIF B12345674. Dirección postal de contacto: Calle Colón 12, 46004 Valencia.',
      'Sistema informático: «Manager TPV», identificador MT, versión',
      'mf-tpv (terminal punto de venta), versión',
      'Manager TPV (servidor y oficina), versión',
      'Suscrita en Valencia, a 15 de octubre de 2026.',
      'Orden HAC/1177/2024',
    ]) {
      expect(d).toContain(parte);
    }
    sinProductor();
    // Without a distributor, the company declares for itself: its own address and town, the day this version's
    // declaration was first made here (kept on later reads).
    await save(t, t.cookie, 'editarconfiguracion', { direccion: 'Calle Mayor 1', codigo_postal: '28013', poblacion: 'Madrid', provincia: 'Madrid' }).catch(() => null);
    const conf = await t.app.manager.db.selectFrom('configuracion').select(['razon_social', 'direccion', 'poblacion']).executeTakeFirstOrThrow();
    const propia = (await list(t, t.cookie, 'listadoverifactu')).rows[0] as Row & { sistema: Row; declaracion: string };
    expect(propia.sistema).toMatchObject({ nif: 'B86420973', productor_configurado: 0, fecha_firma: HOY, lugar_firma: conf.poblacion ?? '' });
    expect(propia.declaracion).toContain(`Productor: ${conf.razon_social}, NIF B86420973.`);
    if (conf.direccion) expect(propia.declaracion).toContain(`Dirección postal de contacto: ${conf.direccion}`);
    expect((await t.app.manager.db.selectFrom('verifactu').select('declaracion_fecha').executeTakeFirstOrThrow()).declaracion_fecha).toBe(HOY);
  });
});

describe.each(backends())('Incidencia = S on every record that leaves late ($name)', (backend) => {
  const t = useTestApp(backend);
  let caja: Awaited<ReturnType<typeof tpv>>;
  const segundo = (ms: number) => new Date(Math.floor((Date.now() - ms) / 1000) * 1000);

  it('a till\'s offline ticket or return uploaded later than the sending cadence after it was made: Incidencia S; one uploaded within it: not', async () => {
    const db = t.app.manager.db;
    await db.updateTable('verifactu').set({ activo: 1, demo: 0, fallos: 0, tiempo_espera: 60 }).where('id', '=', 1).execute();
    caja = await tpv(t);
    // Made 3 minutes ago (more than the 60 s cadence), uploaded now.
    const [tarde] = await caja.subir([await caja.offline(segundo(3 * 60_000))]);
    expect(tarde.offline).toBe(1);
    expect(await incidenciaDe(t, tarde.id)).toBe(1);
    // Its return, made offline 2 minutes and a half ago: late too.
    const i = await caja.info();
    const vendido = i.cadena!;
    const instante = segundo(150_000);
    const ts = fechaHoraHuso(instante, i.zona_horaria);
    const linea = { cantidad: 2_000, precio: 12_100, tipo_iva: '21' as const };
    const delTicket = totalesTicket([linea]);
    const gen = registroDevolucion({
      emisor: i.emisor, instalacion: i.numero_instalacion, sistema: i.sistema, serieCodigo: i.serie_rectificativa.codigo, ejercicio: Number(ANIO),
      numero: i.ultimo_rectificativa!.numero + 1, fecha: ts.slice(0, 10), totales: totalesTicket([{ ...linea, cantidad: -1_000 }]),
      anterior: { id_emisor: i.emisor.nif, ...vendido }, ts,
      rectificado: { numSerie: vendido.num_serie, fecha: vendido.fecha_hora_huso.slice(0, 10), base: delTicket.base, cuota: delTicket.iva },
    });
    const devolucion = await save(t, t.cookie, 'devolverticket', {
      ticket_uuid: tarde.uuid, uuid: uuid(), fecha_hora: instante.toISOString(), lineas: [{ orden: 1, cantidad: 1_000 }], registro: registroTpvDeDevolucion(gen),
    });
    expect(devolucion).toMatchObject({ tipo_factura: 'R5', offline: 1 });
    expect(await incidenciaDe(t, devolucion.id)).toBe(1);
    // With a cadence of 10 minutes, 2 minutes is not late.
    await db.updateTable('verifactu').set({ tiempo_espera: 600 }).where('id', '=', 1).execute();
    const [dentro] = await caja.subir([await caja.offline(segundo(2 * 60_000))]);
    expect(await incidenciaDe(t, dentro.id)).toBe(0);
    await db.updateTable('verifactu').set({ tiempo_espera: 60 }).where('id', '=', 1).execute();
    const [pronto] = await caja.subir([await caja.offline(segundo(0))]);
    expect(pronto.offline).toBe(1);
    expect(await incidenciaDe(t, pronto.id)).toBe(0);
  });

  it('a live company with sending off: its records leave late (Incidencia S); the demo\'s never; with sending on, on time; failing, late', async () => {
    const db = t.app.manager.db;
    await db.updateTable('verifactu').set({ activo: 0, demo: 0, fallos: 0 }).where('id', '=', 1).execute();
    const [apagado] = await caja.subir([caja.ticket()]);
    expect(await incidenciaDe(t, apagado.id)).toBe(1);
    await db.updateTable('verifactu').set({ demo: 1 }).where('id', '=', 1).execute();
    const [demo] = await caja.subir([caja.ticket()]);
    expect(await incidenciaDe(t, demo.id)).toBe(0);
    await db.updateTable('verifactu').set({ demo: 0, activo: 1 }).where('id', '=', 1).execute();
    const [encendido] = await caja.subir([caja.ticket()]);
    expect(await incidenciaDe(t, encendido.id)).toBe(0);
    // Sending on but failing (a counted failure): late.
    await db.updateTable('verifactu').set({ fallos: 2 }).where('id', '=', 1).execute();
    const [fallando] = await caja.subir([caja.ticket()]);
    expect(await incidenciaDe(t, fallando.id)).toBe(1);
    await db.updateTable('verifactu').set({ fallos: 0, activo: 0 }).where('id', '=', 1).execute();
  });
});

describe.each(backends())('a till\'s NumeroInstalacion is unique to its installation ($name)', (backend) => {
  it('two installations of the same company never name their first till alike; a number that named a chain is refused', async () => {
    const [a, b] = [await createTestApp(backend), await createTestApp(backend)];
    try {
      const numeros: string[] = [];
      for (const x of [a, b]) {
        const cookie = await x.login();
        const s = { ...x, cookie } as SuiteApp;
        const caja = await tpv(s);
        const inst = (await x.app.manager.db.selectFrom('verifactu').select('numero_instalacion').executeTakeFirstOrThrow()).numero_instalacion!;
        expect(caja.terminal.numero_instalacion).toBe(`${inst}-TPV${String(caja.terminal.id).padStart(3, '0')}`);
        const [tk] = await caja.subir([caja.ticket()]);
        expect(tk.xml).toContain(`<sf:NumeroInstalacion>${caja.terminal.numero_instalacion}</sf:NumeroInstalacion>`);
        numeros.push(String(caja.terminal.numero_instalacion));
      }
      expect(numeros[0]).not.toBe(numeros[1]);
      expect(numeros.every((n) => !n.startsWith('B86420973'))).toBe(true);

      // In installation a: a second terminal may not take a number whose chain exists (Caja 1's), nor the company's.
      const s = { ...a, cookie: await a.login() } as SuiteApp;
      const principal = (await list(s, s.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
      const t2 = (await save(s, s.cookie, 'editarserie', { codigo: 'T9', descripcion: 'Tickets 9', tipo: 'simplificada', activo: 1 })).id;
      const r2 = (await save(s, s.cookie, 'editarserie', { codigo: 'R9', descripcion: 'Rect. 9', tipo: 'rectificativa', activo: 1 })).id;
      const base = { nombre: 'Caja 9', almacen_id: principal, serie_id: t2, serie_rectificativa_id: r2, formas_pago: ['efectivo'] };
      const caja9 = await save(s, s.cookie, 'editarterminal', base);
      // Caja 1's number moved away is not free: its chain still names it.
      const db = a.app.manager.db;
      const caja1 = await db.selectFrom('tpv_terminales').select(['id', 'numero_instalacion']).where('nombre', '=', 'Caja 1').executeTakeFirstOrThrow();
      await db.updateTable('tpv_terminales').set({ numero_instalacion: 'movido-a-otro' }).where('id', '=', caja1.id).execute();
      const usada = await enviar(s, 'editarterminal', { ...base, id: caja9.id, numero_instalacion: caja1.numero_instalacion });
      expect(usada.body.errors).toMatchObject({ numero_instalacion: MESSAGES_TPV.instalacionUsada });
      const inst = (await db.selectFrom('verifactu').select('numero_instalacion').executeTakeFirstOrThrow()).numero_instalacion!;
      const propia = await enviar(s, 'editarterminal', { ...base, id: caja9.id, numero_instalacion: inst });
      expect(propia.body.errors).toMatchObject({ numero_instalacion: MESSAGES_TPV.instalacionUsada });
      // A new number of its own is fine; so is saving it again unchanged.
      expect((await save(s, s.cookie, 'editarterminal', { ...base, id: caja9.id, numero_instalacion: `${inst}-CAJA9` })).numero_instalacion).toBe(`${inst}-CAJA9`);
      expect((await save(s, s.cookie, 'editarterminal', { ...base, id: caja9.id, numero_instalacion: `${inst}-CAJA9` })).numero_instalacion).toBe(`${inst}-CAJA9`);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('a Facturae\'s totals are the sum of its lines, to the cent (FACe)', () => {
  it('Σ GrossAmount = TotalGrossAmount and Σ line taxes = TotalTaxOutputs, lines to 2 decimals; valid against Facturaev3_2_2.xsd', () => {
    // Three lines of 1,025 € at 21 %: each line's tax rounds up (0,21525 → 0,22: 0,66), the invoice's is 3,08 × 21 % =
    // 0,65; its base 3,075 → 3,08 against 3,07500000 summed at eight decimals. A discounted line at 10 % and one with
    // recargo-free exempt E1 complete it.
    const lineas = [
      { codigo: 'A', descripcion: 'Tornillo', cantidad: 1_000, precio: 10_250, descuento: 0, tipo_iva: '21' as const },
      { codigo: 'B', descripcion: 'Tuerca', cantidad: 1_000, precio: 10_250, descuento: 0, tipo_iva: '21' as const },
      { codigo: 'C', descripcion: 'Arandela', cantidad: 1_000, precio: 10_250, descuento: 0, tipo_iva: '21' as const },
      { codigo: 'D', descripcion: 'Taladro', cantidad: 1_500, precio: 33_333, descuento: 1000, tipo_iva: '10' as const },
      { codigo: 'E', descripcion: 'Clase', cantidad: 3_000, precio: 11_111, descuento: 0, tipo_iva: '21' as const, operacion: 'E1' as const },
    ];
    const tot = calcularTotales(lineas);
    const parte = { nombre: 'Comercial Demo, S.L.', nif: 'B86420973', direccion: 'Calle Mayor 1', codigo_postal: '28013', poblacion: 'Madrid', provincia: 'Madrid' };
    const datos: DatosFacturae = {
      numero: `${ANIO}/000001`, serie: 'A', fecha: HOY, fechaOperacion: null, simplificada: false, emisor: parte,
      receptor: { ...parte, nombre: 'Reformas Hernández, S.L.', nif: 'B85612349' }, lineas, desglose: tot.desglose, conRecargo: false, base: tot.base, iva: tot.iva,
      recargo: tot.recargo, retencion: 0, retencionImporte: 0, total: tot.total, observaciones: null, formaPago: null, rectifica: null,
    };
    const xml = APERTURA + contenidoFacturae(datos) + CIERRE;
    const todos = (tag: string, dentro = xml) => [...dentro.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);
    const centimos = (v: string) => {
      expect(v).toMatch(/^-?\d+\.\d{2}$/);
      return Math.round(Number(v) * 100);
    };
    const items = xml.slice(xml.indexOf('<Items>'), xml.indexOf('</Items>'));
    const brutos = todos('GrossAmount', items).map(centimos);
    const cuotas = [...items.matchAll(/<TaxAmount><TotalAmount>([^<]*)<\/TotalAmount><\/TaxAmount>/g)].map((m) => centimos(m[1]));
    expect(brutos.reduce((a, b) => a + b, 0)).toBe(centimos(todos('TotalGrossAmount')[0]));
    expect(cuotas.reduce((a, b) => a + b, 0)).toBe(centimos(todos('TotalTaxOutputs')[0]));
    expect(centimos(todos('TotalGrossAmount')[0])).toBe(tot.base);
    expect(centimos(todos('TotalTaxOutputs')[0])).toBe(tot.iva);
    expect(centimos(todos('InvoiceTotal')[0])).toBe(tot.total);
    // Each line within a cent of its own amount: 1,025 → 1,02 or 1,03.
    expect(brutos.slice(0, 3).sort()).toEqual([102, 103, 103]);
    expect(cuotas.slice(0, 3).reduce((a, b) => a + b, 0)).toBe(65);
    // The discount takes the line's cost to its gross amount exactly: 1,5 × 3,3333 = 4,99995; − 10 % = 4,499955 → 4,50.
    expect(todos('TotalCost', items)[3]).toBe('4.99995000');
    expect(todos('DiscountAmount', items)[0]).toBe('0.49995000');
    expect(brutos[3]).toBe(450);
    validarXml(xml, XSD_FACTURAE);
  });
});

describe.each(backends())('what a document prints and what its record says agree ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let serieT: number;
  let serieA: number;
  let art: Row;
  const registroDe = async (documentoId: number) =>
    (await t.app.manager.db.selectFrom('registros_facturacion').select(['xml', 'tipo_factura']).where('documento_id', '=', documentoId).executeTakeFirstOrThrow());
  const emisionDe = async (id: number) =>
    JSON.parse((await t.app.manager.db.selectFrom('documentos').select('emision').where('id', '=', id).executeTakeFirstOrThrow()).emision ?? 'null') as {
      destinatario: { nombre: string; nif: string | null; lineas?: string[] } | null;
    };

  it('setup', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieT = series.find((s) => s.codigo === 'T')!.id;
    serieA = series.find((s) => s.codigo === 'A')!.id;
    art = await save(t, t.cookie, 'editararticulo', nuevoArticulo('IMP-1', { precio_venta: 10_000 }));
  });

  it('a simplified invoice (F2) records no recipient, so it prints no customer\'s NIF; with NIF and address it is an F1 «cualificada» that records and prints it', async () => {
    const sinDireccion = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.' });
    const b = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: sinDireccion.id, almacen_id: principal, serie_id: serieT, lineas: [{ articulo_id: art.id, cantidad: 1_000 }] });
    const f2 = await save(t, t.cookie, 'emitirfactura', { id: b.id });
    expect(f2).toMatchObject({ tipo_factura: 'F2' });
    const r = await registroDe(f2.id);
    expect(r.tipo_factura).toBe('F2');
    expect(r.xml).not.toContain('Destinatarios');
    const e = await emisionDe(f2.id);
    expect(e.destinatario).toMatchObject({ nombre: 'Reformas Hernández, S.L.', nif: null });
    expect(JSON.stringify(e.destinatario)).not.toContain('B85612349');

    const conDireccion = await save(t, t.cookie, 'editarcliente', {
      nif: 'B46728192', razon_social: 'Construcciones Levante, S.L.', direccion: 'Calle Colón 3', codigo_postal: '46004', poblacion: 'Valencia',
    });
    const b2 = await save(t, t.cookie, 'editarfactura', { fecha: HOY, cliente_id: conDireccion.id, almacen_id: principal, serie_id: serieT, lineas: [{ articulo_id: art.id, cantidad: 1_000 }] });
    const cualificada = await save(t, t.cookie, 'emitirfactura', { id: b2.id });
    const r2 = await registroDe(cualificada.id);
    expect(r2.xml).toContain('<sf:FacturaSimplificadaArt7273>S</sf:FacturaSimplificadaArt7273>');
    expect(r2.xml).toContain('<sf:NIF>B46728192</sf:NIF></sf:IDDestinatario>');
    expect((await emisionDe(cualificada.id)).destinatario).toMatchObject({ nif: 'B46728192' });
    validarXml([r.xml, r2.xml]);
  });

  it('a line description longer than 200 characters is refused with its reason, never cut; observaciones over the record\'s 500, at emission', async () => {
    const cliente = (await list(t, t.cookie, 'listadoclientes', { q: 'Levante' })).rows[0];
    const larga = 'Tornillería inoxidable A4 '.repeat(8) + 'x'.repeat(3);
    expect([...larga].length).toBe(211);
    const r = await enviar(t, 'editarfactura', {
      fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: art.id, cantidad: 1_000, descripcion: larga }],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ 'lineas.0.descripcion': 'La descripción tiene 211 caracteres y admite 200: acórtela (no se recorta al guardar)' });
    // 200 is kept whole.
    const justa = larga.slice(0, 200);
    const b = await save(t, t.cookie, 'editarfactura', {
      fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, observaciones: 'o'.repeat(501), lineas: [{ articulo_id: art.id, cantidad: 1_000, descripcion: justa }],
    });
    expect((b as Row & { lineas: { descripcion: string }[] }).lineas[0].descripcion).toBe(justa);
    const antes = await t.app.manager.db.selectFrom('registros_facturacion').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const e = await enviar(t, 'emitirfactura', { id: b.id });
    expect(e.body).toMatchObject({
      RESULT: '1',
      message: 'Las observaciones de la factura son la descripción de la operación en su registro de facturación (VERI*FACTU), que admite 500 caracteres, y tienen 501: acórtelas antes de emitir',
    });
    const despues = await t.app.manager.db.selectFrom('registros_facturacion').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(despues.n)).toBe(Number(antes.n));
    expect((await list(t, t.cookie, 'listadofacturas', { id: b.id })).rows[0]).toMatchObject({ estado: 'borrador' });
    // 500 go whole into DescripcionOperacion.
    await save(t, t.cookie, 'editarfactura', {
      id: b.id, fecha: HOY, cliente_id: cliente.id, almacen_id: principal, serie_id: serieA, observaciones: 'o'.repeat(500), lineas: [{ articulo_id: art.id, cantidad: 1_000, descripcion: justa }],
    });
    const f = await save(t, t.cookie, 'emitirfactura', { id: b.id });
    expect((await registroDe(f.id)).xml).toContain(`<sf:DescripcionOperacion>${'o'.repeat(500)}</sf:DescripcionOperacion>`);
  });
});
