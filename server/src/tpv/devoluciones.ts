import { sql } from 'kysely';
import { DOCUMENTO_TIPOS, FORMAS_PAGO_TPV, MESSAGES_TPV, cantidadNoEntera, precioSinIva, tiene, totalesTicket } from 'shared/domain';
import type { FormaPagoTpv, TipoIva } from 'shared/domain';
import type { AppContext } from '../context.ts';
import { nowIso, todayIn } from '../context.ts';
import { insertarFilas } from '../db/prepared.ts';
import { fail } from '../errors.ts';
import type { SessionUser } from '../session.ts';
import { cifrasCaja } from './caja.ts';
import { cajaAbierta, entero, euros, formasDe, t, terminalActivo } from './comun.ts';
import { COLUMNAS_LINEA, emitirDevolucionTpv, guardarDevolucionTpv, isoDe, leerDevolucionTpv, registroDeDevolucion } from './tickets.ts';
import type { Aviso, Devolucion } from './tickets.ts';

/**
 * A return without a ticket (issue 23; docs/tpv.md «Returns without a ticket»), for a cashier with the right
 * «devolver_sin_ticket»: the articles and quantities the customer brings back, at their price with IVA (the PVP unless
 * the cashier may change prices), refunded by the methods the customer chooses (split; cash no more than the drawer
 * holds; a vale with «reembolso_vale», online). It is an R5 rectificativa by differences in the terminal's own
 * rectificativa serie that names no invoice (FacturasRectificadas is optional: Validaciones 4), issued by the engine's
 * `emitir` in one transaction with the goods back in the terminal's warehouse, its refunds in the open caja and its
 * record: online in the back office's chain as the till's other returns; made by the till offline (shared
 * `registroDevolucion` with no ticket) on the terminal's chain and verified here unaltered.
 */

const RECTIFICATIVA = DOCUMENTO_TIPOS.rectificativa;
const _EMITIR_RECTIFICATIVA = RECTIFICATIVA.acciones.find((a) => a.verbo === 'emitir')!;

/** devolverticket's answer, naming no ticket. */
export type DevolucionSinTicket = Omit<Devolucion, 'ticket_id'> & { ticket_id: null };

type LineaSinTicket = { articulo_id: number; cantidad: number; precio: number | null };

function leerLineas(raw: unknown): LineaSinTicket[] {
  if (!Array.isArray(raw) || !raw.length) throw fail(MESSAGES_TPV.devolucionSinTicketLineas, '1', 400);
  const out = raw.map((item, i) => {
    const x = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const articulo = entero(x.articulo_id);
    const cantidad = entero(x.cantidad);
    const precio = x.precio === undefined || x.precio === null ? null : entero(x.precio);
    const linea = (motivo: string) => fail(t(MESSAGES_TPV.ticketLinea, { n: i + 1, motivo }), '1', 400);
    if (articulo === null || articulo < 1) throw linea(MESSAGES_TPV.articuloNoExiste);
    if (cantidad === null || cantidad <= 0 || cantidad > 1_000_000_000) throw linea(MESSAGES_TPV.cantidadNoValida);
    if (precio !== null && (precio < 0 || precio > 1_000_000_000_000)) throw linea(MESSAGES_TPV.precioNoValido);
    return { articulo_id: articulo, cantidad, precio };
  });
  return out;
}

