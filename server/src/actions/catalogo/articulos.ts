import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { IMPUESTO_NOMBRE, MESSAGES, TIPOS_POR_IMPUESTO, TIPO_IVA_LABEL, TOASTS, articuloSchema, isValidEan } from 'shared/domain';
import type { Articulo, FieldErrors, ModuleFlags, Schema, TipoIva } from 'shared/domain';
import type { ArticuloRow, Database, NewArticulo } from '../../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation, listSchema, paging } from '../comun.ts';
import { ActionError, defineAction, fail, invalidFields } from '../registry.ts';
import { NEW_ARTICULO, withDerived } from '../../catalogo/derivados.ts';
import { ARTICULO_COLUMNS, ORDEN_ARTICULOS, findByBarras, listArticulos } from './consulta.ts';
import { readFlags } from './flags.ts';
import { readConfiguracion } from '../configuracion.ts';
import { cifrasArticulo, stockPorAlmacen } from './stock.ts';

const listInput = {
  ...listSchema(ORDEN_ARTICULOS),
  familia_id: { type: 'int', min: 1 },
  subfamilia_id: { type: 'int', min: 1 },
  marca_id: { type: 'int', min: 1 },
  activo: { type: 'enum', values: ['0', '1'] },
  barras: { type: 'string', max: 50 },
} as const satisfies Schema;

const editInput = { id: { type: 'int', min: 1 }, ...articuloSchema } satisfies Schema;
const deleteInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

/** The full record: every column, the names of its familia, subfamilia and marca, its links and its figures. */
export async function readArticulo(db: Kysely<Database>, id: number): Promise<Articulo | undefined> {
  const row = await db
    .selectFrom('articulos as a')
    .leftJoin('familias as f', 'f.id', 'a.familia_id')
    .leftJoin('subfamilias as s', 's.id', 'a.subfamilia_id')
    .leftJoin('marcas as m', 'm.id', 'a.marca_id')
    .select(ARTICULO_COLUMNS.map((c) => `a.${c}` as const))
    .select(['f.nombre as familia_nombre', 's.nombre as subfamilia_nombre', 'm.nombre as marca_nombre'])
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const stock = await stockPorAlmacen(db, id);
  const cifras = await cifrasArticulo(db, id);
  const materiales = await db.selectFrom('articulo_materiales').select('material_id').where('articulo_id', '=', id).orderBy('material_id').execute();
  const procesos = await db.selectFrom('articulo_procesos').select('proceso_id').where('articulo_id', '=', id).orderBy('proceso_id').execute();
  const componentes = await db
    .selectFrom('articulo_componentes as c')
    .innerJoin('articulos as x', 'x.id', 'c.componente_id')
    .select(['c.componente_id', 'x.codigo', 'x.descripcion', 'c.cantidad'])
    .where('c.articulo_id', '=', id)
    .orderBy('x.codigo')
    .execute();
  const proporciones = await db
    .selectFrom('articulo_proporciones as p')
    .innerJoin('materiales as mt', 'mt.id', 'p.material_id')
    .select(['p.material_id', 'mt.nombre', 'p.porcentaje'])
    .where('p.articulo_id', '=', id)
    .orderBy('p.porcentaje', 'desc')
    .orderBy('p.material_id')
    .execute();
  return {
    ...row,
    ...cifras,
    stock,
    // The sum of the warehouses' ledgers; equal to the column the list shows (kept by triggers).
    stock_total: stock.reduce((s, a) => s + a.stock, 0),
    materiales: materiales.map((m) => m.material_id),
    procesos: procesos.map((p) => p.proceso_id),
    componentes,
    proporciones,
  };
}

type Links = {
  materiales?: number[];
  procesos?: number[];
  componentes?: { componente_id: number; cantidad: number }[];
  proporciones?: { material_id: number; porcentaje: number }[];
};

const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const toInt = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
};

