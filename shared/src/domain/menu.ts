import type { FlagName, ModuleFlags } from './flags';
import { AREAS, NIVELES, puede, tiene, type Area, type DerechoEspecial, type Derechos, type Nivel } from './roles';

/**
 * What the role must allow for an entry or a section to show: an area ('catalogo': to see it) or an area and a
 * level ('catalogo.editar'); a list shows it when the role allows any of them.
 */
export type MenuArea = Area | `${Area}.${Nivel}` | readonly (Area | `${Area}.${Nivel}`)[];

/** A menu entry of a section: path relative to the section prefix. */
export type MenuEntry = {
  path: string;
  label: string;
  /** Shown only when every one of these flags is on. */
  module?: FlagName | FlagName[];
  /** Shown only when this flag is off. */
  noModule?: FlagName;
  /** Shown only when the user's role allows it (see MenuArea). */
  area?: MenuArea;
  /** Shown only when the role also has this named right (issue 24: «Facturas de proveedor» needs ver_costes). */
  especial?: DerechoEspecial;
  /** A heading inside the section's list (the reports' «Fiscal»): entries sharing it follow one another. */
  grupo?: string;
};

export type MenuGroupName = 'Productos' | 'Compras' | 'Ventas' | 'Almacenes' | 'Informes' | 'Configuración';

/** What each remote ships as data (its `menu.json`) and the deploy file adds the URL to. */
export type SectionMenu = {
  /** Federation name, an identifier: mf_catalogo, mf_config, ... */
  name: string;
  /** Route prefix: /catalogo, /config, ... */
  prefix: string;
  group: MenuGroupName;
  /** The whole section needs these flags on. */
  module?: FlagName | FlagName[];
  /** The whole section needs the role to allow this (see MenuArea). */
  area?: MenuArea;
  /**
   * Mounted full screen, without the shell's header, side list and staff login (the TPV's till: a paired terminal
   * signs its cashier in itself; the server still enforces the session, the flag and the role on every action).
   */
  pantallaCompleta?: boolean;
  entries: MenuEntry[];
};

export type DeployedRemote = SectionMenu & { manifest: string };

/** Branding by deploy host: the default title, and the warehouse client's own. */
export const BRANDING = {
  tpv: { title: 'Manager TPV', logo: '/branding/manager-tpv.svg', favicon: '/branding/favicon-tpv.svg' },
  almacen: { title: 'Manager Almacén', logo: '/branding/manager-almacen.svg', favicon: '/branding/favicon-almacen.svg' },
} as const;

export type DeployInfo = {
  remotes: DeployedRemote[];
  branding: { title: string; logo: string; favicon: string };
};

function flagsOn(flags: ModuleFlags, module: FlagName | FlagName[] | undefined): boolean {
  if (!module) return true;
  return (Array.isArray(module) ? module : [module]).every((f) => flags[f] === 1);
}

/**
 * Whether a role allows a MenuArea. Unknown rights (null: a session from before roles, or a test without a role)
 * allow everything: the server decides anyway. An area or level this build doesn't know allows nothing.
 */
export function areaVisible(area: MenuArea | undefined, derechos: Derechos | null | undefined): boolean {
  if (!area || !derechos) return true;
  const list: readonly string[] = typeof area === 'string' ? [area] : area;
  return list.some((item) => {
    const [a, n = 'ver'] = item.split('.');
    return (AREAS as readonly string[]).includes(a) && (NIVELES as readonly string[]).includes(n) && puede(derechos, a as Area, n as Nivel);
  });
}

export function isEntryVisible(entry: Pick<MenuEntry, 'module' | 'noModule' | 'area' | 'especial'>, flags: ModuleFlags, derechos?: Derechos | null): boolean {
  if (!flagsOn(flags, entry.module)) return false;
  if (entry.noModule && flags[entry.noModule] === 1) return false;
  return areaVisible(entry.area, derechos) && especialVisible(entry.especial, derechos);
}

/** Whether a role has an entry's named right (unknown rights allow it, as `areaVisible`). */
export function especialVisible(especial: DerechoEspecial | undefined, derechos: Derechos | null | undefined): boolean {
  return !especial || !derechos || tiene(derechos, especial);
}

/** Entries of a section visible with these flags (and, given, the role's rights); none when the section itself is off. */
export function visibleEntries(section: SectionMenu, flags: ModuleFlags, derechos?: Derechos | null): MenuEntry[] {
  if (!flagsOn(flags, section.module) || !areaVisible(section.area, derechos)) return [];
  return section.entries.filter((e) => isEntryVisible(e, flags, derechos));
}

export const MENU_GROUP_ORDER: MenuGroupName[] = ['Productos', 'Compras', 'Ventas', 'Almacenes', 'Informes', 'Configuración'];
