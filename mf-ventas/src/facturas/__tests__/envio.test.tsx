import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentPath } from 'shared/testing';
import { emitida, fakeVentas, listadoDocs, renderFacturas } from './fake';

const REGISTRO = { id: 3, tipo: 'alta' as const, huella: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60', fecha_hora_huso: '2026-03-02T19:20:30+01:00' };

describe('Factura: su registro ante la AEAT', () => {
  it('shows where its record stands with the AEAT, with no warning while all is well', async () => {
    const fake = fakeVentas({ listadofacturas: listadoDocs([emitida({ registro: { ...REGISTRO, estado_envio: 'correcto' } })]) });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    const fiscal = await screen.findByRole('region', { name: 'Situación fiscal' }, { timeout: 5000 });
    expect(within(fiscal).getByTestId('envio').textContent).toBe('Envío a la AEATCorrecto');
    expect(screen.queryByText(/La AEAT ha/)).toBeNull();
  });

  it('warns when the AEAT refused its record, with its code and text, and leads to the record to correct it', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([
        emitida({ registro: { ...REGISTRO, estado_envio: 'incorrecto', codigo_error: '1110', descripcion_error: 'El NIF no está identificado en el censo de la AEAT.' } }),
      ]),
      listadoregistrosfacturacion: () => ({ RESULT: '0', data: [], total: 0 }),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    const aviso = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(aviso.textContent).toContain('La AEAT ha rechazado el registro de facturación de esta factura: 1110 · El NIF no está identificado en el censo de la AEAT.');
    expect(aviso.textContent).toContain('Hay que subsanarlo con un registro nuevo');
    expect(within(screen.getByRole('region', { name: 'Situación fiscal' })).getByText('Incorrecto')).toBeTruthy();
    await userEvent.click(within(aviso).getByRole('link', { name: 'ir al registro' }));
    expect(currentPath()).toBe('/ventas/registros');
  });

  it('accepted with errors is a warning, not an alert', async () => {
    const fake = fakeVentas({
      listadofacturas: listadoDocs([emitida({ registro: { ...REGISTRO, estado_envio: 'aceptado_con_errores', codigo_error: '2004', descripcion_error: 'Fecha de generación fuera de plazo' } })]),
    });
    renderFacturas('/ventas/factura/40', { api: fake.api });
    const aviso = await screen.findByText(/La AEAT ha aceptado con errores el registro/, {}, { timeout: 5000 });
    expect(aviso.closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
