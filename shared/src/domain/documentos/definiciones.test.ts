import { describe, expect, it } from 'vitest';
import { FLAG_NAMES } from '../flags';
import type { SectionMenu } from '../menu';
import { menuDeSeccion, textoMenu, type MenuBase } from './menus';
import { SECCIONES_DOCUMENTOS, type SeccionDocumentos } from './motor';
import { DOCUMENTO_TIPOS, direccionesDocumento, entradaMenuDocumento, flagsPantalla, rutaDocumento, tiposDeSeccion } from './registro';
import almacenesBase from '../../../../mf-almacenes/src/menu.base.json';
import almacenesMenu from '../../../../mf-almacenes/src/menu.json';
import comprasBase from '../../../../mf-compras/src/menu.base.json';
import comprasMenu from '../../../../mf-compras/src/menu.json';
import ventasBase from '../../../../mf-ventas/src/menu.base.json';
import ventasMenu from '../../../../mf-ventas/src/menu.json';

/**
 * One declaration per document type (issue 27): its route, its flags and its menu entry live in its definition, and
 * the remote's paths, routes, flag gate and menu.json are derived from it. These read the remotes' committed files.
 */

const BASES = { almacenes: almacenesBase, compras: comprasBase, ventas: ventasBase } as unknown as Record<SeccionDocumentos, MenuBase>;
const MENUS = { almacenes: almacenesMenu, compras: comprasMenu, ventas: ventasMenu } as unknown as Record<SeccionDocumentos, SectionMenu>;
const base = (s: SeccionDocumentos): MenuBase => structuredClone(BASES[s]);
const menu = (s: SeccionDocumentos): SectionMenu => MENUS[s];
const lista = (m: SectionMenu['module']): string[] => (m === undefined ? [] : typeof m === 'string' ? [m] : [...m]);

const conPantalla = Object.values(DOCUMENTO_TIPOS).filter((d) => d.pantalla);

describe('the document types’ definitions', () => {
  it('every type but the ticket has screens of the engine, in one of the sections', () => {
    expect(
      Object.values(DOCUMENTO_TIPOS)
        .filter((d) => !d.pantalla)
        .map((d) => d.tipo),
    ).toEqual(['ticket']);
    for (const s of SECCIONES_DOCUMENTOS) expect(tiposDeSeccion(s).length).toBeGreaterThan(0);
  });

  it.each(SECCIONES_DOCUMENTOS)('mf-%s/src/menu.json is exactly what its base and the definitions generate', (s) => {
    // Same entries in the same order with the same keys (the remote's build checks the text byte for byte).
    expect(textoMenu(menu(s))).toBe(textoMenu(menuDeSeccion(base(s))));
    // The base never restates a document type's entry: it comes from the definition alone.
    const listas = tiposDeSeccion(s).map((d) => d.pantalla?.lista);
    expect(base(s).entries.filter((e) => listas.includes(e.path))).toEqual([]);
  });

  it.each(conPantalla.map((d) => [d.tipo, d] as const))('%s: route, flags and menu entry agree, each declared once', (_t, def) => {
    const p = def.pantalla!;
    const m = menu(p.seccion);
    // The section: its menu's prefix is /<seccion>, and the server requires the section's flag for every action.
    expect(m.prefix).toBe(`/${p.seccion}`);
    for (const f of lista(m.module)) expect(def.flags).toContain(f);
    // Routes: the list is the menu entry's path; "nuevo" and the record sit under the record's address (`ruta`).
    const dir = direccionesDocumento(def);
    expect(def.ruta.startsWith(`/${p.seccion}/`)).toBe(true);
    expect(dir.list).toBe(`${m.prefix}/${p.lista}`);
    expect(dir.record(12)).toBe(`${def.ruta}/12`);
    expect(rutaDocumento(def.tipo, 12)).toBe(dir.record(12));
    expect(dir.nuevo).toBe(`${def.ruta}/${p.nuevo}`);
    expect(`${m.prefix}/${dir.rutas.list}`).toBe(dir.list);
    expect(`${m.prefix}/${dir.rutas.nuevo}`).toBe(dir.nuevo);
    expect(`${m.prefix}/${dir.rutas.record.replace(`:${dir.rutas.param}`, '12')}`).toBe(dir.record(12));
    // Flags: the screens need at least what the server requires (else a screen would show actions answered 403).
    expect(dir.flag).toEqual([...flagsPantalla(def)]);
    for (const f of def.flags) expect(dir.flag).toContain(f);
    for (const f of [...dir.flag, ...def.acciones.flatMap((a) => (a.flag ? [a.flag] : []))]) expect(FLAG_NAMES).toContain(f);
    // The menu: exactly one entry at the list's path, with the label, the area and the flags beyond the section's.
    const entradas = m.entries.filter((e) => e.path === p.lista);
    expect(entradas).toHaveLength(1);
    const { orden: _orden, ...esperada } = entradaMenuDocumento(def, m.module);
    expect(entradas[0]).toEqual(esperada);
    expect(entradas[0].label).toBe(p.menu.label);
    expect([...lista(m.module), ...lista(entradas[0].module)].sort()).toEqual([...dir.flag].sort());
  });

  it('no two types share an entity, a listing, a record address or a list', () => {
    for (const clave of ['entidad', 'plural', 'ruta'] as const) {
      const valores = Object.values(DOCUMENTO_TIPOS).map((d) => d[clave]);
      expect(new Set(valores).size, clave).toBe(valores.length);
    }
    const listas = conPantalla.map((d) => direccionesDocumento(d).list);
    expect(new Set(listas).size).toBe(listas.length);
  });

  it('a base whose entry takes a type’s place or path is refused', () => {
    const b = base('compras');
    expect(() => menuDeSeccion({ ...b, entries: [...b.entries, { path: 'otra', label: 'Otra', orden: DOCUMENTO_TIPOS.pedidocompra.pantalla!.menu.orden }] })).toThrow(
      /dos entradas con orden/,
    );
    expect(() => menuDeSeccion({ ...b, entries: [...b.entries, { path: 'pedidos', label: 'Pedidos', orden: 999 }] })).toThrow(/dos entradas con path/);
  });

  it('the albarán de compra: its screens and menu entry need compras_albaranes, its actions only compras (a pedido’s receipt, hcp)', () => {
    const def = DOCUMENTO_TIPOS.albarancompra;
    expect(def.flags).toEqual(['compras']);
    expect(direccionesDocumento(def).flag).toEqual(['compras', 'compras_albaranes']);
    expect(menu('compras').entries.find((e) => e.path === 'albaranes')?.module).toBe('compras_albaranes');
  });
});
