import { MESSAGES_TPV, MESSAGES, terminalSchema } from 'shared/domain';
import type { Schema } from 'shared/domain';
import { nowIso } from '../../context.ts';
import { listSchema } from '../../db/consulta.ts';
import { auditar } from '../../actividad/registro.ts';
import { verifyAgainstDummy, verifyPassword } from '../../security.ts';
import { TERMINAL_COOKIE, TERMINAL_COOKIE_MAX_AGE, flagsTpv, terminalDeCookie } from '../../tpv/comun.ts';
import {
  articulosTpv,
  codigoTerminal,
  editarPin,
  editarTerminal,
  eliminarTerminal,
  emparejarTerminal,
  listadoTerminales,
  terminalTpv,
} from '../../tpv/terminales.ts';
import { defineAction, fail } from '../registry.ts';
import { abrirSesion, registrarBloqueo } from '../sesion.ts';

/**
 * Terminals (issue 13; tpv/terminales.ts): the back office's records, the pairing of a browser by a one-time code
 * (its cookie set here), what a paired till reads of its terminal, the cashier's login by PIN (a session, as
 * sesion.ts's login), the PINs and the till's catalogue.
 */

const ARTICULOS_TPV = {
  desde_id: { type: 'int', min: 0 },
  limite: { type: 'int', min: 1, max: 5000 },
} as const satisfies Schema;

export const terminalActions = [
  defineAction({
    name: 'listadoterminales',
    method: 'GET',
    flags: flagsTpv(),
    input: listSchema(['nombre'] as const),
    async handler({ input, app }) {
      return listadoTerminales(app, input);
    },
  }),

  defineAction({
    name: 'editarterminal',
    method: 'POST',
    flags: flagsTpv(),
    input: terminalSchema,
    async handler({ input, raw, app }) {
      return { RESULT: '0', data: await editarTerminal(app, input, raw) };
    },
  }),

  defineAction({
    name: 'eliminarterminal',
    method: 'POST',
    flags: flagsTpv(),
    input: { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, app }) {
      await eliminarTerminal(app, input);
      return { RESULT: '0', data: [{ id: input.id }] };
    },
  }),

  defineAction({
    name: 'codigoterminal',
    method: 'POST',
    flags: flagsTpv(),
    input: { id: { type: 'int', required: true, min: 1 } } as const satisfies Schema,
    async handler({ input, app }) {
      return { RESULT: '0', data: [await codigoTerminal(app, input)] };
    },
  }),

  defineAction({
    name: 'emparejarterminal',
    method: 'POST',
    public: true,
    flags: flagsTpv(),
    input: { codigo: { type: 'string', required: true, max: 20 } } as const satisfies Schema,
    async handler({ input, request, reply, app }) {
      const { id, token } = await emparejarTerminal(app, input);
      reply.setCookie(TERMINAL_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: TERMINAL_COOKIE_MAX_AGE,
      });
      return { RESULT: '0', data: [await terminalTpv(app, id)] };
    },
  }),

  defineAction({
    name: 'terminaltpv',
    method: 'GET',
    public: true,
    flags: flagsTpv(),
    async handler({ request, app }) {
      const t = await terminalDeCookie(app.db, request);
      if (!t) throw fail(MESSAGES_TPV.terminalNoEmparejado, '1', 403);
      return { RESULT: '0', data: [await terminalTpv(app, t.id)] };
    },
  }),

  defineAction({
    name: 'identificartpv',
    method: 'POST',
    public: true,
    flags: flagsTpv(),
    input: { usuario_id: { type: 'int', required: true, min: 1 }, pin: { type: 'string', required: true, max: 20 } } as const satisfies Schema,
    async handler({ input, request, reply, app }) {
      const terminal = await terminalDeCookie(app.db, request);
      if (!terminal) throw fail(MESSAGES_TPV.terminalNoEmparejado, '1', 403);
      if (terminal.activo !== 1) throw fail(MESSAGES_TPV.terminalInactivo, '1', 400);
      // The same throttle as the password's (per user and per IP) and the same activity line on failure.
      const clave = `pin:${input.usuario_id}`;
      const desde = nowIso(-15 * 60 * 1000);
      const fallos = await app.db
        .selectFrom('intentos_login')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('clave', 'in', [clave, `ip:${request.ip}`])
        .where('fecha', '>', desde)
        .executeTakeFirstOrThrow();
      if (Number(fallos.n) >= 5) {
        await registrarBloqueo(app, `PIN (${terminal.nombre})`, input.usuario_id);
        throw fail(MESSAGES.tooManyAttempts, '1', 429);
      }
      const user = await app.db.selectFrom('usuarios').selectAll().where('id', '=', input.usuario_id).executeTakeFirst();
      const ok = user?.pin_hash ? await verifyPassword(input.pin, user.pin_hash) : await verifyAgainstDummy(input.pin);
      if (!user || !ok || user.activo !== 1) {
        await app.db.transaction().execute(async (trx) => {
          await trx.insertInto('intentos_login').values({ clave, fecha: nowIso() }).execute();
          auditar({ tipo: 'login_fallido', entidad_id: user?.id ?? null, numero: `PIN (${terminal.nombre})` });
        });
        throw fail(MESSAGES_TPV.pinIncorrecto);
      }
      return abrirSesion(app, request, reply, user, { intentos: clave, actividad: `PIN (${terminal.nombre})`, terminalId: terminal.id });
    },
  }),

  defineAction({
    name: 'editarpintpv',
    method: 'POST',
    input: {
      pin: { type: 'string', max: 20 },
      usuario_id: { type: 'int', min: 1 },
      /** 1: removes the PIN (the user then logs in at the till with email and password only). */
      quitar: { type: 'flag' },
      /** The cashier's current PIN: required to change one's own PIN from a PIN session (the till). */
      pin_actual: { type: 'string', max: 20 },
    } as const satisfies Schema,
    async handler({ input, user, app }) {
      return { RESULT: '0', data: [await editarPin(app, user!, input)] };
    },
  }),

  defineAction({
    name: 'articulostpv',
    method: 'GET',
    flags: flagsTpv(),
    input: ARTICULOS_TPV,
    async handler({ input, app }) {
      return { RESULT: '0', ...(await articulosTpv(app, input)) };
    },
  }),
];
