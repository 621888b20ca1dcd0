import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emitida, factura, fakeVentas, listadoDocs, renderFacturas } from './fake';

const SIN_CERTIFICADO = 'No hay certificado de la empresa para firmar la Facturae: súbalo en Configuración › VERI*FACTU';

describe('Factura: «Descargar Facturae» (issue 16)', () => {
  it('an emitted invoice of a public administration: a plain download of descargarfacturae', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      comprobarfacturae: () => ({ RESULT: '0', data: [{ id: 40, disponible: true, motivo: null, administracion_publica: 1 }] }),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    const enlace = await screen.findByRole('link', { name: 'Descargar Facturae' }, { timeout: 5000 });
    expect(enlace.getAttribute('href')).toBe('/api/op.asp?ac=descargarfacturae&id=40');
    expect(enlace.hasAttribute('download')).toBe(true);
    expect(fake.calls.find((c) => c.ac === 'comprobarfacturae')?.params).toMatchObject({ id: 40 });
    expect(screen.queryByText(/sin códigos DIR3/)).toBeNull();
  });

  it('without a certificate: the button disabled and the reason on screen', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      comprobarfacturae: () => ({ RESULT: '0', data: [{ id: 40, disponible: false, motivo: SIN_CERTIFICADO, administracion_publica: 1 }] }),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    await screen.findByText(`Facturae no disponible: ${SIN_CERTIFICADO}`, {}, { timeout: 5000 });
    expect((screen.getByRole('button', { name: 'Descargar Facturae' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('link', { name: 'Descargar Facturae' })).toBeNull();
  });

  it('a customer that is not an administration: the file if wanted, and no Facturae notice at all (issue 26)', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      comprobarfacturae: () => ({ RESULT: '0', data: [{ id: 40, disponible: true, motivo: null, administracion_publica: 0 }] }),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    await screen.findByRole('link', { name: 'Descargar Facturae' }, { timeout: 5000 });
    expect(screen.queryByText(/Facturae:|Facturae no disponible|DIR3/)).toBeNull();
  });

  it('a customer that is not an administration, without a certificate: no «Facturae no disponible», no disabled button (issue 26)', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      comprobarfacturae: () => ({ RESULT: '0', data: [{ id: 40, disponible: false, motivo: SIN_CERTIFICADO, administracion_publica: 0 }] }),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    await screen.findByRole('button', { name: 'Rectificar' }, { timeout: 5000 });
    await waitFor(() => expect(fake.calls.some((c) => c.ac === 'comprobarfacturae')).toBe(true));
    // The answer has come and been drawn: still nothing about Facturae.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/Facturae no disponible/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Descargar Facturae' })).toBeNull();
  });

  it('a rectificativa: the reason code chosen (the derived one by default) goes with the download', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      comprobarfacturae: () => ({
        RESULT: '0',
        data: [{
          id: 40, disponible: true, motivo: null, administracion_publica: 1,
          rectificacion: { motivo: '16', motivos: [{ codigo: '16', texto: 'Base imponible' }, { codigo: '83', texto: 'Base imponible modificada por descuentos y bonificaciones' }] },
        }],
      }),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    const enlace = await screen.findByRole('link', { name: 'Descargar Facturae' }, { timeout: 5000 });
    expect(enlace.getAttribute('href')).toBe('/api/op.asp?ac=descargarfacturae&id=40&motivo=16');
    const select = screen.getByLabelText('Motivo de la rectificación (Facturae)') as HTMLSelectElement;
    fireEvent.change(select, { target: { value: '83' } });
    expect(screen.getByRole('link', { name: 'Descargar Facturae' }).getAttribute('href')).toBe('/api/op.asp?ac=descargarfacturae&id=40&motivo=83');
  });

  it('a transfer without the company\'s IBAN: the file, and the notice', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida()]),
      comprobarfacturae: () => ({ RESULT: '0', data: [{ id: 40, disponible: true, motivo: null, administracion_publica: 1, aviso: 'La forma de pago es una transferencia y la empresa no tiene IBAN' }] }),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    await screen.findByRole('link', { name: 'Descargar Facturae' }, { timeout: 5000 });
    screen.getByText('Facturae: La forma de pago es una transferencia y la empresa no tiene IBAN');
  });

  it('a draft never asks', async () => {
    const borrador = fakeVentas({ listadofacturas: listadoDocs([factura({})]) });
    renderFacturas('/ventas/factura/40', { api: borrador.api });
    await screen.findAllByText('Borrador', {}, { timeout: 5000 });
    expect(borrador.calls.some((c) => c.ac === 'comprobarfacturae')).toBe(false);
  });
});