/** The links the request carries, for the flags that are on; malformed lists are field errors. */
function readLinks(raw: Record<string, unknown>, flags: ModuleFlags, errors: FieldErrors): Links {
  const links: Links = {};
  const idList = (key: 'materiales' | 'procesos') => {
    const v = raw[key];
    if (v === null || v === '') return [];
    const ids = Array.isArray(v) ? v.map(toInt) : null;
    if (!ids?.every(isId)) {
      errors[key] = MESSAGES.invalidList;
      return undefined;
    }
    return [...new Set(ids as number[])];
  };
  if (flags.materiales && 'materiales' in raw) links.materiales = idList('materiales');
  if (flags.procesos && 'procesos' in raw) links.procesos = idList('procesos');
  const pairs = <K extends string, V extends string>(key: string, idKey: K, valueKey: V) => {
    const v = raw[key];
    if (v === null || v === '') return [];
    if (!Array.isArray(v) || !v.every((x) => x && typeof x === 'object')) {
      errors[key] = MESSAGES.invalidList;
      return undefined;
    }
    return v.map((x: Record<string, unknown>) => ({ [idKey]: toInt(x[idKey]), [valueKey]: toInt(x[valueKey]) })) as (Record<K, number | null> &
      Record<V, number | null>)[];
  };
  if (flags.compuestos && 'componentes' in raw) {
    const list = pairs('componentes', 'componente_id', 'cantidad');
    if (list) {
      const ids = list.map((c) => c.componente_id);
      if (!ids.every(isId)) errors.componentes = MESSAGES.invalidList;
      else if (new Set(ids).size !== ids.length) errors.componentes = MESSAGES.componenteRepeated;
      else if (list.some((c) => c.cantidad === null || c.cantidad <= 0)) errors.componentes = MESSAGES.componenteCantidad;
      else links.componentes = list as { componente_id: number; cantidad: number }[];
    }
  }
  if (flags.proporciones && 'proporciones' in raw) {
    const list = pairs('proporciones', 'material_id', 'porcentaje');
    if (list) {
      const ids = list.map((p) => p.material_id);
      if (!ids.every(isId) || new Set(ids).size !== ids.length) errors.proporciones = MESSAGES.proporcionMaterial;
      else if (list.some((p) => p.porcentaje === null || p.porcentaje <= 0)) errors.proporciones = MESSAGES.proporcionPorcentaje;
      else if (list.length > 0 && list.reduce((s, p) => s + p.porcentaje!, 0) !== 10000) errors.proporciones = MESSAGES.proporcionesTotal;
      else links.proporciones = list as { material_id: number; porcentaje: number }[];
    }
  }
  return links;
}

type EditValues = Omit<NewArticulo, 'id'>;

/** Fields a request may set; tariffs 2/3 and the web fields only with their flags. PVPs are never typed in. */
function settableFields(flags: ModuleFlags): (keyof EditValues)[] {
  const fields: (keyof EditValues)[] = [
    'codigo', 'referencia', 'descripcion', 'descripcion_larga', 'unidad_medida', 'familia_id', 'subfamilia_id', 'marca_id',
    'precio_compra', 'precio_venta', 'tipo_iva', 'operacion', 'palabras_clave', 'nombre_tpv', 'codigo_barras', 'tiempo', 'stock_minimo', 'activo', 'foto',
  ];
  if (flags.tarifa_2) fields.push('tarifa_2');
  if (flags.tarifa_3) fields.push('tarifa_3');
  if (flags.seo) fields.push('seo_slug', 'seo_titulo', 'seo_descripcion');
  return fields;
}

const PRICE_FIELDS = new Set(['precio_compra', 'precio_venta', 'tarifa_2', 'tarifa_3']);

/** Checks against the database: unique code and barcode, existing masters, a subfamilia of the familia, kits without cycles. */
async function checkArticulo(trx: Transaction<Database>, id: number | null, v: EditValues, links: Links, errors: FieldErrors) {
  const clash = await trx
    .selectFrom('articulos')
    .select('id')
    .where('codigo', '=', v.codigo)
    .$if(id !== null, (q) => q.where('id', '<>', id!))
    .executeTakeFirst();
  if (clash) errors.codigo = MESSAGES.duplicated;
  if (v.codigo_barras) {
    if (!isValidEan(v.codigo_barras)) errors.codigo_barras = MESSAGES.eanCheckDigit;
    else {
      const barras = await trx
        .selectFrom('articulos')
        .select('id')
        .where('codigo_barras', '=', v.codigo_barras)
        .$if(id !== null, (q) => q.where('id', '<>', id!))
        .executeTakeFirst();
      if (barras) errors.codigo_barras = MESSAGES.duplicated;
    }
  }
  if (v.familia_id != null && !(await trx.selectFrom('familias').select('id').where('id', '=', v.familia_id).executeTakeFirst())) {
    errors.familia_id = MESSAGES.unknownElement;
  }
  if (v.marca_id != null && !(await trx.selectFrom('marcas').select('id').where('id', '=', v.marca_id).executeTakeFirst())) {
    errors.marca_id = MESSAGES.unknownElement;
  }
  if (v.subfamilia_id != null) {
    const sub = await trx.selectFrom('subfamilias').select('familia_id').where('id', '=', v.subfamilia_id).executeTakeFirst();
    if (!sub) errors.subfamilia_id = MESSAGES.unknownElement;
    else if (v.familia_id == null) errors.subfamilia_id = MESSAGES.subfamiliaNeedsFamilia;
    else if (sub.familia_id !== v.familia_id) errors.subfamilia_id = MESSAGES.subfamiliaOtherFamilia;
  }
  const allExist = async (table: 'materiales' | 'procesos' | 'articulos', ids: number[]) => {
    if (!ids.length) return true;
    const found = await trx.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'in', ids).executeTakeFirstOrThrow();
    return Number(found.n) === ids.length;
  };
  if (links.materiales && !(await allExist('materiales', links.materiales))) errors.materiales = MESSAGES.unknownElement;
  if (links.procesos && !(await allExist('procesos', links.procesos))) errors.procesos = MESSAGES.unknownElement;
  if (links.proporciones && !(await allExist('materiales', links.proporciones.map((p) => p.material_id)))) {
    errors.proporciones = MESSAGES.unknownElement;
  }
  if (links.componentes?.length) {
    const ids = links.componentes.map((c) => c.componente_id);
    if (id !== null && ids.includes(id)) errors.componentes = MESSAGES.componenteSelf;
    else if (!(await allExist('articulos', ids))) errors.componentes = MESSAGES.unknownElement;
    else if (id !== null && (await reaches(trx, ids, id))) errors.componentes = MESSAGES.componenteCycle;
  }
}

