// Generated TPV tickets (`pnpm bench:informes`): each terminal's days of counter sales written set-based straight into
// the tables as `subirtickets` leaves them (server/src/tpv/tickets.ts): the document (tipo ticket, estado emitido,
// F2, numbered per terminal serie and ejercicio) with its lines (the price without IVA and the till's with it), the
// engine's `emitir` action with its stock out (causa venta, at the net price), the till's row (terminal, caja, instant,
// change) and payments, each terminal's VERI*FACTU chain (the F2 records made by the same shared function the server
// and the till use, registroTicket), the counters; and per terminal and day a caja opened in the morning and closed
// at night with its Z report computed by the server's own cifrasCaja, as editarcierretpv stores it.
import type { Kysely } from 'kysely';
import { precioSinIva, totalesTicket } from 'shared/domain';
import type { Impuesto, TipoIva } from 'shared/domain';
import { registroTicket } from 'shared/fiscal';
import type { Anterior } from 'shared/fiscal';
import { claveCadena, fechaHoraHuso, sistemaInformatico } from '../fiscal/registro.ts';
import { cifrasCaja } from '../tpv/caja.ts';
import type { Database } from '../db/schema.ts';
import type { IdsDocumentos } from './compras.ts';
import { bulk, int, param, rand } from './datos.ts';
import type { Escritor } from './datos.ts';
import { escribirContadores } from './ventas.ts';

/** A terminal as the tickets need it (tpv_terminales and its serie's code). */
export type TerminalGenerado = {
  id: number;
  serie_id: number;
  serie_codigo: string;
  almacen_id: number;
  cliente_id: number | null;
  numero_instalacion: string;
  fondo: number;
};
/** What a ticket line needs of an article: its IVA and its PVP (the till's price with IVA, ten-thousandths). */
export type ArticuloTicket = { id: number; codigo: string; descripcion: string; tipo_iva: TipoIva; pvp: number };

export type OpcionesTickets = {
  /** The generated days, oldest first. */
  dias: string[];
  /** Tickets in all, spread over the days and the terminals. */
  tickets: number;
  terminales: TerminalGenerado[];
  articulos: ArticuloTicket[];
  /** The user who sold and opened and closed the cajas. */
  admin: number;
  /** The company as the records' issuer and its tax (empresaEmisora), as subirtickets passes them. */
  emisor: { nif: string; nombre: string; impuesto: Impuesto };
  timeZone: string;
  ids: IdsDocumentos & { caja: number };
  /** Lines per ticket (default 1 to 5). */
  lineas?: () => number;
  /** Units of a line, thousandths (default 1 or 2 units, now and then up to 6). */
  cantidad?: () => number;
  /**
   * Units each article may still sell (thousandths, by article id; taken as the tickets are made): a line that would
   * exceed it is left out, a ticket left without lines is not made. Absent: no limit (a bench's stock may go negative).
   */
  disponible?: Map<number, number>;
  /** The records' estado_envio: 'pendiente' (a bench's, as the till leaves them) or the demo's, which is never sent. */
  estadoEnvio?: string;
};

const DOC_COLS = [
  'id', 'tipo', 'serie_id', 'numero', 'ejercicio', 'fecha', 'estado', 'almacen_id', 'cliente_id', 'retencion', 'con_recargo', 'base', 'iva', 'recargo',
  'retencion_importe', 'total', 'desglose', 'creado', 'creado_por', 'modificado', 'modificado_por', 'tipo_factura',
];
const LINE_COLS = ['id', 'documento_id', 'orden', 'articulo_id', 'codigo', 'descripcion', 'tipo_iva', 'cantidad', 'precio', 'descuento', 'recargo', 'pendiente', 'precio_iva'];

