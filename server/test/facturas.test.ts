import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEYENDA_QR, MESSAGES, entradaHuella } from 'shared/domain';
import { todayIn } from '../src/context.ts';
import { fechaHoraHuso, huellaDe } from '../src/fiscal/registro.ts';
import { backends, multipart, useTestApp } from './helpers.ts';
import type { SuiteApp } from './helpers.ts';
import { articulo, list, nuevoArticulo, save } from './catalogo-fixtures.ts';
import type { Row } from './catalogo-fixtures.ts';
import { enviar, guardar, leerDocumento } from './documentos-fixtures.ts';
import { validarXml } from './xsd.ts';

const HOY = todayIn('Europe/Madrid');
const diaMas = (fecha: string, n: number) => {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const AYER = diaMas(HOY, -1);
const MANANA = diaMas(HOY, 1);
const ANIO = HOY.slice(0, 4);

/** The AEAT's schema, as the repository keeps it (src/fiscal/xsd/, as the AEAT publishes it). */

/** Validates XML documents against SuministroLR.xsd with xmllint (Debian's libxml2-utils; .ci/run installs it). */

type Linea = Row & { articulo_id: number; cantidad: number; precio: number; pendiente: number; origen_linea_id: number | null };
type Doc = Row & {
  estado: string;
  numero: string;
  serie_codigo: string | null;
  tipo_factura: string | null;
  total: number;
  lineas: Linea[];
  hijos: { tipo: string; id: number; numero: string }[];
  padres: { tipo: string; id: number; numero: string }[];
  registro: { id: number; tipo: string; huella: string; fecha_hora_huso: string; num_serie: string; importe_total: string | null; id_emisor: string } | null;
};
type Registro = Row & {
  orden: number;
  tipo: string;
  documento_id: number;
  num_serie: string;
  tipo_factura: string | null;
  importe_total: string | null;
  huella: string;
  huella_anterior: string;
  xml: string;
};

const post = enviar<Doc>;
const ok = guardar<Doc>;
const leer = leerDocumento<Doc>;
const stock = async (t: SuiteApp, articuloId: number, almacenId: number) =>
  Number(((await articulo(t, t.cookie, articuloId)).stock as { almacen_id: number; stock: number }[]).find((s) => s.almacen_id === almacenId)?.stock ?? 0);
const registros = async (t: SuiteApp, query: Record<string, string | number> = {}) =>
  (await list(t, t.cookie, 'listadoregistrosfacturacion', { porPagina: 100, ...query })).rows as Registro[];
const comprobar = async (t: SuiteApp) => (await list(t, t.cookie, 'comprobarregistrosfacturacion')).body as { message: string; data: { emisor: string; total: number; correcto: boolean; rotura: Row | null }[] };
/** What a refused action must leave as it was. */
async function foto(t: SuiteApp) {
  const db = t.app.manager.db;
  const n = async (table: 'documentos' | 'registros_facturacion' | 'stock_movimientos' | 'documento_lineas') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const contadores = await db.selectFrom('contadores').select(['tipo', 'serie_id', 'ejercicio', 'ultimo', 'ultima_fecha']).orderBy('tipo').orderBy('serie_id').execute();
  const estados = await db.selectFrom('documentos').select(['id', 'estado', 'numero', 'total']).orderBy('id').execute();
  return { docs: await n('documentos'), registros: await n('registros_facturacion'), ledger: await n('stock_movimientos'), lineas: await n('documento_lineas'), contadores, estados };
}

describe('VERI*FACTU hash and timestamp (the AEAT worked examples)', () => {
  it('reproduces the three huellas of the specification', () => {
    const alta1 = {
      IDEmisorFactura: '89890001K',
      NumSerieFactura: '12345678/G33',
      FechaExpedicionFactura: '01-01-2024',
      TipoFactura: 'F1' as const,
      CuotaTotal: '12.35',
      ImporteTotal: '123.45',
      Huella: '',
      FechaHoraHusoGenRegistro: '2024-01-01T19:20:30+01:00',
    };
    expect(entradaHuella(alta1)).toBe(
      'IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00',
    );
    expect(huellaDe(alta1)).toBe('3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
    const alta2 = { ...alta1, NumSerieFactura: '12345679/G34', Huella: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60', FechaHoraHusoGenRegistro: '2024-01-01T19:20:35+01:00' };
    expect(huellaDe(alta2)).toBe('F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97');
    const anulacion = {
      IDEmisorFacturaAnulada: '89890001K',
      NumSerieFacturaAnulada: '12345679/G34',
      FechaExpedicionFacturaAnulada: '01-01-2024',
      Huella: 'F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97',
      FechaHoraHusoGenRegistro: '2024-01-01T19:20:40+01:00',
    };
    expect(huellaDe(anulacion)).toBe('177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68');
  });

  it('stamps records in Europe/Madrid with a numeric offset, winter and summer', () => {
    expect(fechaHoraHuso(new Date('2024-01-01T18:20:30Z'), 'Europe/Madrid')).toBe('2024-01-01T19:20:30+01:00');
    expect(fechaHoraHuso(new Date('2026-07-01T10:00:00.600Z'), 'Europe/Madrid')).toBe('2026-07-01T12:00:00+02:00');
    expect(fechaHoraHuso(new Date('2026-07-01T10:00:00Z'), 'UTC')).toBe('2026-07-01T10:00:00+00:00');
  });
});

describe.each(backends())('facturas ($name)', (backend) => {
  const t = useTestApp(backend);
  let principal: number;
  let serieA: number;
  let serieR: number;
  let serieT: number;
  let c1: Row;
  let c2: Row;
  let a: Row;
  let b: Row;
  let e: Row;

  it('setup: customers (one under recargo), articles at 21 %, 10 % and exempt, the demo series', async () => {
    principal = (await list(t, t.cookie, 'listadoalmacenes', { porPagina: 100 })).rows.find((r) => r.codigo === 'PRINCIPAL')!.id;
    const series = (await list(t, t.cookie, 'listadoseries', { porPagina: 100 })).rows;
    serieA = series.find((s) => s.codigo === 'A')!.id;
    serieR = series.find((s) => s.codigo === 'R')!.id;
    serieT = series.find((s) => s.codigo === 'T')!.id;
    c1 = await save(t, t.cookie, 'editarcliente', { nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', codigo_postal: '28020', forma_pago: 'transferencia_30', email: 'admin@reformas.es' });
    c2 = await save(t, t.cookie, 'editarcliente', { nif: '12345678Z', razon_social: 'Ferretería López', codigo_postal: '41001', recargo: 1, forma_pago: 'contado' });
    a = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FAC-A', { precio_venta: 100_000 }));
    b = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FAC-B', { precio_venta: 50_000, tipo_iva: '10' }));
    e = await save(t, t.cookie, 'editararticulo', nuevoArticulo('FAC-E', { precio_venta: 20_000, tipo_iva: 'exento' }));
  });

  let f1: Doc;
  it('a draft has no number, carries its serie; serie required and of the right kind; negative lines allowed, zero refused', async () => {
    const sinSerie = await post(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000 }] });
    expect(sinSerie.status).toBe(400);
    expect(sinSerie.body.errors).toEqual({ serie_id: MESSAGES.serieRequerida });
    const otraSerie = await post(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieR, lineas: [] });
    expect(otraSerie.body.errors).toEqual({ serie_id: MESSAGES.serieNoValida });
    const cero = await post(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: a.id, cantidad: 0 }] });
    expect(cero.body.errors).toEqual({ 'lineas.0.cantidad': MESSAGES.cantidadDistintaDeCero });

    f1 = await ok(t, 'editarfactura', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA,
      lineas: [
        { articulo_id: a.id, cantidad: 3_000, precio: 100_000 },
        { articulo_id: b.id, cantidad: 2_000, precio: 50_000, descuento: 1000 },
        { articulo_id: e.id, cantidad: 1_000, precio: 20_000 },
        { articulo_id: a.id, cantidad: -1_000, precio: 100_000 },
      ],
    });
    expect(f1).toMatchObject({ estado: 'borrador', numero: 'Borrador', serie_codigo: 'A', serie_id: serieA, tipo_factura: null, registro: null });
    // Prices in ten-thousandths: 20 € at 21 %, 9 € at 10 % (2 × 5 € − 10 %), 2 € exempt.
    expect(f1).toMatchObject({ base: 3_100, iva: 420 + 90, total: 3_100 + 510 });
    // Editing a draft keeps it a draft.
    f1 = await ok(t, 'editarfactura', {
      id: f1.id, fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA,
      lineas: [
        { articulo_id: a.id, cantidad: 2_000, precio: 100_000 },
        { articulo_id: b.id, cantidad: 2_000, precio: 50_000, descuento: 1000 },
        { articulo_id: e.id, cantidad: 1_000, precio: 20_000 },
      ],
    });
    expect(f1).toMatchObject({ numero: 'Borrador', base: 3_100 });
    expect((await list(t, t.cookie, 'listadofacturas', { serie_id: serieA, estado: 'borrador' })).rows.map((r) => r.id)).toEqual([f1.id]);
    expect((await list(t, t.cookie, 'listadofacturas', { serie_id: serieT })).rows).toEqual([]);
  });

  it('emitir: the next number, its registro de alta (valid XML, chained), direct-sale stock out; from then on immutable', async () => {
    const antes = await stock(t, a.id, principal);
    f1 = await ok(t, 'emitirfactura', { id: f1.id });
    expect(f1).toMatchObject({ estado: 'emitida', numero: `A ${ANIO}/000001`, tipo_factura: 'F1' });
    expect(f1.registro).toMatchObject({ tipo: 'alta', num_serie: `A ${ANIO}/000001`, id_emisor: 'B86420973', importe_total: '36.10' });
    expect(f1.registro!.fecha_hora_huso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(await stock(t, a.id, principal)).toBe(antes - 2_000);
    const [r] = await registros(t, { documento_id: f1.id });
    expect(r).toMatchObject({ orden: 1, tipo: 'alta', tipo_factura: 'F1', cuota_total: '5.10', importe_total: '36.10', huella_anterior: '', documento_tipo: 'factura' });
    expect(r.xml).toContain('<sf:PrimerRegistro>S</sf:PrimerRegistro>');
    expect(r.xml).toContain('<sf:IDDestinatario><sf:NombreRazon>Reformas Hernández, S.L.</sf:NombreRazon><sf:NIF>B85612349</sf:NIF>');
    expect(r.xml).toContain('<sf:OperacionExenta>E1</sf:OperacionExenta>');
    validarXml([r.xml]);

    // Immutable: RESULT 2, and nothing changes.
    const f = await foto(t);
    const editar = await post(t, 'editarfactura', { id: f1.id, fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA, lineas: [] });
    expect(editar.body).toMatchObject({ RESULT: '2', message: MESSAGES.facturaEmitidaInmutable });
    const eliminar = await post(t, 'eliminarfactura', { id: f1.id });
    expect(eliminar.body).toMatchObject({ RESULT: '2', message: MESSAGES.facturaEmitidaInmutable });
    expect(await foto(t)).toEqual(f);
    expect((await leer(t, 'facturas', f1.id)).lineas).toHaveLength(3);
  });

  it('refusals change nothing: a date before the serie’s last, a future date, no lines; numbering then goes on without a gap', async () => {
    const borrador = await ok(t, 'editarfactura', { fecha: AYER, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 10_000 }] });
    if (AYER.slice(0, 4) === ANIO) {
      const f = await foto(t);
      const antes = await post(t, 'emitirfactura', { id: borrador.id });
      expect(antes).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.fechaAnteriorSerie } });
      expect(await foto(t)).toEqual(f);
    }
    await ok(t, 'editarfactura', { id: borrador.id, fecha: MANANA, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 10_000 }] });
    const f = await foto(t);
    expect((await post(t, 'emitirfactura', { id: borrador.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.fechaFacturaFutura });
    const vacia = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [] });
    expect((await post(t, 'emitirfactura', { id: vacia.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.facturaSinLineas });
    await ok(t, 'eliminarfactura', { id: vacia.id });
    expect({ ...(await foto(t)), estados: undefined }).toEqual({ ...f, estados: undefined });

    const segunda = await ok(t, 'editarfactura', { id: borrador.id, fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 10_000 }] });
    const emitida = await ok(t, 'emitirfactura', { id: segunda.id });
    // Recargo de equivalencia: 1 € + 0,21 € IVA + 0,05 € recargo (5,2 %, half-up).
    expect(emitida).toMatchObject({ numero: `A ${ANIO}/000002`, total: 126, recargo: 5 });
    const [r] = await registros(t, { documento_id: emitida.id });
    expect(r).toMatchObject({ orden: 2, cuota_total: '0.26', importe_total: '1.26' });
    expect(r.huella_anterior).toBe(f1.registro!.huella);
    expect(r.xml).toContain('<sf:TipoRecargoEquivalencia>5.20</sf:TipoRecargoEquivalencia><sf:CuotaRecargoEquivalencia>0.05</sf:CuotaRecargoEquivalencia>');
    expect(r.xml).toContain(`<sf:RegistroAnterior><sf:IDEmisorFactura>B86420973</sf:IDEmisorFactura><sf:NumSerieFactura>A ${ANIO}/000001</sf:NumSerieFactura>`);
    validarXml([r.xml]);
    // The list finds it by its displayed number.
    expect((await list(t, t.cookie, 'listadofacturas', { q: `A ${ANIO}/000002` })).rows.map((x) => x.id)).toEqual([emitida.id]);
    expect((await list(t, t.cookie, 'listadofacturas', { q: `T ${ANIO}/000002` })).rows).toEqual([]);
  });

  let f2: Doc;
  it('simplificada (F2): refused over 400 € IVA included, 3.000 € for retail; issued without Destinatarios', async () => {
    const ticket = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieT, lineas: [{ articulo_id: a.id, cantidad: 4_000, precio: 1_000_000 }] });
    expect(ticket.total).toBe(48_400);
    const f = await foto(t);
    expect((await post(t, 'emitirfactura', { id: ticket.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.simplificadaSuperaLimite });
    expect(await foto(t)).toEqual(f);
    await t.app.manager.db.updateTable('configuracion').set({ minorista: 1 }).execute();
    const grande = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieT, lineas: [{ articulo_id: a.id, cantidad: 25_000, precio: 1_000_000 }] });
    expect((await post(t, 'emitirfactura', { id: grande.id })).body).toMatchObject({ RESULT: '1', message: MESSAGES.simplificadaSuperaLimiteMinorista });
    await ok(t, 'eliminarfactura', { id: grande.id });
    f2 = await ok(t, 'emitirfactura', { id: ticket.id });
    await t.app.manager.db.updateTable('configuracion').set({ minorista: 0 }).execute();
    expect(f2).toMatchObject({ numero: `T ${ANIO}/000001`, tipo_factura: 'F2' });
    const [r] = await registros(t, { documento_id: f2.id });
    expect(r.xml).not.toContain('Destinatarios');
    validarXml([r.xml]);
  });

  it('rectificativas: only in a rectificativa serie, R5 only for an F2, of an issued invoice of the same customer', async () => {
    const linea = f1.lineas.find((l) => l.articulo_id === a.id)!;
    const base = { fecha: HOY, cliente_id: c1.id, almacen_id: principal, factura_id: f1.id, tipo: 'R1', modo: 'diferencias' };
    const enA = await post(t, 'editarrectificativa', { ...base, serie_id: serieA, lineas: [{ articulo_id: a.id, cantidad: -1_000, precio: 100_000, origen_linea_id: linea.id }] });
    expect(enA.body.errors).toEqual({ serie_id: MESSAGES.serieRectificativaRequerida });
    const r5 = await post(t, 'editarrectificativa', { ...base, serie_id: serieR, tipo: 'R5', lineas: [] });
    expect(r5.body.errors).toEqual({ tipo: MESSAGES.tipoRectificativaNoValido });
    const otroCliente = await post(t, 'editarrectificativa', { ...base, cliente_id: c2.id, serie_id: serieR, lineas: [] });
    expect(otroCliente.body.errors).toMatchObject({ factura_id: MESSAGES.facturaARectificarNoValida });
    const r1f2 = await post(t, 'editarrectificativa', { ...base, factura_id: f2.id, serie_id: serieR, lineas: [] });
    expect(r1f2.body.errors).toEqual({ tipo: MESSAGES.tipoRectificativaNoValido });
    const ajena = await post(t, 'editarrectificativa', { ...base, serie_id: serieR, lineas: [{ articulo_id: a.id, cantidad: -1_000, precio: 100_000, origen_linea_id: f2.lineas[0].id }] });
    expect(ajena.body.errors).toEqual({ 'lineas.0.origen_linea_id': MESSAGES.lineaOrigenClienteNoValida });
  });

  let r1: Doc;
  it('R1 by differences: one unit less of the invoice line comes back to stock; FacturasRectificadas, TipoRectificativa I; valid XML', async () => {
    const linea = f1.lineas.find((l) => l.articulo_id === a.id)!;
    r1 = await ok(t, 'editarrectificativa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieR, factura_id: f1.id, tipo: 'R1', modo: 'diferencias',
      lineas: [{ articulo_id: a.id, cantidad: -1_000, precio: 100_000, origen_linea_id: linea.id }],
    });
    expect(r1).toMatchObject({ estado: 'borrador', numero: 'Borrador', tipo_factura: 'R1', modo_rectificacion: 'diferencias', factura_numero: `A ${ANIO}/000001`, total: -1_210 });
    const antes = await stock(t, a.id, principal);
    r1 = await ok(t, 'emitirrectificativa', { id: r1.id });
    expect(r1).toMatchObject({ numero: `R ${ANIO}/000001`, tipo_factura: 'R1' });
    expect(await stock(t, a.id, principal)).toBe(antes + 1_000);
    const [r] = await registros(t, { documento_id: r1.id });
    expect(r).toMatchObject({ tipo_factura: 'R1', cuota_total: '-2.10', importe_total: '-12.10' });
    expect(r.xml).toContain('<sf:TipoRectificativa>I</sf:TipoRectificativa>');
    expect(r.xml).toContain(`<sf:FacturasRectificadas><sf:IDFacturaRectificada><sf:IDEmisorFactura>B86420973</sf:IDEmisorFactura><sf:NumSerieFactura>A ${ANIO}/000001</sf:NumSerieFactura>`);
    expect(r.xml).not.toContain('ImporteRectificacion');
    validarXml([r.xml]);
  });

  it('R5 by substitution of the F2: ImporteRectificacion carries the replaced amounts; stock follows the difference', async () => {
    const antes = await stock(t, a.id, principal);
    const r5 = await ok(t, 'editarrectificativa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieR, factura_id: f2.id, tipo: 'R5', modo: 'sustitucion',
      // The corrected ticket whole: 3 units, not 4 (its line's link to the ticket is not kept by substitution).
      lineas: [{ articulo_id: a.id, cantidad: 3_000, precio: 1_000_000, origen_linea_id: f2.lineas[0].id }],
    });
    expect(r5.lineas[0].origen_linea_id).toBeNull();
    const emitida = await ok(t, 'emitirrectificativa', { id: r5.id });
    expect(emitida).toMatchObject({ numero: `R ${ANIO}/000002`, tipo_factura: 'R5' });
    expect(await stock(t, a.id, principal)).toBe(antes + 1_000);
    const [r] = await registros(t, { documento_id: r5.id });
    expect(r.xml).toContain('<sf:TipoRectificativa>S</sf:TipoRectificativa>');
    expect(r.xml).toContain('<sf:ImporteRectificacion><sf:BaseRectificada>400.00</sf:BaseRectificada><sf:CuotaRectificada>84.00</sf:CuotaRectificada></sf:ImporteRectificacion>');
    expect(r.xml).not.toContain('Destinatarios');
    validarXml([r.xml]);
  });

  it('anular: a registro de anulación chained after the last record, direct-sale stock back, the number stays used', async () => {
    const mal = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: b.id, cantidad: 5_000, precio: 50_000 }] });
    const antes = await stock(t, b.id, principal);
    const emitida = await ok(t, 'emitirfactura', { id: mal.id });
    expect(emitida.numero).toBe(`A ${ANIO}/000003`);
    expect(await stock(t, b.id, principal)).toBe(antes - 5_000);
    // An invoice a rectificativa corrects is not cancelled.
    const f = await foto(t);
    expect((await post(t, 'anularfactura', { id: f1.id })).body).toMatchObject({ RESULT: '2', message: MESSAGES.facturaConRectificativas });
    expect(await foto(t)).toEqual(f);

    const ultimo = (await registros(t, { dir: 'desc', porPagina: 10 }))[0];
    const anulada = await ok(t, 'anularfactura', { id: mal.id });
    expect(anulada).toMatchObject({ estado: 'anulada', numero: `A ${ANIO}/000003` });
    // The latest record is the anulación; the QR still prints what the alta recorded (issue 16).
    expect(anulada.registro).toMatchObject({ tipo: 'anulacion', num_serie: `A ${ANIO}/000003`, importe_total: emitida.registro!.importe_total });
    expect(await stock(t, b.id, principal)).toBe(antes);
    const rs = await registros(t, { documento_id: mal.id });
    expect(rs.map((r) => r.tipo)).toEqual(['alta', 'anulacion']);
    expect(rs[1].huella_anterior).toBe(ultimo.huella);
    expect(rs[1].orden).toBe(ultimo.orden + 1);
    expect(rs[1].xml).toContain(`<sf:RegistroAnulacion><sf:IDVersion>1.0</sf:IDVersion><sf:IDFactura><sf:IDEmisorFacturaAnulada>B86420973</sf:IDEmisorFacturaAnulada><sf:NumSerieFacturaAnulada>A ${ANIO}/000003</sf:NumSerieFacturaAnulada>`);
    validarXml([rs[1].xml]);
    expect((await post(t, 'eliminarfactura', { id: mal.id })).body).toMatchObject({ RESULT: '2', message: MESSAGES.facturaEmitidaInmutable });
    // The next invoice takes the next number.
    const otra = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: e.id, cantidad: 1_000, precio: 20_000 }] });
    expect((await ok(t, 'emitirfactura', { id: otra.id })).numero).toBe(`A ${ANIO}/000004`);
  });

  it('facturar an albarán: a linked draft (albarán Finalizado); its undo or deleting the draft gives it back; refused once issued', async () => {
    const alb = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 2_000, precio: 100_000 }] });
    let r = await ok(t, 'facturaralbaranventa', { id: alb.id });
    expect(r.estado).toBe('finalizado');
    const borrador = await leer(t, 'facturas', r.hijos[0].id);
    expect(borrador).toMatchObject({ estado: 'borrador', numero: 'Borrador', serie_id: serieA, cliente_id: c1.id });
    expect(borrador.lineas.map((l) => [l.articulo_id, l.cantidad, l.origen_linea_id])).toEqual([[a.id, 2_000, alb.lineas[0].id]]);
    r = await ok(t, 'deshacerfacturacionalbaranventa', { id: alb.id });
    expect(r).toMatchObject({ estado: 'pendiente', hijos: [] });
    expect((await t.op('listadofacturas', { cookie: t.cookie, query: { id: String(borrador.id) } })).json().RESULT).toBe('3');
    // Deleting the draft by hand gives the albarán back too.
    r = await ok(t, 'facturaralbaranventa', { id: alb.id, serie_id: serieA });
    await ok(t, 'eliminarfactura', { id: r.hijos[0].id });
    expect(await leer(t, 'albaranesventa', alb.id)).toMatchObject({ estado: 'pendiente', hijos: [] });
    expect((await leer(t, 'albaranesventa', alb.id)).lineas[0].pendiente).toBe(2_000);
    // Issued: the undo is refused; the albarán's stock left on its save, the invoice moves none.
    r = await ok(t, 'facturaralbaranventa', { id: alb.id });
    const antes = await stock(t, a.id, principal);
    const emitida = await ok(t, 'emitirfactura', { id: r.hijos[0].id });
    expect(emitida.padres.map((p) => p.id)).toEqual([alb.id]);
    expect(await stock(t, a.id, principal)).toBe(antes);
    const f = await foto(t);
    expect((await post(t, 'deshacerfacturacionalbaranventa', { id: alb.id })).body).toMatchObject({ RESULT: '2', message: MESSAGES.facturaEmitidaInmutable });
    expect(await foto(t)).toEqual(f);
    const nada = await post(t, 'facturaralbaranventa', { id: alb.id });
    expect(nada.body).toMatchObject({ RESULT: '1', message: MESSAGES.accionNoPermitida });
  });

  it('a devolución of invoiced goods is corrected by a rectificativa linked to it: Finalizado, its stock not moved twice; hfa leaves it out', async () => {
    const alb = (await list(t, t.cookie, 'listadoalbaranesventa', { cliente_id: c1.id, estado: 'finalizado' })).rows[0] as Doc;
    const albaran = await leer(t, 'albaranesventa', alb.id);
    const facturaAlb = await leer(t, 'facturas', albaran.hijos[0].id);
    const antes = await stock(t, a.id, principal);
    const dev = await ok(t, 'editardevolucionventa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 100_000, origen_linea_id: albaran.lineas[0].id }],
    });
    expect(await stock(t, a.id, principal)).toBe(antes + 1_000);
    expect((await list(t, t.cookie, 'hfapropuesta', { desde: HOY, hasta: HOY })).rows).toEqual([]);
    const positiva = await post(t, 'editarrectificativa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieR, factura_id: facturaAlb.id, tipo: 'R1',
      lineas: [{ articulo_id: a.id, cantidad: 1_000, precio: 100_000, origen_linea_id: dev.lineas[0].id }],
    });
    expect(positiva.body.errors).toEqual({ 'lineas.0.cantidad': MESSAGES.devueltoEnNegativo });
    const rect = await ok(t, 'editarrectificativa', {
      fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieR, factura_id: facturaAlb.id, tipo: 'R1',
      lineas: [{ articulo_id: a.id, cantidad: -1_000, precio: 100_000, origen_linea_id: dev.lineas[0].id }],
    });
    expect(rect.modo_rectificacion).toBe('diferencias');
    expect((await leer(t, 'devolucionesventa', dev.id)).estado).toBe('finalizado');
    const emitida = await ok(t, 'emitirrectificativa', { id: rect.id });
    expect(emitida).toMatchObject({ numero: `R ${ANIO}/000003`, total: -1_210 });
    expect(emitida.padres.map((p) => p.id)).toEqual([dev.id]);
    expect(await stock(t, a.id, principal)).toBe(antes + 1_000);
    validarXml((await registros(t, { documento_id: rect.id })).map((r) => r.xml));
  });

  let c3: Row;
  let parte: Doc;
  it('hfa: the proposal per customer; one invoice that cannot be issued stops the whole run and nothing changes', async () => {
    c3 = await save(t, t.cookie, 'editarcliente', { nif: 'B12345674', razon_social: 'Zapatería Zamora', codigo_postal: '49001' });
    const alb1 = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 3_000, precio: 100_000 }, { articulo_id: b.id, cantidad: 1_000, precio: 50_000 }] });
    const alb2 = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: e.id, cantidad: 1_000, precio: 20_000 }] });
    const dev = await ok(t, 'editardevolucionventa', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, lineas: [{ articulo_id: a.id, cantidad: 1_000, origen_linea_id: alb1.lineas[0].id, precio: 100_000 }] });
    const alb3 = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c2.id, almacen_id: principal, lineas: [{ articulo_id: b.id, cantidad: 2_000, precio: 50_000 }] });
    const alb4 = await ok(t, 'editaralbaranventa', { fecha: HOY, cliente_id: c3.id, almacen_id: principal, lineas: [{ articulo_id: b.id, cantidad: 1_000, precio: 50_000 }] });
    // A finished parte de trabajo: its materials and its hours are invoiced too.
    const proceso = await save(t, t.cookie, 'editarproceso', { codigo: 'MONT', nombre: 'Montaje', tiempo: 60, coste: 250_000 });
    parte = await ok(t, 'editarparte', {
      fecha: HOY, cliente_id: c2.id, almacen_id: principal, lineas: [{ articulo_id: e.id, cantidad: 1_000, precio: 20_000 }], horas: [{ proceso_id: proceso.id, horas: 1_500 }],
    });
    const pendiente = await list(t, t.cookie, 'hfapropuesta', { desde: HOY, hasta: HOY, cliente_id: c2.id });
    expect((pendiente.rows[0].documentos as Row[]).map((d) => d.tipo)).toEqual(['albaranventa']);
    parte = await ok(t, 'finalizarparte', { id: parte.id });

    const { rows } = await list(t, t.cookie, 'hfapropuesta', { desde: HOY, hasta: HOY, serie_id: serieA });
    expect(rows.map((g) => g.cliente_id)).toEqual([c2.id, c1.id, c3.id]);
    const g1 = rows.find((g) => g.cliente_id === c1.id)!;
    expect((g1.documentos as Row[]).map((d) => [d.tipo, d.id])).toEqual([['albaranventa', alb1.id], ['albaranventa', alb2.id], ['devolucionventa', dev.id]]);
    // 30 − 10 € at 21 %, 5 € at 10 %, 2 € exempt.
    expect(g1).toMatchObject({ base: 2_700, iva: 420 + 50, total: 2_700 + 470 });
    expect((await list(t, t.cookie, 'hfapropuesta', { desde: HOY, hasta: HOY, cliente_id: c3.id })).rows.map((g) => g.cliente_id)).toEqual([c3.id]);
    const g2 = rows.find((g) => g.cliente_id === c2.id)!;
    expect((g2.documentos as Row[]).map((d) => [d.tipo, d.id])).toEqual([['albaranventa', alb3.id], ['parte', parte.id]]);

    // The third customer's NIF went missing: its invoice can't be issued, so none is.
    await t.app.manager.db.updateTable('clientes').set({ nif: '' }).where('id', '=', c3.id).execute();
    const f = await foto(t);
    const fallo = await post(t, 'facturarhfa', { desde: HOY, hasta: HOY, serie_id: serieA });
    expect(fallo).toMatchObject({ status: 400, body: { RESULT: '1', message: MESSAGES.clienteSinNif } });
    expect(await foto(t)).toEqual(f);
    for (const id of [alb1.id, alb2.id, alb3.id, alb4.id]) expect((await leer(t, 'albaranesventa', id)).estado).toBe('pendiente');
    expect((await leer(t, 'devolucionesventa', dev.id)).estado).toBe('pendiente');
    await t.app.manager.db.updateTable('clientes').set({ nif: 'B12345674' }).where('id', '=', c3.id).execute();
  });

  it('facturarhfa: one issued invoice per customer, devoluciones as negative lines, all documents invoiced; a retry with the same clave makes nothing new', async () => {
    const { rows: props } = await list(t, t.cookie, 'hfapropuesta', { desde: HOY, hasta: HOY });
    const [alb1, alb2, dev] = (props.find((g) => g.cliente_id === c1.id)!.documentos as Row[]).map((d) => d.id);
    const n = (await registros(t)).length;
    const body = { desde: HOY, hasta: HOY, serie_id: serieA, cliente_ids: [c1.id, c2.id], clave: 'hfa-prueba-1' };
    const res = await post(t, 'facturarhfa', body);
    expect(res.body.RESULT).toBe('0');
    const hechas = res.body.data as unknown as { id: number; numero: string; cliente_nombre: string; total: number }[];
    expect(hechas.map((h) => [h.numero, h.cliente_nombre])).toEqual([
      [`A ${ANIO}/000006`, 'Ferretería López'],
      [`A ${ANIO}/000007`, 'Reformas Hernández, S.L.'],
    ]);
    const fc1 = await leer(t, 'facturas', hechas[1].id);
    expect(fc1).toMatchObject({ estado: 'emitida', tipo_factura: 'F1', base: 2_700, total: 3_170, forma_pago: 'transferencia_30' });
    expect(fc1.lineas.map((l) => [l.articulo_id, l.cantidad])).toEqual([[a.id, 3_000], [b.id, 1_000], [e.id, 1_000], [a.id, -1_000]]);
    expect(fc1.padres.map((p) => p.id).sort((x, y) => x - y)).toEqual([alb1, alb2, dev].sort((x, y) => x - y));
    expect((await leer(t, 'albaranesventa', alb1)).estado).toBe('finalizado');
    expect((await leer(t, 'devolucionesventa', dev)).estado).toBe('finalizado');
    // Recargo for the customer under it.
    // 10 € at 10 % (1 € IVA, 0,14 € recargo), the parte's 1,5 h × 25 € at 21 % (7,88 € and 1,95 €) and 2 € exempt.
    const fc2 = await leer(t, 'facturas', hechas[0].id);
    expect(fc2).toMatchObject({ con_recargo: 1, base: 4_950, iva: 888, recargo: 209, total: 4_950 + 888 + 209 });
    expect(fc2.lineas.map((l) => l.cantidad)).toEqual([2_000, 1_000, 1_500]);
    expect((await leer(t, 'partes', parte.id)).estado).toBe('facturado');
    const nuevos = (await registros(t)).slice(n);
    expect(nuevos.map((r) => r.documento_id)).toEqual(hechas.map((h) => h.id));
    validarXml(nuevos.map((r) => r.xml));

    const f = await foto(t);
    const otra = await post(t, 'facturarhfa', body);
    expect((otra.body.data as unknown as Row[]).map((d) => d.id)).toEqual(hechas.map((h) => h.id));
    expect(await foto(t)).toEqual(f);
    // The third customer's albarán is still there to invoice; nothing else is.
    expect((await list(t, t.cookie, 'hfapropuesta', { desde: HOY, hasta: HOY })).rows.map((g) => g.cliente_id)).toEqual([c3.id]);
    const nada = await post(t, 'facturarhfa', { desde: AYER, hasta: AYER, serie_id: serieA });
    expect(nada.body).toMatchObject({ RESULT: '1', message: MESSAGES.nadaQueFacturar });
  });

  it('cobro: mark paid and unpaid; the list filters pending, overdue and paid', async () => {
    const vieja = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA, forma_pago: 'transferencia_30', lineas: [{ articulo_id: e.id, cantidad: 1_000, precio: 10_000 }] });
    await ok(t, 'emitirfactura', { id: vieja.id });
    // Dated 40 days ago at 30 days: overdue (dates are set in the table: an issued invoice can't be edited).
    await t.app.manager.db.updateTable('documentos').set({ fecha: diaMas(HOY, -40) }).where('id', '=', vieja.id).execute();
    const borrador = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA, lineas: [{ articulo_id: e.id, cantidad: 1_000, precio: 10_000 }] });
    expect((await post(t, 'cobrarfactura', { id: borrador.id, fecha: HOY, forma: 'efectivo' })).body).toMatchObject({ RESULT: '1', message: MESSAGES.facturaNoEmitida });
    const cobrada = await post(t, 'cobrarfactura', { id: f1.id, fecha: HOY });
    expect(cobrada.body).toMatchObject({ RESULT: '0', message: MESSAGES.cobroRegistrado });
    expect(cobrada.body.data![0]).toMatchObject({ cobro_fecha: HOY, cobro_forma: 'transferencia_30' });
    const ids = async (cobro: string) => (await list(t, t.cookie, 'listadofacturas', { cobro, porPagina: 100, cliente_id: c1.id })).rows.map((r) => r.id);
    expect(await ids('cobrada')).toEqual([f1.id]);
    expect(await ids('vencida')).toEqual([vieja.id]);
    const pendientes = await ids('pendiente');
    expect(pendientes).toContain(vieja.id);
    expect(pendientes).not.toContain(f1.id);
    expect(pendientes).not.toContain(borrador.id);
    const deshecho = await post(t, 'cobrarfactura', { id: f1.id, fecha: '' });
    expect(deshecho.body.data![0]).toMatchObject({ cobro_fecha: null, cobro_forma: null });
    expect(await ids('cobrada')).toEqual([]);
    // The date set behind the product's back goes back: the chain check (below) finds an invoice that differs from its record.
    await t.app.manager.db.updateTable('documentos').set({ fecha: HOY }).where('id', '=', vieja.id).execute();
  });

  it('reembolso: a rectificativa\'s credit nets into its unpaid invoice; on a paid one it is a refund owed, refunded (and unrefunded) like an invoice is paid; its list filters pending, overdue and refunded', async () => {
    const ids = async (cobro: string) => (await list(t, t.cookie, 'listadorectificativas', { cobro, porPagina: 100 })).rows.map((r) => r.id).sort();
    // f1 is unpaid: R1's credit is taken from what f1 asks, nothing to refund.
    expect(await ids('pendiente')).not.toContain(r1.id);
    expect((await post(t, 'cobrarfactura', { id: r1.id, fecha: HOY, forma: 'transferencia' })).body).toMatchObject({ RESULT: '1', message: MESSAGES.rectificativaSinReembolso });
    // An invoice paid at the counter, then corrected: the shop owes the customer the difference.
    const contado = await ok(t, 'editarfactura', { fecha: HOY, cliente_id: c1.id, almacen_id: principal, serie_id: serieA, forma_pago: 'contado', lineas: [{ articulo_id: e.id, cantidad: 2_000, precio: 10_000 }] });
    const pagada = await ok(t, 'emitirfactura', { id: contado.id });
    const rc = await ok(t, 'editarrectificativa', {
      fecha: HOY, serie_id: serieR, factura_id: pagada.id, tipo: 'R1', forma_pago: 'transferencia_30',
      lineas: [{ articulo_id: e.id, cantidad: -1_000, precio: 10_000, origen_linea_id: pagada.lineas[0].id }],
    });
    const r2 = await ok(t, 'emitirrectificativa', { id: rc.id });
    expect(r2.total).toBe(-100);
    expect(await ids('pendiente')).toEqual([r2.id]);
    expect(await ids('cobrada')).toEqual([]);
    // R2 dated 40 days back, at 30 days: its refund is overdue.
    const db = t.app.manager.db;
    await db.updateTable('documentos').set({ fecha: diaMas(HOY, -40) }).where('id', '=', r2.id).execute();
    expect(await ids('vencida')).toEqual([r2.id]);
    const reembolsada = await post(t, 'cobrarfactura', { id: r2.id, fecha: HOY, forma: 'transferencia' });
    expect(reembolsada.body).toMatchObject({ RESULT: '0', message: MESSAGES.reembolsoRegistrado });
    expect(reembolsada.body.data![0]).toMatchObject({ id: r2.id, cobro_fecha: HOY, cobro_forma: 'transferencia', total: -100 });
    expect(await ids('cobrada')).toEqual([r2.id]);
    expect(await ids('vencida')).toEqual([]);
    expect(await ids('pendiente')).not.toContain(r2.id);
    const deshecho = await post(t, 'cobrarfactura', { id: r2.id, fecha: '' });
    expect(deshecho.body.data![0]).toMatchObject({ cobro_fecha: null, cobro_forma: null });
    expect(await ids('vencida')).toEqual([r2.id]);
    // Refunded again, so that the suites after this one find the account settled.
    await post(t, 'cobrarfactura', { id: r2.id, fecha: HOY, forma: 'transferencia' });
    // Its issue date as its record says again (the chain check below compares them).
    await db.updateTable('documentos').set({ fecha: HOY }).where('id', '=', r2.id).execute();
  });

  it('listadoregistrosfacturacion pages the chain in order; every record validates against the schema', async () => {
    const todos = await registros(t);
    expect(todos.map((r) => r.orden)).toEqual(todos.map((_, i) => i + 1));
    for (let i = 1; i < todos.length; i++) expect(todos[i].huella_anterior).toBe(todos[i - 1].huella);
    validarXml(todos.map((r) => r.xml));
    const pagina2 = (await list(t, t.cookie, 'listadoregistrosfacturacion', { porPagina: 10, pagina: 2 })).rows as Registro[];
    expect(pagina2[0].orden).toBe(11);
    expect((await list(t, t.cookie, 'listadoregistrosfacturacion', { tipo: 'anulacion' })).rows.map((r) => r.tipo)).toEqual(['anulacion']);
  });

  it('the chain check: correct; a tampered amount, a tampered XML or a record missing at the end is the first break', async () => {
    let c = await comprobar(t);
    expect(c.message).toBe(MESSAGES.cadenaCorrecta);
    expect(c.data).toHaveLength(1);
    const total = (await registros(t)).length;
    expect(c.data[0]).toMatchObject({ emisor: 'B86420973', total, correcto: true, rotura: null });
    const db = t.app.manager.db;
    const [, tercero] = await registros(t, { porPagina: 10 }).then((rs) => [rs[1], rs[2]]);
    await db.updateTable('registros_facturacion').set({ importe_total: '1.00' }).where('id', '=', tercero.id).execute();
    c = await comprobar(t);
    expect(c.message).toBe(MESSAGES.cadenaRota);
    expect(c.data[0]).toMatchObject({ correcto: false, rotura: { id: tercero.id, orden: 3, num_serie: tercero.num_serie } });
    expect(String(c.data[0].rotura!.motivo)).toContain('huella');
    await db.updateTable('registros_facturacion').set({ importe_total: tercero.importe_total }).where('id', '=', tercero.id).execute();
    await db.updateTable('registros_facturacion').set({ xml: tercero.xml.replace(/<sf:ImporteTotal>[^<]*</, '<sf:ImporteTotal>1.00<') }).where('id', '=', tercero.id).execute();
    expect((await comprobar(t)).data[0]).toMatchObject({ correcto: false, rotura: { id: tercero.id, motivo: expect.stringContaining('XML') } });
    await db.updateTable('registros_facturacion').set({ xml: tercero.xml }).where('id', '=', tercero.id).execute();
    expect((await comprobar(t)).data[0].correcto).toBe(true);
    // The last record removed: the head still points at it.
    const ultimo = (await registros(t, { dir: 'desc', porPagina: 10 }))[0];
    const fila = await db.selectFrom('registros_facturacion').selectAll().where('id', '=', ultimo.id).executeTakeFirstOrThrow();
    await db.deleteFrom('registros_facturacion').where('id', '=', ultimo.id).execute();
    expect((await comprobar(t)).data[0]).toMatchObject({ correcto: false, rotura: { orden: ultimo.orden } });
    await db.insertInto('registros_facturacion').values(fila).execute();
    expect((await comprobar(t)).data[0].correcto).toBe(true);
  });

  it('enviarfactura: the PDF through the outbox to the customer (or the address given); a draft is refused', async () => {
    const pdf = Buffer.from('%PDF-1.4\n% factura\n');
    const enviar = async (fields: Record<string, string>) => {
      const m = multipart('archivo', 'factura.pdf', 'application/pdf', pdf);
      return t.op('enviarfactura', { cookie: t.cookie, method: 'POST', query: fields, headers: m.headers, body: m.payload });
    };
    let res = await enviar({ id: String(f1.id) });
    expect(res.json()).toMatchObject({ RESULT: '0', message: MESSAGES.facturaEnviadaPorCorreo, data: [{ id: f1.id, email: 'admin@reformas.es' }] });
    const outbox = path.join(t.dataDir, 'outbox');
    const eml = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8')).find((x) => x.includes('To: admin@reformas.es'))!;
    expect(eml).toContain('Content-Type: application/pdf');
    res = await enviar({ id: String(f1.id), email: 'otra@ejemplo.es' });
    expect(res.json().data[0].email).toBe('otra@ejemplo.es');
    // Ferretería López has no e-mail.
    const sinEmail = (await list(t, t.cookie, 'listadofacturas', { cliente_id: c2.id, estado: 'emitida' })).rows[0];
    expect((await enviar({ id: String(sinEmail.id) })).json()).toMatchObject({ RESULT: '1', message: MESSAGES.clienteSinEmail });
    const borrador = (await list(t, t.cookie, 'listadofacturas', { estado: 'borrador' })).rows[0];
    expect((await enviar({ id: String(borrador.id) })).json()).toMatchObject({ RESULT: '1', message: MESSAGES.facturaNoEmitida });
    expect(LEYENDA_QR).toContain('AEAT');
  });
});
