import type { FlagName, Schema } from 'shared/domain';
import { ejecutarAccion } from '../documentos/acciones.ts';
import { eliminarDocumento, guardarDocumento } from '../documentos/guardar.ts';
import type { SaveInput } from '../documentos/guardar.ts';
import { FILTROS, listadoDocumentos } from '../documentos/lectura.ts';
import type { TipoRegistrado } from '../documentos/tipos.ts';
import { listSchema } from './comun.ts';
import { defineAction } from './registry.ts';
import type { Action } from './registry.ts';

/**
 * The op.asp actions of the document types, generated from each type's row of DOCUMENTO_TIPOS and its effects
 * (documentos/: the engine): listado<plural>, editar / eliminar<entidad>, and one per verb of its table.
 */

const idInput = { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema;

/** Editing a large count (20.000 lines) needs more than Fastify's 1 MiB. */
const EDIT_BODY_LIMIT = 16 * 1024 * 1024;

/** The op.asp actions of one document type: listado<plural>, editar / eliminar<entidad>, and one per verb of its table. */
export function documentoActions({ def, effects }: TipoRegistrado): Action<Schema>[] {
  const eff = effects;
  const flags = [...def.flags] as FlagName[];
  const listInput = { ...listSchema(['fecha', 'numero', 'estado'] as const), ...FILTROS, ...(effects.filtros ?? {}) } as const satisfies Schema;
  return [
    defineAction({
      name: `listado${def.plural}`,
      method: 'GET',
      flags,
      input: listInput,
      handler: async ({ input, app }) => listadoDocumentos(app, def, input),
    }),
    defineAction({
      name: `editar${def.entidad}`,
      method: 'POST',
      flags,
      input: effects.schema,
      bodyLimit: EDIT_BODY_LIMIT,
      async handler({ input, raw, app, user }) {
        const doc = await guardarDocumento(app, def, eff, input as unknown as SaveInput, raw, user!);
        return { RESULT: '0', data: [doc] };
      },
    }),
    defineAction({
      name: `eliminar${def.entidad}`,
      method: 'POST',
      flags,
      input: idInput,
      async handler({ input, app, user }) {
        await eliminarDocumento(app, def, input.id, user!);
        return { RESULT: '0', data: [{ id: input.id }] };
      },
    }),
    ...def.acciones.map((accion) =>
      defineAction({
        name: `${accion.verbo}${def.entidad}`,
        method: 'POST',
        flags: accion.flag ? [...flags, accion.flag] : flags,
        input: idInput,
        async handler({ input, raw, app, user }) {
          const doc = await ejecutarAccion(app, def, eff, accion, input.id, raw, user!);
          return { RESULT: '0', data: [doc] };
        },
      }),
    ),
  ];
}

/** The op.asp actions of several document types (a section's: tiposAlmacen, tiposCompra…). */
export const documentosActions = (tipos: readonly TipoRegistrado[]): Action<Schema>[] => tipos.flatMap(documentoActions);
