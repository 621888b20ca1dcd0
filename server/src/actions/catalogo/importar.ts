import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { IMPUESTO_NOMBRE, MESSAGES, TIPOS_POR_IMPUESTO, TIPO_IVA_LABEL, UNIDADES_MEDIDA, isValidEan, parseDecimal } from 'shared/domain';
import type { FieldErrors, Impuesto, ModuleFlags, Schema, TipoIva, UnidadMedida } from 'shared/domain';
import type { DialectName } from '../../db/index.ts';
import type { ArticuloRow, Database, NewArticulo } from '../../db/schema.ts';
import { ActionError, defineAction, fail } from '../registry.ts';
import { foldText } from '../../catalogo/busqueda.ts';
import { NEW_ARTICULO, withDerived } from '../../catalogo/derivados.ts';
import { ARTICULO_COLUMNS } from './consulta.ts';
import { readFlags } from './flags.ts';
import { readConfiguracion } from '../configuracion.ts';

/**
 * `importararticulos`: rows of a CSV file (text cells, amounts in es-ES '1.234,5678' or plain
 * '1234.5678'). Families, subfamilies and brands are matched by code (or by exact name when only the
 * name is given) and created when new; articles are matched by code, created or updated (only the
 * cells the row has). `aplicar: 0` answers each invalid row's errors; `aplicar: 1` writes everything
 * in one transaction, or nothing when any row is invalid.
 */

export const MAX_FILAS = 20_000;

const TEXT_LIMITS = {
  codigo: 30,
  descripcion: 200,
  referencia: 50,
  descripcion_larga: 5000,
  palabras_clave: 500,
  nombre_tpv: 30,
  familia_codigo: 30,
  familia_nombre: 120,
  subfamilia_codigo: 30,
  subfamilia_nombre: 120,
  marca_codigo: 30,
  marca_nombre: 120,
} as const;
const AMOUNTS = ['precio_compra', 'precio_venta', 'tarifa_2', 'tarifa_3'] as const;
type Amount = (typeof AMOUNTS)[number];
type TextField = keyof typeof TEXT_LIMITS;

type Fila = {
  text: Partial<Record<TextField, string>>;
  amounts: Partial<Record<Amount, number>>;
  tipo_iva?: TipoIva;
  unidad_medida?: UnidadMedida;
  codigo_barras?: string;
  activo?: 0 | 1;
};

/** '21 %', '21,00', 'Exento' → '21', 'exento' (as the remote does). */
function normalizarIva(v: string, impuesto: Impuesto = 'iva'): string {
  const s = v.trim().toLowerCase().replace(/\s|%/g, '');
  if (s.startsWith('exent')) return 'exento';
  const n = s.replace(/[,.]0+$/, '');
  // Issue 16: under IGIC or IPSI a rate typed as a number ('7', '9,5') is that tax's type ('igic_7', 'igic_9_5').
  return impuesto !== 'iva' && /^\d+([,.]\d+)?$/.test(n) ? `${impuesto}_${n.replace(/[,.]/, '_')}` : n;
}

/** The refusal of a type the company's tax has not (issue 16). */
function tipoNoValido(impuesto: Impuesto): string {
  if (impuesto === 'iva') return MESSAGES.invalidIva;
  const tipos = TIPOS_POR_IMPUESTO[impuesto].map((t) => (t === 'exento' ? 'exento' : TIPO_IVA_LABEL[t].replace(/^.* ([\d,]+) %$/, '$1')));
  return `El tipo de ${IMPUESTO_NOMBRE[impuesto]} debe ser ${tipos.slice(0, -1).join(', ')} o ${tipos.at(-1)}`;
}

const SI = new Set(['1', 'si', 'sí', 's', 'true', 'verdadero', 'x']);
const NO = new Set(['0', 'no', 'n', 'false', 'falso']);

