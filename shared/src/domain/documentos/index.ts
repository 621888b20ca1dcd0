/**
 * The document engine's definitions (docs/documentos.md): the engine's shapes (motor.ts), one file per document type,
 * the registry that lists them and derives their addresses and menu entries (registro.ts), the model (modelo.ts) and
 * the one totals function (totales.ts).
 */
export * from './motor';
export * from './registro';
export * from './modelo';
export * from './totales';
export * from './menus';
