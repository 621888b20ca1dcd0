import type { Kysely } from 'kysely';
import { MESSAGES } from 'shared/domain';
import type { FieldErrors, PaginaTpv, TipoIva } from 'shared/domain';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { fail, invalidFields } from '../errors.ts';
import { entero } from './comun.ts';

/**
 * The till's pages of buttons (issue 13): per terminal or shared (terminal_id null); a terminal with pages of its
 * own shows those, else the shared ones. Saved as a whole set, replacing the previous one.
 */

/** The pages of a set (terminal_id null: the shared one), with each button's label and price. */
async function leerPaginas(db: Kysely<Database>, terminalId: number | null): Promise<PaginaTpv[]> {
  const paginas = await db
    .selectFrom('tpv_paginas')
    .select(['id', 'orden', 'nombre', 'familia_id', 'color'])
    .$if(terminalId === null, (q) => q.where('terminal_id', 'is', null))
    .$if(terminalId !== null, (q) => q.where('terminal_id', '=', terminalId!))
    .orderBy('orden')
    .execute();
  if (!paginas.length) return [];
  const botones = await db
    .selectFrom('tpv_botones as b')
    .innerJoin('articulos as a', 'a.id', 'b.articulo_id')
    .select(['b.pagina_id', 'b.posicion', 'b.articulo_id', 'b.color', 'b.etiqueta', 'a.nombre_tpv', 'a.descripcion', 'a.codigo', 'a.pvp_1', 'a.tipo_iva'])
    .where('b.pagina_id', 'in', paginas.map((p) => p.id))
    .orderBy('b.pagina_id')
    .orderBy('b.posicion')
    .execute();
  return paginas.map((p) => ({
    ...p,
    botones: botones
      .filter((b) => b.pagina_id === p.id)
      .map((b) => ({
        posicion: b.posicion,
        articulo_id: b.articulo_id,
        color: b.color,
        // The button's own label, else the article's «Nombre en el TPV», else its description.
        etiqueta: b.etiqueta?.trim() || b.nombre_tpv?.trim() || b.descripcion,
        codigo: b.codigo,
        precio: Number(b.pvp_1) * 100,
        tipo_iva: b.tipo_iva as TipoIva,
      })),
  }));
}

/** listadobotonestpv: the pages a terminal shows (its own, else the shared ones); `null`: the shared set. */
export async function respuesta(db: Kysely<Database>, terminalId: number | null) {
  const propias = terminalId !== null ? await leerPaginas(db, terminalId) : [];
  const paginas = terminalId !== null && propias.length ? propias : await leerPaginas(db, null);
  return { terminal_id: terminalId, propias: (propias.length ? 1 : 0) as 0 | 1, paginas };
}

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** editarbotonestpv: the set of pages (`raw.paginas`) replaces the terminal's (or the shared one), in one transaction. */
export async function guardarBotones(app: AppContext, terminalId: number | null, raw: Record<string, unknown>) {
  const errors: FieldErrors = {};
  if (!Array.isArray(raw.paginas)) throw invalidFields({ paginas: MESSAGES.required });
  type P = { nombre: string; familia_id: number | null; color: string | null; botones: { posicion: number; articulo_id: number; color: string | null; etiqueta: string | null }[] };
  const paginas: P[] = [];
  const articulos = new Set<number>();
  const familias = new Set<number>();
  raw.paginas.forEach((item, i) => {
    const p = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const nombre = typeof p.nombre === 'string' ? p.nombre.trim() : '';
    if (!nombre || nombre.length > 40) errors[`paginas.${i}.nombre`] = MESSAGES.required;
    const familia = p.familia_id === undefined || p.familia_id === null || p.familia_id === '' ? null : entero(p.familia_id);
    if (familia !== null) familias.add(familia);
    const color = typeof p.color === 'string' && p.color ? p.color : null;
    if (color && !COLOR.test(color)) errors[`paginas.${i}.color`] = 'Color no válido (#rrggbb).';
    const botones: P['botones'] = [];
    const posiciones = new Set<number>();
    (Array.isArray(p.botones) ? p.botones : []).forEach((bi, j) => {
      const b = (bi && typeof bi === 'object' ? bi : {}) as Record<string, unknown>;
      const posicion = entero(b.posicion);
      const articulo = entero(b.articulo_id);
      if (posicion === null || posicion < 0 || posicion > 999 || posiciones.has(posicion)) errors[`paginas.${i}.botones.${j}.posicion`] = 'Posición no válida o repetida.';
      if (articulo === null || articulo < 1) errors[`paginas.${i}.botones.${j}.articulo_id`] = MESSAGES.required;
      const bc = typeof b.color === 'string' && b.color ? b.color : null;
      if (bc && !COLOR.test(bc)) errors[`paginas.${i}.botones.${j}.color`] = 'Color no válido (#rrggbb).';
      const etiqueta = typeof b.etiqueta === 'string' && b.etiqueta.trim() ? b.etiqueta.trim().slice(0, 30) : null;
      if (posicion !== null) posiciones.add(posicion);
      if (articulo !== null) articulos.add(articulo);
      botones.push({ posicion: posicion ?? 0, articulo_id: articulo ?? 0, color: bc, etiqueta });
    });
    paginas.push({ nombre, familia_id: familia, color, botones });
  });
  await app.db.transaction().execute(async (trx) => {
    if (terminalId !== null) {
      const t = await trx.selectFrom('tpv_terminales').select('id').where('id', '=', terminalId).executeTakeFirst();
      if (!t) throw fail(MESSAGES.notFound, '3');
    }
    if (articulos.size) {
      const hay = await trx.selectFrom('articulos').select('id').where('id', 'in', [...articulos]).execute();
      const ok = new Set(hay.map((a) => a.id));
      for (const [i, p] of paginas.entries()) {
        for (const [j, b] of p.botones.entries()) {
          if (b.articulo_id && !ok.has(b.articulo_id)) errors[`paginas.${i}.botones.${j}.articulo_id`] = MESSAGES.notFound;
        }
      }
    }
    if (familias.size) {
      const hay = new Set((await trx.selectFrom('familias').select('id').where('id', 'in', [...familias]).execute()).map((f) => f.id));
      paginas.forEach((p, i) => {
        if (p.familia_id !== null && !hay.has(p.familia_id)) errors[`paginas.${i}.familia_id`] = MESSAGES.notFound;
      });
    }
    if (Object.keys(errors).length) throw invalidFields(errors);
    const viejas = await trx
      .selectFrom('tpv_paginas')
      .select('id')
      .$if(terminalId === null, (q) => q.where('terminal_id', 'is', null))
      .$if(terminalId !== null, (q) => q.where('terminal_id', '=', terminalId!))
      .execute();
    if (viejas.length) {
      await trx.deleteFrom('tpv_botones').where('pagina_id', 'in', viejas.map((v) => v.id)).execute();
      await trx.deleteFrom('tpv_paginas').where('id', 'in', viejas.map((v) => v.id)).execute();
    }
    for (const [orden, p] of paginas.entries()) {
      const { id } = await trx
        .insertInto('tpv_paginas')
        .values({ terminal_id: terminalId, orden, nombre: p.nombre, familia_id: p.familia_id, color: p.color })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (p.botones.length) await trx.insertInto('tpv_botones').values(p.botones.map((b) => ({ ...b, pagina_id: id }))).execute();
    }
  });
  return respuesta(app.db, terminalId);
}
