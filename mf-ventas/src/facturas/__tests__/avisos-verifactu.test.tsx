import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { VerifactuInfo } from 'shared';
import { emitida, fakeVentas, listadoDocs, renderFacturas } from './fake';

const OBLIGACION =
  'El 01/01/2027 (dentro de 20 días) empieza la obligación de enviar cada registro de facturación a la AEAT y los registros no se están enviando (falta: envío activado en «Producción»). Complete los pasos en Configuración › VERI*FACTU.';
const CADUCA = 'El certificado de VERI*FACTU caduca el 30/12/2026 (en 20 días): renuévelo';

const verifactu = (avisos: VerifactuInfo['avisos']) => () => ({ RESULT: '0' as const, data: [{ activo: 1, entorno: 'pruebas', avisos } as unknown as VerifactuInfo] });

describe('VERI*FACTU warns where invoices are made and their records read', () => {
  it('the invoice list and an invoice show that records are not being sent before the obligation date; the records screen every warning', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      listadoregistrosfacturacion: () => ({ RESULT: '0', data: [], total: 0 }),
      listadoverifactu: verifactu([
        { nivel: 'aviso', clave: 'obligacion', texto: OBLIGACION },
        { nivel: 'aviso', texto: CADUCA },
      ]),
    });
    const lista = renderFacturas('/ventas/facturas', { api: fake.api });
    const avisos = await screen.findByRole('region', { name: 'Avisos de VERI*FACTU' });
    expect(within(avisos).getByText(OBLIGACION)).toBeTruthy();
    // Only what matters while invoicing.
    expect(within(avisos).queryByText(CADUCA)).toBeNull();
    lista.unmount();

    const ficha = renderFacturas('/ventas/factura/40', { api: fake.api });
    expect(within(await screen.findByRole('region', { name: 'Avisos de VERI*FACTU' })).getByText(OBLIGACION)).toBeTruthy();
    ficha.unmount();

    renderFacturas('/ventas/registros', { api: fake.api });
    const todos = await screen.findByRole('region', { name: 'Avisos de VERI*FACTU' });
    expect(within(todos).getByText(OBLIGACION)).toBeTruthy();
    expect(within(todos).getByText(CADUCA)).toBeTruthy();
  });

  it('nothing while the records are being sent', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([emitida()]), listadoverifactu: verifactu([]) });
    renderFacturas('/ventas/facturas', { api: fake.api });
    await screen.findByRole('table');
    expect(fake.calls.some((c) => c.ac === 'listadoverifactu')).toBe(true);
    expect(screen.queryByRole('region', { name: 'Avisos de VERI*FACTU' })).toBeNull();
  });
});
