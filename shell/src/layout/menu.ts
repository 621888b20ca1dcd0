import { MENU_GROUP_ORDER, visibleEntries, type DeployedRemote, type Derechos, type MenuEntry, type MenuGroupName, type ModuleFlags } from 'shared';

export type MenuLink = MenuEntry & { to: string };
export type MenuGroup = { name: MenuGroupName; links: MenuLink[] };

/** Header groups from every deployed section's menu data, filtered by flags and the user's role: no remote code needed. */
export function buildMenu(remotes: DeployedRemote[], flags: ModuleFlags, derechos?: Derechos | null): MenuGroup[] {
  return MENU_GROUP_ORDER.map((name) => ({
    name,
    links: remotes
      .filter((r) => r.group === name)
      .flatMap((r) => visibleEntries(r, flags, derechos).map((e) => ({ ...e, to: e.path ? `${r.prefix}/${e.path}` : r.prefix }))),
  })).filter((g) => g.links.length > 0);
}
