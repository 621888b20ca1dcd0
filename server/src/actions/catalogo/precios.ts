import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { CAMPOS_PRECIO, MESSAGES, REDONDEOS, cambiarPrecio, pvpFromNet, validate } from 'shared/domain';
import type { CampoPrecio, FieldErrors, Schema, TipoIva } from 'shared/domain';
import type { DialectName } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';
import { countArticulos, whereArticulos } from './consulta.ts';
import type { FiltroArticulos } from './consulta.ts';
import { readFlags } from './flags.ts';

const MAX_PRICE = 1_000_000_000_000n;
const MAX_IDS = 100_000;
const PREVIEW_ROWS = 100;

const cambioInput = {
  campo: { type: 'enum', required: true, values: CAMPOS_PRECIO },
  modo: { type: 'enum', required: true, values: ['porcentaje', 'importe'] },
  valor: { type: 'int', required: true, min: -1_000_000_000_000, max: 1_000_000_000_000 },
  redondeo: { type: 'enum', values: REDONDEOS },
  aplicar: { type: 'flag' },
} as const satisfies Schema;

const filtroSchema = {
  q: { type: 'string', max: 100 },
  familia_id: { type: 'int', min: 1 },
  subfamilia_id: { type: 'int', min: 1 },
  marca_id: { type: 'int', min: 1 },
  activo: { type: 'enum', values: ['0', '1'] },
} as const satisfies Schema;

/** The PVP column that follows each net price (the purchase price has none). */
const PVP_OF: Record<CampoPrecio, 'pvp_1' | 'pvp_2' | 'pvp_3' | null> = {
  precio_compra: null,
  precio_venta: 'pvp_1',
  tarifa_2: 'pvp_2',
  tarifa_3: 'pvp_3',
};

/** `ids` (chosen by hand) or `filtro` (the list's filters); one of them is required. */
function readSeleccion(raw: Record<string, unknown>): FiltroArticulos {
  if (raw.ids !== undefined && raw.ids !== null) {
    const ids = raw.ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_IDS || !ids.every((v) => Number.isSafeInteger(v) && v > 0)) {
      throw invalidFields({ ids: MESSAGES.invalidList });
    }
    return { ids: [...new Set(ids as number[])] };
  }
  const filtro = raw.filtro;
  if (!filtro || typeof filtro !== 'object' || Array.isArray(filtro)) throw invalidFields({ filtro: MESSAGES.priceSelectionEmpty });
  const checked = validate(filtroSchema, filtro);
  if (!checked.ok) throw invalidFields(Object.fromEntries(Object.entries(checked.errors).map(([k, v]) => [`filtro.${k}`, v])));
  const f = checked.value;
  return { ...f, activo: f.activo === null ? null : (Number(f.activo) as 0 | 1) };
}

type Matched = { id: number; codigo: string; descripcion: string; antes: number; tipo_iva: TipoIva };

async function matched(db: Kysely<Database>, dialect: DialectName, filtro: FiltroArticulos, campo: CampoPrecio, limit?: number) {
  const res = await sql<Matched>`select a.id, a.codigo, a.descripcion, ${sql.ref(`a.${campo}`)} as antes, a.tipo_iva
    from articulos a ${whereArticulos(dialect, filtro)} order by a.codigo ${limit ? sql`limit ${limit}` : sql``}`.execute(db);
  return res.rows;
}

