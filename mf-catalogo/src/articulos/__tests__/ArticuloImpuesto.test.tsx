import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Configuracion } from 'shared';
import { bodiesOf, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';
import { ARTICULO, fakeCatalogo } from '../../fakeCatalogo';

/** Issue 16: the article's tax select follows the company's tax (Configuración › Empresa): IVA, IGIC or IPSI. */

const saved = (call: { body?: unknown }) => ({ RESULT: '0' as const, data: [{ ...ARTICULO, ...(call.body as object), id: 99 }] });
const empresa = (impuesto: 'iva' | 'igic' | 'ipsi') => ({ id: 1, razon_social: 'Ferretería Canaria, S.L.', nif: 'B85612349', impuesto }) as unknown as Configuracion;
const opciones = (select: HTMLElement) => within(select).getAllByRole('option').map((o) => o.textContent);
const input = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

describe('Artículo: el tipo de impuesto de la empresa', () => {
  it('a Canary company: «Tipo de IGIC» offers IGIC’s rates only, a new article starts at 7 %, 9,5 % recomputes the PVP and is sent', async () => {
    const fake = fakeCatalogo({ editararticulo: saved });
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fake.api, config: empresa('igic') });
    const tipo = await screen.findByLabelText(/^Tipo de IGIC/);
    expect(opciones(tipo)).toEqual(['General 7 %', 'Reducido 3 %', 'Cero 0 %', 'Incrementado 9,5 %', 'Incrementado 15 %', 'Especial 20 %', 'Exento']);
    expect(screen.queryByLabelText(/^Tipo de IVA/)).toBeNull();
    expect((tipo as HTMLSelectElement).value).toBe('igic_7');
    await userEvent.type(screen.getByLabelText(/^Código\*?$/), 'CAN-1');
    await userEvent.type(screen.getByLabelText(/^Descripción\*?$/), 'Queso majorero');
    const net = input(/^Precio de venta/);
    await userEvent.clear(net);
    await userEvent.type(net, '10');
    expect(input(/^PVP 1 \(IGIC incluido\)/).value).toBe('10,70');
    await userEvent.selectOptions(tipo, 'igic_9_5');
    expect(input(/^PVP 1/).value).toBe('10,95');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editararticulo')).toHaveLength(1));
    expect(bodiesOf(fake.calls, 'editararticulo')[0]).toMatchObject({ tipo_iva: 'igic_9_5', precio_venta: 100000, pvp_1: 1095 });
  });

  it('Ceuta or Melilla: «Tipo de IPSI» with its rates; an IVA company keeps IVA’s with tobacco’s 1,75 % recargo', async () => {
    const { unmount } = renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fakeCatalogo().api, config: empresa('ipsi') });
    expect(opciones(await screen.findByLabelText(/^Tipo de IPSI/))).toEqual(['IPSI 10 %', 'IPSI 8 %', 'IPSI 4 %', 'IPSI 2 %', 'IPSI 1 %', 'IPSI 0,5 %', 'Exento']);
    unmount();
    renderSection(Section, menu.prefix, '/catalogo/articulo/nuevo-articulo', { api: fakeCatalogo().api, config: empresa('iva') });
    expect(opciones(await screen.findByLabelText(/^Tipo de IVA/))).toEqual(['General 21 %', 'Reducido 10 %', 'Superreducido 4 %', 'Exento', 'Tabaco 21 % (R.E. 1,75 %)']);
  });
});
