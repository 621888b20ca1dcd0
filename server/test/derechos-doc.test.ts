import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROLES_PREDEFINIDOS, ROL_PREDEFINIDO } from 'shared/domain';
import { MARCA_FIN, MARCA_INICIO, conTablas, tablasDerechos } from '../src/auth/documentacion.ts';

/** docs/derechos.md's tables are the code's (issue 24): a change of a built-in role or of the table shows here. */
describe('docs/derechos.md', () => {
  const pagina = fs.readFileSync(new URL('../../docs/derechos.md', import.meta.url), 'utf8');

  it('has the tables the code makes (run `pnpm --filter server derechos:doc` after changing a role or an action)', () => {
    expect(pagina).toContain(MARCA_INICIO);
    expect(pagina).toContain(MARCA_FIN);
    expect(conTablas(pagina)).toBe(pagina);
  });

  it('the tables say what the roles are: Caja only the till, Consulta no backups, Almacén no sales', () => {
    const t = tablasDerechos();
    for (const r of ROLES_PREDEFINIDOS) expect(t).toContain(ROL_PREDEFINIDO[r].nombre);
    expect(t).toMatch(/\| TPV \| V E A X \| V E A X \| — \| V E A \| V \|/);
    expect(t).toMatch(/\| Copias de seguridad \| V E A X \| — \| — \| — \| — \|/);
    expect(t).toMatch(/\| Ventas \| V E A X \| V E A X \| — \| — \| V \|/);
  });

  it('is linked from the root README and the server README', () => {
    for (const f of ['../../README.md', '../README.md']) expect(fs.readFileSync(new URL(f, import.meta.url), 'utf8')).toContain('docs/derechos.md');
  });
});
