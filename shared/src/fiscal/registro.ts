import { IMPUESTO_AEAT, IVA_RATE, impuestoDe, type Impuesto } from '../domain/catalogo';
import { RECARGO_RATE, type DesgloseIva, type TipoFactura } from '../domain/documentos';
import { fechaAeat, importeAeat, entradaHuella, urlQr } from '../domain/fiscal';
import { claveRegimen, esExenta, operacionEfectiva } from '../domain/operaciones';
import type { HuellaAlta, HuellaAnulacion } from '../domain/fiscal';
import { sha256Hex } from './sha256';

/**
 * The VERI*FACTU record's pure parts (docs/fiscal.md, docs/tpv.md; the AEAT's SuministroLR.xsd /
 * SuministroInformacion.xsd and the hash specification): the huella, the timestamp with its offset and the
 * RegFactuSistemaFacturacion XML of a registro de alta or de anulación. The server writes and chains the records
 * with them (server/src/fiscal/registro.ts); the till runs the very same code when it issues a ticket offline
 * (`registroTicket`), so the server can recompute what it receives byte for byte.
 */

export const NS_LR = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroLR.xsd';
export const NS_SF = 'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd';

/** The invoicing system (SistemaInformatico): name, id and the product's version. */
export type Sistema = {
  nombre: string;
  id: string;
  version: string;
  /** The producer (SistemaInformatico NombreRazon/NIF) named by whoever distributes the installation; absent: the issuer's own. */
  productor?: Emisor | null;
};

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
  destinatario: { nif: string; nombre: string; idOtro?: IdOtro } | null;
  /** Rectificativas: by substitution (S, with the replaced invoice's amounts) or by differences (I). */
  rectificativa?: { tipo: 'S' | 'I'; facturas: FacturaRef[]; importe?: { base: number; cuota: number; recargo: number } };
  /** aaaa-mm-dd: the operation's date when it differs from the invoice's (an invoice of earlier albaranes). */
  fechaOperacion?: string;
  /** F3: the simplified invoices (tickets) this full invoice replaces. */
  sustituidas?: FacturaRef[];
  /** A «cualificada» simplified invoice (art. 7.2 RD 1619/2012): recorded as F1 with FacturaSimplificadaArt7273 = S. */
  simplificadaCualificada?: boolean;
  /** Per IVA rate, cents (the document's stored desglose). */
  desglose: readonly DesgloseIva[];
  conRecargo: boolean;
  /** The company's tax when the record was made (issue 16); absent: the lines' types say it (IVA if all exempt). */
  impuesto?: Impuesto;
  /** IVA + recargo, cents. */
  cuotaTotal: number;
  /** Base + IVA + recargo, cents (retención is outside the record). */
  importeTotal: number;
};

/** A party not identified by a Spanish NIF (IDOtroType): country, the AEAT's IDType (02-06) and the identifier. */
export type IdOtro = { codigoPais: string; idType: string; id: string };

/** The previous record of the chain, as the next one names it. */
export type Anterior = { id_emisor: string; num_serie: string; fecha_expedicion: string; huella: string; fecha_hora_huso: string };

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
  return sha256Hex(entradaHuella(campos));
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
export const el = (name: string, content: string) => `<sf:${name}>${content}</sf:${name}>`;
export const txt = (name: string, value: string) => el(name, esc(value));
/** A text the schema caps at `max` characters. */
const corto = (v: string, max: number) => v.trim().slice(0, max);

/** Percentages of the records: hundredths → '21.00', '5.20'. */
const porcentaje = (centesimas: number) => `${Math.trunc(centesimas / 100)}.${String(centesimas % 100).padStart(2, '0')}`;
const tasa = (tabla: Record<string, bigint>, tipo: string) => Number(tabla[tipo] ?? 0n);

/**
 * One DetalleDesglose per stored group: per rate for S1, per operation for the rest (issue 16), each with the
 * ClaveRegimen its operation takes (claveRegimen: 02 for E2/E3). Validaciones 15.4: S2 carries TipoImpositivo and
 * CuotaRepercutida 0; N1/N2 neither; 15.5: an exempt one only its base.
 */
export function desgloseXml(d: Pick<DatosAlta, 'desglose' | 'conRecargo' | 'impuesto'>): string {
  // Issue 16: Impuesto (L1) 01 IVA, 02 IPSI, 03 IGIC: the company's (a line's type names its tax; an all-exempt
  // document takes the one it was issued under). IPSI carries no ClaveRegimen (Validaciones 15.6) nor recargo.
  const impuesto = d.impuesto ?? impuestoDe(d.desglose);
  const codigo = IMPUESTO_AEAT[impuesto];
  const desglose = d.desglose.map((g) => {
    const op = operacionEfectiva(g);
    const cabeza = txt('Impuesto', codigo) + (impuesto === 'ipsi' ? '' : txt('ClaveRegimen', claveRegimen(op)));
    const base = txt('BaseImponibleOimporteNoSujeto', importeAeat(g.base));
    if (esExenta(op)) return el('DetalleDesglose', cabeza + txt('OperacionExenta', op) + base);
    if (op === 'N1' || op === 'N2') return el('DetalleDesglose', cabeza + txt('CalificacionOperacion', op) + base);
    if (op === 'S2') return el('DetalleDesglose', cabeza + txt('CalificacionOperacion', 'S2') + txt('TipoImpositivo', '0.00') + base + txt('CuotaRepercutida', '0.00'));
    let x = cabeza + txt('CalificacionOperacion', 'S1');
    x += txt('TipoImpositivo', porcentaje(tasa(IVA_RATE, g.tipo_iva))) + base + txt('CuotaRepercutida', importeAeat(g.iva));
    if (d.conRecargo && impuesto === 'iva')
      x += txt('TipoRecargoEquivalencia', porcentaje(tasa(RECARGO_RATE, g.tipo_iva))) + txt('CuotaRecargoEquivalencia', importeAeat(g.recargo));
    return el('DetalleDesglose', x);
  });
  return el('Desglose', desglose.join(''));
}