/** Whether `target` is among the components of `from`, at any depth. */
async function reaches(trx: Transaction<Database>, from: number[], target: number): Promise<boolean> {
  const res = await sql<{ hit: number }>`with recursive sub(id) as (
      select componente_id from articulo_componentes where articulo_id in (${sql.join(from)})
      union
      select c.componente_id from articulo_componentes c join sub on c.articulo_id = sub.id
    ) select 1 as hit from sub where id = ${target} limit 1`.execute(trx);
  return res.rows.length > 0;
}

/** Replaces the links the request carried (absent lists stay as they are). */
async function writeLinks(trx: Transaction<Database>, id: number, links: Links) {
  if (links.materiales) {
    await trx.deleteFrom('articulo_materiales').where('articulo_id', '=', id).execute();
    if (links.materiales.length) {
      await trx.insertInto('articulo_materiales').values(links.materiales.map((material_id) => ({ articulo_id: id, material_id }))).execute();
    }
  }
  if (links.procesos) {
    await trx.deleteFrom('articulo_procesos').where('articulo_id', '=', id).execute();
    if (links.procesos.length) {
      await trx.insertInto('articulo_procesos').values(links.procesos.map((proceso_id) => ({ articulo_id: id, proceso_id }))).execute();
    }
  }
  if (links.componentes) {
    await trx.deleteFrom('articulo_componentes').where('articulo_id', '=', id).execute();
    if (links.componentes.length) {
      await trx.insertInto('articulo_componentes').values(links.componentes.map((c) => ({ articulo_id: id, ...c }))).execute();
    }
  }
  if (links.proporciones) {
    await trx.deleteFrom('articulo_proporciones').where('articulo_id', '=', id).execute();
    if (links.proporciones.length) {
      await trx.insertInto('articulo_proporciones').values(links.proporciones.map((p) => ({ articulo_id: id, ...p }))).execute();
    }
  }
}

/** Which unique column a violation is about. */
const uniqueField = (err: unknown) => (/barras/.test(String((err as Error)?.message) + String((err as { detail?: string })?.detail)) ? 'codigo_barras' : 'codigo');

