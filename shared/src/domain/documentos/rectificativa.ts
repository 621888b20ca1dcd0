import type { DocumentoTipoDef } from './motor';
import { borrador, emitida, anulada, EMITIR_CONFIRM, ANULAR_CONFIRM } from './estados';

/** Factura rectificativa: its states and actions, its flags and its screens (docs/documentos.md). */
export const rectificativa: DocumentoTipoDef = {
  tipo: 'rectificativa',
  entidad: 'rectificativa',
  plural: 'rectificativas',
  singular: 'Factura rectificativa',
  pluralLabel: 'Rectificativas',
  femenino: true,
  prefijo: 'R',
  ruta: '/ventas/rectificativa',
  flags: ['ventas', 'ventas_facturas'],
  estados: [borrador, emitida, anulada],
  inicial: 'borrador',
  editable: ['borrador'],
  eliminable: ['borrador'],
  acciones: [
    { verbo: 'emitir', label: 'Emitir', from: ['borrador'], to: 'emitida', confirm: EMITIR_CONFIRM },
    { verbo: 'anular', label: 'Anular', from: ['emitida'], to: 'anulada', confirm: ANULAR_CONFIRM, secundaria: true },
  ],
  lineas: 'venta',
  tercero: 'cliente',
  series: ['rectificativa'],
  negativas: true,
  pantalla: {
    seccion: 'ventas',
    lista: 'rectificativa',
    nuevo: 'nueva-rectificativa',
    menu: { label: 'Rectificativas', orden: 60, area: 'facturas' },
    nuevoLabel: 'Nueva rectificativa',
    description:
      'Corrigen una factura emitida: por diferencias (solo lo que cambia, en negativo lo que se reduce) o por sustitución (la factura corregida entera).',
  },
};
