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

  it('issue 22: a live company\'s records late or sending failing are warned on the invoice screens at any date, with the way out', async () => {
    const FALLA =
      'El envío de los registros de facturación a la AEAT está fallando (No se pudo conectar con la AEAT); quedan 3 registros sin enviar. Revise el certificado y la conexión en Configuración › VERI*FACTU y pulse «Enviar ahora».';
    const TARDE = 'Hay 2 registros de facturación sin enviar a la AEAT desde hace más de una hora porque el envío está desactivado. Desde el 01/01/2027 será obligatorio enviarlos: active el envío en Configuración › VERI*FACTU.';
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      listadoregistrosfacturacion: () => ({ RESULT: '0', data: [], total: 0 }),
      listadoverifactu: verifactu([{ nivel: 'error', clave: 'envio', texto: FALLA }, { nivel: 'aviso', texto: CADUCA }]),
    });
    const lista = renderFacturas('/ventas/facturas', { api: fake.api });
    const avisos = await screen.findByRole('region', { name: 'Avisos de VERI*FACTU' });
    expect(within(avisos).getByRole('alert').textContent).toBe(FALLA);
    expect(within(avisos).queryByText(CADUCA)).toBeNull();
    expect(within(avisos).getByRole('link', { name: 'Ir a Configuración › VERI*FACTU' }).getAttribute('href')).toBe('/config/verifactu');
    lista.unmount();

    const otro = fakeVentas({ listadofacturas: listadoDocs([emitida()]), listadoverifactu: verifactu([{ nivel: 'aviso', clave: 'envio', texto: TARDE }]) });
    const ficha = renderFacturas('/ventas/factura/40', { api: otro.api });
    const enFicha = await screen.findByRole('region', { name: 'Avisos de VERI*FACTU' });
    expect(within(enFicha).getByRole('status').textContent).toBe(TARDE);
    expect(within(enFicha).getByRole('link', { name: 'Ir a Configuración › VERI*FACTU' })).toBeTruthy();
    ficha.unmount();

    // The records screen: every warning, and the list asked newest first.
    renderFacturas('/ventas/registros', { api: fake.api });
    const todos = await screen.findByRole('region', { name: 'Avisos de VERI*FACTU' });
    expect(within(todos).getByText(FALLA)).toBeTruthy();
    expect(within(todos).getByText(CADUCA)).toBeTruthy();
    expect(fake.calls.filter((c) => c.ac === 'listadoregistrosfacturacion').at(-1)?.params).toMatchObject({ orden: 'creado', dir: 'desc' });
  });
});
