import type { MenuEntry, SectionMenu } from '../menu';
import { SECCIONES_DOCUMENTOS, type SeccionDocumentos } from './motor';
import { entradaMenuDocumento, tiposDeSeccion, type EntradaMenuOrdenada } from './registro';

/**
 * A section remote's `src/menu.base.json`: its menu without the document types' entries, each of its own entries with
 * its `orden` among all of them. `src/menu.json` (what the shell reads, copied beside the remote's manifest) is
 * generated from it and the types' definitions by `shared/build/menu.mjs`, which the remote's build runs with
 * `--check` (a stale menu.json fails the build).
 */
export type MenuBase = Omit<SectionMenu, 'entries'> & { entries: EntradaMenuOrdenada[] };

/** The section remote mounting the engine's screens at a prefix ('/ventas' → 'ventas'); null for the others. */
export function seccionDePrefijo(prefix: string): SeccionDocumentos | null {
  const s = prefix.replace(/^\/+/, '');
  return (SECCIONES_DOCUMENTOS as readonly string[]).includes(s) ? (s as SeccionDocumentos) : null;
}

/**
 * A section's menu: its base's entries and one per document type whose screens it mounts, in `orden`. Throws on two
 * entries with one path or one place: a definition or a base to fix, found when the build checks the menu.
 */
export function menuDeSeccion(base: MenuBase): SectionMenu {
  const seccion = seccionDePrefijo(base.prefix);
  const documentos = seccion ? tiposDeSeccion(seccion).map((def) => entradaMenuDocumento(def, base.module)) : [];
  const todas = [...base.entries, ...documentos];
  for (const clave of ['path', 'orden'] as const) {
    const vistas = new Set<string | number>();
    for (const e of todas) {
      if (vistas.has(e[clave])) throw new Error(`Menú de ${base.prefix}: dos entradas con ${clave} ${JSON.stringify(e[clave])}`);
      vistas.add(e[clave]);
    }
  }
  const entries: MenuEntry[] = todas.sort((a, b) => a.orden - b.orden).map(({ orden: _orden, ...e }) => e);
  return { ...base, entries };
}

/** One value on one line, as the menus are written: `{ "path": "pedidos", "label": "Pedidos", "area": ["ventas", "facturas"] }`. */
function enLinea(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(enLinea).join(', ')}]`;
  if (v && typeof v === 'object') {
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${enLinea(x)}`)
      .join(', ')} }`;
  }
  return JSON.stringify(v);
}

/** The text of a menu.json: one key per line, one entry per line (what `menu.mjs` writes and checks, byte for byte). */
export function textoMenu(menu: SectionMenu): string {
  const claves = Object.entries(menu).map(([k, v]) =>
    k === 'entries' ? `  "entries": [\n${(v as MenuEntry[]).map((e) => `    ${enLinea(e)}`).join(',\n')}\n  ]` : `  ${JSON.stringify(k)}: ${enLinea(v)}`,
  );
  return `{\n${claves.join(',\n')}\n}\n`;
}
