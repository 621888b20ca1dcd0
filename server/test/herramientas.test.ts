import { describe, expect, it } from 'vitest';
import { necesita } from './herramientas.ts';

describe('the system tools the tests run (issue 26)', () => {
  it('a missing tool is named with the package that installs it, before any assertion', () => {
    expect(() => necesita('herramienta-que-no-existe')).toThrow('herramienta-que-no-existe no está instalado: apt-get install herramienta-que-no-existe');
  });
  it('an installed one passes (sh is everywhere)', () => {
    expect(() => necesita('sh')).not.toThrow();
  });
});
