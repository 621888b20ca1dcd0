import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { necesita } from './herramientas.ts';

/** The AEAT's schema of a VERI*FACTU submission (RegistroAlta / RegistroAnulacion inside RegFactuSistemaFacturacion). */
export const XSD_VERIFACTU = fileURLToPath(new URL('../src/fiscal/xsd/SuministroLR.xsd', import.meta.url));
/** Facturae 3.2.2's schema. */
export const XSD_FACTURAE = fileURLToPath(new URL('../src/fiscal/xsd/Facturaev3_2_2.xsd', import.meta.url));

/** Each XML valid against `xsd` (xmllint, no network): fails the test with xmllint's messages otherwise. */
export function validarXml(xmls: string | string[], xsd = XSD_VERIFACTU): void {
  necesita('xmllint');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mtpv-xsd-'));
  try {
    const files = (Array.isArray(xmls) ? xmls : [xmls]).map((x, i) => {
      const f = path.join(dir, `r${i}.xml`);
      fs.writeFileSync(f, x);
      return f;
    });
    expect(execFileSync('xmllint', ['--noout', '--nonet', '--schema', xsd, ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).toBe('');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
