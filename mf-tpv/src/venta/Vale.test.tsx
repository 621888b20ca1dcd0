import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES_TPV } from 'shared';
import { renderWithShell } from 'shared/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { IndiceCatalogo } from '../datos/catalogo';
import { articuloDePrueba, cajaDePrueba, respuestaOk, sinRespuesta, terminalDePrueba } from '../pruebas';
import { Venta } from './Venta';

const VALES: Record<string, { codigo: string; importe: number; saldo?: number; usado: string | null }> = {
  V111111111111: { codigo: 'V111111111111', importe: 242, usado: null },
  // Issue 23: 10 € given, 5 € of it still left.
  V333333333333: { codigo: 'V333333333333', importe: 1000, saldo: 500, usado: '2026-11-28T10:00:00Z' },
  V222222222222: { codigo: 'V222222222222', importe: 100, usado: '2026-11-28T10:00:00Z' },
};
let subidos: { pagos: unknown }[] = [];
let red = true;
function servidor(url: string, init?: RequestInit): Response {
  if (!red) throw new TypeError('Failed to fetch');
  const u = new URL(url, 'http://x');
  const ac = u.searchParams.get('ac');
  if (ac === 'valetpv') {
    const v = VALES[String(u.searchParams.get('codigo')).toUpperCase()];
    return v ? respuestaOk([v]) : new Response(JSON.stringify({ RESULT: '3', message: 'El vale no existe.' }), { status: 404 });
  }
  if (ac === 'subirtickets') {
    const body = JSON.parse(String(init?.body));
    subidos.push(...body.tickets);
    return respuestaOk(body.tickets.map((t: { uuid: string; pagos: { forma: string; importe: number; vale?: string }[] }, i: number) => ({
      // The server's balance left on each vale that paid (as stored).
      vales: t.pagos.filter((p) => p.vale).map((p) => ({ codigo: p.vale, importe: p.importe, saldo: (VALES[p.vale!].saldo ?? VALES[p.vale!].importe) - p.importe })),
      uuid: t.uuid, id: i + 1, numero: 'T1 2026/000001', total: 484, cambio: 0, huella: 'A'.repeat(64), xml: '<x/>', qr_url: 'https://x', fecha_hora_huso: '2026-11-26T10:00:00+01:00',
      offline: 0, repetido: 0, emision: { entorno: 'produccion', demo: 0, verifactu: 1 },
    })));
  }
  return sinRespuesta(ac);
}

beforeEach(() => {
  subidos = [];
  red = true;
});
cajaDePrueba(servidor, () => ({
  terminal: terminalDePrueba({ formas_pago: ['efectivo', 'tarjeta', 'vale'] }),
  online: true,
  sesion: { user: { id: 1, nombre: 'Ana', email: 'ana@tienda.es' }, config: null },
  indice: new IndiceCatalogo([articuloDePrueba(1, { codigo: 'PAN', nombre: 'Pan', precio: 12_100 })]),
}));

async function cobrar() {
  const user = userEvent.setup();
  renderWithShell(<Venta />);
  await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Escanear o buscar artículo')));
  await user.keyboard('4*PAN{Enter}{F12}');
  const c = within(await screen.findByRole('dialog', { name: 'Cobrar' }));
  await user.click(c.getByRole('radio', { name: 'Vale' }));
  return { user, c };
}

describe('un vale como forma de pago (issue 23)', () => {
  it('su código se lee del servidor y paga su saldo entero cuando la compra es mayor; el resto, en efectivo', async () => {
    const { user, c } = await cobrar();
    await user.type(c.getByLabelText(/Código del vale/), 'v111111111111{Enter}');
    await waitFor(() => expect(c.getByTestId('cobro-pendiente').textContent).toBe('2,42 €'));
    expect(within(c.getByRole('table', { name: 'Pagos' })).getByText('Vale V111111111111 (le quedan 0,00 €)')).toBeTruthy();
    await user.click(c.getByRole('radio', { name: 'Efectivo' }));
    await user.type(c.getByLabelText(/Importe entregado/), '{Enter}');
    await waitFor(() => expect(subidos).toHaveLength(1));
    expect(subidos[0].pagos).toEqual([{ forma: 'vale', importe: 242, vale: 'V111111111111', saldo: 0 }, { forma: 'efectivo', importe: 242 }]);
  });

  it('un vale con saldo paga lo pendiente: lo que sobra queda en él, se dice al leerlo y se imprime en el ticket', async () => {
    const { user, c } = await cobrar();
    // 4,84 € to pay with a vale that has 5,00 € left: it pays 4,84 and 0,16 stays on it; no error, no change.
    await user.type(c.getByLabelText(/Código del vale/), 'V333333333333{Enter}');
    await waitFor(() => expect(subidos).toHaveLength(1));
    expect(subidos[0].pagos).toEqual([{ forma: 'vale', importe: 484, vale: 'V333333333333', saldo: 16 }]);
    // The printed ticket names the vale and the balance the server says it has left.
    await waitFor(() => expect(document.body.textContent).toMatch(/Vale V333333333333 · saldo 0,16\s€/));
  });

  it('un vale con menos saldo que la compra paga su saldo y lo demás queda pendiente', async () => {
    const { user, c } = await cobrar();
    VALES.V333333333333.saldo = 300;
    try {
      await user.type(c.getByLabelText(/Código del vale/), 'V333333333333{Enter}');
      await waitFor(() => expect(c.getByTestId('cobro-pendiente').textContent).toBe('1,84 €'));
      expect(c.getByTestId('vale-saldo').textContent).toMatch(/Vale V333333333333: tiene 3,00\s€; paga 3,00\s€ y le quedan 0,00\s€\./);
    } finally {
      VALES.V333333333333.saldo = 500;
    }
  });

  it('uno ya usado se rechaza con el motivo; sin conexión, ningún vale', async () => {
    const { user, c } = await cobrar();
    await user.type(c.getByLabelText(/Código del vale/), 'V222222222222{Enter}');
    expect((await c.findByRole('alert')).textContent).toBe('El vale V222222222222 ya se usó.');
    red = false;
    await user.clear(c.getByLabelText(/Código del vale/));
    await user.type(c.getByLabelText(/Código del vale/), 'V111111111111{Enter}');
    await waitFor(() => expect(c.getByRole('alert').textContent).toBe(MESSAGES_TPV.valeSinConexion));
    expect(c.getByTestId('cobro-pendiente').textContent).toBe('4,84 €');
    expect(subidos).toEqual([]);
  });
});
