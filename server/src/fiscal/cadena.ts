import type { Kysely } from 'kysely';
import type { ComprobacionCadena, HuellaAlta, HuellaAnulacion, TipoFactura } from 'shared/domain';
import type { Database } from '../db/schema.ts';
import { huellaDe, nifDeCadena } from './registro.ts';

/**
 * The chain check (docs/fiscal.md; FAQ 15 of the AEAT's developers' questions): every issuer's records in their
 * order, each one's huella recomputed from its stored fields and the previous record's huella, its XML read back
 * for the same fields, and the chain's head compared with the last record. The first break is reported with
 * why, in Spanish. Records are read a page at a time, so 20.000 of them take little memory.
 */

type Fila = {
  id: number;
  orden: number;
  tipo: string;
  num_serie: string;
  fecha_expedicion: string;
  tipo_factura: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  huella_anterior: string;
  huella: string;
  fecha_hora_huso: string;
  xml: string;
};

export type Rotura = NonNullable<ComprobacionCadena['rotura']>;

const PAGINA = 2000;

const unesc = (v: string) => v.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** The text of the first `<sf:name>` inside `xml` (unescaped), or null. */
function valor(xml: string, name: string): string | null {
  const m = new RegExp(`<sf:${name}>([^<]*)</sf:${name}>`).exec(xml);
  return m ? unesc(m[1]) : null;
}

function bloque(xml: string, name: string): string {
  return new RegExp(`<sf:${name}>([\\s\\S]*?)</sf:${name}>`).exec(xml)?.[1] ?? '';
}

/** Whether the record's XML says what its columns say (the fields of the hash, the link and its own huella). */
function xmlCoincide(clave: string, r: Fila): boolean {
  const emisor = nifDeCadena(clave);
  const alta = r.tipo === 'alta';
  const id = bloque(r.xml, 'IDFactura');
  const sufijo = alta ? '' : 'Anulada';
  const enc = bloque(r.xml, 'Encadenamiento');
  const propia = /<sf:TipoHuella>01<\/sf:TipoHuella><sf:Huella>([^<]*)<\/sf:Huella>/.exec(r.xml)?.[1];
  const checks: [string | null | undefined, string | null][] = [
    [valor(id, `IDEmisorFactura${sufijo}`), emisor],
    [valor(id, `NumSerieFactura${sufijo}`), r.num_serie],
    [valor(id, `FechaExpedicionFactura${sufijo}`), r.fecha_expedicion],
    [valor(enc, 'Huella') ?? '', r.huella_anterior],
    [valor(r.xml, 'FechaHoraHusoGenRegistro'), r.fecha_hora_huso],
    [propia, r.huella],
  ];
  if (alta) {
    // TipoFactura / CuotaTotal / ImporteTotal appear once, outside the blocks read above.
    checks.push([valor(r.xml, 'TipoFactura'), r.tipo_factura], [valor(r.xml, 'CuotaTotal'), r.cuota_total], [valor(r.xml, 'ImporteTotal'), r.importe_total]);
  }
  return checks.every(([a, b]) => a === b);
}

function huellaRecalculada(clave: string, r: Fila): string {
  const emisor = nifDeCadena(clave);
  if (r.tipo === 'alta') {
    const c: HuellaAlta = {
      IDEmisorFactura: emisor,
      NumSerieFactura: r.num_serie,
      FechaExpedicionFactura: r.fecha_expedicion,
      TipoFactura: (r.tipo_factura ?? '') as TipoFactura,
      CuotaTotal: r.cuota_total ?? '',
      ImporteTotal: r.importe_total ?? '',
      Huella: r.huella_anterior,
      FechaHoraHusoGenRegistro: r.fecha_hora_huso,
    };
    return huellaDe(c);
  }
  const c: HuellaAnulacion = {
    IDEmisorFacturaAnulada: emisor,
    NumSerieFacturaAnulada: r.num_serie,
    FechaExpedicionFacturaAnulada: r.fecha_expedicion,
    Huella: r.huella_anterior,
    FechaHoraHusoGenRegistro: r.fecha_hora_huso,
  };
  return huellaDe(c);
}

/** The check of one issuer's chain. */
export async function comprobarCadena(db: Kysely<Database>, emisor: string): Promise<ComprobacionCadena & { emisor: string }> {
  const { n } = await db
    .selectFrom('registros_facturacion')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('emisor', '=', emisor)
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const cabeza = await db.selectFrom('registros_cadena').select(['ultimo_orden', 'ultima_huella']).where('emisor', '=', emisor).executeTakeFirst();
  const resultado = (rotura: Rotura | null) => ({ emisor, total, correcto: rotura === null, rotura });
  let previa: Fila | null = null;
  let desde = 0;
  for (;;) {
    const filas = (await db
      .selectFrom('registros_facturacion')
      .select([
        'id', 'orden', 'tipo', 'num_serie', 'fecha_expedicion', 'tipo_factura', 'cuota_total', 'importe_total', 'huella_anterior', 'huella',
        'fecha_hora_huso', 'xml',
      ])
      .where('emisor', '=', emisor)
      .where('orden', '>', desde)
      .orderBy('orden')
      .limit(PAGINA)
      .execute()) as Fila[];
    for (const r of filas) {
      const rotura = (motivo: string): Rotura => ({ id: r.id, orden: r.orden, num_serie: r.num_serie, motivo });
      const esperado = (previa?.orden ?? 0) + 1;
      if (r.orden !== esperado) return resultado(rotura(`Falta el registro número ${esperado} de la cadena: tras el ${esperado - 1} viene el ${r.orden}`));
      if (r.huella_anterior !== (previa?.huella ?? '')) return resultado(rotura('La huella anterior del registro no es la huella del registro anterior'));
      if (!/^[0-9A-F]{64}$/.test(r.huella) || huellaRecalculada(emisor, r) !== r.huella) {
        return resultado(rotura('La huella no corresponde a los datos del registro: el registro se ha modificado'));
      }
      if (!xmlCoincide(emisor, r)) return resultado(rotura('El XML del registro no coincide con sus datos: el registro se ha modificado'));
      previa = r;
    }
    if (filas.length < PAGINA) break;
    desde = filas[filas.length - 1].orden;
  }
  // The head must point at the last record: records missing at the end (or a head moved by hand) show here.
  const ultimo = previa as Fila | null;
  if (cabeza && (Number(cabeza.ultimo_orden) !== (ultimo?.orden ?? 0) || cabeza.ultima_huella !== (ultimo?.huella ?? ''))) {
    return resultado({
      id: ultimo?.id ?? 0,
      orden: Number(cabeza.ultimo_orden),
      num_serie: ultimo?.num_serie ?? '',
      motivo: `La cadena termina en el registro ${ultimo?.orden ?? 0} pero su cabecera dice ${cabeza.ultimo_orden}: faltan registros o se han modificado`,
    });
  }
  return resultado(null);
}

/** Every issuer's chain (one, unless the company's NIF changed), by NIF. */
export async function comprobarCadenas(db: Kysely<Database>): Promise<(ComprobacionCadena & { emisor: string })[]> {
  const cabezas = await db.selectFrom('registros_cadena').select('emisor').execute();
  const conRegistros = await db.selectFrom('registros_facturacion').select('emisor').distinct().execute();
  const emisores = [...new Set([...cabezas, ...conRegistros].map((r) => r.emisor))].sort();
  const out: (ComprobacionCadena & { emisor: string })[] = [];
  for (const e of emisores) out.push(await comprobarCadena(db, e));
  return out;
}