/** Checks one row alone (no database). Empty cells are absent. */
function parseFila(raw: unknown, errors: FieldErrors, impuesto: Impuesto): Fila {
  const row = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const cell = (k: string): string => {
    const v = row[k];
    return typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
  };
  const fila: Fila = { text: {}, amounts: {} };
  for (const [k, max] of Object.entries(TEXT_LIMITS) as [TextField, number][]) {
    const v = cell(k);
    if (v === '') continue;
    if (v.length > max) errors[k] = MESSAGES.tooLong;
    else fila.text[k] = v;
  }
  if (!fila.text.codigo && !errors.codigo) errors.codigo = MESSAGES.required;
  if (!fila.text.descripcion && !errors.descripcion) errors.descripcion = MESSAGES.required;
  for (const k of AMOUNTS) {
    const v = cell(k);
    if (v === '') continue;
    const n = parseDecimal(v, 4);
    if (n === null || n < 0n || n > 1_000_000_000_000n) errors[k] = MESSAGES.invalidAmount;
    else fila.amounts[k] = Number(n);
  }
  const iva = cell('tipo_iva');
  if (iva) {
    const v = normalizarIva(iva, impuesto);
    if ((TIPOS_POR_IMPUESTO[impuesto] as readonly string[]).includes(v)) fila.tipo_iva = v as TipoIva;
    else errors.tipo_iva = tipoNoValido(impuesto);
  }
  const unidad = cell('unidad_medida').toLowerCase();
  if (unidad) {
    if ((UNIDADES_MEDIDA as readonly string[]).includes(unidad)) fila.unidad_medida = unidad as UnidadMedida;
    else errors.unidad_medida = MESSAGES.invalidUnidad;
  }
  const barras = cell('codigo_barras');
  if (barras) {
    if (isValidEan(barras)) fila.codigo_barras = barras;
    else errors.codigo_barras = MESSAGES.eanInvalid;
  }
  const activo = cell('activo').toLowerCase();
  if (activo) {
    if (SI.has(activo)) fila.activo = 1;
    else if (NO.has(activo)) fila.activo = 0;
    else errors.activo = MESSAGES.invalidActivo;
  }
  return fila;
}

type Maestro = { id: number; codigo: string; nombre: string };
/** A master the import will create: its code, its name and (subfamilias) the familia's code. */
type Nuevo = { codigo: string; nombre: string; familia?: string };
/** A resolved reference: an existing id, a new record's code, or nothing. */
type Ref = { id: number } | { nuevo: string } | null;

/** One parameter for a list of values: a JSON array (SQLite) or an array (PostgreSQL). */
function inList(dialect: DialectName, column: string, values: string[]) {
  return dialect === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = any(${values}::text[])`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`;
}

type Plan = {
  errores: { fila: number; errores: FieldErrors }[];
  /** Valid rows with their resolved references and the existing article, if any. */
  filas: { fila: Fila; familia: Ref; subfamilia: Ref; marca: Ref; existente?: ArticuloRow }[];
  nuevas: { familias: Map<string, Nuevo>; subfamilias: Map<string, Nuevo>; marcas: Map<string, Nuevo> };
};

