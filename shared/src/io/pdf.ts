/** A list as a PDF table (jsPDF, loaded only when the user asks for it). */
export async function downloadTablePdf(opts: {
  fileName: string;
  title: string;
  subtitle?: string;
  header: string[];
  rows: (string | number | null | undefined)[][];
  /** Relative column widths; equal by default. */
  widths?: number[];
}): Promise<void> {
  const { jsPDF } = await import('jspdf');
  const landscape = opts.header.length > 5;
  const doc = new jsPDF({ orientation: landscape ? 'landscape' : 'portrait', unit: 'mm', format: 'a4' });
  const pageW = doc.internal.pageSize.getWidth();
  const pageH = doc.internal.pageSize.getHeight();
  const margin = 12;
  const widths = opts.widths ?? opts.header.map(() => 1);
  const sum = widths.reduce((a, b) => a + b, 0);
  const cols = widths.map((w) => ((pageW - margin * 2) * w) / sum);
  let y = margin;
  const printed = new Date().toLocaleString('es-ES');

  const drawHeader = () => {
    doc.setFontSize(14);
    doc.text(opts.title, margin, y + 4);
    doc.setFontSize(8);
    doc.text(`${opts.subtitle ? opts.subtitle + ' · ' : ''}${printed}`, pageW - margin, y + 4, { align: 'right' });
    y += 10;
    doc.setFillColor(226, 232, 240);
    doc.rect(margin, y, pageW - margin * 2, 6, 'F');
    doc.setFont('helvetica', 'bold');
    let x = margin;
    opts.header.forEach((h, i) => {
      doc.text(String(h), x + 1, y + 4, { maxWidth: cols[i] - 2 });
      x += cols[i];
    });
    doc.setFont('helvetica', 'normal');
    y += 8;
  };

  drawHeader();
  for (const row of opts.rows) {
    if (y > pageH - margin) {
      doc.addPage();
      y = margin;
      drawHeader();
    }
    let x = margin;
    row.forEach((v, i) => {
      const text = doc.splitTextToSize(v === null || v === undefined ? '' : String(v), cols[i] - 2)[0] ?? '';
      doc.text(text, x + 1, y);
      x += cols[i];
    });
    y += 5;
  }
  const pages = doc.getNumberOfPages();
  for (let p = 1; p <= pages; p++) {
    doc.setPage(p);
    doc.setFontSize(7);
    doc.text(`Página ${p} de ${pages}`, pageW / 2, pageH - 5, { align: 'center' });
  }
  doc.save(opts.fileName);
}