export function sistemaXml(emisor: Emisor, instalacion: string, sistema: Sistema): string {
  const productor = sistema.productor ?? emisor;
  return el(
    'SistemaInformatico',
    txt('NombreRazon', corto(productor.nombre, 120)) +
      txt('NIF', productor.nif) +
      txt('NombreSistemaInformatico', sistema.nombre) +
      txt('IdSistemaInformatico', sistema.id) +
      txt('Version', sistema.version) +
      txt('NumeroInstalacion', corto(instalacion, 100)) +
      txt('TipoUsoPosibleSoloVerifactu', 'S') +
      txt('TipoUsoPosibleMultiOT', 'N') +
      txt('IndicadorMultiplesOT', 'N'),
  );
}

export function encadenamientoXml(anterior: Anterior | null): string {
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
export function xmlAlta(d: DatosAlta, anterior: Anterior | null, ts: string, huella: string, instalacion: string, sistema: Sistema): string {
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
  if (d.sustituidas?.length) {
    x += el(
      'FacturasSustituidas',
      d.sustituidas
        .map((f) => el('IDFacturaSustituida', txt('IDEmisorFactura', f.nif) + txt('NumSerieFactura', f.numSerie) + txt('FechaExpedicionFactura', fechaAeat(f.fecha))))
        .join(''),
    );
  }
  if (d.fechaOperacion) x += txt('FechaOperacion', fechaAeat(d.fechaOperacion));
  x += txt('DescripcionOperacion', corto(d.descripcion, 500) || 'Venta');
  if (d.simplificadaCualificada) x += txt('FacturaSimplificadaArt7273', 'S');
  if (d.destinatario) {
    const o = d.destinatario.idOtro;
    // A Spanish NIF as NIF; anyone else as IDOtro (Validaciones §13).
    const id = o ? el('IDOtro', txt('CodigoPais', o.codigoPais) + txt('IDType', o.idType) + txt('ID', corto(o.id, 20))) : txt('NIF', d.destinatario.nif);
    x += el('Destinatarios', el('IDDestinatario', txt('NombreRazon', corto(d.destinatario.nombre, 120)) + id));
  }
  x += desgloseXml(d);
  x += txt('CuotaTotal', importeAeat(d.cuotaTotal)) + txt('ImporteTotal', importeAeat(d.importeTotal));
  x += encadenamientoXml(anterior);
  x += sistemaXml(d.emisor, instalacion, sistema);
  x += txt('FechaHoraHusoGenRegistro', ts) + txt('TipoHuella', '01') + txt('Huella', huella);
  return documento(d.emisor, el('RegistroAlta', x));
}

/** The RegistroAnulacion document of the invoice `f`. */
export function xmlAnulacion(emisor: Emisor, f: FacturaRef, anterior: Anterior | null, ts: string, huella: string, instalacion: string, sistema: Sistema): string {
  let x = txt('IDVersion', '1.0');
  x += el('IDFactura', txt('IDEmisorFacturaAnulada', f.nif) + txt('NumSerieFacturaAnulada', f.numSerie) + txt('FechaExpedicionFacturaAnulada', fechaAeat(f.fecha)));
  x += encadenamientoXml(anterior);
  x += sistemaXml(emisor, instalacion, sistema);
  x += txt('FechaHoraHusoGenRegistro', ts) + txt('TipoHuella', '01') + txt('Huella', huella);
  return documento(emisor, el('RegistroAnulacion', x));
}

/** The hash's fields of a registro de alta of `d` chained after `anterior`, stamped `ts`. */
export function camposAlta(d: DatosAlta, anterior: Anterior | null, ts: string): HuellaAlta {
  return {
    IDEmisorFactura: d.emisor.nif,
    NumSerieFactura: d.numSerie,
    FechaExpedicionFactura: fechaAeat(d.fecha),
    TipoFactura: d.tipoFactura,
    CuotaTotal: importeAeat(d.cuotaTotal),
    ImporteTotal: importeAeat(d.importeTotal),
    Huella: anterior?.huella ?? '',
    FechaHoraHusoGenRegistro: ts,
  };
}

/** A registro de alta whole: its hash fields, huella and XML (what a till offline makes and the server re-makes). */
export type AltaGenerada = { campos: HuellaAlta; huella: string; xml: string };

export function generarAlta(d: DatosAlta, anterior: Anterior | null, ts: string, instalacion: string, sistema: Sistema): AltaGenerada {
  const campos = camposAlta(d, anterior, ts);
  const huella = huellaDe(campos);
  return { campos, huella, xml: xmlAlta(d, anterior, ts, huella, instalacion, sistema) };
}

/** The QR's URL of a registro de alta (its issuer, number, date and ImporteTotal). */
export function qrDeAlta(campos: Pick<HuellaAlta, 'IDEmisorFactura' | 'NumSerieFactura' | 'FechaExpedicionFactura' | 'ImporteTotal'>, entorno: 'produccion' | 'pruebas' = 'produccion'): string {
  const [entero, dec = '00'] = campos.ImporteTotal.replace('-', '').split('.');
  const cents = BigInt(entero) * 100n + BigInt(dec.padEnd(2, '0').slice(0, 2));
  return urlQr(
    { nif: campos.IDEmisorFactura, numserie: campos.NumSerieFactura, fecha: campos.FechaExpedicionFactura, importe: campos.ImporteTotal.startsWith('-') ? -cents : cents },
    entorno,
  );
}
