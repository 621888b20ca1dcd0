import { describe, expect, it } from 'vitest';
import { DOCUMENTO_TIPOS, type DocumentoTipo } from './documentos';
import { flagsFromConfig } from './flags';
import { visibleEntries, type SectionMenu } from './menu';
import {
  AREAS,
  AREA_DOCUMENTO,
  ROLES_PREDEFINIDOS,
  ROL_PREDEFINIDO,
  codificarNecesidad,
  descuentoPermitido,
  falta,
  leerNecesidad,
  mensajeFalta,
  necesidadDocumento,
  normalizarDerechos,
  puede,
  soloTpv,
  type Necesidad,
} from './roles';

const { administrador, gestion, almacen, caja, consulta } = Object.fromEntries(ROLES_PREDEFINIDOS.map((c) => [c, ROL_PREDEFINIDO[c].derechos]));

describe('roles', () => {
  it('the built-in roles, as the issue says', () => {
    for (const a of AREAS) expect(administrador.areas[a]).toEqual(['ver', 'editar', 'acciones', 'eliminar']);
    for (const a of ['usuarios', 'copias', 'verifactu'] as const) expect(puede(gestion, a)).toBe(false);
    expect(puede(gestion, 'configuracion', 'editar')).toBe(true);
    expect(puede(gestion, 'configuracion', 'acciones')).toBe(false);
    expect(almacen.areas).toEqual({ catalogo: ['ver'], almacenes: ['ver', 'editar', 'acciones', 'eliminar'], compras: ['ver', 'acciones'] });
    expect(soloTpv(caja)).toBe(true);
    expect(soloTpv(gestion)).toBe(false);
    for (const a of AREAS) expect(consulta.areas[a]?.filter((n) => n !== 'ver') ?? []).toEqual([]);
    // Every built-in is already what the server stores.
    for (const c of ROLES_PREDEFINIDOS) expect(normalizarDerechos(ROL_PREDEFINIDO[c].derechos)).toEqual(ROL_PREDEFINIDO[c].derechos);
  });

  it('falta: the first area names a refusal; any of them allows; a named right on top', () => {
    const lista: Necesidad = { areas: ['usuarios', 'ventas'], nivel: 'ver' };
    expect(falta(gestion, lista)).toBeNull();
    expect(falta(caja, lista)).toEqual({ area: 'usuarios', nivel: 'ver' });
    const anular = necesidadDocumento(DOCUMENTO_TIPOS.factura, 'anular');
    expect(falta(administrador, anular)).toBeNull();
    expect(falta({ ...gestion, especiales: [] }, anular)).toEqual({ especial: 'anular_facturas' });
    expect(falta(null, 'sesion')).toBeNull();
  });

  it('the Spanish refusals name what is missing', () => {
    expect(mensajeFalta({ area: 'catalogo', nivel: 'eliminar' })).toBe('Su rol no permite eliminar en Catálogo.');
    expect(mensajeFalta({ area: 'compras', nivel: 'editar' })).toBe('Su rol no permite crear ni modificar en Compras.');
    expect(mensajeFalta({ area: 'configuracion', nivel: 'acciones' })).toBe('Su rol no permite activar ni desactivar módulos.');
    expect(mensajeFalta({ especial: 'descuento' }, { areas: {}, especiales: [], descuento_maximo: 1250 })).toBe('Su rol no permite un descuento superior al 12,5 %.');
    expect(mensajeFalta({ especial: 'anular_facturas' })).toBe('Su rol no permite anular facturas.');
  });

  it('a need travels as text and back', () => {
    const needs: Necesidad[] = ['publica', 'sesion', { areas: ['catalogo'], nivel: 'editar' }, { areas: ['ventas', 'facturas'], nivel: 'ver' }, necesidadDocumento(DOCUMENTO_TIPOS.rectificativa, 'anular')];
    for (const n of needs) expect(leerNecesidad(codificarNecesidad(n))).toEqual(n);
    expect(codificarNecesidad(needs[4])).toBe('facturas.acciones+anular_facturas');
    expect(leerNecesidad('cocina.ver')).toBeNull();
    expect(leerNecesidad('catalogo.volar')).toBeNull();
  });

  it('every document type has an area; its actions need ver, editar, eliminar or acciones of it', () => {
    expect(Object.keys(AREA_DOCUMENTO).sort()).toEqual(Object.keys(DOCUMENTO_TIPOS).sort());
    const albaran = DOCUMENTO_TIPOS.albarancompra;
    expect(necesidadDocumento(albaran, 'listado')).toEqual({ areas: ['compras'], nivel: 'ver' });
    expect(necesidadDocumento(albaran, 'deshacerfinalizacion')).toEqual({ areas: ['compras'], nivel: 'acciones' });
    expect(necesidadDocumento(DOCUMENTO_TIPOS.albaranventa, 'listado')).toEqual({ areas: ['ventas', 'facturas'], nivel: 'ver' });
    expect(necesidadDocumento(DOCUMENTO_TIPOS.ticket, 'listado')).toEqual({ areas: ['tpv'], nivel: 'ver' });
    expect(() => necesidadDocumento({ tipo: 'desconocido' as DocumentoTipo, acciones: [] }, 'editar')).toThrow();
  });

  it('normalizarDerechos: each level brings ver; unknown areas, levels and rights go; a bad shape is null', () => {
    expect(normalizarDerechos({ areas: { ventas: ['eliminar'], cocina: ['ver'], catalogo: [] }, especiales: ['ver_costes', 'volar'], descuento_maximo: '500' })).toEqual({
      areas: { ventas: ['ver', 'eliminar'] },
      especiales: ['ver_costes'],
      descuento_maximo: 500,
    });
    expect(normalizarDerechos({ areas: { ventas: 'todo' }, especiales: [] })).toBeNull();
    expect(normalizarDerechos({ areas: {}, especiales: [], descuento_maximo: -1 })).toBeNull();
    expect(normalizarDerechos([])).toBeNull();
    expect(descuentoPermitido({ areas: {}, especiales: ['descuento'], descuento_maximo: 0 })).toBe(10000);
  });

  it('menus follow the role as well as the flags; unknown rights show everything', () => {
    const section: SectionMenu = {
      name: 'mf_config',
      prefix: '/config',
      group: 'Configuración',
      entries: [
        { path: '', label: 'Configuración', area: 'configuracion' },
        { path: 'usuarios', label: 'Usuarios', area: 'usuarios' },
        { path: 'series', label: 'Series', module: 'ventas', area: 'facturas' },
        { path: 'utilidades', label: 'Utilidades', area: ['copias', 'almacenes.acciones'] },
      ],
    };
    const flags = flagsFromConfig({ conf_ventas: 1 });
    const labels = (d: Parameters<typeof visibleEntries>[2]) => visibleEntries(section, flags, d).map((e) => e.label);
    expect(labels(gestion)).toEqual(['Configuración', 'Series', 'Utilidades']);
    expect(labels(consulta)).toEqual(['Configuración', 'Usuarios', 'Series']);
    expect(labels(caja)).toEqual([]);
    expect(labels(undefined)).toEqual(['Configuración', 'Usuarios', 'Series', 'Utilidades']);
    expect(visibleEntries({ ...section, area: 'usuarios' }, flags, gestion)).toEqual([]);
  });
});
