/**
 * The statements PostgreSQL runs as named prepared statements (parsed and planned once per connection): the texts
 * of compiledQuery (db/prepared.ts), fixed per engine and few. Any other text goes unnamed, as Kysely sends it.
 */
const NOMBRES = new Map<string, string>();

export function nombrar(texto: string): void {
  if (!NOMBRES.has(texto)) NOMBRES.set(texto, `mtpv_${NOMBRES.size + 1}`);
}

export const nombreDe = (texto: string): string | undefined => NOMBRES.get(texto);
