import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DialectName } from '../index.ts';
import { notNull, withId } from './util.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not be typed against today's schema; Kysely's Migration.up receives Kysely<any> for this reason.
type AnyDb = Kysely<any>;

/**
 * The TPV (issue 13; docs/tpv.md): terminals (each with its own serie of simplified invoices, its rectificativa serie,
 * its VERI*FACTU installation, the browser paired with it), the pages of buttons, the till's sessions (cajas) with
 * their cash movements and closings, each ticket's till data (uuid, terminal, payments) beside its document, the
 * cashier's PIN, and a ticket line's unit price with IVA as the till showed it.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const pg = dialect === 'postgres';
  const bigint = pg ? 'bigint' : 'integer';
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

  await withId(db.schema.createTable('tpv_terminales'), dialect)
    .addColumn('nombre', 'text', (c) => c.notNull().unique())
    .addColumn('almacen_id', 'integer', (c) => c.notNull().references('almacenes.id'))
    // One terminal per serie: two tills never share a counter, online or offline.
    .addColumn('serie_id', 'integer', (c) => c.notNull().unique().references('series.id'))
    .addColumn('serie_rectificativa_id', 'integer', (c) => c.notNull().unique().references('series.id'))
    .addColumn('cliente_id', 'integer', (c) => c.references('clientes.id'))
    .addColumn('numero_instalacion', 'text', (c) => c.notNull().unique())
    // JSON array of the payment methods it offers: efectivo, tarjeta, bizum, vale.
    .addColumn('formas_pago', 'text', notNull)
    .addColumn('fondo', bigint, zero)
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    // The paired browser: the hash of its long-lived token; the one-time pairing code's hash and expiry.
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('emparejado', 'text')
    .addColumn('codigo_hash', 'text')
    .addColumn('codigo_expira', 'text')
    .addColumn('creado', 'text', notNull)
    .execute();

  // Pages of buttons: per terminal, or shared (terminal_id null). A page may be a family's (its articles by name).
  await withId(db.schema.createTable('tpv_paginas'), dialect)
    .addColumn('terminal_id', 'integer', (c) => c.references('tpv_terminales.id'))
    .addColumn('orden', 'integer', notNull)
    .addColumn('nombre', 'text', notNull)
    .addColumn('familia_id', 'integer', (c) => c.references('familias.id'))
    .addColumn('color', 'text')
    .execute();
  await db.schema.createIndex('tpv_paginas_terminal').on('tpv_paginas').columns(['terminal_id', 'orden']).execute();
  await withId(db.schema.createTable('tpv_botones'), dialect)
    .addColumn('pagina_id', 'integer', (c) => c.notNull().references('tpv_paginas.id'))
    .addColumn('posicion', 'integer', notNull)
    .addColumn('articulo_id', 'integer', (c) => c.notNull().references('articulos.id'))
    .addColumn('color', 'text')
    .addColumn('etiqueta', 'text')
    .addUniqueConstraint('tpv_botones_posicion', ['pagina_id', 'posicion'])
    .execute();
  await db.schema.createIndex('tpv_botones_articulo').on('tpv_botones').column('articulo_id').execute();

  // A session of a till: opened with its float, closed by its closing.
  await withId(db.schema.createTable('tpv_cajas'), dialect)
    .addColumn('terminal_id', 'integer', (c) => c.notNull().references('tpv_terminales.id'))
    .addColumn('usuario_id', 'integer')
    .addColumn('apertura', 'text', notNull)
    .addColumn('fondo', bigint, zero)
    .addColumn('cierre_id', 'integer')
    .execute();
  await db.schema.createIndex('tpv_cajas_terminal').on('tpv_cajas').columns(['terminal_id', 'cierre_id']).execute();

  await withId(db.schema.createTable('tpv_cierres'), dialect)
    .addColumn('terminal_id', 'integer', (c) => c.notNull().references('tpv_terminales.id'))
    .addColumn('codigo', 'integer', notNull)
    .addColumn('caja_id', 'integer', (c) => c.notNull().unique().references('tpv_cajas.id'))
    .addColumn('usuario_id', 'integer')
    .addColumn('apertura', 'text', notNull)
    .addColumn('cierre', 'text', notNull)
    .addColumn('fondo', bigint, zero)
    .addColumn('tickets', 'integer', zero)
    .addColumn('devoluciones', 'integer', zero)
    .addColumn('total', bigint, zero)
    .addColumn('efectivo_esperado', bigint, zero)
    .addColumn('efectivo_contado', bigint, zero)
    .addColumn('diferencia', bigint, zero)
    // JSON: the whole closing as the Z report prints it (CierreTpv of shared/domain/tpv.ts), final once written.
    .addColumn('datos', 'text', notNull)
    .addUniqueConstraint('tpv_cierres_codigo', ['terminal_id', 'codigo'])
    .execute();

  // Cash in / out of the drawer during a session.
  await withId(db.schema.createTable('tpv_movimientos'), dialect)
    .addColumn('terminal_id', 'integer', (c) => c.notNull().references('tpv_terminales.id'))
    .addColumn('caja_id', 'integer', (c) => c.notNull().references('tpv_cajas.id'))
    .addColumn('uuid', 'text', (c) => c.unique())
    .addColumn('fecha_hora', 'text', notNull)
    .addColumn('usuario_id', 'integer')
    .addColumn('importe', bigint, notNull)
    .addColumn('motivo', 'text', notNull)
    .execute();
  await db.schema.createIndex('tpv_movimientos_caja').on('tpv_movimientos').column('caja_id').execute();

  // The till's side of a ticket (tipo 'ticket') or of a return's R5 (tipo 'devolucion'): one row per document.
  await db.schema
    .createTable('tpv_tickets')
    .addColumn('documento_id', 'integer', (c) => c.primaryKey().references('documentos.id'))
    // Made by the till: a repeated upload finds it (the unique index also settles two at once).
    .addColumn('uuid', 'text', (c) => c.unique())
    .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('ticket', 'devolucion')`))
    .addColumn('terminal_id', 'integer', (c) => c.notNull().references('tpv_terminales.id'))
    .addColumn('caja_id', 'integer', (c) => c.references('tpv_cajas.id'))
    .addColumn('ticket_id', 'integer', (c) => c.references('documentos.id'))
    .addColumn('fecha_hora', 'text', notNull)
    .addColumn('usuario_id', 'integer')
    .addColumn('cambio', bigint, zero)
    // 1: the till made the record itself (offline) and the server verified it.
    .addColumn('offline', 'integer', zero)
    .execute();
  await db.schema.createIndex('tpv_tickets_caja').on('tpv_tickets').columns(['caja_id', 'tipo']).execute();
  await db.schema.createIndex('tpv_tickets_terminal').on('tpv_tickets').columns(['terminal_id', 'documento_id']).execute();
  await db.schema.createIndex('tpv_tickets_ticket').on('tpv_tickets').column('ticket_id').execute();

  await withId(db.schema.createTable('tpv_pagos'), dialect)
    .addColumn('documento_id', 'integer', (c) => c.notNull().references('documentos.id'))
    .addColumn('orden', 'integer', notNull)
    .addColumn('forma', 'text', notNull)
    // What the method pays of the total (cents; negative on a return); cash: `entregado` is what was handed over.
    .addColumn('importe', bigint, notNull)
    .addColumn('entregado', bigint, notNull)
    .execute();
  await db.schema.createIndex('tpv_pagos_documento').on('tpv_pagos').columns(['documento_id', 'orden']).execute();

  // A ticket line's unit price with IVA, as the till showed it (ten-thousandths); precio keeps the engine's without IVA.
  await db.schema.alterTable('documento_lineas').addColumn('precio_iva', bigint).execute();
  // The cashier's PIN at a paired till (hashed like a password): the cashier picks their name and types it.
  await db.schema.alterTable('usuarios').addColumn('pin_hash', 'text').execute();
}
