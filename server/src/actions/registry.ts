import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { MESSAGES, validate } from 'shared/domain';
import type { ApiResponse, FieldErrors, FlagName, Infer, ModuleFlags, Schema } from 'shared/domain';
import { conActividad } from '../actividad/registro.ts';
import { SIN_ACTIVIDAD } from '../actividad/entidades.ts';
import { ActionError } from '../errors.ts';
import { comprobarDatos, comprobarNecesidad } from '../auth/derechos.ts';
import { conservarCostes, filtrarCostes, ordenSinCostes } from '../auth/costes.ts';
import type { AppContext } from '../context.ts';
import { readSession } from '../session.ts';
import type { SessionUser } from '../session.ts';

export type ActionContext<S extends Schema> = {
  /** The validated input (query merged with the JSON body, body wins). */
  input: Infer<S>;
  /** The same merged input before validation: tells "absent" from "empty" for partial updates. */
  raw: Record<string, unknown>;
  /** The session's user; null only in public actions. */
  user: SessionUser | null;
  request: FastifyRequest;
  reply: FastifyReply;
  app: AppContext;
};

/** A file answer (backup download) instead of JSON. */
export class FileDownload {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly body: string | Buffer,
  ) {}
}

export type ActionResult = ApiResponse | FileDownload;

export type Action<S extends Schema = Schema> = {
  name: string;
  method: 'GET' | 'POST';
  public?: boolean;
  /** Every one of these module flags must be on. */
  flags?: FlagName[];
  input?: S;
  /**
   * Largest JSON body in bytes (default: Fastify's 1 MiB). Actions with a larger one get a route of
   * their own, which checks the session before reading the body.
   */
  bodyLimit?: number;
  /** Field checks the schema can't express (a NIF read with its country and type): their errors answer together with the schema's. */
  camposExtra?(raw: Record<string, unknown>): FieldErrors | null;
  // Method syntax keeps handlers with narrower inputs assignable to Action<Schema>.
  handler(ctx: ActionContext<S>): Promise<ActionResult>;
};

export function defineAction<S extends Schema>(action: Action<S>): Action<Schema> {
  return action as unknown as Action<Schema>;
}

export { ActionError, fail, invalidFields } from '../errors.ts';

export type ActionRegistry = ReadonlyMap<string, Action<Schema>>;

export function createActionRegistry(...groups: Action<Schema>[][]): ActionRegistry {
  const registry = new Map<string, Action<Schema>>();
  for (const action of groups.flat()) {
    if (registry.has(action.name)) throw new Error(`Duplicate action ${action.name}`);
    registry.set(action.name, action);
  }
  return registry;
}

const flagsOff = (needed: FlagName[], flags: ModuleFlags) => needed.some((f) => flags[f] !== 1);