export const articuloActionList = [
  defineAction({
    name: 'listadoarticulos',
    method: 'GET',
    input: listInput,
    // Without «ver precios de compra y márgenes» no answer carries the costs (the dispatcher: auth/costes.ts).
    async handler({ input, app }) {
      if (input.id !== null) {
        const articulo = await readArticulo(app.db, input.id);
        if (!articulo) throw fail(MESSAGES.notFound, '3');
        return { RESULT: '0', data: [articulo], total: 1 };
      }
      if (input.barras) {
        const rows = await findByBarras(app.db, input.barras);
        return { RESULT: '0', data: rows, total: rows.length };
      }
      const { limit, offset, dir } = paging(input);
      const { rows, total } = await listArticulos(app.db, app.dialect, {
        filtro: {
          q: input.q,
          familia_id: input.familia_id,
          subfamilia_id: input.subfamilia_id,
          marca_id: input.marca_id,
          activo: input.activo === null ? null : (Number(input.activo) as 0 | 1),
        },
        orden: input.orden ?? 'codigo',
        dir,
        limit,
        offset,
      });
      return { RESULT: '0', data: rows, total };
    },
  }),

  defineAction({
    name: 'editararticulo',
    method: 'POST',
    input: editInput,
    async handler({ input, raw, app }) {
      let id: number;
      try {
        id = await app.db.transaction().execute(async (trx) => {
          const flags = await readFlags(trx);
          const errors: FieldErrors = {};
          const links = readLinks(raw, flags, errors);
          let current: Omit<ArticuloRow, 'id' | 'stock_total' | 'coste_medio'> | undefined;
          if (input.id !== null) {
            current = await trx
              .selectFrom('articulos')
              .select(ARTICULO_COLUMNS.filter((c) => c !== 'id' && c !== 'stock_total'))
              .select(['busqueda', 'orden_descripcion'])
              .where('id', '=', input.id)
              .executeTakeFirst();
            if (!current) throw fail(MESSAGES.notFound, '3');
          }
          // A new article starts from the defaults; an update changes only the fields the request carried.
          const next: Record<string, unknown> = { ...NEW_ARTICULO, ...current };
          for (const field of settableFields(flags) as string[]) {
            if (current && !(field in raw)) continue;
            // A new article is active unless the request says otherwise.
            if (field === 'activo' && !(field in raw)) continue;
            const value = (input as Record<string, unknown>)[field];
            next[field] = value === null && (PRICE_FIELDS.has(field) || field === 'stock_minimo') ? 0 : value;
          }
          // Issue 16: the types of the company's tax (IVA, IGIC, IPSI); a new article without one takes its general type.
          const impuesto = (await readConfiguracion(app))?.impuesto ?? 'iva';
          const tipos: readonly string[] = TIPOS_POR_IMPUESTO[impuesto];
          if (!current && !('tipo_iva' in raw)) next.tipo_iva = tipos[0];
          else if ('tipo_iva' in raw && !tipos.includes(String(next.tipo_iva)))
            errors.tipo_iva = `La empresa factura con ${IMPUESTO_NOMBRE[impuesto]}: elija uno de sus tipos (${tipos.map((t) => TIPO_IVA_LABEL[t as TipoIva]).join(', ')})`;
          const values: EditValues = withDerived(next as EditValues & { tipo_iva: TipoIva; precio_venta: number; tarifa_2: number; tarifa_3: number });
          await checkArticulo(trx, input.id, values, links, errors);
          if (Object.keys(errors).length) throw invalidFields(errors);

          let saved: number;
          if (input.id === null) {
            const created = await trx.insertInto('articulos').values(values).returning('id').executeTakeFirstOrThrow();
            saved = created.id;
          } else {
            saved = input.id;
            await trx.updateTable('articulos').set(values).where('id', '=', saved).execute();
          }
          await writeLinks(trx, saved, links);
          return saved;
        });
      } catch (err) {
        if (err instanceof ActionError) throw err;
        if (isUniqueViolation(err)) throw invalidFields({ [uniqueField(err)]: MESSAGES.duplicated });
        throw err;
      }
      const articulo = await readArticulo(app.db, id);
      return { RESULT: '0', data: [articulo] };
    },
  }),

  defineAction({
    name: 'eliminararticulo',
    method: 'POST',
    input: deleteInput,
    async handler({ input, app }) {
      const run = app.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('articulos').select('id').where('id', '=', input.id).executeTakeFirst();
        if (!row) throw fail(MESSAGES.notFound, '3');
        const moved = await trx.selectFrom('stock_movimientos').select('id').where('articulo_id', '=', input.id).limit(1).executeTakeFirst();
        const inKit = await trx.selectFrom('articulo_componentes').select('articulo_id').where('componente_id', '=', input.id).limit(1).executeTakeFirst();
        if (moved || inKit) throw fail(TOASTS.associated.text, '2');
        for (const table of ['articulo_materiales', 'articulo_procesos', 'articulo_componentes', 'articulo_proporciones', 'articulo_ubicaciones'] as const) {
          await trx.deleteFrom(table).where('articulo_id', '=', input.id).execute();
        }
        await trx.deleteFrom('articulos').where('id', '=', input.id).execute();
        return { RESULT: '0' as const, data: [{ id: input.id }] };
      });
      // Documents written meanwhile (their lines refer to the article) make the foreign key refuse it.
      return run.catch((err: unknown) => {
        throw isForeignKeyViolation(err) ? fail(TOASTS.associated.text, '2') : err;
      });
    },
  }),
];
