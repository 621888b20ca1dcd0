import { describe, expect, it } from 'vitest';

declare global {
  interface ImportMeta {
    glob(pattern: string, options: { query: string; import: string; eager: true }): Record<string, string>;
  }
}

/**
 * The till's first paint stays ≤ 200 KB gzip (issue 23, `pnpm bench:bundle`) only while the modules it loads
 * statically import the light `shared/caja` (bundled here and tree-shaken) and never a value from the federated
 * `shared` (the whole library, with react-router: +105 KB the day `datos/catalogo.ts` took `cantidadNoEntera` from it).
 * This walks the static imports from `section.tsx` (a dynamic `import()` or `lazy` is a later chunk, not followed) and
 * names every module that takes a value from `shared` or `react-router-dom`. Types are free: they leave no code.
 */
/** Every source file of `src/` as text, by its path from here (`./caja/estado.ts`): Vite reads them at build time. */
const FUENTES = import.meta.glob('./**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
const PROHIBIDOS = new Set(['shared', 'react-router-dom', 'react-router']);

/** The static value imports of a source file: `[especificador, soloTipos]`. */
function importacionesEstaticas(codigo: string): { desde: string; soloTipos: boolean }[] {
  const sinComentarios = codigo.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const fuera: { desde: string; soloTipos: boolean }[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of sinComentarios.matchAll(re)) {
    if (m[5]) {
      fuera.push({ desde: m[5], soloTipos: false });
      continue;
    }
    const clausula = m[3] ?? '';
    const llaves = clausula.match(/\{([\s\S]*)\}/);
    const fueraDeLlaves = clausula.replace(/\{[\s\S]*\}/, '').replace(/,/g, '').trim();
    const nombres = llaves ? llaves[1].split(',').map((n) => n.trim()).filter(Boolean) : [];
    const soloTipos = !!m[2] || (!fueraDeLlaves && nombres.length > 0 && nombres.every((n) => n.startsWith('type ')));
    fuera.push({ desde: m[4], soloTipos });
  }
  return fuera;
}

/** `./caja/tienda/cobro.ts` + `../registro` → `./caja/registro.ts` (or its `.tsx`, or its folder's index). */
function resolver(desde: string, espec: string): string | null {
  const partes = desde.split('/').slice(0, -1);
  for (const p of espec.split('/')) {
    if (p === '..') partes.pop();
    else if (p !== '.') partes.push(p);
  }
  const base = partes.join('/');
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (c in FUENTES) return c;
  return null;
}

function recorrer(entrada: string): { visitados: string[]; prohibidas: string[] } {
  const visitados = new Set<string>();
  const prohibidas: string[] = [];
  const pila = [entrada];
  while (pila.length) {
    const f = pila.pop()!;
    if (visitados.has(f)) continue;
    visitados.add(f);
    for (const { desde, soloTipos } of importacionesEstaticas(FUENTES[f])) {
      if (soloTipos) continue;
      if (PROHIBIDOS.has(desde)) prohibidas.push(`${f.slice(2)} → ${desde}`);
      else if (desde.startsWith('.')) {
        const r = resolver(f, desde);
        if (r) pila.push(r);
      }
    }
  }
  return { visitados: [...visitados].map((f) => f.slice(2)), prohibidas };
}

describe('el primer pintado de la caja', () => {
  it('no toma ningún valor del `shared` federado ni de react-router (solo `shared/caja` y tipos)', () => {
    const { visitados, prohibidas } = recorrer('./section.tsx');
    // The walk reaches the till's state and its catalogue, or it proves nothing.
    expect(visitados).toEqual(expect.arrayContaining(['caja/estado.ts', 'datos/catalogo.ts']));
    expect(prohibidas).toEqual([]);
  });

  it('la lectura de importaciones distingue valores de tipos', () => {
    const codigo = [
      "import type { A } from 'shared';",
      "import { type B, type C } from 'shared';",
      "import { d, type E } from 'shared';",
      "export { f } from './f';",
      "import './estilos';",
    ].join('\n');
    expect(importacionesEstaticas(codigo)).toEqual([
      { desde: 'shared', soloTipos: true },
      { desde: 'shared', soloTipos: true },
      { desde: 'shared', soloTipos: false },
      { desde: './f', soloTipos: false },
      { desde: './estilos', soloTipos: false },
    ]);
  });
});
