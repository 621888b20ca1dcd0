import { sql } from 'kysely';
import {
  CONF_FIELDS,
  DOCUMENTO_TIPOS,
  MESSAGES_TPV,
  MESSAGES,
  claveFalta,
  codificarNecesidad,
  descuentoPermitido,
  falta,
  mensajeFalta,
  necesidadDocumento,
  puede,
  tiene,
} from 'shared/domain';
import type { Area, DerechoEspecial, Derechos, DocumentoTipoDef, Falta, Necesidad, Nivel } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { todayIn } from '../context.ts';
import { ActionError } from '../errors.ts';
import type { SessionUser } from '../session.ts';

/**
 * THE table of rights: what every op.asp action needs (shared/domain/roles.ts: `publica`, `sesion`, or a level in
 * an area, perhaps with a named right). The dispatcher checks it right after the session, before flags and input,
 * and refuses with 403 and a Spanish message naming what is missing; an action missing from here is refused to
 * everyone (and test/roles.test.ts fails). The document actions come from the rows of DOCUMENTO_TIPOS
 * (`necesidadDocumento`: each type's area). Some entries add a check of the data (`comprobar`): a line's price or
 * discount, an undo on an earlier day's document, the module flags, the purchase prices.
 */

/** Runs after the input is validated, before the handler: what the data needs beyond the action's level, or null. */
export type Comprobacion = (ctx: {
  user: SessionUser;
  input: Record<string, unknown>;
  raw: Record<string, unknown>;
  app: AppContext;
}) => Promise<{ falta: Falta; detalle?: string } | null>;

export type Derecho = { necesidad: Necesidad; comprobar?: Comprobacion };

const ver = (...areas: Area[]): Necesidad => ({ areas, nivel: 'ver' });
const en = (area: Area, nivel: Nivel, especial?: DerechoEspecial): Necesidad => ({ areas: [area], nivel, ...(especial ? { especial } : {}) });

/** The catalogue's masters: readable by every area that picks them (a parte's procesos, an inventory's familia). */
const LECTORES_CATALOGO: Area[] = ['catalogo', 'compras', 'ventas', 'facturas', 'almacenes'];
/** Warehouses and their locations: every document has one. */
const LECTORES_ALMACENES: Area[] = ['almacenes', 'compras', 'ventas', 'facturas', 'catalogo'];

const maestro = (listado: string, entidad: string, area: Area, lectores: Area[] = [area]): Record<string, Derecho> => ({
  [`listado${listado}`]: { necesidad: ver(...lectores) },
  [`editar${entidad}`]: { necesidad: en(area, 'editar') },
  [`eliminar${entidad}`]: { necesidad: en(area, 'eliminar') },
});

