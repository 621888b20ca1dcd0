import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { MESSAGES, entradaHuella, fechaAeat, importeAeat } from 'shared/domain';
import type { DesgloseIva, HuellaAlta, HuellaAnulacion, TipoFactura } from 'shared/domain';
import { fail } from '../errors.ts';
import { nowIso } from '../context.ts';
import { compiledQuery } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';

/**
 * VERI*FACTU records (docs/fiscal.md; the AEAT's SuministroLR.xsd / SuministroInformacion.xsd and the hash
 * specification in shared/fiscal/aeat/): the registro de alta an issued invoice writes and the registro de
 * anulación of an invoice that should never have existed. Each record is chained to the previous one of the same
 * issuer (its huella is part of the next one's hash input) and stored with its XML, a whole
 * RegFactuSistemaFacturacion document (Cabecera + one RegistroFactura) valid against SuministroLR.xsd.
 *
 * The chain's head (registros_cadena: last orden and huella per issuer) is advanced by an `update … returning`
 * in the caller's transaction, which locks the row until it ends: two instances on one PostgreSQL never give two
 * records the same place, and a failed emission leaves no record and no gap.
 */

export const NS_LR = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroLR.xsd';
export const NS_SF = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd';

/** The product's version (the root package.json), as SistemaInformatico/Version says it. */
const VERSION = (() => {
  try {
    return String(JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version ?? '0');
  } catch {
    return '0';
  }
})();

/**
 * The invoicing system (SistemaInformatico). The producer's name and NIF are the issuer's own until the product
 * is registered by a producer with a NIF of its own (a system an obligado uses for itself names itself).
 */
export const SISTEMA = { nombre: 'Manager TPV', id: 'MT', version: VERSION } as const;

export type Emisor = { nif: string; nombre: string };
/** An invoice as the records name it: its issuer's NIF, displayed number and date (aaaa-mm-dd). */
export type FacturaRef = { nif: string; numSerie: string; fecha: string };

export type DatosAlta = {
  emisor: Emisor;
  numSerie: string;
  /** aaaa-mm-dd. */
  fecha: string;
  tipoFactura: TipoFactura;
  descripcion: string;
  /** The customer (F1 and R1-R4); F2 and R5 carry none (the AEAT refuses Destinatarios on them). */
  destinatario: { nif: string; nombre: string } | null;
  /** Rectificativas: by substitution (S, with the replaced invoice's amounts) or by differences (I). */
  rectificativa?: { tipo: 'S' | 'I'; facturas: FacturaRef[]; importe?: { base: number; cuota: number; recargo: number } };
  /** Per IVA rate, cents (the document's stored desglose). */
  desglose: readonly DesgloseIva[];
  conRecargo: boolean;
  /** IVA + recargo, cents. */
  cuotaTotal: number;
  /** Base + IVA + recargo, cents (retención is outside the record). */
  importeTotal: number;
};

