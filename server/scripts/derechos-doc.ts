/** Writes the tables of docs/derechos.md again from the code (src/auth/documentacion.ts). */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { conTablas } from '../src/auth/documentacion.ts';

const file = fileURLToPath(new URL('../../docs/derechos.md', import.meta.url));
fs.writeFileSync(file, conTablas(fs.readFileSync(file, 'utf8')));
console.log(`docs/derechos.md: tablas regeneradas`);