const FIJAS: Record<string, Derecho> = {
  // Public, and what drawing the app needs (every role, the till's too).
  identificar: { necesidad: 'publica' },
  cerrarsesion: { necesidad: 'publica' },
  recordar: { necesidad: 'publica' },
  restablecer: { necesidad: 'publica' },
  sesion: { necesidad: 'sesion' },
  listadoconfiguraciones: { necesidad: 'sesion' },

  editarconfiguracion: { necesidad: en('configuracion', 'editar'), comprobar: comprobarModulos },
  // The audit trail: read in Configuración.
  listadoactividad: { necesidad: en('configuracion', 'ver') },
  // The demo company's generated year: what it is, and removing it (every generated document).
  listadodemo: { necesidad: en('configuracion', 'ver') },
  eliminardemo: { necesidad: en('configuracion', 'eliminar') },
  // The company's logo and favicon, an article's photo.
  subirarchivo: { necesidad: { areas: ['configuracion', 'catalogo'], nivel: 'editar' } },
  graficoinicio: { necesidad: ver('informes') },
  // Issue 26: any back-office role (never the till's alone); each item is filtered by the role (actions/inicio.ts).
  resumeninicio: { necesidad: ver('ventas', 'facturas', 'compras', 'almacenes', 'informes') },
  // Reports (issue 14): «ver» in Informes; the fiscal books and models (an asesor's) also «ver» in Facturas.
  informeventas: { necesidad: ver('informes') },
  informecompras: { necesidad: ver('informes') },
  informeinventario: { necesidad: ver('informes') },
  informemovimientos: { necesidad: ver('informes') },
  informeproveedores: { necesidad: ver('informes') },
  informeclientes: { necesidad: ver('informes') },
  informearticulos: { necesidad: ver('informes') },
  informetarifas: { necesidad: ver('informes') },
  informefurgonetas: { necesidad: ver('informes') },
  informecierrestpv: { necesidad: ver('informes') },
  librofacturasexpedidas: { necesidad: ver('informes'), comprobar: verFacturas },
  librofacturasrecibidas: { necesidad: ver('informes'), comprobar: verFacturas },
  modelo303: { necesidad: ver('informes'), comprobar: verFacturas },
  modelo347: { necesidad: ver('informes'), comprobar: verFacturas },
  modelo349: { necesidad: ver('informes'), comprobar: verFacturas },
  informeregistros: { necesidad: ver('informes'), comprobar: verFacturas },
  numeracionfacturas: { necesidad: ver('informes'), comprobar: verFacturas },
  // Rebuilds the reports' aggregates (and the stock per warehouse) from the documents and the ledger.
  recalcularinformes: { necesidad: en('informes', 'acciones') },

  // Users and roles. Who did a parte's work and who drives a van are picked from the users too (by name only,
  // without «ver» in Usuarios: usuarios.ts).
  listadousuarios: { necesidad: ver('usuarios', 'ventas', 'almacenes') },
  editarusuario: { necesidad: en('usuarios', 'editar') },
  eliminarusuario: { necesidad: en('usuarios', 'eliminar') },
  listadoroles: { necesidad: ver('usuarios') },
  editarrol: { necesidad: en('usuarios', 'editar') },
  eliminarrol: { necesidad: en('usuarios', 'eliminar') },

  // Backups carry every table, the password hashes too.
  copiaseguridad: { necesidad: en('copias', 'ver') },
  restaurarcopia: { necesidad: en('copias', 'acciones') },

  // Series number the invoices.
  ...maestro('series', 'serie', 'facturas', ['facturas', 'ventas']),

  // Catalogue.
  ...maestro('familias', 'familia', 'catalogo', LECTORES_CATALOGO),
  ...maestro('subfamilias', 'subfamilia', 'catalogo', LECTORES_CATALOGO),
  ...maestro('marcas', 'marca', 'catalogo', LECTORES_CATALOGO),
  ...maestro('materiales', 'material', 'catalogo', LECTORES_CATALOGO),
  ...maestro('procesos', 'proceso', 'catalogo', LECTORES_CATALOGO),
  // Every document's lines search the articles. (The till, its own issue, brings its own actions and rows.)
  ...maestro('articulos', 'articulo', 'catalogo', LECTORES_CATALOGO),
  cambiarprecios: { necesidad: en('catalogo', 'editar'), comprobar: comprobarCambioPrecios },
  importararticulos: { necesidad: en('catalogo', 'editar') },
  listadoprecios: { necesidad: ver('catalogo') },

  // Warehouses.
  ...maestro('almacenes', 'almacen', 'almacenes', LECTORES_ALMACENES),
  ...maestro('ubicaciones', 'ubicacion', 'almacenes', LECTORES_ALMACENES),
  editarubicacionarticulo: { necesidad: en('almacenes', 'editar') },
  listadostockalmacen: { necesidad: ver('almacenes') },
  listadomovimientosarticulo: { necesidad: ver('almacenes', 'catalogo') },
  listadomovimientosalmacen: { necesidad: ver('almacenes') },
  lineasteoricasinventario: { necesidad: ver('almacenes') },
  // Checking the stock against the ledger, and repairing it.
  recalcularstock: { necesidad: en('almacenes', 'acciones') },

  // Purchases.
  ...maestro('proveedores', 'proveedor', 'compras'),
  // Issue 24 (docs/derechos.md, «Costes»): a supplier invoice is nothing but purchase amounts — it needs «ver precios
  // de compra, costes y márgenes» besides its level. E-mailing an order is sending it: the buyer's (crear y modificar).
  listadofacturasproveedor: { necesidad: en('compras', 'ver', 'ver_costes') },
  listadopendienteshcp: { necesidad: en('compras', 'ver', 'ver_costes') },
  editarfacturaproveedor: { necesidad: en('compras', 'editar', 'ver_costes') },
  eliminarfacturaproveedor: { necesidad: en('compras', 'eliminar', 'ver_costes') },
  enviarcorreopedidocompra: { necesidad: en('compras', 'editar') },
  // Issue 26: paying suppliers (payments, their undo, what is due, the SEPA transfer file).
  pagarfacturaproveedor: { necesidad: en('compras', 'acciones', 'ver_costes') },
  eliminarpagoproveedor: { necesidad: en('compras', 'acciones', 'ver_costes') },
  listadovencimientosproveedor: { necesidad: en('compras', 'ver', 'ver_costes') },
  transferenciaproveedores: { necesidad: en('compras', 'acciones', 'ver_costes') },

  // Sales: customers are the invoices' parties too.
  ...maestro('clientes', 'cliente', 'ventas', ['ventas', 'facturas']),
  disponibleventa: { necesidad: ver('ventas', 'facturas') },

  // Invoices.
  hfapropuesta: { necesidad: ver('facturas') },
  facturarhfa: { necesidad: en('facturas', 'acciones') },
  cobrarfactura: { necesidad: en('facturas', 'acciones') },
  eliminarcobro: { necesidad: en('facturas', 'acciones') },
  enviarfactura: { necesidad: en('facturas', 'acciones') },
  // Issue 26: remesas SEPA of the invoices paid by direct debit.
  listadorecibospendientes: { necesidad: ver('facturas') },
  listadoremesas: { necesidad: ver('facturas') },
  descargarremesa: { necesidad: ver('facturas') },
  editarremesa: { necesidad: en('facturas', 'acciones') },
  pagarremesa: { necesidad: en('facturas', 'acciones') },
  devolverrecibo: { necesidad: en('facturas', 'acciones') },
  eliminarremesa: { necesidad: en('facturas', 'acciones') },
  // Issue 16: the Facturae of an emitted invoice, read like its PDF (whether it can be made, and the signed file).
  comprobarfacturae: { necesidad: ver('facturas') },
  descargarfacturae: { necesidad: ver('facturas') },
  listadoregistrosfacturacion: { necesidad: ver('facturas', 'verifactu') },
  comprobarregistrosfacturacion: { necesidad: ver('facturas', 'verifactu') },

  // VERI*FACTU: the submission, the company's certificate, corrections.
  listadoverifactu: { necesidad: ver('verifactu') },
  editarverifactu: { necesidad: en('verifactu', 'editar') },
  subircertificadoverifactu: { necesidad: en('verifactu', 'editar') },
  eliminarcertificadoverifactu: { necesidad: en('verifactu', 'eliminar') },
  enviarregistrosverifactu: { necesidad: en('verifactu', 'acciones') },
  subsanarregistrofacturacion: { necesidad: en('verifactu', 'acciones') },

  // TPV (issue 13): the till sells, returns, moves cash and closes (Caja: tpv ver + editar + acciones); configuring
  // terminals and buttons is the back office's (Configuración › crear y modificar). Pairing and the PIN login are the
  // till's before anyone is logged in (the terminal's cookie is their credential).
  // The back office's TPV screens (terminals, buttons, closings, tickets) are Ventas' (Caja works only at the till,
  // whose Z report prints when it closes): the terminals and the closings are read with Ventas › ver (Configuración
  // too for the terminals). The till itself reads `terminaltpv`, `articulostpv`, `listadobotonestpv`, `cajatpv` and
  // finds a ticket for a return or an F3 with `listadotickets` (the ticket type's `tpv` area, below).
  listadoterminales: { necesidad: ver('ventas', 'configuracion') },
  editarterminal: { necesidad: en('configuracion', 'editar') },
  eliminarterminal: { necesidad: en('configuracion', 'editar') },
  codigoterminal: { necesidad: en('configuracion', 'editar') },
  emparejarterminal: { necesidad: 'publica' },
  terminaltpv: { necesidad: 'publica' },
  identificartpv: { necesidad: 'publica' },
  // The cashier's own PIN (another user's also needs Usuarios › crear y modificar, checked by the action).
  editarpintpv: { necesidad: en('tpv', 'editar') },
  articulostpv: { necesidad: ver('tpv') },
  listadobotonestpv: { necesidad: ver('tpv') },
  editarbotonestpv: { necesidad: en('configuracion', 'editar') },
  abrircajatpv: { necesidad: en('tpv', 'acciones') },
  movimientocajatpv: { necesidad: en('tpv', 'acciones') },
  cajatpv: { necesidad: ver('tpv') },
  subirtickets: { necesidad: en('tpv', 'editar'), comprobar: comprobarLineasTpv },
  devolverticket: { necesidad: en('tpv', 'acciones') },
  // Issue 23: a return without a ticket, with the right «devolver_sin_ticket» (its prices within «cambiar precio» online).
  // Online it needs the right; one the till already issued offline (its record travels with it) is kept and flagged
  // instead (tpv/devoluciones.ts): refusing it would leave a printed R5 outside the books.
  devolversinticket: {
    necesidad: en('tpv', 'acciones'),
    comprobar: async (a) => {
      const offline = a.raw.registro !== undefined && a.raw.registro !== null;
      if (!offline && !tiene(a.user.rol.derechos, 'devolver_sin_ticket')) return { falta: { especial: 'devolver_sin_ticket' as const } };
      return comprobarLineasTpv({ ...a, raw: { tickets: [a.raw] } });
    },
  },
  // A full invoice (F3) replacing a ticket. Its customer: the till finds one (`clientestpv`: active customers with a
  // NIF, only the fields an invoice names) or creates one (`altaclientetpv`: NIF, name, address; an existing NIF
  // answers that customer unchanged) with TPV › acciones like the F3 itself — a narrow, till-scoped right instead of
  // Ventas › ver/editar, which would open the whole customer master (debts, bank details, edits) to Caja.
  facturarticket: { necesidad: en('tpv', 'acciones') },
  // Issue 23: a store credit by its code, to take it as a payment at the till.
  valetpv: { necesidad: en('tpv', 'editar') },
  // Issue 23: a sale over the simplified invoice's limit, invoiced in full (F1) at the till: sold as a ticket would be
  // (TPV › editar, the lines within the cashier's price and discount rights), to a customer found or created as above.
  facturarventatpv: { necesidad: en('tpv', 'editar'), comprobar: (a) => comprobarLineasTpv({ ...a, raw: { tickets: [{ ...a.raw, registro: null }] } }) },
  clientestpv: { necesidad: en('tpv', 'acciones') },
  altaclientetpv: { necesidad: en('tpv', 'acciones') },
  listadocierrestpv: { necesidad: ver('ventas') },
  editarcierretpv: { necesidad: en('tpv', 'acciones') },
  // Issue 23: what the tills' uploads broke, for the manager (the Z and the tickets list show them too).
  listadoincidenciastpv: { necesidad: ver('ventas') },
  resolverincidenciatpv: { necesidad: en('ventas', 'editar') },
};

