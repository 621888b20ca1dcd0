import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { DOCUMENTO_TIPOS, DOCUMENTO_TIPOS_FISCALES, MESSAGES, conArticulo, numeroDe } from 'shared/domain';
import type { DocumentoTipo } from 'shared/domain';
import type { DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { fail } from '../errors.ts';
import { comprobarCopia } from './verificacion.ts';
import type { CopiaVerificable } from './verificacion.ts';
import { nifDeCadena } from './registro.ts';

/**
 * What a restore may never lose (docs/fiscal.md; RD 1007/2023: the records are inalterable). Every registro de
 * facturación the database holds, and every issued fiscal document (DOCUMENTO_TIPOS_FISCALES with a number), must
 * be in the backup as it is here; the chain heads and the fiscal counters may not go back. Otherwise the restore
 * is refused naming the newest thing it would lose. A new machine (an empty database, or one holding a prefix of
 * the backup's records) passes.
 *
 * Run first in the restore's transaction, before anything is deleted. On PostgreSQL the tables every emission and
 * cancellation writes are locked first: one in flight commits before the check reads, one started later waits
 * for the restore to end, so a record emitted meanwhile is never deleted unseen. SQLite runs one transaction at a
 * time.
 */

type Row = Record<string, unknown>;
export type CopiaFiscal = Record<'documentos' | 'registros_facturacion' | 'registros_cadena' | 'contadores', Row[]>;

/** What makes a record (and an issued document) the same one. */
const REGISTRO = ['emisor', 'orden', 'tipo', 'documento_id', 'num_serie', 'huella'] as const;
const DOCUMENTO = ['tipo', 'serie_id', 'ejercicio', 'numero', 'fecha', 'total'] as const;

const iguales = (copia: Row | undefined, aqui: Row, columnas: readonly string[]) =>
  !!copia && columnas.every((c) => String(copia[c] ?? '') === String(aqui[c] ?? ''));

const porClave = (rows: Row[], clave: (r: Row) => string) => new Map(rows.map((r) => [clave(r), r]));

const rellenar = (mensaje: string, valores: Record<string, string>) => mensaje.replace(/\{(\w+)\}/g, (m, k: string) => valores[k] ?? m);

export async function protegerRegistrosFiscales(trx: Transaction<Database>, copia: CopiaFiscal, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') await sql`lock table contadores, registros_cadena, registros_facturacion in share row exclusive mode`.execute(trx);

  // Issued documents, newest first; the ones the backup lacks (or holds as another document).
  const documentos = await trx
    .selectFrom('documentos as d')
    .leftJoin('series as s', 's.id', 'd.serie_id')
    .select(['d.id', 'd.tipo', 'd.serie_id', 'd.ejercicio', 'd.numero', 'd.fecha', 'd.total', 's.codigo as serie_codigo'])
    .where('d.tipo', 'in', DOCUMENTO_TIPOS_FISCALES)
    .where('d.numero', 'is not', null)
    .orderBy('d.fecha', 'desc')
    .orderBy('d.id', 'desc')
    .execute();
  const enCopia = porClave(copia.documentos, (d) => String(d.id));
  const perdidos = new Set(documentos.filter((d) => !iguales(enCopia.get(String(d.id)), d, DOCUMENTO)).map((d) => d.id));
  const nombre = (d: (typeof documentos)[number]) => {
    const def = DOCUMENTO_TIPOS[d.tipo as DocumentoTipo];
    return { documento: conArticulo(def), numero: numeroDe(def, d) };
  };

  // Records, newest first: the first the backup lacks, or holds changed, names what the restore would lose.
  const registros = await trx.selectFrom('registros_facturacion').select(['id', ...REGISTRO]).orderBy('id', 'desc').execute();
  const registrosEnCopia = porClave(copia.registros_facturacion, (r) => String(r.id));
  const registro = registros.find((r) => !iguales(registrosEnCopia.get(String(r.id)), r, REGISTRO));
  if (registro) {
    const doc = documentos.find((d) => d.id === registro.documento_id);
    const valores = doc ? nombre(doc) : { documento: 'la factura', numero: registro.num_serie };
    if (doc && perdidos.has(doc.id)) throw fail(rellenar(MESSAGES.copiaPierdeFactura, valores));
    throw fail(rellenar(MESSAGES.copiaPierdeRegistro, { ...valores, registro: registro.tipo === 'alta' ? 'alta' : 'anulación' }));
  }
  const documento = documentos.find((d) => perdidos.has(d.id));
  if (documento) throw fail(rellenar(MESSAGES.copiaPierdeNumero, nombre(documento)));

  // The chain heads and the fiscal counters: never behind the database's (numbers and places would repeat).
  const cabezas = porClave(copia.registros_cadena, (c) => String(c.emisor));
  for (const c of await trx.selectFrom('registros_cadena').select(['emisor', 'ultimo_orden', 'ultima_huella']).execute()) {
    const suya = cabezas.get(c.emisor);
    const orden = Number(suya?.ultimo_orden ?? 0);
    if (orden < Number(c.ultimo_orden) || (orden === Number(c.ultimo_orden) && suya?.ultima_huella !== c.ultima_huella)) {
      throw fail(rellenar(MESSAGES.copiaRetrocedeCadena, { emisor: c.emisor }));
    }
  }
  const clave = (c: Row) => `${c.tipo}|${c.serie_id}|${c.ejercicio}`;
  const contadoresEnCopia = porClave(copia.contadores, clave);
  const contadores = await trx
    .selectFrom('contadores as c')
    .leftJoin('series as s', 's.id', 'c.serie_id')
    .select(['c.tipo', 'c.serie_id', 'c.ejercicio', 'c.ultimo', 'c.ultima_fecha', 's.codigo as serie_codigo'])
    .where('c.tipo', 'in', DOCUMENTO_TIPOS_FISCALES)
    .execute();
  for (const c of contadores) {
    const suyo = contadoresEnCopia.get(clave(c));
    const ultimo = Number(suyo?.ultimo ?? 0);
    if (ultimo < Number(c.ultimo) || (ultimo === Number(c.ultimo) && String(suyo?.ultima_fecha ?? '') < String(c.ultima_fecha ?? ''))) {
      throw fail(rellenar(MESSAGES.copiaRetrocedeNumeracion, { serie: c.serie_codigo ?? String(c.serie_id), ejercicio: String(c.ejercicio) }));
    }
  }
}

/**
 * What a restore may never bring back changed (issue 24): the backup's records and issued documents pass the very
 * check `comprobarregistrosfacturacion` runs on the database (fiscal/verificacion.ts) — every chain whole, every
 * record's huella and XML its columns, every issued document (header, lines, desglose, `emision`) what its records
 * say. The first difference refuses the restore, naming the document (or the record); nothing is changed.
 */
export async function verificarCopia(copia: CopiaVerificable): Promise<void> {
  const fallo = await comprobarCopia(copia);
  if (!fallo?.rotura) return;
  const minuscula = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
  if (fallo.diferencia) {
    const { nombre, motivo } = fallo.diferencia;
    throw fail(rellenar(MESSAGES.copiaDocumentoAlterado, { ...nombre, motivo }));
  }
  const { orden, num_serie, motivo } = fallo.rotura;
  throw fail(rellenar(MESSAGES.copiaRegistroAlterado, { orden: String(orden), emisor: nifDeCadena(fallo.emisor), numero: num_serie, motivo: minuscula(motivo) }));
}
