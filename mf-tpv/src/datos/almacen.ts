/**
 * The till's browser storage (IndexedDB, database `manager-tpv-caja`): the paid tickets waiting for the server
 * (`tickets`, by uuid), the article catalogue for selling offline (`articulos`, by id), parked tickets
 * (`aparcados`) and small state (`estado`: the chain's last record, the last number, when the catalogue was read).
 * Every write is one transaction that has completed (the data is on disk) when its promise resolves.
 */
const NOMBRE = 'manager-tpv-caja';
const VERSION = 1;
export const STORES = ['tickets', 'articulos', 'aparcados', 'estado'] as const;
export type Store = (typeof STORES)[number];

let abierta: Promise<IDBDatabase> | null = null;

function abrir(): Promise<IDBDatabase> {
  if (abierta) return abierta;
  abierta = new Promise((resolve, reject) => {
    const req = indexedDB.open(NOMBRE, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains('tickets')) db.createObjectStore('tickets', { keyPath: 'uuid' });
      if (!db.objectStoreNames.contains('articulos')) db.createObjectStore('articulos', { keyPath: 'id' });
      if (!db.objectStoreNames.contains('aparcados')) db.createObjectStore('aparcados', { keyPath: 'id' });
      if (!db.objectStoreNames.contains('estado')) db.createObjectStore('estado');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      abierta = null;
      reject(req.error ?? new Error('IndexedDB no disponible'));
    };
  });
  return abierta;
}

function hecho(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('Error de IndexedDB'));
    tx.onabort = () => reject(tx.error ?? new Error('Escritura cancelada'));
  });
}

function pedir<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export async function leerTodo<T>(store: Store): Promise<T[]> {
  const db = await abrir();
  return pedir(db.transaction(store, 'readonly').objectStore(store).getAll()) as Promise<T[]>;
}

export async function leer<T>(store: Store, key: IDBValidKey): Promise<T | undefined> {
  const db = await abrir();
  return pedir(db.transaction(store, 'readonly').objectStore(store).get(key)) as Promise<T | undefined>;
}

/** Writes rows (keyPath stores) in one transaction; resolves once it is committed. */
export async function guardar<T>(store: Store, filas: T[]): Promise<void> {
  const db = await abrir();
  const tx = db.transaction(store, 'readwrite', { durability: 'strict' } as IDBTransactionOptions);
  const os = tx.objectStore(store);
  for (const f of filas) os.put(f);
  await hecho(tx);
}

export async function guardarClave<T>(store: Store, key: IDBValidKey, valor: T): Promise<void> {
  const db = await abrir();
  const tx = db.transaction(store, 'readwrite', { durability: 'strict' } as IDBTransactionOptions);
  tx.objectStore(store).put(valor, key);
  // Committed now, in the caller's task: the browser has the write and its commit even if the page dies next.
  tx.commit?.();
  await hecho(tx);
}

export async function borrar(store: Store, key: IDBValidKey): Promise<void> {
  const db = await abrir();
  const tx = db.transaction(store, 'readwrite');
  tx.objectStore(store).delete(key);
  await hecho(tx);
}

export async function vaciar(store: Store): Promise<void> {
  const db = await abrir();
  const tx = db.transaction(store, 'readwrite');
  tx.objectStore(store).clear();
  await hecho(tx);
}

/** Until the page is idle (between two frames), so background writes never sit in front of a sale's frame. */
export function enReposo(): Promise<void> {
  return new Promise((r) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => r(), { timeout: 1000 });
    else setTimeout(r, 0);
  });
}

/** Same fields, same values (a flat row: the catalogue's articles). */
function iguales(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  return true;
}

/**
 * Replaces a keyPath store's rows (the catalogue) in slices of `trozo`, each in its own small transaction written
 * when the page is idle, so a 100.000-article catalogue is kept without delaying a scan (one transaction of
 * thousands of rows held the main thread for tens of milliseconds while the cashier was already selling); rows no
 * longer present are removed at the end (until then the old ones still sell offline). With `antes` (the rows the
 * store held, as read at start) only new and changed rows are written and the removed ones found without reading
 * the keys back: a till opened again with the same catalogue writes nothing. `esperar` runs before each slice
 * (the till waits for a pause in the selling). These copies of the server's rows go
 * with `relaxed` durability: one lost to a power cut is read back as the old row, differs, and is written again.
 */
export async function reemplazar<T extends { id: number }>(
  store: Store,
  filas: T[],
  trozo = 2000,
  antes?: readonly T[],
  esperar: () => Promise<void> = enReposo,
): Promise<void> {
  let escribir = filas;
  let sobran: IDBValidKey[] | null = null;
  if (antes) {
    const previas = new Map(antes.map((f) => [f.id, f]));
    escribir = filas.filter((f) => {
      const p = previas.get(f.id);
      previas.delete(f.id);
      return !p || !iguales(p, f);
    });
    sobran = [...previas.keys()];
  }
  const db = await abrir();
  for (let i = 0; i < escribir.length; i += trozo) {
    await esperar();
    const tx = db.transaction(store, 'readwrite', { durability: 'relaxed' } as IDBTransactionOptions);
    const os = tx.objectStore(store);
    for (const f of escribir.slice(i, i + trozo)) os.put(f);
    await hecho(tx);
  }
  if (!sobran) {
    const claves = (await pedir(db.transaction(store, 'readonly').objectStore(store).getAllKeys())) as number[];
    const vivas = new Set(filas.map((f) => f.id));
    sobran = claves.filter((k) => !vivas.has(k));
  }
  if (!sobran.length) return;
  const tx = db.transaction(store, 'readwrite');
  for (const k of sobran) tx.objectStore(store).delete(k);
  await hecho(tx);
}