/** The entries of every document type, from its row: listado, editar, eliminar and each verb. */
function documentos(): Record<string, Derecho> {
  const out: Record<string, Derecho> = {};
  for (const def of Object.values(DOCUMENTO_TIPOS)) {
    out[`listado${def.plural}`] = { necesidad: necesidadDocumento(def, 'listado') };
    // A party's document: a line's price and discount are the role's to change.
    out[`editar${def.entidad}`] = { necesidad: necesidadDocumento(def, 'editar'), ...(def.tercero ? { comprobar: comprobarLineas(def) } : {}) };
    out[`eliminar${def.entidad}`] = { necesidad: necesidadDocumento(def, 'eliminar') };
    for (const a of def.acciones) {
      out[`${a.verbo}${def.entidad}`] = { necesidad: necesidadDocumento(def, a.verbo), ...(a.undoes ? { comprobar: comprobarDeshacer(def) } : {}) };
    }
  }
  return out;
}

export const DERECHOS: ReadonlyMap<string, Derecho> = new Map(Object.entries({ ...FIJAS, ...documentos() }));

/** The actions of `names` without an entry here (test/roles.test.ts: none may be missing). */
export const accionesSinDerecho = (names: Iterable<string>): string[] => [...names].filter((n) => !DERECHOS.has(n));

