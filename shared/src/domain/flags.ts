/** The 26 module flags, in the specification's order. One source of truth for server and clients. */
export const FLAG_NAMES = [
  'almacenes', 'compras', 'compuestos', 'materiales', 'procesos', 'proporciones', 'seo',
  'tarifa_2', 'tarifa_3', 'tpv', 'ventas', 'listado', 'hcp', 'hfa', 'pvp', 'pvp_2', 'pvp_3',
  'partes_trabajo', 'furgonetas', 'ventas_pedidos', 'ventas_albaranes', 'ventas_devoluciones',
  'compras_pedidos', 'compras_albaranes', 'compras_devoluciones', 'ventas_facturas',
] as const;

export type FlagName = (typeof FLAG_NAMES)[number];
export type ModuleFlags = Record<FlagName, 0 | 1>;

/** Configuration record field of each flag: `conf_<flag>` except four renamed ones. */
export const CONF_FIELD: Record<FlagName, `conf_${string}`> = Object.fromEntries(
  FLAG_NAMES.map((f) => [f, `conf_${f}`]),
) as unknown as Record<FlagName, `conf_${string}`>;
CONF_FIELD.pvp_2 = 'conf_pvp_t2';
CONF_FIELD.pvp_3 = 'conf_pvp_t3';
CONF_FIELD.partes_trabajo = 'conf_partes';
CONF_FIELD.furgonetas = 'conf_furgoneta';

export const CONF_FIELDS = FLAG_NAMES.map((f) => CONF_FIELD[f]);

/**
 * Spanish label of each flag, the group it is shown in on the configuration screen and, for the
 * documents of a section, the section flag without which it has no effect (`parent`).
 */
export const FLAG_INFO: Record<FlagName, { label: string; group: FlagGroup; hint?: string; parent?: FlagName }> = {
  compras: { label: 'Compras', group: 'Compras', hint: 'Proveedores y documentos de compra' },
  compras_pedidos: { label: 'Pedidos de compra', group: 'Compras', parent: 'compras' },
  compras_albaranes: { label: 'Albaranes de compra', group: 'Compras', parent: 'compras' },
  compras_devoluciones: { label: 'Devoluciones de compra', group: 'Compras', parent: 'compras' },
  hcp: { label: 'Conciliación de proveedores (HCP)', group: 'Compras', parent: 'compras' },
  ventas: { label: 'Ventas', group: 'Ventas', hint: 'Clientes, documentos de venta y series' },
  ventas_pedidos: { label: 'Pedidos de venta', group: 'Ventas', parent: 'ventas' },
  ventas_albaranes: { label: 'Albaranes de venta', group: 'Ventas', parent: 'ventas' },
  ventas_facturas: { label: 'Facturas y rectificativas', group: 'Ventas', parent: 'ventas' },
  ventas_devoluciones: { label: 'Devoluciones de venta', group: 'Ventas', parent: 'ventas' },
  hfa: { label: 'Facturar albaranes (HFA)', group: 'Ventas', parent: 'ventas' },
  partes_trabajo: { label: 'Partes de trabajo', group: 'Ventas', parent: 'ventas' },
  almacenes: { label: 'Almacenes', group: 'Almacenes', hint: 'Stock por almacén, movimientos e inventarios' },
  furgonetas: { label: 'Furgonetas', group: 'Almacenes' },
  tpv: { label: 'TPV', group: 'Almacenes', hint: 'Terminales, botones y cierres de caja' },
  materiales: { label: 'Materiales', group: 'Catálogo' },
  procesos: { label: 'Procesos', group: 'Catálogo' },
  compuestos: { label: 'Artículos compuestos (kits)', group: 'Catálogo' },
  proporciones: { label: 'Proporciones de materiales', group: 'Catálogo' },
  seo: { label: 'Campos web (SEO)', group: 'Catálogo' },
  listado: { label: 'Listado de precios imprimible', group: 'Catálogo' },
  tarifa_2: { label: 'Tarifa 2', group: 'Tarifas y PVP' },
  tarifa_3: { label: 'Tarifa 3', group: 'Tarifas y PVP' },
  pvp: { label: 'PVP (IVA incluido) tarifa 1', group: 'Tarifas y PVP' },
  pvp_2: { label: 'PVP (IVA incluido) tarifa 2', group: 'Tarifas y PVP' },
  pvp_3: { label: 'PVP (IVA incluido) tarifa 3', group: 'Tarifas y PVP' },
};

export const FLAG_GROUPS = ['Catálogo', 'Tarifas y PVP', 'Compras', 'Ventas', 'Almacenes'] as const;
export type FlagGroup = (typeof FLAG_GROUPS)[number];

export const emptyFlags = (): ModuleFlags =>
  Object.fromEntries(FLAG_NAMES.map((f) => [f, 0])) as ModuleFlags;

/** Reads the flag set from a configuration record (any truthy 0/1/'1'/true value counts as on). */
export function flagsFromConfig(config: Record<string, unknown> | undefined | null): ModuleFlags {
  const flags = emptyFlags();
  if (!config) return flags;
  for (const f of FLAG_NAMES) {
    const v = config[CONF_FIELD[f]];
    flags[f] = v === 1 || v === '1' || v === true ? 1 : 0;
  }
  return flags;
}
