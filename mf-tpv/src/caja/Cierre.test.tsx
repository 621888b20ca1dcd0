import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithShell } from 'shared/testing';
import type { CajaCiegaTpv, CierreTpv } from 'shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { IndiceCatalogo } from '../datos/catalogo';
import { cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';
import Cierre from './Cierre';

/** The closing at the till with the server there (issue 23): blind count. */

const CAJA = { id: null, terminal_id: 7, terminal_nombre: 'Caja 1', codigo: null, caja_id: 41, usuario_id: 1, usuario_nombre: 'Ana', apertura: '2026-11-27T08:00:00Z', cierre: null, fondo: 10_000, tickets: 3, devoluciones: 0 };
/** The open caja's figures: 100,00 € float + 23,45 € in cash sales → 123,45 € expected in the drawer. */
const CIFRAS: CierreTpv = {
  ...CAJA,
  total: 2_345,
  formas: [{ forma: 'efectivo', ventas: 2_345, devoluciones: 0, esperado: 12_345, contado: 0, diferencia: 0 }],
  efectivo: { fondo: 10_000, cobrado: 2_345, cambio: 0, devuelto: 0, entradas: 0, salidas: 0, esperado: 12_345, contado: 0, diferencia: 0 },
  diferencia: 0,
  impuestos: [{ tipo_iva: '21', base: 1_938, iva: 407, total: 2_345 }],
  movimientos: [],
  denominaciones: null,
  primer_numero: 'T1 2026/000001',
  ultimo_numero: 'T1 2026/000003',
};
const CIEGA: CajaCiegaTpv = { ...CAJA, ciego: 1, formas: [{ forma: 'efectivo' }] };

let ciego = false;
let cerrado: Record<string, unknown> | null = null;
function servidor(url: string, init?: RequestInit): Response {
  const ac = new URL(url, 'http://x').searchParams.get('ac');
  if (ac === 'cajatpv') return respuestaOk([ciego ? CIEGA : CIFRAS]);
  if (ac === 'editarcierretpv') {
    cerrado = JSON.parse(String(init?.body));
    const contado = (cerrado!.contado as { importe: number }[])[0].importe;
    return respuestaOk([{ ...CIFRAS, id: 3, codigo: 12, cierre: '2026-11-27T21:00:00Z', efectivo: { ...CIFRAS.efectivo, contado, diferencia: contado - 12_345 }, diferencia: contado - 12_345 }]);
  }
  return sinRespuesta(ac);
}

beforeEach(() => {
  ciego = false;
  cerrado = null;
});
cajaDePrueba(servidor, () => ({
  terminal: terminalDePrueba({ formas_pago: ['efectivo'], caja_abierta: { id: 41, apertura: CAJA.apertura, fondo: 10_000, usuario_nombre: 'Ana' }, arqueo_ciego: ciego ? 1 : 0 }),
  indice: new IndiceCatalogo([]),
}));

describe('arqueo ciego (issue 23)', () => {
  it('sin arqueo ciego, la cajera ve lo esperado y la diferencia mientras cuenta', async () => {
    const user = userEvent.setup();
    renderWithShell(<Cierre onCerrar={() => undefined} />);
    const tabla = await screen.findByRole('table', { name: 'Esperado y contado' });
    expect(tabla.textContent?.replace(/\s/g, ' ')).toContain('123,45 €');
    await user.type(screen.getByLabelText('Unidades de 100,00 €'), '1');
    expect(screen.getByTestId('arqueo-diferencia').textContent?.replace(/\s/g, ' ')).toBe('-23,45 €');
  });

  it('con arqueo ciego no ve lo esperado hasta cerrar; cerrada, el cierre dice lo esperado y la diferencia', async () => {
    ciego = true;
    const user = userEvent.setup();
    renderWithShell(<Cierre onCerrar={() => undefined} />);
    expect(await screen.findByTestId('arqueo-ciego')).toBeTruthy();
    const dialogo = screen.getByRole('dialog', { name: 'Cerrar caja' });
    expect(within(dialogo).queryByRole('table')).toBeNull();
    expect(dialogo.textContent).not.toMatch(/123,45|23,45|Esperado|Diferencia/);
    await user.type(screen.getByLabelText('Unidades de 100,00 €'), '1');
    await user.type(screen.getByLabelText('Unidades de 20,00 €'), '1');
    expect(screen.getByTestId('arqueo-efectivo').textContent?.replace(/\s/g, ' ')).toBe('120,00 €');
    expect(screen.getByRole('dialog', { name: 'Cerrar caja' }).textContent).not.toMatch(/123,45|Diferencia/);
    await user.click(screen.getByRole('button', { name: 'Cerrar caja' }));
    // What was counted goes, never a figure made from an expected it did not see.
    expect(cerrado).toMatchObject({ terminal_id: 7, contado: [{ forma: 'efectivo', importe: 12_000 }] });
    expect((await screen.findByTestId('cierre-diferencia')).textContent?.replace(/\s/g, ' ')).toBe('-3,45 €');
  });
});