/** What each action of the registry needs, as text: the session answers it so the screens hide what would be refused. */
export function tablaAcciones(names: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const d = DERECHOS.get(n);
    if (d) out[n] = codificarNecesidad(d.necesidad);
  }
  return out;
}

/** A 403 by the role: its Spanish message, and what is missing for the screens. */
export function rechazo(f: Falta, derechos: Derechos, detalle?: string): ActionError {
  const message = mensajeFalta(f, derechos) + (detalle ? ` ${detalle}` : '');
  return new ActionError(403, { RESULT: '1', message, derecho: claveFalta(f) });
}

/** The dispatcher's check of an action's level (before flags and input): null when the role has it. */
/**
 * What a session opened by the till's PIN (`identificartpv`) may run, whatever the user's role (issue 23: a 4-digit PIN
 * opens the till, not the back office): drawing the till, selling, returning, the caja and the F3's customer. Anything
 * else (a backup, the users, the configuration, the back office's lists) needs the password's session.
 */
export const ACCIONES_TPV: ReadonlySet<string> = new Set([
  'sesion',
  'listadoconfiguraciones',
  'terminaltpv',
  'identificartpv',
  'editarpintpv',
  'articulostpv',
  'listadobotonestpv',
  'abrircajatpv',
  'movimientocajatpv',
  'cajatpv',
  'subirtickets',
  'devolverticket',
  'devolversinticket',
  'facturarticket',
  'facturarventatpv',
  'valetpv',
  'clientestpv',
  'altaclientetpv',
  'editarcierretpv',
  // Finding a ticket for a return or an F3.
  'listadotickets',
]);

