import { execFileSync } from 'node:child_process';

/** The Debian package of each system tool the tests run (README, «En una máquina nueva»). */
const PAQUETE: Record<string, string> = {
  xmllint: 'libxml2-utils',
  xmlsec1: 'xmlsec1',
  pdftotext: 'poppler-utils',
  pdftoppm: 'poppler-utils',
  zbarimg: 'zbar-tools',
};

const vistas = new Set<string>();

/**
 * Fails at once, saying which tool is missing and how to install it, instead of letting a test fail later with an
 * assertion that hides the cause (issue 26: «xmlsec1 not installed», not «expected false to be true»).
 */
export function necesita(...herramientas: string[]): void {
  for (const h of herramientas) {
    if (vistas.has(h)) continue;
    try {
      execFileSync('sh', ['-c', `command -v ${h}`], { stdio: 'ignore' });
    } catch {
      throw new Error(`${h} no está instalado: apt-get install ${PAQUETE[h] ?? h} (la lista de herramientas, en el README)`);
    }
    vistas.add(h);
  }
}
