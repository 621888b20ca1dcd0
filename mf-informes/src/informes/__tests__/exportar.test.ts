import { describe, expect, it } from 'vitest';
import { INFORMES, informePorSlug, porcentaje } from '../definiciones';
import { csvInforme } from '../exportar';
import { conSubtotales, filaTotales } from '../tabla';
import type { Columna } from '../tipos';
import { INVENTARIO, TOTALES_VENTAS, VENTAS } from '../../fakeInformes';
import menu from '../../menu.json';

const ventas = informePorSlug('info-ventas')!;
const columnasVentas = (agrupar: string): Columna[] => [...ventas.agrupar.find((a) => a.value === agrupar)!.claves, ...(ventas.cifras as Columna[]).slice(0, 9)];

describe('CSV export', () => {
  const csv = csvInforme(columnasVentas('cliente'), [...VENTAS.cliente, filaTotales(TOTALES_VENTAS)!]);
  const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');

  it('is a Spanish spreadsheet file: BOM, ; and es-ES numbers kept as numbers', () => {
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(lines[0]).toBe('Cliente;Documentos;Unidades;Base;IVA;Recargo;Total;Coste;Margen;Margen %');
    // -25,00 € of a return: a negative number, not text neutralised.
    expect(lines[2]).toBe('Ferretería Sol;1;1;-25,00;-5,25;0,00;-30,25;-20,00;-5,00;20,00');
    expect(lines[1]).toContain(';1.234,56;');
  });

  it('never lets a spreadsheet run a name as a formula', () => {
    expect(lines[1].startsWith(`"'=HYPERLINK(""http://x"")";3;`)).toBe(true);
  });

  it('ends with the totals row of the whole selection', () => {
    expect(lines.at(-1)).toBe('Total;20;60,5;1.500,50;315,10;0,00;1.815,60;900,00;600,50;40,02');
  });
});

describe('table rows', () => {
  it('adds a subtotal after each family of more than one row when sorted by family', () => {
    const inv = informePorSlug('info-inventario')!;
    const cols = [...inv.agrupar[0].claves, ...(inv.cifras as (v: string, a: string) => Columna[])('todos', 'articulo')];
    const filas = conSubtotales(inv, 'articulo', cols, INVENTARIO, 'familia');
    expect(filas.map((f) => f.__etiqueta ?? f.descripcion)).toEqual(['Tornillo', 'Tuerca', 'Subtotal Ferretería', 'Pintura']);
    expect(filas[2]).toMatchObject({ unidades: '8000', valor: '700', valor_ultimo: '880' });
    // Sorted by value, families are not together: no subtotals.
    expect(conSubtotales(inv, 'articulo', cols, INVENTARIO, 'valor')).toHaveLength(3);
  });

  it('sales by day get a subtotal per month', () => {
    const cols = columnasVentas('dia');
    const filas = conSubtotales(ventas, 'dia', cols, VENTAS.dia);
    expect(filas.map((f) => f.__etiqueta ?? f.clave)).toEqual(['2026-10-30', '2026-10-31', 'Subtotal oct 2026', '2026-11-02']);
    expect(filas[2]).toMatchObject({ base: '3000', margen: '1500' });
    expect(cols.find((c) => c.id === 'margen_pct')!.calcular!(filas[2])).toBe(5000n);
  });

  it('works a margin percentage out exactly, rounding half away from zero', () => {
    expect(porcentaje(60050, 150050)).toBe(4002n);
    expect(porcentaje(-500, -2500)).toBe(2000n);
    expect(porcentaje(1, 3)).toBe(3333n);
    expect(porcentaje(2, 3)).toBe(6667n);
    expect(porcentaje(5, 0)).toBeNull();
  });
});

describe('menu', () => {
  it('has one entry per report, gated as the report is', () => {
    expect(menu.entries.map((e) => e.path)).toEqual(INFORMES.map((i) => i.slug));
    for (const def of INFORMES) {
      const e = menu.entries.find((x) => x.path === def.slug)!;
      expect(e.module ?? null, def.slug).toEqual(def.module ?? null);
      expect(e.area ?? null, def.slug).toEqual(def.area ?? null);
      expect((e as { grupo?: string }).grupo === 'Fiscal', def.slug).toBe(def.grupo === 'Fiscal');
    }
    // As the specification gates them.
    const need = (p: string) => menu.entries.find((e) => e.path === p)?.module;
    expect(need('info-inventario')).toBe('almacenes');
    expect(need('info-movimientos')).toBe('almacenes');
    expect(need('info-compras')).toBe('compras');
    expect(need('info-ventas')).toBe('ventas');
    expect(need('cierres-tpv')).toBe('tpv');
    expect(need('info-furgonetas')).toContain('furgonetas');
  });
});