export function comprobarNecesidad(action: string, user: SessionUser | null): ActionError | null {
  const d = DERECHOS.get(action);
  if (!d) return new ActionError(403, { RESULT: '1', message: MESSAGES.rolSinTabla });
  if (!user) return null;
  if (user.terminalId != null && d.necesidad !== 'publica' && !ACCIONES_TPV.has(action)) {
    return new ActionError(403, { RESULT: '1', message: MESSAGES_TPV.sesionPinSoloTpv, derecho: 'sesion_tpv' });
  }
  const f = falta(user.rol.derechos, d.necesidad);
  return f ? rechazo(f, user.rol.derechos) : null;
}

/** The entry's check of the data (after the input is validated): null when there is none or it passes. */
export async function comprobarDatos(
  action: string,
  ctx: { user: SessionUser | null; input: Record<string, unknown>; raw: Record<string, unknown>; app: AppContext },
): Promise<ActionError | null> {
  const c = DERECHOS.get(action)?.comprobar;
  if (!c || !ctx.user) return null;
  const r = await c({ ...ctx, user: ctx.user });
  return r ? rechazo(r.falta, ctx.user.rol.derechos, r.detalle) : null;
}

/** The fiscal books show every invoice: «ver» in Facturas besides Informes. */
async function verFacturas({ user }: Parameters<Comprobacion>[0]) {
  return puede(user.rol.derechos, 'facturas', 'ver') ? null : { falta: { area: 'facturas' as const, nivel: 'ver' as const } };
}

/** Switching a module on or off is Configuración's «acciones»; company data its «crear y modificar». */
async function comprobarModulos({ user, raw, app }: Parameters<Comprobacion>[0]) {
  if (puede(user.rol.derechos, 'configuracion', 'acciones')) return null;
  const actual = ((await app.config.rows(0))[0] ?? {}) as Record<string, unknown>;
  const on = (v: unknown) => (v === 1 || v === '1' || v === true || v === 'true' ? 1 : 0);
  const cambia = CONF_FIELDS.some((f) => f in raw && on(raw[f]) !== on(actual[f]));
  return cambia ? { falta: { area: 'configuracion' as const, nivel: 'acciones' as const } } : null;
}

