import { MESSAGES, isValidNif, normalizeNif, validate } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { buscarClientes, clientePorId, clientePorNif } from '../../tpv/clientes.ts';
import { flagsTpv } from '../../tpv/comun.ts';
import { defineAction, fail, invalidFields } from '../registry.ts';
import { clienteActions } from '../ventas/clientes.ts';

/** The customer of a full invoice at the till (issue 13; tpv/clientes.ts): found, or created with what an invoice needs. */

/** The fields a customer created at the till may carry (the rest stays as a new customer's defaults). */
const altaSchema = {
  nif: { type: 'string', required: true, max: 20 },
  razon_social: { type: 'string', required: true, max: 150 },
  direccion: { type: 'string', max: 200 },
  codigo_postal: { type: 'string', max: 20 },
  poblacion: { type: 'string', max: 100 },
} as const satisfies Schema;

const editarCliente = clienteActions.find((a) => a.name === 'editarcliente')!;

export const clienteTpvActions = [
  defineAction({
    name: 'clientestpv',
    method: 'GET',
    flags: flagsTpv(),
    input: { q: { type: 'string', required: true, max: 100 } } as const satisfies Schema,
    async handler({ input, app }) {
      return { RESULT: '0', data: await buscarClientes(app.db, input.q) };
    },
  }),

  defineAction({
    name: 'altaclientetpv',
    method: 'POST',
    flags: flagsTpv(),
    input: altaSchema,
    camposExtra(raw) {
      return typeof raw.nif === 'string' && raw.nif.trim() && !isValidNif(normalizeNif(raw.nif)) ? { nif: MESSAGES.invalidNif } : null;
    },
    // A customer already registered with that NIF is the one answered (`existente: 1`), unchanged: the till never
    // edits the customer master. A new one goes through editarcliente's own checks and numbering.
    async handler(ctx) {
      const nif = normalizeNif(ctx.input.nif);
      const ya = await clientePorNif(ctx.app.db, nif);
      if (ya) return { RESULT: '0', data: [{ ...ya, existente: 1 }] };
      const raw: Record<string, unknown> = { nif, pais: 'ES', razon_social: ctx.input.razon_social };
      for (const k of ['direccion', 'codigo_postal', 'poblacion'] as const) if (ctx.input[k]) raw[k] = ctx.input[k];
      const checked = validate(editarCliente.input!, raw);
      if (!checked.ok) throw invalidFields(checked.errors);
      const r = await editarCliente.handler({ ...ctx, input: checked.value, raw });
      const id = (r as { data?: { id: number }[] }).data?.[0]?.id;
      const creado = id ? await clientePorId(ctx.app.db, id) : undefined;
      if (!creado) throw fail(MESSAGES.notFound, '3');
      return { RESULT: '0', data: [{ ...creado, existente: 0 }] };
    },
  }),
];
