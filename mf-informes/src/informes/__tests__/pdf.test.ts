import { describe, expect, it } from 'vitest';
import { informePorSlug } from '../definiciones';
import { pdfInforme } from '../exportar';
import { filaTotales } from '../tabla';
import type { Columna } from '../tipos';
import { TOTALES_VENTAS, VENTAS } from '../../fakeInformes';

describe('PDF export', () => {
  it('prints the company, the title, the filters, the rows with their totals and page numbers', async () => {
    const ventas = informePorSlug('info-ventas')!;
    const columnas = [...ventas.agrupar.find((a) => a.value === 'cliente')!.claves, ...(ventas.cifras as Columna[]).slice(0, 9)];
    const filas = [...Array.from({ length: 60 }, (_, i) => ({ ...VENTAS.cliente[1], nombre: `Cliente ${i + 1}` })), filaTotales(TOTALES_VENTAS)!];
    const doc = await pdfInforme({
      fileName: 'x.pdf',
      titulo: 'Ventas',
      empresa: { nombre: 'Comercial Demo', nif: 'B86420973', lineas: ['Calle de Alcalá, 120'] },
      filtros: ['Periodo: 01/01/2026 – 31/01/2026 · Agrupado por: Cliente'],
      columnas,
      filas,
    });
    const out = doc.output();
    expect(doc.getNumberOfPages()).toBe(2);
    for (const t of ['Comercial Demo', 'NIF B86420973', 'Ventas', 'Agrupado por: Cliente', 'Cliente 60', '1.815,60', 'Total', 'Página 1 de 2', 'Página 2 de 2']) {
      expect(out, t).toContain(t);
    }
  });
});

/** The text operations of a jsPDF output: each `(…) Tj` string, unescaped. */
const textosPdf = (out: string) => [...out.matchAll(/\((.*?)(?<!\\)\) Tj/g)].map((m) => m[1]!.replace(/\\([()\\])/g, '$1'));

describe('PDF papers an asesor reads (issue 25)', () => {
  it('the libro de expedidas: numbers and NIFs whole on one line, the customer’s name whole (wrapped, never cut), column names never split mid-word', async () => {
    const libro = informePorSlug('libro-expedidas')!;
    const columnas: Columna[] = [...libro.agrupar[0]!.claves, ...(libro.cifras as Columna[])];
    const fila = {
      ejercicio: 2026, periodo: '3T', fecha_expedicion: '2026-07-15', fecha_operacion: '2026-07-15', serie: 'A', numero_factura: 'A 2026/000474', tipo_factura: 'F1',
      nif_destinatario: 'B85612349', nombre_destinatario: 'Reformas y Construcciones Hernández e Hijos, S.L.', calificacion: 'S1',
      base: 28_384, tipo_iva: 2100, iva: 5_961, tipo_recargo: 0, recargo: 0, retencion: 0, total: 34_345,
    };
    const doc = await pdfInforme({ fileName: 'libro.pdf', titulo: libro.titulo, empresa: { nombre: 'Comercial Demo', nif: 'B86420973' }, filtros: [], columnas, filas: [fila] });
    const textos = textosPdf(doc.output());
    expect(textos).toContain('A 2026/000474');
    expect(textos).toContain('B85612349');
    expect(textos).toContain('2026');
    expect(textos).toContain('343,45');
    expect(textos).toContain('21,00');
    // Every word of the name is printed (the cell wraps, it is never cut).
    for (const w of fila.nombre_destinatario.split(' ')) expect(textos.join(' ').split(/\s+/), w).toContain(w);
    // Every word of every column's name is printed whole.
    for (const c of columnas) for (const w of c.header.split(' ')) expect(textos.some((t) => t.split(' ').includes(w)), `${c.header}: ${w}`).toBe(true);
  });

  it('the 303: each box’s whole concept, 28 and 29 distinct; the «Casilla» column fits its five characters', async () => {
    const m303 = informePorSlug('modelo-303')!;
    const columnas: Columna[] = [...m303.agrupar[0]!.claves, ...(m303.cifras as Columna[])];
    const filas = [
      { casilla: '28', concepto: 'IVA deducible en operaciones interiores de bienes y servicios corrientes: base', importe: 1_000_000 },
      { casilla: '29', concepto: 'IVA deducible en operaciones interiores de bienes y servicios corrientes: cuota', importe: 210_000 },
      { casilla: 'sin-casilla', concepto: 'Exentas sin casilla propia', importe: 1_000 },
    ];
    const doc = await pdfInforme({ fileName: '303.pdf', titulo: m303.titulo, empresa: null, filtros: [], columnas, filas });
    const todo = textosPdf(doc.output()).join(' ').replace(/\s+/g, ' ');
    expect(todo).toContain('corrientes: base');
    expect(todo).toContain('corrientes: cuota');
    expect(textosPdf(doc.output())).toContain('sin-casilla');
  });

  it('a price column prints every row with the same decimals (6,5000 beside 6,6965)', async () => {
    const tarifas = informePorSlug('info-tarifas')!;
    const columnas: Columna[] = [{ id: 'nombre', header: 'Artículo', formato: 'texto' }, ...(tarifas.cifras as Columna[]).filter((c) => c.formato === 'precio').slice(0, 1)];
    const id = columnas[1]!.id;
    const doc = await pdfInforme({ fileName: 't.pdf', titulo: 'Tarifas', empresa: null, filtros: [], columnas, filas: [{ nombre: 'Tornillo', [id]: 65_000 }, { nombre: 'Tuerca', [id]: 66_965 }] });
    const textos = textosPdf(doc.output());
    expect(textos).toContain('6,5000');
    expect(textos).toContain('6,6965');
  });
});