/** The purchase prices in a price change's preview are costs. */
async function comprobarCambioPrecios({ user, input }: Parameters<Comprobacion>[0]) {
  return input.campo === 'precio_compra' && !tiene(user.rol.derechos, 'ver_costes') ? { falta: { especial: 'ver_costes' as const } } : null;
}

/** An undo (deshacer…) on a document dated before today needs «deshacer anterior a hoy». */
function comprobarDeshacer(def: DocumentoTipoDef): Comprobacion {
  return async ({ user, input, app }) => {
    if (tiene(user.rol.derechos, 'deshacer_anterior')) return null;
    const doc = await app.db.selectFrom('documentos').select('fecha').where('id', '=', Number(input.id)).where('tipo', '=', def.tipo).executeTakeFirst();
    return doc && doc.fecha < todayIn(app.timeZone) ? { falta: { especial: 'deshacer_anterior' as const } } : null;
  };
}

const toInt = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
};

const CHUNK = 500;

/**
 * A party's document: a line whose price differs from what the line would get by itself (the article's price of the
 * customer's tarifa, or its purchase price; a line from another document's line: that line's price) needs «cambiar
 * precio»; a discount above the role's maximum, other than the customer's own, needs «descuento». A line saved
 * before and sent back unchanged passes (someone allowed gave it that price). Nothing is read for a role with both.
 */
function comprobarLineas(def: DocumentoTipoDef): Comprobacion {
  return async ({ user, input, raw, app }) => {
    const derechos = user.rol.derechos;
    const libreDescuento = tiene(derechos, 'descuento');
    if (tiene(derechos, 'cambiar_precio') && libreDescuento) return null;
    if (!Array.isArray(raw.lineas)) return null;
    const maximo = descuentoPermitido(derechos);
    type L = { articulo_id: number | null; precio: number | null; descuento: number | null; id: number | null; origen: number | null };
    const lineas: L[] = raw.lineas.map((item) => {
      const l = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
      const opt = (v: unknown) => (v === undefined || v === null || v === '' ? null : toInt(v));
      return { articulo_id: toInt(l.articulo_id), precio: opt(l.precio), descuento: opt(l.descuento), id: opt(l.id), origen: opt(l.origen_linea_id) };
    });
    const venta = def.tercero === 'cliente';
    // The customer's tarifa and discount (the defaults of a sale line).
    let tarifa = 1;
    let descuentoCliente = 0;
    if (venta && typeof input.cliente_id === 'number') {
      const c = await app.db.selectFrom('clientes').select(['tarifa', 'descuento']).where('id', '=', input.cliente_id).executeTakeFirst();
      tarifa = Number(c?.tarifa ?? 1);
      descuentoCliente = Number(c?.descuento ?? 0);
    }
    // What the line had when saved (a line of this same document), or what its origin line has.
    type Previa = { documento_id: number; articulo_id: number; precio: number; descuento: number };
    const previas = new Map<number, Previa>();
    const ids = [...new Set(lineas.flatMap((l) => [l.id, l.origen]).filter((x): x is number => x !== null))];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await app.db
        .selectFrom('documento_lineas')
        .select(['id', 'documento_id', 'articulo_id', 'precio', 'descuento'])
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) previas.set(r.id, { documento_id: r.documento_id, articulo_id: r.articulo_id, precio: Number(r.precio), descuento: Number(r.descuento) });
    }
    const propia = (l: L): Previa | undefined => {
      const p = l.id !== null ? previas.get(l.id) : undefined;
      return p && p.documento_id === input.id && p.articulo_id === l.articulo_id ? p : undefined;
    };
    const origen = (l: L): Previa | undefined => (l.origen !== null ? previas.get(l.origen) : undefined);
    // The articles' prices (only those of lines whose price is checked).
    const precios = new Map<number, number>();
    if (!tiene(derechos, 'cambiar_precio')) {
      const arts = [...new Set(lineas.filter((l) => l.precio !== null && l.articulo_id !== null).map((l) => l.articulo_id as number))];
      const col = venta ? ({ 2: 'tarifa_2', 3: 'tarifa_3' } as Record<number, string>)[tarifa] : undefined;
      for (let i = 0; i < arts.length; i += CHUNK) {
        const rows = await app.db
          .selectFrom('articulos as a')
          .select('a.id')
          .select(
            (venta
              ? col
                ? sql<number>`coalesce(nullif(${sql.ref(`a.${col}`)}, 0), a.precio_venta)`
                : sql<number>`a.precio_venta`
              : sql<number>`a.precio_compra`
            ).as('precio'),
          )
          .where('a.id', 'in', arts.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) precios.set(r.id, Number(r.precio));
      }
    }
    const linea = (i: number) => MESSAGES.rolLinea.replace('{n}', String(i + 1));
    for (const [i, l] of lineas.entries()) {
      const antes = propia(l);
      const de = origen(l);
      if (l.precio !== null && l.articulo_id !== null && !tiene(derechos, 'cambiar_precio')) {
        const articulo = precios.get(l.articulo_id);
        const permitido = l.precio === articulo || l.precio === antes?.precio || l.precio === de?.precio;
        // An article that doesn't exist: the engine's 400 says so.
        if (articulo !== undefined && !permitido) return { falta: { especial: 'cambiar_precio' as const }, detalle: linea(i) };
      }
      if (!libreDescuento) {
        const d = l.descuento ?? (venta ? descuentoCliente : 0);
        const permitido = d <= maximo || (venta && d === descuentoCliente) || d === antes?.descuento || d === de?.descuento;
        if (!permitido) return { falta: { especial: 'descuento' as const }, detalle: linea(i) };
      }
    }
    return null;
  };
}

