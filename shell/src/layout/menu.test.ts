import { describe, expect, it } from 'vitest';
import { flagsFromConfig, type DeployedRemote } from 'shared';
import { buildMenu } from './menu';

const remotes: DeployedRemote[] = [
  { name: 'mf_config', prefix: '/config', group: 'Configuración', manifest: '/remotes/mf-config/mf-manifest.json', entries: [{ path: '', label: 'Configuración' }, { path: 'series', label: 'Series', module: 'ventas' }] },
  { name: 'mf_catalogo', prefix: '/catalogo', group: 'Productos', manifest: '/x', entries: [{ path: 'articulos', label: 'Artículos' }, { path: 'materiales', label: 'Materiales', module: 'materiales' }] },
  { name: 'mf_compras', prefix: '/compras', group: 'Compras', module: 'compras', manifest: '/y', entries: [{ path: 'proveedores', label: 'Proveedores' }] },
];

describe('header menu', () => {
  it('orders groups and filters entries by the module flags', () => {
    const menu = buildMenu(remotes, flagsFromConfig({ conf_ventas: 1 }));
    expect(menu.map((g) => g.name)).toEqual(['Productos', 'Configuración']);
    expect(menu[0].links.map((l) => l.to)).toEqual(['/catalogo/articulos']);
    expect(menu[1].links.map((l) => l.to)).toEqual(['/config', '/config/series']);
  });
  it('shows a gated section when its flag is on', () => {
    const menu = buildMenu(remotes, flagsFromConfig({ conf_compras: 1, conf_materiales: 1 }));
    expect(menu.map((g) => g.name)).toEqual(['Productos', 'Compras', 'Configuración']);
    expect(menu[0].links.map((l) => l.label)).toEqual(['Artículos', 'Materiales']);
    expect(menu[2].links.map((l) => l.label)).toEqual(['Configuración']);
  });
});
