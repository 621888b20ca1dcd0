import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Layers that point one way (issue 27; docs/arquitectura.md «Capas del servidor»), read from every import of
 * server/src:
 * - the domain folders never import the op.asp actions (actions/) nor the demo (demo/);
 * - db/, the ground floor, imports nothing of server/src outside db/, and of the other packages only `shared/domain`
 *   (the product's data and pure functions: no I/O, no server code); db/migrations/ is history with rules of its own;
 * - demo/ (the seed and the demo generator, above the domain) is imported only by the composition root (app.ts) and
 *   by the actions (eliminardemo);
 * - errors.ts and consultas.ts, the refusals and the queries that answer with them, sit between db/ and the domain:
 *   they import db/ and each other only.
 */

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

const DOMINIO = ['documentos', 'fiscal', 'informes', 'tpv', 'auth', 'actividad', 'catalogo', 'copias'];
const UTILES = ['errors.ts', 'consultas.ts'];

/** Every .ts file under server/src, by its path relative to it ('tpv/caja.ts'), with its text. */
function fuentes(dir = SRC, out = new Map<string, string>()): Map<string, string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) fuentes(full, out);
    else if (e.name.endsWith('.ts')) out.set(path.relative(SRC, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
  }
  return out;
}

/** The modules a file imports: `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`. */
function importsDe(texto: string): string[] {
  const out: string[] = [];
  for (const m of texto.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) out.push(m[1]);
  return out;
}

/** The room of a file of server/src: its first folder ('tpv', 'db', 'db/migrations'), or '' for a top-level file. */
function sala(archivo: string): string {
  if (archivo.startsWith('db/migrations/')) return 'db/migrations';
  const i = archivo.indexOf('/');
  return i < 0 ? '' : archivo.slice(0, i);
}

/** Every import that breaks a rule, as «file → module: why». */
function violaciones(archivos: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [archivo, texto] of archivos) {
    const desde = sala(archivo);
    for (const spec of importsDe(texto)) {
      const relativo = spec.startsWith('.');
      const destino = relativo ? path.posix.normalize(path.posix.join(path.posix.dirname(archivo), spec)) : null;
      const fuera = destino?.startsWith('../') ?? false;
      const hacia = destino && !fuera ? sala(destino) : null;
      const mal = (por: string) => out.push(`${archivo} → ${spec}: ${por}`);
      if (DOMINIO.includes(desde) && hacia === 'actions') mal('the domain never imports the op.asp actions');
      if (hacia === 'demo' && desde !== 'demo' && desde !== 'actions' && archivo !== 'app.ts') mal('only app.ts and the actions use the demo');
      if (UTILES.includes(archivo) && relativo && !(hacia === 'db' || (hacia === '' && destino && UTILES.includes(destino)))) {
        mal('errors.ts and consultas.ts import only db/ and each other');
      }
      if (desde === 'db') {
        if (relativo && (fuera || (hacia !== 'db' && hacia !== 'db/migrations'))) mal('db/ imports nothing above it');
        if (!relativo && spec.startsWith('shared') && spec !== 'shared/domain') mal('db/ uses only shared/domain of the other packages');
      }
    }
  }
  return out.sort();
}

describe('layers of server/src', () => {
  it('the rules catch a planted violation of each kind', () => {
    const plantado = new Map([
      ['tpv/caja.ts', "import { defineAction } from '../actions/registry.ts';"],
      ['actividad/listado.ts', "import { x } from '../actions/comun.ts';"],
      ['copias/programadas.ts', "export { y } from '../demo/index.ts';"],
      ['db/consulta.ts', "import { foldText } from '../catalogo/busqueda.ts';"],
      ['db/tablas.ts', "import { generarAlta } from 'shared/fiscal';"],
      ['db/index.ts', "const m = await import('../context.ts');"],
      ['informes/agregados.ts', "import { sql } from 'kysely';\nimport type { Database } from '../db/schema.ts';"],
      ['db/migrations/0001_base.ts', "import { CONF_FIELDS } from 'shared/domain';"],
      ['actions/demo.ts', "import { eliminarDemo } from '../demo/index.ts';"],
      ['consultas.ts', "import { fail } from './errors.ts';\nimport { defineAction } from './actions/registry.ts';"],
      ['errors.ts', "import { sql } from 'kysely';\nimport type { Database } from './db/schema.ts';"],
    ]);
    expect(violaciones(plantado)).toEqual([
      "actividad/listado.ts → ../actions/comun.ts: the domain never imports the op.asp actions",
      "consultas.ts → ./actions/registry.ts: errors.ts and consultas.ts import only db/ and each other",
      "copias/programadas.ts → ../demo/index.ts: only app.ts and the actions use the demo",
      "db/consulta.ts → ../catalogo/busqueda.ts: db/ imports nothing above it",
      "db/index.ts → ../context.ts: db/ imports nothing above it",
      "db/tablas.ts → shared/fiscal: db/ uses only shared/domain of the other packages",
      "tpv/caja.ts → ../actions/registry.ts: the domain never imports the op.asp actions",
    ]);
  });

  it('server/src keeps them: no domain folder imports actions/ or demo/, db/ imports nothing above it', () => {
    const archivos = fuentes();
    // The reading found the code it checks (a wrong folder would pass with nothing read).
    expect(archivos.has('tpv/tickets.ts')).toBe(true);
    expect(archivos.has('db/consulta.ts')).toBe(true);
    expect(archivos.has('demo/index.ts')).toBe(true);
    expect(importsDe(archivos.get('actions/tpv/caja.ts')!)).toContain('../../tpv/caja.ts');
    expect(violaciones(archivos)).toEqual([]);
  });
});
