import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { MESSAGES, provinciaDeCodigoPostal, validarIdentificacion } from 'shared/domain';
import type { FlagName, Schema } from 'shared/domain';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { todayIn } from '../context.ts';
import { contains, deleteUnreferenced, listSchema, listado, present, taken, uniqueOr } from './comun.ts';
import { defineAction, fail, invalidFields } from './registry.ts';

// biome-ignore lint/suspicious/noExplicitAny: filters are raw SQL over aliased tables
type AnyDb = Kysely<any>;

/** The columns every party has (docs/documentos.md, "Masters that documents use"). */
const COLUMNAS_TERCERO = [
  'id', 'codigo', 'nif', 'pais', 'tipo_id', 'razon_social', 'nombre_comercial', 'direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email', 'iban',
  'forma_pago', 'retencion', 'observaciones', 'activo',
] as const;

/** What differs between proveedores and clientes: their table, flag, code prefix, extra columns and record figures. */
export type TerceroDef = {
  /** One word: listado<plural>, editar<entidad>, eliminar<entidad>. */
  entidad: string;
  plural: string;
  tabla: 'proveedores' | 'clientes';
  flags: FlagName[];
  /** Every field of editar<entidad> but id. */
  schema: Schema;
  /** New codes: 'P0001', 'C0001'. */
  prefijo: string;
  /** Integer columns beyond the common ones, with the value a new record takes when the request leaves them out. */
  enteros?: Record<string, number>;
  /** Text columns beyond the common ones (a customer's DIR3 codes), null when absent from a new record. */
  textos?: readonly string[];
  /**
   * Checks of the request against the configuration (a tariff whose flag is off) and across its fields (a public
   * administration's DIR3 codes); `raw` tells the fields the request carried. May normalise `input` in place.
   */
  validar?(input: Record<string, unknown>, app: AppContext, raw: Record<string, unknown>): Promise<void>;
  /** The record's figures (`&id=` and the answer to editar): purchases or sales per year, debt. */
  figuras(db: AnyDb, id: number, hoy: string): Promise<Record<string, unknown>>;
  /** Where a party is referenced: deleting it is refused while any row refers to it. */
  referencias: { table: keyof Database; column: string }[];
};

// biome-ignore lint/suspicious/noExplicitAny: any select query of the AnyDb above
function whereAll(q: any, filters: RawBuilder<boolean>[]): any {
  let out = q;
  for (const f of filters) out = out.where(f);
  return out;
}

