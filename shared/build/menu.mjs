#!/usr/bin/env node
/**
 * Writes a section remote's `src/menu.json` from its `src/menu.base.json` and the document types' definitions
 * (shared/src/domain/documentos/: each type's `pantalla` says its section, list path, label, place and flags).
 * Run from the remote's folder:
 *   node ../shared/build/menu.mjs          writes src/menu.json
 *   node ../shared/build/menu.mjs --check  fails when src/menu.json is not what it would write (the remote's build)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { menuDeSeccion, textoMenu } = await import('../src/domain/documentos/menus.ts');

const dir = process.cwd();
const baseFile = path.join(dir, 'src', 'menu.base.json');
const menuFile = path.join(dir, 'src', 'menu.json');
if (!existsSync(baseFile)) {
  console.error(`menu.mjs: ${path.relative(process.cwd(), baseFile)} does not exist (run it from a section remote's folder)`);
  process.exit(2);
}
const texto = textoMenu(menuDeSeccion(JSON.parse(readFileSync(baseFile, 'utf8'))));
const nombre = path.basename(dir);

if (process.argv.includes('--check')) {
  const actual = existsSync(menuFile) ? readFileSync(menuFile, 'utf8') : '';
  if (actual !== texto) {
    console.error(
      `${nombre}/src/menu.json is not generated from src/menu.base.json and the document types' definitions.\n` +
        `Edit src/menu.base.json (or the type's \`pantalla\` in shared/src/domain/documentos/), then run: pnpm --filter ${nombre} menu`,
    );
    process.exit(1);
  }
} else if (readFileSync(menuFile, { encoding: 'utf8', flag: 'a+' }) !== texto) {
  writeFileSync(menuFile, texto);
  console.log(`${nombre}/src/menu.json written`);
}
