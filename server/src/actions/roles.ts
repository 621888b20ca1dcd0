import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { MESSAGES, normalizarDerechos, rolSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { nowIso } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { rolDesdeFila } from '../auth/roles.ts';
import { limpiarNombre, plegarNombre } from '../auth/nombres.ts';
import { comprobarEditarRol } from '../auth/promocion.ts';
import { contains, isForeignKeyViolation, listSchema, listado, uniqueOr } from './comun.ts';
import { defineAction, fail, invalidFields } from './registry.ts';

const listInput = { ...listSchema(['nombre', 'usuarios'] as const), predefinido: { type: 'enum', values: ['0', '1'] } } as const satisfies Schema;
const editInput = { id: { type: 'int', min: 1 }, ...rolSchema } as const satisfies Schema;
const deleteInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

const duplicatedName = () => invalidFields({ nombre: MESSAGES.duplicated });

/** Roles with how many users each has. */
const roles = (db: Kysely<Database>) =>
  db
    .selectFrom('roles as r')
    .select(['r.id', 'r.nombre', 'r.clave', 'r.predefinido', 'r.derechos'])
    .select(sql<number>`(select count(*) from usuarios u where u.rol_id = r.id)`.as('usuarios'));

const leerRol = async (db: Kysely<Database>, id: number) => {
  const r = await roles(db).where('r.id', '=', id).executeTakeFirst();
  return r ? rolDesdeFila(r, Number(r.usuarios)) : undefined;
};

/**
 * Another role already called `nombre`, or a name that looks the same (auth/nombres.ts: a Cyrillic «і», a zero-width
 * space, another case). A shop has a handful of roles: they are compared here, not in SQL.
 */
async function nombreTomado(db: Kysely<Database>, nombre: string, exceptId: number | null): Promise<boolean> {
  const clave = plegarNombre(nombre);
  const filas = await db.selectFrom('roles').select(['id', 'nombre']).execute();
  return filas.some((r) => r.id !== exceptId && plegarNombre(r.nombre) === clave);
}

/**
 * Roles (shared/domain/roles.ts): the five built-in ones are read-only (a copy is a new role), the rest a name and
 * rights. A user's role is read on every request, so a change applies to their next one.
 */
export const rolActions = [
  defineAction({
    name: 'listadoroles',
    method: 'GET',
    input: listInput,
    async handler({ input, app }) {
      // biome-ignore lint/suspicious/noExplicitAny: the same filters on the count and on the page
      const filtrar = <Q extends { where: (...a: any[]) => Q }>(q: Q): Q => {
        let out = q;
        if (input.q) out = out.where(contains('r.nombre', input.q));
        if (input.predefinido !== null) out = out.where('r.predefinido', '=', Number(input.predefinido));
        return out;
      };
      return listado(input, {
        one: (id) => leerRol(app.db, id),
        total: async () => (await filtrar(app.db.selectFrom('roles as r')).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total,
        page: async ({ limit, offset, dir }) => {
          let q = filtrar(roles(app.db));
          // By default the built-in ones first, in their order, then the shop's by name.
          if (input.orden === 'usuarios') q = q.orderBy(sql`(select count(*) from usuarios u where u.rol_id = r.id)`, dir);
          else if (input.orden !== 'nombre') q = q.orderBy('r.predefinido', 'desc').orderBy(sql`case when r.predefinido = 1 then r.id end`);
          const rows = await q.orderBy('r.nombre', dir).orderBy('r.id').limit(limit).offset(offset).execute();
          return rows.map((r) => rolDesdeFila(r, Number(r.usuarios)));
        },
      });
    },
  }),

  defineAction({
    name: 'editarrol',
    method: 'POST',
    input: editInput,
    async handler({ input, raw, app, user }) {
      const derechos = normalizarDerechos(raw.derechos);
      if (!derechos) throw invalidFields({ derechos: MESSAGES.rolDerechosNoValidos });
      const nombre = limpiarNombre(input.nombre);
      if (!nombre) throw invalidFields({ nombre: MESSAGES.required });
      const json = JSON.stringify(derechos);
      // One transaction: the checks, the save and its audit line (a role's change is a change of rights).
      const id = await uniqueOr(duplicatedName, () =>
        app.db.transaction().execute(async (trx) => {
          if (input.id !== null) {
            const actual = await trx.selectFrom('roles').select('predefinido').where('id', '=', input.id).executeTakeFirst();
            if (!actual) throw fail(MESSAGES.notFound, '3');
            if (actual.predefinido === 1) throw fail(MESSAGES.rolPredefinidoInmutable);
          }
          await comprobarEditarRol(trx, user!, input.id, derechos);
          if (await nombreTomado(trx, nombre, input.id)) throw duplicatedName();
          if (input.id === null) {
            const created = await trx
              .insertInto('roles')
              .values({ nombre, clave: null, predefinido: 0, derechos: json, creado: nowIso() })
              .returning('id')
              .executeTakeFirstOrThrow();
            return created.id;
          }
          // Never a built-in one, even if it became one meanwhile.
          const updated = await trx.updateTable('roles').set({ nombre, derechos: json }).where('id', '=', input.id).where('predefinido', '=', 0).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw fail(MESSAGES.rolPredefinidoInmutable);
          return input.id;
        }),
      );
      return { RESULT: '0', data: [(await leerRol(app.db, id))!] };
    },
  }),

  defineAction({
    name: 'eliminarrol',
    method: 'POST',
    input: deleteInput,
    async handler({ input, app }) {
      const run = app.db.transaction().execute(async (trx) => {
        const rol = await trx.selectFrom('roles').select('predefinido').where('id', '=', input.id).executeTakeFirst();
        if (!rol) throw fail(MESSAGES.notFound, '3');
        if (rol.predefinido === 1) throw fail(MESSAGES.rolPredefinidoInmutable);
        const enUso = await trx.selectFrom('usuarios').select('id').where('rol_id', '=', input.id).limit(1).executeTakeFirst();
        if (enUso) throw fail(MESSAGES.rolEnUso, '2');
        await trx.deleteFrom('roles').where('id', '=', input.id).execute();
        return { RESULT: '0' as const, data: [{ id: input.id }] };
      });
      // A user given the role meanwhile: the foreign key refuses the delete.
      return run.catch((err: unknown) => {
        throw isForeignKeyViolation(err) ? fail(MESSAGES.rolEnUso, '2') : err;
      });
    },
  }),
];
