import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { necesita } from '../../server/test/herramientas';

let tmp: string | undefined;
let n = 0;

/**
 * A PDF the page downloads when `boton` runs, read back as a user would check it: its first page's text (pdftotext,
 * whitespace collapsed) and its fiscal QR decoded (pdftoppm at 200 dpi + zbarimg), unless `conQr` is false.
 */
export async function leerPdf(page: Page, boton: () => Promise<void>, conQr = true): Promise<{ texto: string; qr: string; file: string }> {
  necesita('pdftotext', 'pdftoppm', 'zbarimg');
  tmp ??= mkdtempSync(path.join(tmpdir(), 'mtpv-pdf-'));
  const descarga = page.waitForEvent('download');
  await boton();
  const file = path.join(tmp, `doc-${++n}.pdf`);
  await (await descarga).saveAs(file);
  const texto = execFileSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  if (!conQr) return { texto, qr: '', file };
  execFileSync('pdftoppm', ['-r', '200', '-png', '-f', '1', '-l', '1', '-singlefile', file, path.join(tmp, `doc-${n}`)]);
  const qr = execFileSync('zbarimg', ['-q', '--raw', '-S*.disable', '-Sqrcode.enable', path.join(tmp, `doc-${n}.png`)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  return { texto, qr, file };
}
