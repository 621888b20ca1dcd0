import { describe, expect, it } from 'vitest';
import { ROL_PREDEFINIDO, flagsFromConfig, type DeployedRemote } from 'shared';
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
  it('follows the user\'s role: entries and whole sections it doesn\'t allow are gone', () => {
    const conAreas: DeployedRemote[] = [
      { ...remotes[0], entries: [{ path: '', label: 'Configuración', area: 'configuracion' }, { path: 'usuarios', label: 'Usuarios', area: 'usuarios' }] },
      { ...remotes[1], area: 'catalogo', entries: [{ path: 'articulos', label: 'Artículos' }, { path: 'importar', label: 'Importar', area: 'catalogo.editar' }] },
      { ...remotes[2], area: 'compras' },
    ];
    const flags = flagsFromConfig({ conf_compras: 1 });
    const consulta = buildMenu(conAreas, flags, ROL_PREDEFINIDO.consulta.derechos);
    expect(consulta.map((g) => [g.name, g.links.map((l) => l.label)])).toEqual([
      ['Productos', ['Artículos']],
      ['Compras', ['Proveedores']],
      ['Configuración', ['Configuración', 'Usuarios']],
    ]);
    expect(buildMenu(conAreas, flags, ROL_PREDEFINIDO.caja.derechos)).toEqual([]);
    const gestion = buildMenu(conAreas, flags, ROL_PREDEFINIDO.gestion.derechos);
    expect(gestion.find((g) => g.name === 'Configuración')?.links.map((l) => l.label)).toEqual(['Configuración']);
  });
});