export async function devolverSinTicket(app: AppContext, user: SessionUser, terminalId: number, raw: Record<string, unknown>): Promise<DevolucionSinTicket> {
  const uuid = typeof raw.uuid === 'string' && raw.uuid.trim() ? raw.uuid.trim().slice(0, 64) : null;
  const pedidas = leerLineas(raw.lineas);
  const { registro, fechaHora } = registroDeDevolucion(raw, uuid);
  if (user.terminalId != null && user.terminalId !== terminalId) throw fail(MESSAGES_TPV.cajaDeOtroTerminal, '1', 403);
  // Who may: online, the right «devolver_sin_ticket» (checked by the action's need too). One the till issued offline is
  // a fiscal fact: kept, and flagged for the manager below when its cashier lacked the right.
  const sinDerecho = !tiene(user.rol.derechos, 'devolver_sin_ticket');
  if (sinDerecho && !registro) throw fail(MESSAGES_TPV.devolucionSinTicketSinDerecho, '1', 403);
  if (!Array.isArray(raw.pagos) || !raw.pagos.length) throw fail(MESSAGES_TPV.devolucionSinTicketPagos, '1', 400);
  const pagosRaw = raw.pagos;
  let avisos: Aviso[] = [];

  const una = () =>
    app.db.transaction().execute(async (trx) => {
      avisos = [];
      if (uuid) {
        const previo = await trx.selectFrom('tpv_tickets').select('documento_id').where('uuid', '=', uuid).executeTakeFirst();
        if (previo) return previo.documento_id;
      }
      if (app.dialect === 'postgres') await sql`select id from tpv_terminales where id = ${terminalId} for update`.execute(trx);
      const terminal = await terminalActivo(trx, terminalId);
      const caja = await cajaAbierta(trx, terminal.id);
      if (!caja) {
        if (!registro) throw fail(MESSAGES_TPV.cajaNoAbierta, '1', 400);
        avisos.push({ tipo: 'caja', detalle: t(MESSAGES_TPV.incidenciaCaja, { que: `Devolución ${registro.num_serie}`, total: '{total}' }) });
      }
      const ids = [...new Set(pedidas.map((l) => l.articulo_id))];
      const arts = new Map(
        (await trx.selectFrom('articulos').select(['id', 'codigo', 'descripcion', 'nombre_tpv', 'tipo_iva', 'activo', 'pvp_1', 'unidad_medida']).where('id', 'in', ids).execute()).map(
          (a) => [a.id, a],
        ),
      );
      const librePrecio = tiene(user.rol.derechos, 'cambiar_precio');
      const lineas = pedidas.map((l, i) => {
        const a = arts.get(l.articulo_id);
        if (!a || (a.activo !== 1 && !registro)) throw fail(t(MESSAGES_TPV.devolucionSinTicketArticulo, { n: i + 1 }), '1', 400);
        const fraccion = cantidadNoEntera(a.unidad_medida, l.cantidad, a.codigo);
        if (fraccion && !registro) throw fail(t(MESSAGES_TPV.ticketLinea, { n: i + 1, motivo: fraccion }), '1', 400);
        const pvp = Number(a.pvp_1 ?? 0) * 100;
        const precio = l.precio ?? pvp;
        if (precio !== pvp && !librePrecio) {
          const detalle = { n: i + 1, articulo: a.codigo, precio: euros(Math.round(precio / 100)), pvp: euros(Math.round(pvp / 100)) };
          if (!registro) throw fail(t(MESSAGES_TPV.devolucionSinTicketPrecio, detalle), '1', 400);
          avisos.push({ tipo: 'precio', detalle: t(MESSAGES_TPV.devolucionSinTicketPrecio, detalle) });
        }
        const tipo = a.tipo_iva as TipoIva;
        return { articulo_id: a.id, codigo: a.codigo, descripcion: a.nombre_tpv?.trim() || a.descripcion, tipo_iva: tipo, cantidad: -l.cantidad, precio, descuento: 0 };
      });
      const totales = totalesTicket(lineas);
      const reembolso = -totales.total;
      if (reembolso <= 0) throw fail(MESSAGES_TPV.devolucionSinTicketLineas, '1', 400);
      const pagos = pagosRaw.map((pi) => {
        const p = (pi && typeof pi === 'object' ? pi : {}) as Record<string, unknown>;
        const forma = String(p.forma ?? '');
        const importe = entero(p.importe);
        if (!(FORMAS_PAGO_TPV as readonly string[]).includes(forma)) throw fail(t(MESSAGES_TPV.formaPagoNoValida, { forma }), '1', 400);
        if (forma === 'vale') {
          if (registro) throw fail(MESSAGES_TPV.valeSinConexion, '1', 400);
          if (!tiene(user.rol.derechos, 'reembolso_vale')) throw fail(MESSAGES_TPV.valeSinDerecho, '1', 403);
        } else if (!formasDe(terminal.formas_pago).includes(forma as FormaPagoTpv)) throw fail(t(MESSAGES_TPV.formaPagoNoOfrecida, { forma }), '1', 400);
        if (importe === null || importe <= 0) throw fail(MESSAGES_TPV.pagoNoValido, '1', 400);
        return { forma: forma as FormaPagoTpv, importe };
      });
      const suma = pagos.reduce((s, p) => s + p.importe, 0);
      if (suma !== reembolso) throw fail(t(MESSAGES_TPV.devolucionPagos, { pagado: euros(suma), total: euros(reembolso) }), '1', 400);
      // Cash: no more than the drawer holds (the caja's expected cash now). Offline the money already left: flagged.
      const efectivo = pagos.filter((p) => p.forma === 'efectivo').reduce((s, p) => s + p.importe, 0);
      if (efectivo > 0 && caja) {
        const hay = (await cifrasCaja(trx, { ...caja, fondo: Number(caja.fondo) })).efectivo.esperado;
        if (efectivo > hay) {
          if (!registro) throw fail(t(MESSAGES_TPV.devolucionEfectivoCaja, { efectivo: euros(Math.max(hay, 0)), importe: euros(efectivo) }), '1', 400);
          avisos.push({ tipo: 'retirada', detalle: t(MESSAGES_TPV.incidenciaEfectivo, { numero: registro.num_serie, importe: euros(efectivo), efectivo: euros(hay) }) });
        }
      }
      if (sinDerecho && registro) {
        avisos.push({ tipo: 'devolucion', detalle: t(MESSAGES_TPV.incidenciaSinTicketSinDerecho, { numero: registro.num_serie, importe: '{total}', cajero: user.nombre }) });
      }
      const hoy = registro ? isoDe(registro.fecha_expedicion) : todayIn(app.timeZone);
      const now = nowIso();
      const { id: docId } = await trx
        .insertInto('documentos')
        .values({
          tipo: RECTIFICATIVA.tipo, serie_id: terminal.serie_rectificativa_id, numero: null, ejercicio: Number(hoy.slice(0, 4)), fecha: hoy, estado: RECTIFICATIVA.inicial,
          creado: now, creado_por: user.id, almacen_id: terminal.almacen_id, almacen_destino_id: null, familia_id: null, ubicacion_id: null, proveedor_id: null,
          cliente_id: terminal.cliente_id, forma_pago: null, fecha_entrega: null, retencion: 0, con_recargo: 0, observaciones: null, base: totales.base, iva: totales.iva,
          recargo: 0, retencion_importe: 0, total: totales.total, desglose: JSON.stringify(totales.desglose), clave: null, modificado: null, modificado_por: null,
          tipo_factura: 'R5', factura_id: null, modo_rectificacion: 'diferencias',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The uuid first: a duplicate sent at the same time stops here (unique), before any number is taken.
      await trx
        .insertInto('tpv_tickets')
        .values({
          documento_id: docId, uuid, tipo: 'devolucion', terminal_id: terminal.id, caja_id: caja?.id ?? null, ticket_id: null, fecha_hora: fechaHora ?? now, usuario_id: user.id,
          cambio: 0, offline: registro ? 1 : 0,
        })
        .execute();
      await insertarFilas(
        trx,
        'documento_lineas',
        COLUMNAS_LINEA,
        lineas.map((l, i) => [docId, i + 1, l.articulo_id, l.codigo, l.descripcion, l.tipo_iva, l.cantidad, precioSinIva(l.precio, l.tipo_iva), 0, 0, null, null, null, null, l.precio]),
      );
      await emitirDevolucionTpv(trx, app, user, { docId, terminal, cajaId: caja?.id ?? null, uuid, registro, hoy, avisos, pagos, total: totales.total, sinFactura: true });
      return docId;
    });
  const id = await guardarDevolucionTpv(app, user, raw, uuid, registro, una, async () =>
    (await app.db.selectFrom('tpv_terminales').select('id').where('id', '=', terminalId).executeTakeFirst())?.id ?? null,
  );
  return leerDevolucionTpv(app, id, null, uuid);
}
