import { describe, expect, it } from 'vitest';
import { informePorSlug } from '../definiciones';
import { xlsxInforme } from '../exportar';
import { filaTotales } from '../tabla';
import type { Columna } from '../tipos';
import { columna, numeroEs } from '../xlsx';

/** CRC-32 bit by bit (not the writer's table): what an unzipper checks. */
function crcNode(datos: Uint8Array): number {
  let crc = ~0;
  for (const b of datos) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** The entries of a ZIP read back from its central directory, each checked against its local header and CRC-32. */
function leerZip(bytes: Uint8Array): Map<string, string> {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fin = bytes.length - 22;
  expect(v.getUint32(fin, true)).toBe(0x06054b50);
  const n = v.getUint16(fin + 10, true);
  let p = v.getUint32(fin + 16, true);
  const out = new Map<string, string>();
  const dec = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < n; i++) {
    expect(v.getUint32(p, true)).toBe(0x02014b50);
    const metodo = v.getUint16(p + 10, true);
    const crc = v.getUint32(p + 16, true);
    const tam = v.getUint32(p + 20, true);
    const largoNombre = v.getUint16(p + 28, true);
    const extra = v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
    const local = v.getUint32(p + 42, true);
    const nombre = dec.decode(bytes.subarray(p + 46, p + 46 + largoNombre));
    expect(v.getUint32(local, true)).toBe(0x04034b50);
    expect(metodo).toBe(0);
    const inicio = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    const datos = bytes.subarray(inicio, inicio + tam);
    expect({ nombre, crc: crcNode(datos) >>> 0 }).toEqual({ nombre, crc });
    out.set(nombre, dec.decode(datos));
    p += 46 + largoNombre + extra;
  }
  return out;
}

const parse = (texto: string) => {
  const doc = new DOMParser().parseFromString(texto, 'application/xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  return doc;
};

/** The sheet's cells as A1 → value (numbers as numbers, inline strings as text). */
function celdasDe(sheet: Document): Map<string, string | number> {
  const out = new Map<string, string | number>();
  for (const c of Array.from(sheet.getElementsByTagName('c'))) {
    const ref = c.getAttribute('r')!;
    if (c.getAttribute('t') === 'inlineStr') out.set(ref, c.getElementsByTagName('t')[0]!.textContent ?? '');
    else out.set(ref, Number(c.getElementsByTagName('v')[0]!.textContent));
  }
  return out;
}

describe('XLSX export of the IVA books', () => {
  const libro = informePorSlug('libro-expedidas')!;
  const columnas: Columna[] = [...libro.agrupar[0]!.claves, ...(libro.cifras as Columna[])];
  const filas = [
    { ejercicio: 2026, periodo: '3T', fecha_expedicion: '2026-07-15', fecha_operacion: '2026-07-15', serie: 'A', numero_factura: 'A 2026/000012', tipo_factura: 'F1', nif_destinatario: 'B85612349', nombre_destinatario: '=Reformas <Hernández> & Cía', calificacion: 'S1', base: 123_456, tipo_iva: 2100, iva: 25_926, tipo_recargo: 0, recargo: 0, retencion: 0, total: 149_382 },
    { ejercicio: 2026, periodo: '3T', fecha_expedicion: '2026-07-20', fecha_operacion: '2026-07-20', serie: 'R', numero_factura: 'R 2026/000001', tipo_factura: 'R1', nif_destinatario: '12345678Z', nombre_destinatario: 'Ferretería López', calificacion: 'S1', base: -500, tipo_iva: 1000, iva: -50, tipo_recargo: 140, recargo: -7, retencion: 0, total: -557 },
  ];
  const bytes = xlsxInforme(libro.titulo, columnas, [...filas, filaTotales({ base: 122_956, iva: 25_876, recargo: -7, total: 148_825 })!]);
  const partes = leerZip(bytes);

  it('is a ZIP whose parts are a spreadsheet package: content types, relations, workbook, styles, the sheet', () => {
    expect([...partes.keys()]).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/worksheets/sheet1.xml']);
    for (const texto of partes.values()) parse(texto);
    const workbook = parse(partes.get('xl/workbook.xml')!);
    expect(workbook.getElementsByTagName('sheet')[0]!.getAttribute('name')).toBe('Libro de facturas expedidas');
    expect(partes.get('[Content_Types].xml')).toContain('/xl/worksheets/sheet1.xml');
  });

  it('holds the AEAT columns, text as text (never a formula) and amounts as numbers in euros', () => {
    const c = celdasDe(parse(partes.get('xl/worksheets/sheet1.xml')!));
    const cabecera = columnas.map((_, i) => c.get(`${columna(i)}1`));
    expect(cabecera).toEqual(columnas.map((col) => col.header));
    const col = (id: string) => columna(columnas.findIndex((x) => x.id === id));
    expect(c.get(`${col('numero_factura')}2`)).toBe('A 2026/000012');
    // A date is a date (issue 25): the serial day 46218 = 15/07/2026, in the dd/mm/yyyy style.
    expect(c.get(`${col('fecha_expedicion')}2`)).toBe(46218);
    expect(partes.get('xl/worksheets/sheet1.xml')).toContain(`<c r="${col('fecha_expedicion')}2" s="4"><v>46218</v></c>`);
    expect(partes.get('xl/styles.xml')).toContain('<numFmt numFmtId="164" formatCode="dd/mm/yyyy"/>');
    // Escaped, and an inline string: a spreadsheet shows it, never runs it.
    expect(c.get(`${col('nombre_destinatario')}2`)).toBe('=Reformas <Hernández> & Cía');
    expect(c.get(`${col('base')}2`)).toBe(1234.56);
    expect(c.get(`${col('iva')}2`)).toBe(259.26);
    expect(c.get(`${col('tipo_iva')}2`)).toBe(21);
    expect(c.get(`${col('total')}3`)).toBe(-5.57);
    expect(c.get(`${col('recargo')}3`)).toBe(-0.07);
    expect(c.get(`${col('tipo_recargo')}3`)).toBe(1.4);
    // The totals row.
    expect(c.get('A4')).toBe('Total');
    expect(c.get(`${col('total')}4`)).toBe(1488.25);
  });

  it('writes es-ES numbers as numbers and column letters past Z', () => {
    expect(numeroEs('-1.234,56')).toEqual({ numero: '-1234.56', decimales: 2 });
    expect(numeroEs('21')).toEqual({ numero: '21', decimales: 0 });
    expect(numeroEs('B85612349')).toBeNull();
    expect([columna(0), columna(25), columna(26), columna(701), columna(702)]).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
  });
});
