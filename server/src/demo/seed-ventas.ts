import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The demo's customers (valid NIFs / CIFs and IBANs): companies on the three ways to pay, a shop under recargo de
 * equivalencia, one on tarifa 2 with a discount, and a private customer.
 */
export const DEMO_CLIENTES = [
  {
    codigo: 'C0001', nif: 'B85612349', razon_social: 'Reformas Hernández, S.L.', nombre_comercial: 'Reformas Hernández',
    direccion: 'Calle de Bravo Murillo, 233', codigo_postal: '28020', poblacion: 'Madrid', provincia: 'Madrid', telefono: '915 702 318',
    email: 'administracion@reformashernandez.es', iban: 'ES2520852066623330001234', forma_pago: 'transferencia_30', retencion: 0,
    recargo: 0, tarifa: 1, descuento: 0, observaciones: null, activo: 1,
  },
  {
    codigo: 'C0002', nif: '50738214F', razon_social: 'María López García', nombre_comercial: 'Ferretería López',
    direccion: 'Calle Ancha, 14', codigo_postal: '45001', poblacion: 'Toledo', provincia: 'Toledo', telefono: '925 221 470',
    email: 'ferreterialopez@correo.es', iban: 'ES4501822370410201234568', forma_pago: 'recibo_30', retencion: 0,
    recargo: 1, tarifa: 1, descuento: 0, observaciones: 'Comercio minorista en recargo de equivalencia', activo: 1,
  },
  {
    codigo: 'C0003', nif: 'B46728192', razon_social: 'Construcciones Levante, S.L.', nombre_comercial: null,
    direccion: 'Avinguda del Port, 88', codigo_postal: '46023', poblacion: 'Valencia', provincia: 'Valencia', telefono: '963 300 112',
    email: 'compras@construccioneslevante.es', iban: 'ES7921000813610123456789', forma_pago: 'recibo_30_60', retencion: 0,
    recargo: 0, tarifa: 2, descuento: 500, observaciones: 'Tarifa de profesionales', activo: 1,
  },
  {
    codigo: 'C0004', nif: 'A28930170', razon_social: 'Hoteles Castellana, S.A.', nombre_comercial: 'Hotel Castellana Centro',
    direccion: 'Paseo de la Castellana, 57', codigo_postal: '28046', poblacion: 'Madrid', provincia: 'Madrid', telefono: '913 194 000',
    email: 'mantenimiento@hotelcastellana.es', iban: null, forma_pago: 'transferencia', retencion: 0,
    recargo: 0, tarifa: 1, descuento: 1000, observaciones: null, activo: 1,
  },
  {
    codigo: 'C0005', nif: '33917462Y', razon_social: 'Juan Pérez Martín', nombre_comercial: null,
    direccion: 'Calle de Toledo, 40, 3º B', codigo_postal: '28005', poblacion: 'Madrid', provincia: 'Madrid', telefono: '600 123 456',
    email: null, iban: null, forma_pago: 'contado', retencion: 0,
    recargo: 0, tarifa: 1, descuento: 0, observaciones: 'Particular', activo: 1,
  },
] as const;

export async function seedVentas(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('clientes')
    .values(DEMO_CLIENTES.map((c) => ({ ...c })))
    .onConflict((oc) => oc.column('codigo').doNothing())
    .execute();
}