/** Writes many new prices in one statement per chunk: a JSON array (SQLite) or arrays (PostgreSQL). */
async function writePrices(
  db: Kysely<Database>,
  dialect: DialectName,
  campo: CampoPrecio,
  rows: { id: number; precio: number; pvp: number }[],
) {
  const pvp = PVP_OF[campo];
  const col = sql.ref(campo);
  for (let i = 0; i < rows.length; i += 10_000) {
    const chunk = rows.slice(i, i + 10_000);
    if (dialect === 'postgres') {
      const set = pvp ? sql`${col} = v.precio, ${sql.ref(pvp)} = v.pvp` : sql`${col} = v.precio`;
      await sql`update articulos set ${set}
        from unnest(${chunk.map((r) => r.id)}::int[], ${chunk.map((r) => r.precio)}::bigint[], ${chunk.map((r) => r.pvp)}::bigint[]) as v(id, precio, pvp)
        where articulos.id = v.id`.execute(db);
    } else {
      const set = pvp ? sql`${col} = v.precio, ${sql.ref(pvp)} = v.pvp` : sql`${col} = v.precio`;
      const json = JSON.stringify(chunk.map((r) => [r.id, r.precio, r.pvp]));
      await sql`update articulos set ${set}
        from (select value ->> 0 as id, value ->> 1 as precio, value ->> 2 as pvp from json_each(${json})) as v
        where articulos.id = v.id`.execute(db);
    }
  }
}

export const precioActionList = [
  defineAction({
    name: 'cambiarprecios',
    method: 'POST',
    input: cambioInput,
    async handler({ input, raw, app }) {
      const filtro = readSeleccion(raw);
      const campo = input.campo;
      const flags = await readFlags(app.db);
      if ((campo === 'tarifa_2' && !flags.tarifa_2) || (campo === 'tarifa_3' && !flags.tarifa_3)) {
        throw fail(MESSAGES.moduleOff, '1', 403);
      }
      const redondeo = input.redondeo ?? 'ninguno';
      const nuevo = (antes: number) => cambiarPrecio(BigInt(antes), input.modo, BigInt(input.valor), redondeo);
      const tooHigh: FieldErrors = { valor: MESSAGES.invalidNumber };

      if (input.aplicar !== 1) {
        const total = await countArticulos(app.db, app.dialect, filtro);
        const rows = await matched(app.db, app.dialect, filtro, campo, PREVIEW_ROWS);
        const data = rows.map((r) => {
          const despues = nuevo(r.antes);
          if (despues > MAX_PRICE) throw invalidFields(tooHigh);
          return { id: r.id, codigo: r.codigo, descripcion: r.descripcion, antes: r.antes, despues: Number(despues) };
        });
        return { RESULT: '0', data, total };
      }

      const actualizados = await app.db.transaction().execute(async (trx) => {
        const rows = await matched(trx, app.dialect, filtro, campo);
        const pvpCol = PVP_OF[campo];
        const changes = rows.map((r) => {
          const precio = nuevo(r.antes);
          if (precio > MAX_PRICE) throw invalidFields(tooHigh);
          return { id: r.id, precio: Number(precio), pvp: pvpCol ? Number(pvpFromNet(precio, r.tipo_iva)) : 0 };
        });
        await writePrices(trx, app.dialect, campo, changes);
        return rows.length;
      });
      return { RESULT: '0', data: [{ actualizados }] };
    },
  }),

  defineAction({
    name: 'listadoprecios',
    method: 'GET',
    flags: ['listado'],
    input: { familia_id: { type: 'int', min: 1 } } as const satisfies Schema,
    async handler({ input, app }) {
      const rows = await app.db
        .selectFrom('articulos as a')
        .leftJoin('familias as f', 'f.id', 'a.familia_id')
        .select(['f.nombre as familia_nombre', 'a.codigo', 'a.descripcion', 'a.precio_venta', 'a.tarifa_2', 'a.tarifa_3'])
        .select(['a.pvp_1', 'a.pvp_2', 'a.pvp_3', 'a.tipo_iva'])
        .where('a.activo', '=', 1)
        .$if(input.familia_id !== null, (q) => q.where('a.familia_id', '=', input.familia_id!))
        // Per familia by name, articles without one at the end; within each, by code.
        .orderBy(sql`f.nombre is null`)
        .orderBy('f.nombre')
        .orderBy('f.id')
        .orderBy('a.codigo')
        .execute();
      return { RESULT: '0', data: rows, total: rows.length };
    },
  }),
];