/** The op.asp actions of a party master: list (with one record and its figures), edit and delete. */
export function terceroActions(def: TerceroDef) {
  const columnas = [...COLUMNAS_TERCERO, ...Object.keys(def.enteros ?? {}), ...(def.textos ?? [])];
  const select = (db: AnyDb) => db.selectFrom(`${def.tabla} as t`).select(columnas.map((c) => `t.${c}`));
  const registro = async (db: AnyDb, id: number, hoy: string) => {
    const row = await select(db).where('t.id', '=', id).executeTakeFirst();
    return row ? { ...row, ...(await def.figuras(db, id, hoy)) } : undefined;
  };
  /** The next free code of the prefix. */
  const siguienteCodigo = async (db: AnyDb): Promise<string> => {
    const rows = await db.selectFrom(def.tabla).select('codigo').where('codigo', 'like', `${def.prefijo}%`).execute();
    const patron = new RegExp(`^${def.prefijo}\\d{1,9}$`);
    const max = rows.reduce((m: number, r: { codigo: string }) => (patron.test(r.codigo) ? Math.max(m, Number(r.codigo.slice(def.prefijo.length))) : m), 0);
    return `${def.prefijo}${String(max + 1).padStart(4, '0')}`;
  };
  const listInput = {
    ...listSchema(['codigo', 'razon_social', 'nif', 'poblacion'] as const),
    activo: { type: 'enum', values: ['0', '1'] },
  } as const satisfies Schema;

  return [
    defineAction({
      name: `listado${def.plural}`,
      method: 'GET',
      flags: def.flags,
      input: listInput,
      async handler({ input, app }) {
        const db = app.db as AnyDb;
        const filters: RawBuilder<boolean>[] = [];
        if (input.q) {
          filters.push(
            sql<boolean>`(${contains('t.codigo', input.q)} or ${contains('t.nif', input.q)} or ${contains('t.razon_social', input.q)} or ${contains('t.nombre_comercial', input.q)})`,
          );
        }
        if (input.activo !== null) filters.push(sql<boolean>`t.activo = ${Number(input.activo)}`);
        const orden = `t.${input.orden ?? 'codigo'}`;
        return listado(input, {
          one: (id) => registro(db, id, todayIn(app.timeZone)),
          total: async () =>
            (await whereAll(db.selectFrom(`${def.tabla} as t`).select(sql<number>`count(*)`.as('n')), filters).executeTakeFirstOrThrow()).n,
          page: ({ limit, offset, dir }) => whereAll(select(db), filters).orderBy(orden, dir).orderBy('t.id', dir).limit(limit).offset(offset).execute(),
        });
      },
    }),

    defineAction({
      name: `editar${def.entidad}`,
      method: 'POST',
      flags: def.flags,
      input: { id: { type: 'int', min: 1 }, ...def.schema } satisfies Schema,
      // A new party, or one whose country or type is sent: its identifier is checked with the other fields, so the
      // clerk sees every error at once (a change without them is checked below against the stored ones).
      camposExtra(raw) {
        const nuevo = raw.id === undefined || raw.id === null || raw.id === '';
        if (!('nif' in raw) || !(nuevo || 'pais' in raw || 'tipo_id' in raw)) return null;
        const s = (v: unknown) => (v === undefined || v === null ? null : String(v));
        const ident = validarIdentificacion({ nif: s(raw.nif) ?? '', pais: s(raw.pais), tipo_id: s(raw.tipo_id), codigo_postal: s(raw.codigo_postal) });
        return ident.ok ? null : ident.errors;
      },
      async handler({ input: parsed, raw, app }) {
        const input = parsed as Record<string, unknown> & { id: number | null; nif: string; codigo?: string | null };
        const duplicated = (field: string) => () => invalidFields({ [field]: MESSAGES.duplicated });
        await def.validar?.(input, app, raw);
        // Parties from anywhere (issue 16): the identifier checked with its country and type, the postal code in
        // Spain only; a change that leaves some out is checked with the stored ones.
        const guardado =
          input.id === null
            ? undefined
            : ((await (app.db as AnyDb).selectFrom(def.tabla).select(['pais', 'tipo_id', 'codigo_postal']).where('id', '=', input.id).executeTakeFirst()) as
                | { pais: string | null; tipo_id: string | null; codigo_postal: string | null }
                | undefined);
        const de = (campo: 'pais' | 'tipo_id' | 'codigo_postal') => (campo in raw ? (input[campo] as string | null) : (guardado?.[campo] ?? null));
        const ident = validarIdentificacion({ nif: input.nif, pais: de('pais'), tipo_id: de('tipo_id'), codigo_postal: de('codigo_postal') });
        if (!ident.ok) throw invalidFields(ident.errors);
        input.nif = ident.nif;
        input.pais = ident.pais;
        input.tipo_id = ident.tipo_id;
        // Issue 16: a customer whose lines default to E5 (intra-EU delivery) is identified by a NIF-IVA.
        if (input.operacion === 'E5' && ident.tipo_id !== '02') throw invalidFields({ operacion: MESSAGES.operacionE5SinNifIva });
        const id = await uniqueOr(duplicated('nif'), () =>
          app.db.transaction().execute(async (trx) => {
            const db = trx as unknown as AnyDb;
            const { id: _id, ...fields } = input;
            // A new record takes every field; a change only those the request carried.
            const values: Record<string, unknown> = input.id === null ? { ...fields } : present(fields, raw);
            values.nif = input.nif;
            if (input.id === null || 'pais' in raw || 'tipo_id' in raw) {
              values.pais = input.pais;
              values.tipo_id = input.tipo_id;
            }
            // A new record is active unless the request says otherwise.
            if ('activo' in raw) values.activo = input.activo ?? 0;
            else if (input.id === null) values.activo = 1;
            for (const [campo, porDefecto] of Object.entries({ retencion: 0, ...def.enteros })) {
              if (campo in values || campo in raw || input.id === null) values[campo] = input[campo] ?? porDefecto;
            }
            if (input.id === null || 'codigo' in raw) values.codigo = input.codigo?.trim() || (await siguienteCodigo(db));
            if ((input.id === null || 'codigo_postal' in raw) && !input.provincia && input.codigo_postal && input.pais === 'ES') {
              values.provincia = provinciaDeCodigoPostal(input.codigo_postal as string);
            }
            if (await taken(db, def.tabla, 'nif', input.nif, input.id)) throw duplicated('nif')();
            if (values.codigo !== undefined && (await taken(db, def.tabla, 'codigo', values.codigo, input.id))) throw duplicated('codigo')();
            if (input.id === null) {
              const created = await db.insertInto(def.tabla).values(values).returning('id').executeTakeFirstOrThrow();
              return created.id as number;
            }
            const updated = await db.updateTable(def.tabla).set(values).where('id', '=', input.id).executeTakeFirst();
            if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.notFound, '3');
            return input.id;
          }),
        );
        return { RESULT: '0', data: [(await registro(app.db as AnyDb, id, todayIn(app.timeZone)))!] };
      },
    }),

    defineAction({
      name: `eliminar${def.entidad}`,
      method: 'POST',
      flags: def.flags,
      input: { id: { type: 'int', required: true, min: 1 } } satisfies Schema,
      handler: async ({ input, app }) => deleteUnreferenced(app.db as AnyDb, def.tabla, input.id, def.referencias),
    }),
  ];
}