/** Answers the rows written: tickets, their lines, records and cajas. */
export async function escribirTickets(r: Escritor, db: Kysely<Database>, o: OpcionesTickets): Promise<{ tickets: number; lineas: number; registros: number; cajas: number }> {
  const nLineas = o.lineas ?? (() => 1 + int(5));
  const docs: unknown[][] = [];
  const lines: unknown[][] = [];
  const acciones: unknown[][] = [];
  const ledger: unknown[][] = [];
  const tt: unknown[][] = [];
  const pagos: unknown[][] = [];
  const registros: unknown[][] = [];
  const cajas: { id: number; terminal_id: number; usuario_id: number; apertura: string; fondo: number }[] = [];
  const contadores = new Map<string, { ultimo: number; fecha: string }>();
  const cadenas = new Map<number, { orden: number; anterior: Anterior | null }>();
  const ids = o.ids;
  // Per day, per terminal: that day's tickets in order (the day's share spread evenly, the terminal at random).
  for (let k = 0; k < o.tickets; ) {
    const diaIdx = Math.floor((k * o.dias.length) / o.tickets);
    const dia = o.dias[diaIdx];
    let fin = k;
    while (fin < o.tickets && Math.floor((fin * o.dias.length) / o.tickets) === diaIdx) fin++;
    const porTerminal = new Map<TerminalGenerado, number>();
    for (let j = k; j < fin; j++) {
      const t = o.terminales[int(o.terminales.length)];
      porTerminal.set(t, (porTerminal.get(t) ?? 0) + 1);
    }
    k = fin;
    for (const t of o.terminales) {
      const n = porTerminal.get(t) ?? 0;
      if (!n) continue;
      const caja = { id: ids.caja++, terminal_id: t.id, usuario_id: o.admin, apertura: `${dia}T07:30:00.000Z`, fondo: t.fondo };
      cajas.push(caja);
      const ejercicio = Number(dia.slice(0, 4));
      const cadena = cadenas.get(t.id) ?? { orden: 0, anterior: null };
      cadenas.set(t.id, cadena);
      const clave = `ticket|${t.serie_id}|${ejercicio}`;
      const contador = contadores.get(clave) ?? { ultimo: 0, fecha: dia };
      contadores.set(clave, contador);
      for (let s = 0; s < n; s++) {
        // The day's sales from 08:00, spread to 20:00 (the records' instants never go back).
        const instante = new Date(Date.parse(`${dia}T08:00:00Z`) + Math.floor((s * 12 * 3600_000) / n));
        const elegidos = new Set<number>();
        const m = Math.min(nLineas(), o.articulos.length);
        while (elegidos.size < m) elegidos.add(int(o.articulos.length));
        const ls = [...elegidos]
          .map((a) => {
            const art = o.articulos[a];
            return { art, cantidad: o.cantidad ? o.cantidad() : (1 + int(rand() < 0.8 ? 2 : 6)) * 1000, precio: art.pvp, descuento: 0, tipo_iva: art.tipo_iva };
          })
          .filter((l) => {
            if (!o.disponible) return true;
            const queda = o.disponible.get(l.art.id) ?? 0;
            if (queda < l.cantidad) return false;
            o.disponible.set(l.art.id, queda - l.cantidad);
            return true;
          });
        if (!ls.length) continue;
        const docId = ids.doc++;
        const totales = totalesTicket(ls);
        contador.ultimo++;
        contador.fecha = dia;
        const numero = contador.ultimo;
        const emitir = ids.accion++;
        acciones.push([emitir, docId, 'emitir', instante.toISOString(), o.admin, 'borrador', null, null]);
        const creado = instante.toISOString();
        docs.push([
          docId, 'ticket', t.serie_id, numero, ejercicio, dia, 'emitido', t.almacen_id, t.cliente_id, 0, 0, totales.base, totales.iva, 0, 0, totales.total,
          JSON.stringify(totales.desglose), creado, o.admin, creado, o.admin, 'F2',
        ]);
        for (const [i, l] of ls.entries()) {
          const lineaId = ids.linea++;
          const neto = precioSinIva(l.precio, l.tipo_iva);
          lines.push([lineaId, docId, i + 1, l.art.id, l.art.codigo, l.art.descripcion, l.tipo_iva, l.cantidad, neto, 0, 0, 0, l.precio]);
          ledger.push([l.art.id, t.almacen_id, null, null, -l.cantidad, 'venta', 'ticket', docId, lineaId, emitir, dia, neto]);
        }
        // Card or cash (cash handed over rounded up to the next 5 € — amounts in cents: the change in the till's row).
        const efectivo = rand() < 0.6;
        const entregado = efectivo ? Math.ceil(totales.total / 500) * 500 : totales.total;
        pagos.push([docId, 1, efectivo ? 'efectivo' : 'tarjeta', totales.total, entregado]);
        tt.push([docId, `gen-${docId}`, 'ticket', t.id, caja.id, null, fechaHoraHuso(instante, o.timeZone), o.admin, entregado - totales.total, 0]);
        const reg = registroTicket({
          emisor: { nif: o.emisor.nif, nombre: o.emisor.nombre }, impuesto: o.emisor.impuesto, instalacion: t.numero_instalacion, sistema: sistemaInformatico(), serieCodigo: t.serie_codigo, ejercicio, numero, fecha: dia, totales,
          anterior: cadena.anterior, ts: fechaHoraHuso(instante, o.timeZone),
        });
        cadena.orden++;
        registros.push([
          claveCadena(o.emisor.nif, t.numero_instalacion), cadena.orden, 'alta', docId, reg.campos.NumSerieFactura, reg.campos.FechaExpedicionFactura, 'F2',
          reg.campos.CuotaTotal, reg.campos.ImporteTotal, cadena.anterior?.huella ?? '', reg.huella, reg.campos.FechaHoraHusoGenRegistro, reg.xml, o.estadoEnvio ?? 'pendiente', creado,
        ]);
        cadena.anterior = {
          id_emisor: o.emisor.nif, num_serie: reg.campos.NumSerieFactura, fecha_expedicion: reg.campos.FechaExpedicionFactura, huella: reg.huella,
          fecha_hora_huso: reg.campos.FechaHoraHusoGenRegistro,
        };
      }
    }
  }
  await bulk(r, 'documentos', DOC_COLS, docs);
  await bulk(r, 'documento_lineas', LINE_COLS, lines);
  await bulk(r, 'documento_acciones', ['id', 'documento_id', 'accion', 'fecha', 'usuario_id', 'estado_antes', 'detalle', 'deshecha_por'], acciones);
  await bulk(
    r,
    'stock_movimientos',
    ['articulo_id', 'almacen_id', 'ubicacion', 'ubicacion_id', 'cantidad', 'causa', 'documento_tipo', 'documento_id', 'documento_linea_id', 'accion_id', 'fecha', 'precio'],
    ledger,
  );
  await bulk(r, 'tpv_cajas', ['id', 'terminal_id', 'usuario_id', 'apertura', 'fondo'], cajas.map((c) => [c.id, c.terminal_id, c.usuario_id, c.apertura, c.fondo]));
  await bulk(r, 'tpv_tickets', ['documento_id', 'uuid', 'tipo', 'terminal_id', 'caja_id', 'ticket_id', 'fecha_hora', 'usuario_id', 'cambio', 'offline'], tt);
  await bulk(r, 'tpv_pagos', ['documento_id', 'orden', 'forma', 'importe', 'entregado'], pagos);
  await bulk(
    r,
    'registros_facturacion',
    ['emisor', 'orden', 'tipo', 'documento_id', 'num_serie', 'fecha_expedicion', 'tipo_factura', 'cuota_total', 'importe_total', 'huella_anterior', 'huella',
      'fecha_hora_huso', 'xml', 'estado_envio', 'creado'],
    registros,
  );
  await bulk(
    r,
    'registros_cadena',
    ['emisor', 'ultimo_orden', 'ultima_huella'],
    o.terminales.filter((t) => cadenas.has(t.id)).map((t) => [claveCadena(o.emisor.nif, t.numero_instalacion), cadenas.get(t.id)!.orden, cadenas.get(t.id)!.anterior?.huella ?? '']),
  );
  await escribirContadores(r, contadores);
  // Each caja closed at 21:00 with everything counted as expected: its Z as editarcierretpv computes and stores it.
  const cierres: unknown[][] = [];
  const codigos = new Map<number, number>();
  const [{ m }] = (await r.rawQuery('select max(id) as m from tpv_cierres', [])) as { m: number | string | null }[];
  let cierreId = Number(m ?? 0) + 1;
  for (const caja of cajas) {
    const c = await cifrasCaja(db, caja);
    for (const f of c.formas) {
      f.contado = f.esperado;
      f.diferencia = 0;
    }
    c.efectivo.contado = c.efectivo.esperado;
    c.efectivo.diferencia = 0;
    c.diferencia = 0;
    c.cierre = `${caja.apertura.slice(0, 10)}T21:00:00.000Z`;
    c.codigo = (codigos.get(caja.terminal_id) ?? 0) + 1;
    codigos.set(caja.terminal_id, c.codigo);
    c.id = cierreId++;
    // Issue 22: the demo's closings are the demo's (their Z says so), whatever verifactu.demo says while generating.
    c.demo = 1;
    cierres.push([
      c.id, caja.terminal_id, c.codigo, caja.id, caja.usuario_id, caja.apertura, c.cierre, c.fondo, c.tickets, c.devoluciones, c.total, c.efectivo.esperado,
      c.efectivo.contado, 0, JSON.stringify(c),
    ]);
  }
  await bulk(
    r,
    'tpv_cierres',
    ['id', 'terminal_id', 'codigo', 'caja_id', 'usuario_id', 'apertura', 'cierre', 'fondo', 'tickets', 'devoluciones', 'total', 'efectivo_esperado', 'efectivo_contado',
      'diferencia', 'datos'],
    cierres,
  );
  // The cajas point at their closings (one statement).
  await r.rawQuery(
    `update tpv_cajas set cierre_id = (select c.id from tpv_cierres c where c.caja_id = tpv_cajas.id) where id >= ${param(r.name, 1)} and cierre_id is null`,
    [cajas[0]?.id ?? 0],
  );
  return { tickets: docs.length, lineas: lines.length, registros: registros.length, cajas: cajas.length };
}
