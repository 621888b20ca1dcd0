/**
 * The names of PostgreSQL's prepared statements (parsed and planned once per connection). The texts of compiledQuery
 * (db/prepared.ts), fixed per engine and few, have a name of their own for the life of the process; any other
 * parameterised text gets one per connection while it is among the connection's most recently used.
 */
const NOMBRES = new Map<string, string>();

export function nombrar(texto: string): void {
  if (!NOMBRES.has(texto)) NOMBRES.set(texto, `mtpv_${NOMBRES.size + 1}`);
}

/** Most statements a PostgreSQL connection keeps prepared besides the fixed ones (db/index.ts). */
const POR_CONEXION = 200;
let siguiente = 0;

/**
 * The name a connection gives any other parameterised text (a list with its filters, the reads of a record, the
 * multi-row inserts of a batch size…): each connection prepares the texts it runs, parsed and planned once, and keeps
 * the last `POR_CONEXION` it used; the least recently used one beyond that is dropped (`olvidar`: DEALLOCATE). Names
 * are never reused, so a DEALLOCATE that fails (in an aborted transaction) leaves only an unused statement behind.
 */
export function nombresDeConexion(olvidar: (nombre: string) => void, max = POR_CONEXION): (texto: string) => string {
  const usados = new Map<string, string>();
  return (texto) => {
    const fijo = NOMBRES.get(texto);
    if (fijo) return fijo;
    let nombre = usados.get(texto);
    if (nombre) usados.delete(texto);
    else {
      nombre = `mtpv_c${++siguiente}`;
      if (usados.size >= max) {
        const [viejo, suNombre] = usados.entries().next().value!;
        usados.delete(viejo);
        olvidar(suNombre);
      }
    }
    usados.set(texto, nombre);
    return nombre;
  };
}