/** `/api/op.asp?ac=ACTION`: session, module flags and input checked here, once, for every action. */
export function registerDispatcher(app: FastifyInstance, registry: ActionRegistry): void {
  const ctx = app.manager;

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    const query = request.query as Record<string, unknown>;
    const action = typeof query.ac === 'string' ? registry.get(query.ac) : undefined;
    if (!action) return reply.code(400).send({ RESULT: '1', message: MESSAGES.unknownAction });
    if (action.method === 'POST' && request.method !== 'POST') {
      return reply.code(405).header('Allow', 'POST').send({ RESULT: '1', message: MESSAGES.methodNotAllowed });
    }

    let user: SessionUser | null = null;
    if (!action.public) {
      user = await readSession(ctx.db, request, true);
      if (!user) return reply.code(401).send({ RESULT: '1', message: MESSAGES.sessionExpired });
    }
    // The user's role, before anything else (auth/derechos.ts: one table for every action).
    const refused = comprobarNecesidad(action.name, user);
    if (refused) return reply.code(refused.status).send(refused.body);
    if (action.flags?.length && flagsOff(action.flags, await ctx.config.flags())) {
      return reply.code(403).send({ RESULT: '1', message: MESSAGES.moduleOff });
    }

    const body = request.body;
    const raw: Record<string, unknown> = {};
    for (const key in query) if (key !== 'ac') raw[key] = query[key];
    if (body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)) Object.assign(raw, body);

    // A document at cost saved by a role that doesn't see its prices keeps them (auth/costes.ts).
    await conservarCostes(action.name, user, raw, ctx.db);
    let input = raw;
    if (action.input) {
      const checked = validate(action.input, raw);
      const extra = action.camposExtra?.(raw) ?? null;
      if (!checked.ok || (extra && Object.keys(extra).length)) {
        return reply.code(400).send({ RESULT: '1', message: MESSAGES.invalidFields, errors: { ...extra, ...(checked.ok ? {} : checked.errors) } });
      }
      input = checked.value as Record<string, unknown>;
    }
    // Issue 24: no sort by a cost the role doesn't see (auth/costes.ts), and no cost in the answer (below).
    ordenSinCostes(action.name, user, input, raw, action.method === 'GET');

    let result: ActionResult;
    const run = () => action.handler({ input: input as Infer<Schema>, raw, user, request, reply, app: ctx });
    try {
      // What the data needs of the role beyond the action's level (a line's price, an undo on an earlier day…).
      const refusedData = await comprobarDatos(action.name, { user, input, raw, app: ctx });
      if (refusedData) return reply.code(refusedData.status).send(refusedData.body);
      // A state-changing action runs in its audit context: each transaction it commits leaves its activity line.
      result =
        action.method === 'POST' && !SIN_ACTIVIDAD.has(action.name)
          ? await conActividad(action.name, { usuario: user && { id: user.id, nombre: user.nombre }, ip: request.ip ?? null, input }, run)
          : await run();
    } catch (err) {
      if (err instanceof ActionError) return reply.code(err.status).send(err.body);
      throw err;
    }
    if (result instanceof FileDownload) {
      return reply
        .header('Content-Type', result.contentType)
        .header('Content-Disposition', `attachment; filename="${result.filename}"`)
        .header('Cache-Control', 'no-store')
        .send(result.body);
    }
    return reply.send(filtrarCostes(action.name, user, result));
  };

  app.route({ method: ['GET', 'POST'], url: '/api/op.asp', handler: handle });
  const bulk = [...registry.values()].filter((a) => a.bodyLimit);
  if (bulk.length) {
    app.addConstraintStrategy(bulkBodyConstraint(new Set(bulk.map((a) => a.name))));
    app.route({
      method: 'POST',
      url: '/api/op.asp',
      constraints: { bulkBody: 'yes' },
      bodyLimit: Math.max(...bulk.map((a) => a.bodyLimit!)),
      // Nobody without a session, or whose role can't run the action, gets a large body read and parsed.
      onRequest: async (request, reply) => {
        const user = await readSession(ctx.db, request, false);
        if (!user) return reply.code(401).send({ RESULT: '1', message: MESSAGES.sessionExpired });
        const ac = (request.query as Record<string, unknown>).ac;
        const refused = typeof ac === 'string' ? comprobarNecesidad(ac, user) : null;
        if (refused) return reply.code(refused.status).send(refused.body);
      },
      handler: handle,
    });
  }
  // Uploads get the same dispatcher in a context of their own: the multipart plugin's hooks run on
  // every request of its context, and the JSON actions are the hot path.
  app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { files: 1, fields: 20, parts: 25 } });
    uploads.route({ method: 'POST', url: '/api/op.asp', constraints: { multipart: 'yes' }, handler: handle });
  });
}

type ConstraintStrategy = NonNullable<NonNullable<FastifyServerOptions['routerOptions']>['constraints']>[string];

/** Routes `multipart/form-data` requests to the routes constrained with `multipart: 'yes'`. */
export const multipartConstraint: ConstraintStrategy = {
  name: 'multipart',
  storage() {
    const handlers = new Map<string, ReturnType<ReturnType<ConstraintStrategy['storage']>['get']>>();
    return { get: (v: string) => handlers.get(v) ?? null, set: (v: string, store) => void handlers.set(v, store) };
  },
  validate(value: unknown) {
    if (value !== 'yes') throw new Error("the multipart constraint only takes 'yes'");
  },
  deriveConstraint: (req: { headers: Record<string, string | string[] | undefined> }) => {
    const type = req.headers['content-type'];
    return typeof type === 'string' && type.toLowerCase().startsWith('multipart/') ? 'yes' : 'no';
  },
  mustMatchWhenDerived: false,
};

/** Routes JSON POSTs of the actions with a larger body limit (`?ac=` in the set) to their own route. */
function bulkBodyConstraint(actions: ReadonlySet<string>): ConstraintStrategy {
  return {
    name: 'bulkBody',
    storage: multipartConstraint.storage,
    validate(value: unknown) {
      if (value !== 'yes') throw new Error("the bulkBody constraint only takes 'yes'");
    },
    deriveConstraint: (req: { method?: string; url?: string; headers: Record<string, string | string[] | undefined> }) => {
      if (req.method !== 'POST' || !req.url) return 'no';
      const type = req.headers['content-type'];
      if (typeof type === 'string' && type.toLowerCase().startsWith('multipart/')) return 'no';
      const q = req.url.indexOf('?');
      const ac = q < 0 ? null : new URLSearchParams(req.url.slice(q + 1)).get('ac');
      return ac !== null && actions.has(ac) ? 'yes' : 'no';
    },
    mustMatchWhenDerived: false,
  };
}