/** 'aaaa-mm-ddThh:mm:ss+hh:mm' of an instant in a time zone (Europe/Madrid: +01:00 or +02:00). */
const formatos = new Map<string, Intl.DateTimeFormat>();
export function fechaHoraHuso(date: Date, timeZone: string): string {
  let f = formatos.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatos.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(date).map((x) => [x.type, x.value]));
  const offset = p.timeZoneName === 'GMT' ? '+00:00' : p.timeZoneName.slice(3);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset}`;
}

/** SHA-256 of the hash input, upper-case hex (the AEAT's huella). */
export function huellaDe(campos: HuellaAlta | HuellaAnulacion): string {
  return createHash('sha256').update(entradaHuella(campos), 'utf8').digest('hex').toUpperCase();
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const el = (name: string, content: string) => `<sf:${name}>${content}</sf:${name}>`;
const txt = (name: string, value: string) => el(name, esc(value));
/** A text the schema caps at `max` characters. */
const corto = (v: string, max: number) => v.trim().slice(0, max);

/** Percentages of the records: hundredths → '21.00', '5.20'. */
const porcentaje = (centesimas: number) => (centesimas / 100).toFixed(2);
const IVA: Record<string, number> = { '21': 2100, '10': 1000, '4': 400 };
const RECARGO: Record<string, number> = { '21': 520, '10': 140, '4': 50 };

function desgloseXml(d: DatosAlta): string {
  const detalles = d.desglose.map((g) => {
    if (g.tipo_iva === 'exento') {
      // Exempt (art. 20 LIVA): E1, no rate or quota.
      return el('DetalleDesglose', txt('Impuesto', '01') + txt('ClaveRegimen', '01') + txt('OperacionExenta', 'E1') + txt('BaseImponibleOimporteNoSujeto', importeAeat(g.base)));
    }
    let x = txt('Impuesto', '01') + txt('ClaveRegimen', '01') + txt('CalificacionOperacion', 'S1');
    x += txt('TipoImpositivo', porcentaje(IVA[g.tipo_iva])) + txt('BaseImponibleOimporteNoSujeto', importeAeat(g.base)) + txt('CuotaRepercutida', importeAeat(g.iva));
    if (d.conRecargo) x += txt('TipoRecargoEquivalencia', porcentaje(RECARGO[g.tipo_iva])) + txt('CuotaRecargoEquivalencia', importeAeat(g.recargo));
    return el('DetalleDesglose', x);
  });
  return el('Desglose', detalles.join(''));
}

function sistemaXml(productor: Emisor, instalacion: string): string {
  return el(
    'SistemaInformatico',
    txt('NombreRazon', corto(productor.nombre, 120)) +
      txt('NIF', productor.nif) +
      txt('NombreSistemaInformatico', SISTEMA.nombre) +
      txt('IdSistemaInformatico', SISTEMA.id) +
      txt('Version', SISTEMA.version) +
      txt('NumeroInstalacion', corto(instalacion, 100)) +
      txt('TipoUsoPosibleSoloVerifactu', 'S') +
      txt('TipoUsoPosibleMultiOT', 'N') +
      txt('IndicadorMultiplesOT', 'N'),
  );
}

/** The previous record of the chain, as the next one names it. */
type Anterior = { id_emisor: string; num_serie: string; fecha_expedicion: string; huella: string; fecha_hora_huso: string };

function encadenamientoXml(anterior: Anterior | null): string {
  if (!anterior) return el('Encadenamiento', txt('PrimerRegistro', 'S'));
  return el(
    'Encadenamiento',
    el(
      'RegistroAnterior',
      txt('IDEmisorFactura', anterior.id_emisor) +
        txt('NumSerieFactura', anterior.num_serie) +
        txt('FechaExpedicionFactura', anterior.fecha_expedicion) +
        txt('Huella', anterior.huella),
    ),
  );
}

/** The whole document: the issuer as ObligadoEmision and the record as its one RegistroFactura. */
const documento = (emisor: Emisor, registro: string) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  `<sfLR:RegFactuSistemaFacturacion xmlns:sfLR="${NS_LR}" xmlns:sf="${NS_SF}">` +
  `<sfLR:Cabecera>${el('ObligadoEmision', txt('NombreRazon', corto(emisor.nombre, 120)) + txt('NIF', emisor.nif))}</sfLR:Cabecera>` +
  `<sfLR:RegistroFactura>${registro}</sfLR:RegistroFactura>` +
  '</sfLR:RegFactuSistemaFacturacion>\n';

/** The RegistroAlta document of `d`, chained after `anterior`, stamped `ts`, with its `huella`. */
export function xmlAlta(d: DatosAlta, anterior: Anterior | null, ts: string, huella: string, instalacion: string): string {
  let x = txt('IDVersion', '1.0');
  x += el('IDFactura', txt('IDEmisorFactura', d.emisor.nif) + txt('NumSerieFactura', d.numSerie) + txt('FechaExpedicionFactura', fechaAeat(d.fecha)));
  x += txt('NombreRazonEmisor', corto(d.emisor.nombre, 120));
  x += txt('TipoFactura', d.tipoFactura);
  if (d.rectificativa) {
    x += txt('TipoRectificativa', d.rectificativa.tipo);
    if (d.rectificativa.facturas.length) {
      x += el(
        'FacturasRectificadas',
        d.rectificativa.facturas
          .map((f) => el('IDFacturaRectificada', txt('IDEmisorFactura', f.nif) + txt('NumSerieFactura', f.numSerie) + txt('FechaExpedicionFactura', fechaAeat(f.fecha))))
          .join(''),
      );
    }
    const imp = d.rectificativa.importe;
    if (d.rectificativa.tipo === 'S' && imp) {
      x += el(
        'ImporteRectificacion',
        txt('BaseRectificada', importeAeat(imp.base)) + txt('CuotaRectificada', importeAeat(imp.cuota)) + (d.conRecargo || imp.recargo ? txt('CuotaRecargoRectificado', importeAeat(imp.recargo)) : ''),
      );
    }
  }
  x += txt('DescripcionOperacion', corto(d.descripcion, 500) || 'Venta');
  if (d.destinatario) x += el('Destinatarios', el('IDDestinatario', txt('NombreRazon', corto(d.destinatario.nombre, 120)) + txt('NIF', d.destinatario.nif)));
  x += desgloseXml(d);
  x += txt('CuotaTotal', importeAeat(d.cuotaTotal)) + txt('ImporteTotal', importeAeat(d.importeTotal));
  x += encadenamientoXml(anterior);
  x += sistemaXml(d.emisor, instalacion);
  x += txt('FechaHoraHusoGenRegistro', ts) + txt('TipoHuella', '01') + txt('Huella', huella);
  return documento(d.emisor, el('RegistroAlta', x));
}

/** The RegistroAnulacion document of the invoice `f`. */
export function xmlAnulacion(emisor: Emisor, f: FacturaRef, anterior: Anterior | null, ts: string, huella: string, instalacion: string): string {
  let x = txt('IDVersion', '1.0');
  x += el('IDFactura', txt('IDEmisorFacturaAnulada', f.nif) + txt('NumSerieFacturaAnulada', f.numSerie) + txt('FechaExpedicionFacturaAnulada', fechaAeat(f.fecha)));
  x += encadenamientoXml(anterior);
  x += sistemaXml(emisor, instalacion);
  x += txt('FechaHoraHusoGenRegistro', ts) + txt('TipoHuella', '01') + txt('Huella', huella);
  return documento(emisor, el('RegistroAnulacion', x));
}

const avanzarCadena = compiledQuery((db, p: { emisor: string }) => ({
  compile: () =>
    sql<{ ultimo_orden: number }>`update registros_cadena set ultimo_orden = ultimo_orden + 1 where emisor = ${p.emisor} returning ultimo_orden`.compile(db),
}));

const leerAnterior = compiledQuery((db, p: { emisor: string; orden: number }) =>
  db
    .selectFrom('registros_facturacion')
    .select(['emisor as id_emisor', 'num_serie', 'fecha_expedicion', 'huella', 'fecha_hora_huso'])
    .where('emisor', '=', p.emisor)
    .where('orden', '=', p.orden),
);

/** Per transaction and issuer, the last record it wrote in the chain (what the next one chains to). */
const ESCRITOS = new WeakMap<Transaction<Database>, Map<string, { orden: number; registro: Anterior }>>();

/**
 * The next place in `emisor`'s chain: the head row advanced and locked (created on the first record), and the
 * previous record it points to (null for the first).
 */
async function siguienteEnCadena(trx: Transaction<Database>, emisor: string): Promise<{ orden: number; anterior: Anterior | null }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const rows = await avanzarCadena(trx, { emisor });
    if (rows[0]) {
      const orden = Number(rows[0].ultimo_orden);
      if (orden === 1) return { orden, anterior: null };
      // The record this transaction just wrote at the head (hfa issues many): the head row is locked by it since.
      const propio = ESCRITOS.get(trx)?.get(emisor);
      if (propio?.orden === orden - 1) return { orden, anterior: propio.registro };
      const [anterior] = await leerAnterior(trx, { emisor, orden: orden - 1 });
      // The head points past a record that is not there: the chain was tampered with; nothing is chained to it.
      if (!anterior) throw fail(MESSAGES.cadenaRota, '2');
      return { orden, anterior };
    }
    await trx
      .insertInto('registros_cadena')
      .values({ emisor, ultimo_orden: 0, ultima_huella: '' })
      .onConflict((oc) => oc.column('emisor').doNothing())
      .execute();
  }
  throw new Error('registros_cadena');
}

/** The record's timestamp: now, never before the previous record's (the AEAT requires them in order). */
function marcaDeTiempo(anterior: Anterior | null, timeZone: string): string {
  const ahora = new Date(Math.floor(Date.now() / 1000) * 1000);
  const previo = anterior ? Date.parse(anterior.fecha_hora_huso) : Number.NaN;
  return fechaHoraHuso(Number.isFinite(previo) && previo > ahora.getTime() ? new Date(previo) : ahora, timeZone);
}

export type Contexto = { trx: Transaction<Database>; timeZone: string; documentoId: number; instalacion: string };

type NuevoRegistro = {
  emisor: string;
  orden: number;
  tipo: 'alta' | 'anulacion';
  num_serie: string;
  fecha_expedicion: string;
  tipo_factura: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  documento_id: number;
  huella_anterior: string;
  huella: string;
  fecha_hora_huso: string;
  xml: string;
  creado: string;
};

const insertarRegistro = compiledQuery((db, p: NuevoRegistro) =>
  db
    .insertInto('registros_facturacion')
    .values({
      emisor: p.emisor, orden: p.orden, tipo: p.tipo, num_serie: p.num_serie, fecha_expedicion: p.fecha_expedicion, tipo_factura: p.tipo_factura,
      cuota_total: p.cuota_total, importe_total: p.importe_total, documento_id: p.documento_id, huella_anterior: p.huella_anterior, huella: p.huella,
      fecha_hora_huso: p.fecha_hora_huso, xml: p.xml, creado: p.creado,
    })
    .returning('id'),
);

const cambiarCabeza = compiledQuery((db, p: { huella: string; emisor: string }) =>
  db.updateTable('registros_cadena').set({ ultima_huella: p.huella }).where('emisor', '=', p.emisor),
);

async function guardar(
  c: Contexto,
  emisor: string,
  orden: number,
  row: { tipo: 'alta' | 'anulacion'; num_serie: string; fecha_expedicion: string; tipo_factura: string | null; cuota_total: string | null; importe_total: string | null },
  anterior: Anterior | null,
  ts: string,
  huella: string,
  xml: string,
): Promise<number> {
  const [created] = await insertarRegistro(c.trx, {
    emisor, orden, ...row, documento_id: c.documentoId, huella_anterior: anterior?.huella ?? '', huella, fecha_hora_huso: ts, xml, creado: nowIso(),
  });
  await cambiarCabeza(c.trx, { huella, emisor });
  let escritos = ESCRITOS.get(c.trx);
  if (!escritos) {
    escritos = new Map();
    ESCRITOS.set(c.trx, escritos);
  }
  escritos.set(emisor, { orden, registro: { id_emisor: emisor, num_serie: row.num_serie, fecha_expedicion: row.fecha_expedicion, huella, fecha_hora_huso: ts } });
  return created.id;
}

/** Writes the registro de alta of an invoice being issued, chained to its issuer's last record. */
export async function registrarAlta(c: Contexto, d: DatosAlta): Promise<{ id: number; huella: string }> {
  const { orden, anterior } = await siguienteEnCadena(c.trx, d.emisor.nif);
  const ts = marcaDeTiempo(anterior, c.timeZone);
  const campos: HuellaAlta = {
    IDEmisorFactura: d.emisor.nif,
    NumSerieFactura: d.numSerie,
    FechaExpedicionFactura: fechaAeat(d.fecha),
    TipoFactura: d.tipoFactura,
    CuotaTotal: importeAeat(d.cuotaTotal),
    ImporteTotal: importeAeat(d.importeTotal),
    Huella: anterior?.huella ?? '',
    FechaHoraHusoGenRegistro: ts,
  };
  const huella = huellaDe(campos);
  const xml = xmlAlta(d, anterior, ts, huella, c.instalacion);
  const id = await guardar(
    c,
    d.emisor.nif,
    orden,
    {
      tipo: 'alta', num_serie: d.numSerie, fecha_expedicion: campos.FechaExpedicionFactura, tipo_factura: d.tipoFactura, cuota_total: campos.CuotaTotal,
      importe_total: campos.ImporteTotal,
    },
    anterior,
    ts,
    huella,
    xml,
  );
  return { id, huella };
}

/** Writes the registro de anulación of an issued invoice (`f` as its registro de alta named it), in `emisor`'s chain. */
export async function registrarAnulacion(c: Contexto, emisor: Emisor, f: FacturaRef): Promise<{ id: number; huella: string }> {
  const { orden, anterior } = await siguienteEnCadena(c.trx, f.nif);
  const ts = marcaDeTiempo(anterior, c.timeZone);
  const campos: HuellaAnulacion = {
    IDEmisorFacturaAnulada: f.nif,
    NumSerieFacturaAnulada: f.numSerie,
    FechaExpedicionFacturaAnulada: fechaAeat(f.fecha),
    Huella: anterior?.huella ?? '',
    FechaHoraHusoGenRegistro: ts,
  };
  const huella = huellaDe(campos);
  const xml = xmlAnulacion(emisor, f, anterior, ts, huella, c.instalacion);
  const id = await guardar(
    c,
    f.nif,
    orden,
    { tipo: 'anulacion', num_serie: f.numSerie, fecha_expedicion: campos.FechaExpedicionFacturaAnulada, tipo_factura: null, cuota_total: null, importe_total: null },
    anterior,
    ts,
    huella,
    xml,
  );
  return { id, huella };
}

/** A stored alta, as the subsanación needs it. */
export type AltaGuardada = {
  id: number;
  emisor: string;
  num_serie: string;
  fecha_expedicion: string;
  tipo_factura: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  xml: string;
};

/**
 * Subsanación (issue 9; Veri-Factu_Descripcion_SWeb 9.1.3 and 10.1.2): a NEW registro de alta of the same invoice
 * with the original's data, Subsanacion = S and, when the AEAT never accepted an alta of it, RechazoPrevio = X;
 * chained at the head like any record. The original stays as it was.
 */
export async function registrarSubsanacion(c: Contexto, original: AltaGuardada, rechazoPrevio: boolean): Promise<{ id: number; huella: string }> {
  const { orden, anterior } = await siguienteEnCadena(c.trx, original.emisor);
  const ts = marcaDeTiempo(anterior, c.timeZone);
  const campos: HuellaAlta = {
    IDEmisorFactura: original.emisor,
    NumSerieFactura: original.num_serie,
    FechaExpedicionFactura: original.fecha_expedicion,
    TipoFactura: (original.tipo_factura ?? '') as TipoFactura,
    CuotaTotal: original.cuota_total ?? '',
    ImporteTotal: original.importe_total ?? '',
    Huella: anterior?.huella ?? '',
    FechaHoraHusoGenRegistro: ts,
  };
  const huella = huellaDe(campos);
  const x = original.xml;
  const abre = x.indexOf('<sf:RegistroAlta>');
  const cierra = x.indexOf('</sf:RegistroAlta>');
  const enc = x.indexOf('<sf:Encadenamiento>');
  const finEnc = x.indexOf('</sf:Encadenamiento>');
  const fh = x.indexOf('<sf:FechaHoraHusoGenRegistro>');
  if (abre < 0 || cierra < 0 || enc < 0 || finEnc < 0 || fh < 0) throw new Error(`registro ${original.id}: not an alta document`);
  const marcas = txt('Subsanacion', 'S') + (rechazoPrevio ? txt('RechazoPrevio', 'X') : '');
  const datos = x
    .slice(abre + '<sf:RegistroAlta>'.length, enc)
    .replace(/<sf:Subsanacion>[^<]*<\/sf:Subsanacion>|<sf:RechazoPrevio>[^<]*<\/sf:RechazoPrevio>/g, '')
    .replace('</sf:NombreRazonEmisor>', `</sf:NombreRazonEmisor>${marcas}`);
  const sistema = x.slice(finEnc + '</sf:Encadenamiento>'.length, fh);
  const registro = datos + encadenamientoXml(anterior) + sistema + txt('FechaHoraHusoGenRegistro', ts) + txt('TipoHuella', '01') + txt('Huella', huella);
  const xml = x.slice(0, abre) + el('RegistroAlta', registro) + x.slice(cierra + '</sf:RegistroAlta>'.length);
  const id = await guardar(
    c,
    original.emisor,
    orden,
    {
      tipo: 'alta', num_serie: original.num_serie, fecha_expedicion: original.fecha_expedicion, tipo_factura: original.tipo_factura,
      cuota_total: original.cuota_total, importe_total: original.importe_total,
    },
    anterior,
    ts,
    huella,
    xml,
  );
  await c.trx.updateTable('registros_facturacion').set({ subsana_id: original.id }).where('id', '=', id).execute();
  return { id, huella };
}
