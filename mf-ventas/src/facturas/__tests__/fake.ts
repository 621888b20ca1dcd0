import { createElement } from 'react';
import { Routes } from 'react-router';
import type { Configuracion, Documento, Serie } from 'shared';
import { fakeDocumento, fakeListado, renderSection, type FakeHandler, type RenderWithShellOptions } from 'shared/testing';
import { ARTICULOS, CLIENTES, fakeVentas as fakeVentasBase, linea, listadoDocs } from '../../fakeVentas';
import menu from '../../menu.json';
import { facturaRoutes } from '../routes';

/** Test data and a fake `op.asp` for the invoice screens (tests only), over the section's (customers, articles). */
export { ARTICULOS, CLIENTES, linea, listadoDocs };

export const SERIES: Serie[] = [
  { id: 1, codigo: 'A', descripcion: 'Facturas', tipo: 'normal', activo: 1 },
  { id: 2, codigo: 'T', descripcion: 'Tickets', tipo: 'simplificada', activo: 1 },
  { id: 3, codigo: 'R', descripcion: 'Rectificativas', tipo: 'rectificativa', activo: 1 },
  { id: 4, codigo: 'V', descripcion: 'Antigua', tipo: 'normal', activo: 0 },
];

/** The company: its NIF is the fiscal QR's issuer. */
export const CONFIG = { id: 1, razon_social: 'Ferretería Pérez SL', nombre_comercial: null, nif: 'B98765432', direccion: 'Plaza 2' } as unknown as Configuracion;

/** An invoice (a draft by default) of Droguería Sol (recargo) with one line at its tariff 2. */
export function factura(over: Partial<Documento>): Documento {
  return fakeDocumento({
    id: 40,
    tipo: 'factura',
    numero: 'Borrador',
    estado: 'borrador',
    serie_id: 1,
    serie_codigo: 'A',
    cliente_id: 3,
    cliente_nombre: 'Droguería Sol SL',
    cliente_nif: 'B12345674',
    forma_pago: 'recibo_30_60',
    con_recargo: 1,
    base: 18000,
    iva: 3780,
    recargo: 936,
    total: 22716,
    desglose: [{ tipo_iva: '21', base: 18000, iva: 3780, recargo: 936 }],
    lineas: [linea(51, ARTICULOS[0], 10000, { precio: 1800 })],
    cobro_fecha: null,
    cobro_forma: null,
    registro: null,
    ...over,
  });
}

/** The same invoice, emitted: number, F1, its registro de alta. */
export const emitida = (over: Partial<Documento> = {}) =>
  factura({
    numero: 'A 2026/000012',
    estado: 'emitida',
    tipo_factura: 'F1',
    registro: { id: 3, tipo: 'alta', huella: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60', fecha_hora_huso: '2026-03-02T19:20:30+01:00' },
    ...over,
  });

/** The section's fake op.asp with the series, plus `extra` handlers. */
export const fakeVentas = (extra: Record<string, FakeHandler> = {}) => fakeVentasBase({ listadoseries: fakeListado(SERIES, ['activo', 'tipo']), ...extra });

/** The invoice screens alone, under /ventas as the shell mounts the section. */
function FacturasSection() {
  return createElement(Routes, null, facturaRoutes());
}

/** Renders the invoice screens at `route`, with the company's configuration. */
export function renderFacturas(route: string, options: RenderWithShellOptions = {}) {
  return renderSection(FacturasSection, menu.prefix, route, { config: CONFIG, ...options });
}

/**
 * One emitted document kept by the test, as `listado<plural>` answers it, and `cobrarfactura` on it: the date and
 * method sent become its cobro (a rectificativa's refund); empty ones take it away.
 */
export function documentoCobrable(inicial: Documento, message?: string) {
  let actual = inicial;
  const listado: FakeHandler = () => ({ RESULT: '0', data: [actual], total: 1 });
  const cobrarfactura: FakeHandler = ({ body }) => {
    const b = body as { fecha: string; forma: string };
    actual = { ...actual, cobro_fecha: b.fecha || null, cobro_forma: b.forma || null };
    return { RESULT: '0', message, data: [actual] };
  };
  return { listado, cobrarfactura };
}
