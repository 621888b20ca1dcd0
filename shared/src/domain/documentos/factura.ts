import type { DocumentoTipoDef } from './motor';
import { CICLO_FACTURA } from './estados';

/** Factura: its states and actions, its flags and its screens (docs/documentos.md). */
export const factura: DocumentoTipoDef = {
  tipo: 'factura',
  entidad: 'factura',
  plural: 'facturas',
  singular: 'Factura',
  pluralLabel: 'Facturas',
  femenino: true,
  prefijo: 'F',
  ruta: '/ventas/factura',
  flags: ['ventas', 'ventas_facturas'],
  ...CICLO_FACTURA,
  lineas: 'venta',
  tercero: 'cliente',
  series: ['normal', 'simplificada'],
  negativas: true,
  pantalla: {
    seccion: 'ventas',
    lista: 'facturas',
    nuevo: 'nueva-factura',
    menu: { label: 'Facturas', orden: 40, area: 'facturas' },
    nuevoLabel: 'Nueva factura',
    description:
      'Facturas a clientes: en borrador se pueden cambiar; al emitirlas reciben su número de serie y su registro de facturación y ya no se modifican.',
  },
};
