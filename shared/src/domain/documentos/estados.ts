import type { DocumentoTipoDef, EstadoDef } from './motor';

/** States and confirmations several types share (not part of shared's public exports). */
export const pendiente: EstadoDef = { id: 'pendiente', label: 'Pendiente', tone: 'info' };
export const finalizado: EstadoDef = { id: 'finalizado', label: 'Finalizado', tone: 'ok' };
export const borrador: EstadoDef = { id: 'borrador', label: 'Borrador', tone: 'info' };
export const emitida: EstadoDef = { id: 'emitida', label: 'Emitida', tone: 'ok' };
export const anulada: EstadoDef = { id: 'anulada', label: 'Anulada', tone: 'off' };
export const EMITIR_CONFIRM = 'Se le asignará el siguiente número de su serie y su registro de facturación. Una vez emitida no se podrá modificar ni eliminar.';
export const ANULAR_CONFIRM =
  'Anule solo una factura que nunca debió existir (emitida por error, repetida o a quien no era): se registrará su anulación ante la AEAT y su número queda usado. Si la venta existió y cambia algo (unidades devueltas, un precio, un descuento, los datos del cliente), no la anule: haga una rectificativa con «Rectificar».';

/**
 * An invoice's life, the same for a factura and a rectificativa: a draft, issued (numbered, with its VERI*FACTU
 * record), perhaps cancelled (its anulación record).
 */
export const CICLO_FACTURA: Pick<DocumentoTipoDef, 'estados' | 'inicial' | 'editable' | 'eliminable' | 'acciones'> = {
  estados: [borrador, emitida, anulada],
  inicial: 'borrador',
  editable: ['borrador'],
  eliminable: ['borrador'],
  acciones: [
    { verbo: 'emitir', label: 'Emitir', from: ['borrador'], to: 'emitida', confirm: EMITIR_CONFIRM },
    { verbo: 'anular', label: 'Anular', from: ['emitida'], to: 'anulada', confirm: ANULAR_CONFIRM, secundaria: true },
  ],
};
