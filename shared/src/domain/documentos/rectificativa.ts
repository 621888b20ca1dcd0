import type { DocumentoTipoDef } from './motor';
import { CICLO_FACTURA } from './estados';

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
  ...CICLO_FACTURA,
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
