import type { ReactNode } from 'react';
import { diferido } from './diferido';
import type { TerceroComun, TerceroRecordPageProps } from './TerceroRecordPageImpl';

export type {
  EjercicioFila,
  TerceroComun,
  TerceroDocumentosDe,
  TerceroFormState,
  TerceroPropios,
  TerceroNuevo,
  TerceroRecordPageProps,
  TerceroValues,
} from './TerceroRecordPageImpl';

// Loads with the first party record, not with the login.
/**
 * The record and "nuevo" screen of a party (proveedor, cliente): NIF/CIF/NIE, razón social, nombre
 * comercial, código, activo; address (the postal code fills the province), phone, email; IBAN in groups of
 * four, forma de pago, % retención, observaciones; the section's own fields (`propios`: a customer's recargo,
 * tarifa and discount); save, cancel and delete (refused with 'Acción no posible' while it has documents).
 * Once saved, under the form: `resumen` (what a customer owes), `porEjercicio` (purchases or sales per year)
 * and the party's latest `documentos` of each type given, each a link.
 *
 * @example
 * <TerceroRecordPage tercero={TERCEROS.proveedor} id={id} schema={proveedorSchema} list={paths.proveedores} record={paths.proveedor}
 *   porEjercicio={{ titulo: 'Compras por ejercicio', vacio: 'Todavía no hay compras de este proveedor.', filas: (p) => p.compras_por_ejercicio }} />
 */
export const TerceroRecordPage = diferido(() => import('./TerceroRecordPageImpl'), 'Cargando', 200) as <R extends TerceroComun>(
  props: TerceroRecordPageProps<R>,
) => ReactNode;
