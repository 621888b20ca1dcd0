import type { FlagName, ModuleFlags } from './flags';

/** A menu entry of a section: path relative to the section prefix. */
export type MenuEntry = {
  path: string;
  label: string;
  /** Shown only when every one of these flags is on. */
  module?: FlagName | FlagName[];
  /** Shown only when this flag is off. */
  noModule?: FlagName;
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

export function isEntryVisible(entry: Pick<MenuEntry, 'module' | 'noModule'>, flags: ModuleFlags): boolean {
  if (!flagsOn(flags, entry.module)) return false;
  if (entry.noModule && flags[entry.noModule] === 1) return false;
  return true;
}

/** Entries of a section visible with these flags; none when the section itself is off. */
export function visibleEntries(section: SectionMenu, flags: ModuleFlags): MenuEntry[] {
  if (!flagsOn(flags, section.module)) return [];
  return section.entries.filter((e) => isEntryVisible(e, flags));
}

export const MENU_GROUP_ORDER: MenuGroupName[] = ['Productos', 'Compras', 'Ventas', 'Almacenes', 'Informes', 'Configuración'];
