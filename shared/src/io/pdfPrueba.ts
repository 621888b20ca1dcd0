import type { jsPDF } from 'jspdf';

/**
 * Test helper of the PDF builders' tests (not exported by the package): jsPDF with `save` capturing the document
 * instead of downloading it, and its text read back. In a test file:
 *   vi.mock('jspdf', async (orig) => (await import('./pdfPrueba')).jspdfQueGuarda(orig));
 *   beforeEach(() => { guardados.length = 0; });
 */
export const guardados: { doc: jsPDF; name: string }[] = [];

export async function jspdfQueGuarda(orig: () => Promise<unknown>) {
  const real = (await orig()) as typeof import('jspdf');
  class Capturing extends real.jsPDF {
    constructor(...args: ConstructorParameters<typeof real.jsPDF>) {
      super(...args);
      this.save = ((name: string) => {
        guardados.push({ doc: this, name });
        return this;
      }) as never;
    }
  }
  return { ...real, jsPDF: Capturing };
}

/** The strings a PDF draws, in order, joined by '|' (jsPDF writes each wrapped line as its own string). */
export const textosPdf = (raw: string) => [...raw.matchAll(/\((.*?)\) Tj/g)].map((m) => m[1]).join('|');
