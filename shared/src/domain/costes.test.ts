import { describe, expect, it } from 'vitest';
import { esCampoCoste, esCosteDe } from './costes';
import { DOCUMENTO_TIPOS } from './documentos';
import { isEntryVisible } from './menu';
import { ROL_PREDEFINIDO, falta, necesidadDocumento } from './roles';
import { allFlags } from '../testing';

describe('issue 24: costs and the purchase orders', () => {
  it('names the costs anywhere, and the purchase amounts only where they are purchase prices', () => {
    for (const c of ['coste', 'coste_medio', 'valor', 'valor_total', 'margen_pct', 'precio_compra', 'precio_medio', 'ultimo_precio']) expect(esCampoCoste(c), c).toBe(true);
    for (const c of ['precio_venta', 'precio_medio_venta', 'pvp_1', 'total', 'stock']) expect(esCampoCoste(c), c).toBe(false);
    expect(esCosteDe('listadopedidoscompra', 'precio')).toBe(true);
    expect(esCosteDe('recibirpedidocompra', 'total')).toBe(true);
    expect(esCosteDe('listadoperdidas', 'total')).toBe(true);
    expect(esCosteDe('informecompras', 'base')).toBe(true);
    expect(esCosteDe('informemovimientos', 'precio')).toBe(true);
    expect(esCosteDe('listadoalbaranesventa', 'precio')).toBe(false);
    expect(esCosteDe('informeventas', 'base')).toBe(false);
  });

  it('sending a purchase order is Compras › crear y modificar: Almacén receives and closes, does not send', () => {
    const almacen = ROL_PREDEFINIDO.almacen.derechos;
    expect(necesidadDocumento(DOCUMENTO_TIPOS.pedidocompra, 'enviar')).toEqual({ areas: ['compras'], nivel: 'editar' });
    expect(falta(almacen, necesidadDocumento(DOCUMENTO_TIPOS.pedidocompra, 'enviar'))).toEqual({ area: 'compras', nivel: 'editar' });
    expect(falta(almacen, necesidadDocumento(DOCUMENTO_TIPOS.pedidocompra, 'deshacerenvio'))).not.toBeNull();
    expect(falta(almacen, necesidadDocumento(DOCUMENTO_TIPOS.pedidocompra, 'recibir'))).toBeNull();
    expect(falta(almacen, necesidadDocumento(DOCUMENTO_TIPOS.pedidocompra, 'finalizar'))).toBeNull();
    expect(falta(ROL_PREDEFINIDO.gestion.derechos, necesidadDocumento(DOCUMENTO_TIPOS.pedidocompra, 'enviar'))).toBeNull();
  });

  it('a menu entry with a named right shows only to a role that has it («Facturas de proveedor»: ver_costes)', () => {
    const entry = { path: 'hcp', label: 'Facturas de proveedor', especial: 'ver_costes' as const };
    expect(isEntryVisible(entry, allFlags(1), ROL_PREDEFINIDO.almacen.derechos)).toBe(false);
    expect(isEntryVisible(entry, allFlags(1), ROL_PREDEFINIDO.gestion.derechos)).toBe(true);
    expect(isEntryVisible(entry, allFlags(1), null)).toBe(true);
  });
});
