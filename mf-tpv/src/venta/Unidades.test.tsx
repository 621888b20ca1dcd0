import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import { describe, expect, it } from 'vitest';
import { useCaja } from '../caja/estado';
import { IndiceCatalogo } from '../datos/catalogo';
import { eanVariable } from '../datos/ean';
import { articuloDePrueba, cajaDePrueba, sinRespuesta, terminalDePrueba } from '../pruebas';
import { Venta } from './Venta';

const ARTICULOS = [
  // By the unit: whole quantities only. 4,95 € a screw box; a price label's 7,00 € is no whole number of them.
  articuloDePrueba(1, { codigo: 'TOR', nombre: 'Tornillo M4 inox.', precio: 49_500, unidad_medida: 'ud', codigo_barras: '2500001' }),
  // By weight: any quantity.
  articuloDePrueba(2, { codigo: 'JAM', nombre: 'Jamón cocido', precio: 129_500, tipo_iva: '10', unidad_medida: 'kg' }),
];

cajaDePrueba((url) => sinRespuesta(new URL(url, 'http://x').searchParams.get('ac')), () => ({
  terminal: terminalDePrueba(),
  online: true,
  sesion: { user: { id: 1, nombre: 'Ana', email: 'ana@tienda.es' }, config: null },
  indice: new IndiceCatalogo(ARTICULOS),
}));

const lineas = () => useCaja.getState().lineas.map((l) => [l.codigo, l.cantidad, l.precio]);

describe('un artículo por unidades se vende en cantidades enteras (issue 23)', () => {
  it('«1,5*» de un artículo por unidades se rechaza con el motivo; de uno a peso, se vende', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    await user.keyboard('1,5*TOR{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('«Tornillo M4 inox.» se vende por unidades: la cantidad debe ser un número entero, no 1,5.');
    expect(lineas()).toEqual([]);
    await user.keyboard('1,5*JAM{Enter}3*TOR{Enter}');
    expect(lineas()).toEqual([['JAM', 1500, 129_500], ['TOR', 3000, 49_500]]);
  });

  it('editar la línea: 2,5 unidades no; 2, sí', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    await user.keyboard('TOR{Enter}{F2}');
    const d = within(await screen.findByRole('dialog', { name: 'Editar Tornillo M4 inox.' }));
    await user.clear(d.getByLabelText('Cantidad'));
    await user.type(d.getByLabelText('Cantidad'), '2,5{Enter}');
    expect(d.getByRole('alert').textContent).toBe('«Tornillo M4 inox.» se vende por unidades: la cantidad debe ser un número entero, no 2,5.');
    expect(lineas()).toEqual([['TOR', 1000, 49_500]]);
    await user.clear(d.getByLabelText('Cantidad'));
    await user.type(d.getByLabelText('Cantidad'), '2{Enter}');
    expect(lineas()).toEqual([['TOR', 2000, 49_500]]);
  });

  it('una etiqueta de precio que no da unidades enteras: una unidad al precio de la etiqueta', async () => {
    const user = userEvent.setup();
    renderWithShell(<Venta />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
    // 7,00 € at 4,95 € is 1,414… units: one unit at 7,00 €. 9,90 € is two.
    await user.keyboard(`${eanVariable('2500001', 700)}{Enter}${eanVariable('2500001', 990)}{Enter}`);
    expect(lineas()).toEqual([['TOR', 1000, 70_000], ['TOR', 2000, 49_500]]);
  });
});
