// The daily backups from the command line (docs/produccion.md):
//   pnpm --filter server copias:comprobar [archivo…]   checks each backup (its SHA-256 and every row, as a restore reads
//                                                      it); with no file, every backup in MANAGER_COPIAS_DIR
//   pnpm --filter server copias:exportar <carpeta>     copies the backups of MANAGER_COPIAS_DIR that are whole and not
//                                                      there yet into another folder (a USB disk, a NAS mount), each
//                                                      checked again at its destination
// Exit status 0 when everything checked out, 1 otherwise; one line per file.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { COPIA_RE, comprobarCopia } from '../src/copias/programadas.ts';

const [orden, ...args] = process.argv.slice(2);
const origen = process.env.MANAGER_COPIAS_DIR;

async function copiasDe(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).filter((f) => COPIA_RE.test(f)).sort().map((f) => path.join(dir, f));
}

async function comprobar(archivos: string[]): Promise<boolean> {
  let bien = true;
  for (const file of archivos) {
    try {
      const { filas } = await comprobarCopia(file);
      const total = Object.values(filas).reduce((a, b) => a + b, 0);
      console.log(`OK     ${path.basename(file)}: ${total} filas (${filas.documentos ?? 0} documentos, ${filas.registros_facturacion ?? 0} registros VERI*FACTU)`);
    } catch (err) {
      bien = false;
      console.log(`MAL    ${(err as Error).message}`);
    }
  }
  return bien;
}

async function copiarAtomico(desde: string, hasta: string): Promise<void> {
  const tmp = `${hasta}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  await fs.copyFile(desde, tmp);
  const h = await fs.open(tmp, 'r+');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
  await fs.rename(tmp, hasta);
}

async function exportar(destino: string): Promise<boolean> {
  if (!origen) throw new Error('MANAGER_COPIAS_DIR no está definida: la carpeta de las copias diarias');
  await fs.mkdir(destino, { recursive: true, mode: 0o700 });
  let bien = true;
  for (const file of await copiasDe(origen)) {
    const nombre = path.basename(file);
    const hasta = path.join(destino, nombre);
    try {
      const { sha256 } = await comprobarCopia(file);
      const ya = await comprobarCopia(hasta, sha256).then(
        () => true,
        () => false,
      );
      if (ya) {
        console.log(`YA     ${nombre}`);
        continue;
      }
      await copiarAtomico(file, hasta);
      await copiarAtomico(`${file}.sha256`, `${hasta}.sha256`);
      await comprobarCopia(hasta);
      console.log(`COPIA  ${nombre}`);
    } catch (err) {
      bien = false;
      console.log(`MAL    ${(err as Error).message}`);
    }
  }
  return bien;
}

try {
  let ok: boolean;
  if (orden === 'comprobar') {
    const archivos = args.length ? args : origen ? await copiasDe(origen) : [];
    if (!archivos.length) throw new Error('ninguna copia que comprobar: indique los archivos o MANAGER_COPIAS_DIR');
    ok = await comprobar(archivos);
  } else if (orden === 'exportar' && args[0]) {
    ok = await exportar(path.resolve(args[0]));
  } else {
    throw new Error('uso: copias.ts comprobar [archivo…] | copias.ts exportar <carpeta>');
  }
  process.exit(ok ? 0 : 1);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