/** Every check of the file against itself and the database, reading only. */
async function plan(db: Kysely<Database>, dialect: DialectName, filas: unknown[], impuesto: Impuesto = 'iva'): Promise<Plan> {
  const parsed = filas.map((raw) => {
    const errors: FieldErrors = {};
    return { fila: parseFila(raw, errors, impuesto), errors };
  });

  // Repeated inside the file: the later rows are the wrong ones.
  const seen = { codigo: new Set<string>(), barras: new Set<string>() };
  for (const { fila, errors } of parsed) {
    const codigo = fila.text.codigo;
    if (codigo) {
      if (seen.codigo.has(codigo)) errors.codigo = MESSAGES.repeatedInFile;
      seen.codigo.add(codigo);
    }
    if (fila.codigo_barras) {
      if (seen.barras.has(fila.codigo_barras)) errors.codigo_barras = MESSAGES.repeatedInFile;
      seen.barras.add(fila.codigo_barras);
    }
  }

  const existentes = new Map<string, ArticuloRow>();
  const barrasDe = new Map<string, string>();
  const codigos = [...seen.codigo];
  const barras = [...seen.barras];
  for (let i = 0; i < codigos.length; i += 5000) {
    const rows = await db
      .selectFrom('articulos')
      .select([...ARTICULO_COLUMNS, 'busqueda', 'orden_descripcion'])
      .where(inList(dialect, 'codigo', codigos.slice(i, i + 5000)))
      .execute();
    for (const r of rows) existentes.set(r.codigo, r as ArticuloRow);
  }
  for (let i = 0; i < barras.length; i += 5000) {
    const rows = await db.selectFrom('articulos').select(['codigo', 'codigo_barras']).where(inList(dialect, 'codigo_barras', barras.slice(i, i + 5000))).execute();
    for (const r of rows) barrasDe.set(r.codigo_barras!, r.codigo);
  }

  const familias = await db.selectFrom('familias').select(['id', 'codigo', 'nombre']).execute();
  const subfamilias = await db.selectFrom('subfamilias').select(['id', 'codigo', 'nombre', 'familia_id']).execute();
  const marcas = await db.selectFrom('marcas').select(['id', 'codigo', 'nombre']).execute();
  const byCode = <T extends Maestro>(rows: T[]) => new Map(rows.map((r) => [r.codigo, r]));
  const fam = byCode(familias);
  const sub = byCode(subfamilias);
  const mar = byCode(marcas);
  const famById = new Map(familias.map((f) => [f.id, f]));
  const nuevas: Plan['nuevas'] = { familias: new Map(), subfamilias: new Map(), marcas: new Map() };

  /** An existing master by code, else by its one exact name (accents and case aside), else a new one by code. */
  const resolve = (
    rows: Maestro[],
    byCodigo: Map<string, Maestro>,
    nuevos: Map<string, Nuevo>,
    codigo: string | undefined,
    nombre: string | undefined,
    field: string,
    errors: FieldErrors,
  ): Ref => {
    if (codigo) {
      const found = byCodigo.get(codigo);
      if (found) return { id: found.id };
      if (!nuevos.has(codigo)) nuevos.set(codigo, { codigo, nombre: nombre ?? codigo });
      return { nuevo: codigo };
    }
    if (!nombre) return null;
    const folded = foldText(nombre).trim();
    const matches = rows.filter((r) => foldText(r.nombre).trim() === folded);
    if (matches.length === 1) return { id: matches[0].id };
    errors[`${field}_codigo`] = MESSAGES.codigoNeeded;
    return null;
  };

  const out: Plan = { errores: [], filas: [], nuevas };
  parsed.forEach(({ fila, errors }, i) => {
    const t = fila.text;
    const existente = t.codigo ? existentes.get(t.codigo) : undefined;
    if (fila.codigo_barras) {
      const owner = barrasDe.get(fila.codigo_barras);
      if (owner !== undefined && owner !== t.codigo) errors.codigo_barras = MESSAGES.duplicated;
    }
    let familia = resolve(familias, fam, nuevas.familias, t.familia_codigo, t.familia_nombre, 'familia', errors);
    let subfamilia: Ref = null;
    if (t.subfamilia_codigo || t.subfamilia_nombre) {
      // The familia the subfamilia must belong to: the row's, else the article's current one.
      const familiaCode =
        familia === null
          ? existente?.familia_id != null
            ? famById.get(existente.familia_id)?.codigo
            : undefined
          : 'id' in familia
            ? famById.get(familia.id)!.codigo
            : familia.nuevo;
      const found = t.subfamilia_codigo ? sub.get(t.subfamilia_codigo) : undefined;
      if (found) {
        const suFamilia = famById.get(found.familia_id)!.codigo;
        // Without a familia in the row, the subfamilia brings its own.
        if (familia === null) familia = { id: found.familia_id };
        else if (familiaCode !== suFamilia) errors.subfamilia_codigo = MESSAGES.subfamiliaOtherFamilia;
        subfamilia = { id: found.id };
      } else if (t.subfamilia_codigo) {
        // A subfamilia new in this file: created by an earlier row (with its familia) or by this one.
        const previous = nuevas.subfamilias.get(t.subfamilia_codigo);
        if (previous && familia === null) {
          familia = fam.has(previous.familia!) ? { id: fam.get(previous.familia!)!.id } : { nuevo: previous.familia! };
          subfamilia = { nuevo: t.subfamilia_codigo };
        } else if (!familiaCode) errors.subfamilia_codigo = MESSAGES.subfamiliaNeedsFamilia;
        else if (previous && previous.familia !== familiaCode) errors.subfamilia_codigo = MESSAGES.subfamiliaOtherFamilia;
        else {
          if (!previous) {
            nuevas.subfamilias.set(t.subfamilia_codigo, { codigo: t.subfamilia_codigo, nombre: t.subfamilia_nombre ?? t.subfamilia_codigo, familia: familiaCode });
          }
          subfamilia = { nuevo: t.subfamilia_codigo };
        }
      } else {
        const familiaId = familiaCode === undefined ? undefined : fam.get(familiaCode)?.id;
        const candidatos = subfamilias.filter((s) => s.familia_id === familiaId);
        subfamilia = resolve(candidatos, new Map(), new Map(), undefined, t.subfamilia_nombre, 'subfamilia', errors);
      }
    }
    const marca = resolve(marcas, mar, nuevas.marcas, t.marca_codigo, t.marca_nombre, 'marca', errors);
    if (Object.keys(errors).length) out.errores.push({ fila: i + 1, errores: errors });
    else out.filas.push({ fila, familia, subfamilia, marca, existente });
  });
  return out;
}

