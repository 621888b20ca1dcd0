import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The demo's suppliers (valid CIFs and IBANs; Madrid and Barcelona postal codes). */
export const DEMO_PROVEEDORES = [
  {
    codigo: 'P0001', nif: 'B28456713', razon_social: 'Suministros Industriales Castilla, S.L.', nombre_comercial: 'SICASA',
    direccion: 'Calle de Embajadores, 210', codigo_postal: '28045', poblacion: 'Madrid', provincia: 'Madrid', telefono: '914 567 100',
    email: 'pedidos@sicasa.es', iban: 'ES9121000418450200051332', forma_pago: 'transferencia_30', retencion: 0, observaciones: null, activo: 1,
  },
  {
    codigo: 'P0002', nif: 'B08934127', razon_social: 'Distribuciones Mediterráneo, S.L.', nombre_comercial: 'DisMed',
    direccion: 'Carrer de Pujades, 77', codigo_postal: '08005', poblacion: 'Barcelona', provincia: 'Barcelona', telefono: '933 001 200',
    email: 'compras@dismed.es', iban: 'ES6000491500051234567892', forma_pago: 'recibo_30_60', retencion: 0, observaciones: null, activo: 1,
  },
  {
    codigo: 'P0003', nif: 'A28765436', razon_social: 'Ferretería Mayorista del Centro, S.A.', nombre_comercial: null,
    direccion: 'Avenida de Andalucía, 15', codigo_postal: '28041', poblacion: 'Madrid', provincia: 'Madrid', telefono: '917 230 450',
    email: null, iban: 'ES1001822370420201234567', forma_pago: 'contado', retencion: 0, observaciones: 'Recogida en almacén', activo: 1,
  },
] as const;

export async function seedCompras(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('proveedores')
    .values(DEMO_PROVEEDORES.map((p) => ({ ...p })))
    .onConflict((oc) => oc.column('codigo').doNothing())
    .execute();
}