/**
 * A ticket sold online (without the till's own record): a line whose unit price with IVA is not the article's PVP
 * (tarifa 1) needs «cambiar precio»; a discount above the role's maximum needs «descuento». A ticket the till issued
 * offline is not refused here: its record already exists (refusing it would leave a fiscal record without its
 * ticket); the till applies the same rule before issuing it, with the session's rights. One sent with `en_linea` (the
 * till made its record and waits for this answer before printing: docs/tpv.md «The doubtful ticket») is checked.
 */
async function comprobarLineasTpv({ user, raw, app }: Parameters<Comprobacion>[0]) {
  const derechos = user.rol.derechos;
  const libreDescuento = tiene(derechos, 'descuento');
  const librePrecio = tiene(derechos, 'cambiar_precio');
  if ((librePrecio && libreDescuento) || !Array.isArray(raw.tickets)) return null;
  const maximo = descuentoPermitido(derechos);
  const lineas: { articulo_id: number; precio: number | null; descuento: number; n: number }[] = [];
  for (const item of raw.tickets) {
    const tk = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    // Issue 23: a record the till made and is still waiting to print (`en_linea`) is an online sale: checked.
    if (tk.registro !== undefined && tk.registro !== null && tk.en_linea !== 1) continue;
    (Array.isArray(tk.lineas) ? tk.lineas : []).forEach((li, i) => {
      const l = (li && typeof li === 'object' ? li : {}) as Record<string, unknown>;
      const articulo = toInt(l.articulo_id);
      if (articulo !== null) lineas.push({ articulo_id: articulo, precio: toInt(l.precio), descuento: toInt(l.descuento) ?? 0, n: i + 1 });
    });
  }
  const precios = new Map<number, number>();
  if (!librePrecio) {
    const ids = [...new Set(lineas.map((l) => l.articulo_id))];
    for (let i = 0; i < ids.length; i += CHUNK) {
      for (const r of await app.db.selectFrom('articulos').select(['id', 'pvp_1']).where('id', 'in', ids.slice(i, i + CHUNK)).execute()) {
        precios.set(r.id, Number(r.pvp_1) * 100);
      }
    }
  }
  for (const l of lineas) {
    const pvp = precios.get(l.articulo_id);
    if (!librePrecio && pvp !== undefined && l.precio !== null && l.precio !== pvp) {
      return { falta: { especial: 'cambiar_precio' as const }, detalle: MESSAGES.rolLinea.replace('{n}', String(l.n)) };
    }
    if (!libreDescuento && l.descuento > maximo) return { falta: { especial: 'descuento' as const }, detalle: MESSAGES.rolLinea.replace('{n}', String(l.n)) };
  }
  return null;
}