/** Creates the new masters, then inserts and updates the articles. */
async function aplicar(trx: Transaction<Database>, p: Plan, flags: ModuleFlags, impuesto: Impuesto = 'iva') {
  const ids = { familias: new Map<string, number>(), subfamilias: new Map<string, number>(), marcas: new Map<string, number>() };
  for (const n of p.nuevas.familias.values()) {
    const r = await trx.insertInto('familias').values({ codigo: n.codigo, nombre: n.nombre, activo: 1 }).returning('id').executeTakeFirstOrThrow();
    ids.familias.set(n.codigo, r.id);
  }
  const familiaId = async (codigo: string) =>
    ids.familias.get(codigo) ?? (await trx.selectFrom('familias').select('id').where('codigo', '=', codigo).executeTakeFirstOrThrow()).id;
  for (const n of p.nuevas.subfamilias.values()) {
    const familia_id = await familiaId(n.familia!);
    const r = await trx.insertInto('subfamilias').values({ codigo: n.codigo, nombre: n.nombre, familia_id, activo: 1 }).returning('id').executeTakeFirstOrThrow();
    ids.subfamilias.set(n.codigo, r.id);
  }
  for (const n of p.nuevas.marcas.values()) {
    const r = await trx.insertInto('marcas').values({ codigo: n.codigo, nombre: n.nombre, activo: 1 }).returning('id').executeTakeFirstOrThrow();
    ids.marcas.set(n.codigo, r.id);
  }
  const idOf = (ref: Ref, map: Map<string, number>) => (ref === null ? undefined : 'id' in ref ? ref.id : map.get(ref.nuevo)!);

  const inserts: NewArticulo[] = [];
  let actualizados = 0;
  for (const { fila, familia, subfamilia, marca, existente } of p.filas) {
    // A new article without a type takes the general one of the company's tax (issue 16).
    const values: Record<string, unknown> = existente ? { ...existente } : { ...NEW_ARTICULO, tipo_iva: TIPOS_POR_IMPUESTO[impuesto][0] };
    delete values.id;
    delete values.stock_total;
    for (const [k, v] of Object.entries(fila.text)) if (!k.includes('_codigo') && !k.includes('_nombre')) values[k] = v;
    for (const [k, v] of Object.entries(fila.amounts)) {
      if ((k === 'tarifa_2' && !flags.tarifa_2) || (k === 'tarifa_3' && !flags.tarifa_3)) continue;
      values[k] = v;
    }
    if (fila.tipo_iva) values.tipo_iva = fila.tipo_iva;
    if (fila.unidad_medida) values.unidad_medida = fila.unidad_medida;
    if (fila.codigo_barras) values.codigo_barras = fila.codigo_barras;
    if (fila.activo !== undefined) values.activo = fila.activo;
    const f = idOf(familia, ids.familias);
    const s = idOf(subfamilia, ids.subfamilias);
    const m = idOf(marca, ids.marcas);
    if (f !== undefined) {
      // A new familia without a subfamilia in the row drops the old subfamilia (it was of the old familia).
      if (values.familia_id !== f && s === undefined) values.subfamilia_id = null;
      values.familia_id = f;
    }
    if (s !== undefined) values.subfamilia_id = s;
    if (m !== undefined) values.marca_id = m;
    const row = withDerived(values as NewArticulo & { tipo_iva: TipoIva; precio_venta: number; tarifa_2: number; tarifa_3: number }) as NewArticulo;
    if (existente) {
      await trx.updateTable('articulos').set(row).where('id', '=', existente.id).execute();
      actualizados++;
    } else inserts.push(row);
  }
  // Several rows per statement, well under SQLite's bound-parameter limit.
  for (let i = 0; i < inserts.length; i += 500) await trx.insertInto('articulos').values(inserts.slice(i, i + 500)).execute();
  return { creados: inserts.length, actualizados };
}

export const importarActionList = [
  defineAction({
    name: 'importararticulos',
    method: 'POST',
    // 20.000 rows of text cells.
    bodyLimit: 32 * 1024 * 1024,
    input: { aplicar: { type: 'flag' } } as const satisfies Schema,
    async handler({ input, raw, app }) {
      const filas = raw.filas;
      if (!Array.isArray(filas) || filas.length === 0) throw fail(MESSAGES.importEmpty, '1', 400);
      if (filas.length > MAX_FILAS) throw fail(MESSAGES.invalidList, '1', 400);
      const impuesto = (await readConfiguracion(app))?.impuesto ?? 'iva';
      if (input.aplicar !== 1) {
        const p = await plan(app.db, app.dialect, filas, impuesto);
        return { RESULT: '0', data: p.errores, total: filas.length };
      }
      const result = await app.db.transaction().execute(async (trx) => {
        const p = await plan(trx, app.dialect, filas, impuesto);
        if (p.errores.length) {
          // The first few, as the remote shows them next to its message; every row's errors in data.
          const errors: FieldErrors = {};
          for (const e of p.errores.slice(0, 10)) {
            for (const [campo, mensaje] of Object.entries(e.errores)) errors[`fila ${e.fila} · ${campo}`] = `Fila ${e.fila}, ${campo}: ${mensaje}`;
          }
          throw new ActionError(200, { RESULT: '1', message: MESSAGES.importHasErrors, errors, data: p.errores });
        }
        return aplicar(trx, p, await readFlags(trx), impuesto);
      });
      return { RESULT: '0', data: [result] };
    },
  }),
];
