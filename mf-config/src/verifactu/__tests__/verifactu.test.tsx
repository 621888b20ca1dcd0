import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiHttpError, MESSAGES, type VerifactuInfo } from 'shared';
import { allFlags, bodiesOf, createFakeApi, currentPath, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';

const ENDPOINTS = {
  pruebas: 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  produccion: 'https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
};

const CERT = { titular: 'FERRETERIA PEREZ SL', nif: 'B98765432', emisor: 'AC Representación', caduca: '2027-09-30', dias: 300 };

function estado(over: Partial<VerifactuInfo> = {}): VerifactuInfo {
  return {
    activo: 0,
    entorno: 'pruebas',
    endpoint: ENDPOINTS.pruebas,
    certificado: null,
    sistema: {
      nombre_razon: 'Manager Software SL',
      nif: 'B12345674',
      nombre: 'Manager TPV',
      id: 'MT',
      version: '1.4.0',
      numero_instalacion: 'MT-0001',
      tipo_uso_posible_solo_verifactu: 'S',
      tipo_uso_posible_multi_ot: 'N',
      indicador_multiples_ot: 'N',
    },
    declaracion: 'DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN\nManager Software SL declara que Manager TPV cumple el RD 1007/2023.',
    cola: { pendientes: 0, pendiente_desde: null, incorrectos: 0, aceptados_con_errores: 0, ultimo_envio: null, proximo_envio: null, ultimo_error: null },
    avisos: [],
    fecha_obligacion: '2027-07-01',
    dias_obligacion: 217,
    enviando: false,
    pasos: [
      { id: 'certificado', titulo: 'Certificado electrónico de la empresa, de una autoridad reconocida', hecho: false, detalle: 'Falta: suba el certificado.' },
      { id: 'prueba', titulo: 'Envío de prueba en el entorno «Pruebas»', hecho: false, detalle: 'Falta: emita una factura en «Pruebas».' },
      { id: 'produccion', titulo: 'Envío activado en «Producción»', hecho: false, detalle: 'Falta: elija «Producción».' },
    ],
    ...over,
  };
}

/** A fake listadoverifactu over a mutable state; `extra` adds the other actions. */
function fakeVerifactu(inicial: VerifactuInfo, extra: Parameters<typeof createFakeApi>[0] = {}) {
  const s = { actual: inicial };
  const fake = createFakeApi({
    listadoverifactu: () => ({ RESULT: '0', data: [s.actual] }),
    editarverifactu: ({ body }) => {
      const b = body as { activo: 0 | 1; entorno: 'pruebas' | 'produccion'; fecha_obligacion: string; dejar_verifactu?: 0 | 1 };
      s.actual = { ...s.actual, activo: b.activo, entorno: b.entorno, endpoint: ENDPOINTS[b.entorno], fecha_obligacion: b.fecha_obligacion };
      if (b.dejar_verifactu !== undefined) s.actual.fin = b.dejar_verifactu ? { fecha: `${new Date().getFullYear()}-12-31`, comunicado: null, deshacer: true } : null;
      return { RESULT: '0', data: [s.actual] };
    },
    ...extra,
  });
  return { ...fake, s };
}

const certificado = () => new File([new Uint8Array([0x30, 0x82, 0x0a])], 'empresa.p12', { type: 'application/x-pkcs12' });

describe('VERI*FACTU', () => {
  it('names the producer the installation set, read-only, and says where it comes from', async () => {
    const base = estado();
    const { api } = fakeVerifactu(estado({ sistema: { ...base.sistema, nombre_razon: 'Distribuciones Levante SL', productor_configurado: 1 } }));
    renderSection(Section, menu.prefix, '/config/verifactu', { api });
    expect(await screen.findByText('Distribuciones Levante SL')).toBeTruthy();
    expect(screen.getByText('Productor según')).toBeTruthy();
    expect(screen.getByText('el distribuidor de la instalación')).toBeTruthy();
    // Read-only: no field holds it.
    expect(screen.queryByDisplayValue('Distribuciones Levante SL')).toBeNull();
  });

  it('issue 22: the producer\'s address, the system\'s components (the till too) and where and when the declaración is signed', async () => {
    const base = estado();
    const { api } = fakeVerifactu(
      estado({
        sistema: {
          ...base.sistema,
          nombre_razon: 'Distribuciones Levante SL',
          productor_configurado: 1,
          direccion: 'Calle Colón 12, 46004 Valencia',
          componentes: [
            { nombre: 'Manager TPV (servidor y oficina)', version: '1.2.0', descripcion: 'emite' },
            { nombre: 'mf-tpv (terminal punto de venta)', version: '1.2.0', descripcion: 'tickets' },
          ],
          lugar_firma: 'Valencia',
          fecha_firma: '2026-10-15',
        },
      }),
    );
    renderSection(Section, menu.prefix, '/config/verifactu', { api });
    expect(await screen.findByText('Calle Colón 12, 46004 Valencia')).toBeTruthy();
    expect(screen.getByText('Dirección del productor')).toBeTruthy();
    expect(screen.getByText('Manager TPV (servidor y oficina) (versión 1.2.0) · mf-tpv (terminal punto de venta) (versión 1.2.0)')).toBeTruthy();
    expect(screen.getByText('Valencia, 15/10/2026')).toBeTruthy();
  });

  it('the menu entry needs ventas_facturas, and so does the screen', async () => {
    const entry = menu.entries.find((e) => e.path === 'verifactu');
    expect(entry).toMatchObject({ label: 'VERI*FACTU', module: ['ventas', 'ventas_facturas'] });
    const { api } = fakeVerifactu(estado());
    renderSection(Section, menu.prefix, '/config/verifactu', { api, flags: { ...allFlags(1), ventas_facturas: 0 } });
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.moduleOff);
  });

  it('shows the switch, the environment and its endpoint, the SistemaInformatico data and the declaración; saving sends activo and entorno', async () => {
    const fake = fakeVerifactu(estado());
    renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    expect(await screen.findByRole('heading', { name: 'VERI*FACTU' })).toBeTruthy();
    const activo = screen.getByRole('switch', { name: /Enviar los registros a la AEAT/ }) as HTMLInputElement;
    expect(activo.checked).toBe(false);
    expect(screen.getByText(ENDPOINTS.pruebas)).toBeTruthy();
    expect(screen.getByText('Manager Software SL')).toBeTruthy();
    expect(screen.getByText('MT-0001')).toBeTruthy();
    expect(screen.getByText('Número de instalación')).toBeTruthy();
    expect(screen.getByLabelText('Declaración responsable').textContent).toContain('cumple el RD 1007/2023');
    expect(screen.getByText('No hay certificado: sin él no se puede enviar a la AEAT.')).toBeTruthy();

    const guardar = screen.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement;
    expect(guardar.disabled).toBe(true);
    await userEvent.click(activo);
    await userEvent.selectOptions(screen.getByLabelText('Entorno'), 'produccion');
    expect(screen.getByText(/plena validez fiscal/)).toBeTruthy();
    await userEvent.click(guardar);
    await waitFor(() => expect(screen.getByText(ENDPOINTS.produccion)).toBeTruthy());
    expect(bodiesOf(fake.calls, 'editarverifactu')).toEqual([{ activo: 1, entorno: 'produccion', fecha_obligacion: '2027-07-01' }]);
    expect((screen.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('«Dejar VERI*FACTU al acabar el año»: marked, the screen says when and that it can be undone; undone before the year ends', async () => {
    const fake = fakeVerifactu(estado({ activo: 1, entorno: 'produccion', endpoint: ENDPOINTS.produccion }));
    renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    const anio = new Date().getFullYear();
    const dejar = (await screen.findByLabelText(/Dejar VERI\*FACTU al acabar el año/)) as HTMLInputElement;
    expect(dejar.checked).toBe(false);
    expect(screen.getByText(new RegExp(`comunicarán \\(FechaFinVeriFactu\\) que la empresa deja VERI\\*FACTU el 31/12/${anio}`))).toBeTruthy();
    await userEvent.click(dejar);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.getByText(new RegExp(`Marcado: la empresa deja VERI\\*FACTU el 31/12/${anio}\\. Se comunicará con el próximo envío de registros\\. Puede deshacerlo hasta ese día\\.`))).toBeTruthy());
    expect(bodiesOf(fake.calls, 'editarverifactu')).toEqual([{ activo: 1, entorno: 'produccion', fecha_obligacion: '2027-07-01', dejar_verifactu: 1 }]);
    const otra = screen.getByLabelText(/Dejar VERI\*FACTU al acabar el año/) as HTMLInputElement;
    expect(otra.checked).toBe(true);
    await userEvent.click(otra);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarverifactu')).toHaveLength(2));
    expect(bodiesOf(fake.calls, 'editarverifactu')[1]).toEqual({ activo: 1, entorno: 'produccion', fecha_obligacion: '2027-07-01', dejar_verifactu: 0 });
    await waitFor(() => expect((screen.getByLabelText(/Dejar VERI\*FACTU al acabar el año/) as HTMLInputElement).checked).toBe(false));
  });

  it('uploads the certificate with its password and shows its holder, NIF and expiry; never shows the password again', async () => {
    const fake = fakeVerifactu(estado(), {
      subircertificadoverifactu: () => {
        fake.s.actual = { ...fake.s.actual, certificado: CERT };
        return { RESULT: '0', data: [CERT] };
      },
    });
    const { toasts } = renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    await screen.findByRole('heading', { name: 'VERI*FACTU' });

    await userEvent.click(screen.getByRole('button', { name: 'Subir certificado' }));
    expect(screen.getByText(MESSAGES.certificadoRequerido)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordRequired)).toBeTruthy();
    expect(fake.calls.filter((c) => c.method === 'UPLOAD')).toHaveLength(0);

    await userEvent.upload(screen.getByLabelText('Archivo del certificado (.p12 o .pfx)'), certificado());
    await userEvent.type(screen.getByLabelText('Contraseña del certificado'), 's3creta');
    await userEvent.click(screen.getByRole('button', { name: 'Subir certificado' }));
    expect(await screen.findByText('FERRETERIA PEREZ SL')).toBeTruthy();
    const upload = fake.calls.find((c) => c.method === 'UPLOAD')!;
    expect(upload.ac).toBe('subircertificadoverifactu');
    expect((upload.body as File).name).toBe('empresa.p12');
    expect(upload.fields).toEqual({ password: 's3creta' });
    expect(screen.getByText('B98765432')).toBeTruthy();
    expect(screen.getByText('30/09/2027 (quedan 300 días)')).toBeTruthy();
    expect(toasts).toContain(`success:${MESSAGES.certificadoGuardado}`);
    expect((screen.getByLabelText('Contraseña del certificado') as HTMLInputElement).value).toBe('');
    expect(screen.queryByText(/caduca el/)).toBeNull();
  });

  it('issue 16: an advisor\'s certificate is uploaded as a representative\'s, and shown as such', async () => {
    const asesor = { ...CERT, titular: 'ASESORES DEL SUR SL', nif: 'B12345674', representante: true };
    const fake = fakeVerifactu(estado(), {
      subircertificadoverifactu: () => {
        fake.s.actual = { ...fake.s.actual, certificado: asesor };
        return { RESULT: '0', data: [asesor] };
      },
    });
    renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    await screen.findByRole('heading', { name: 'VERI*FACTU' });
    await userEvent.upload(screen.getByLabelText('Archivo del certificado (.p12 o .pfx)'), certificado());
    await userEvent.type(screen.getByLabelText('Contraseña del certificado'), 's3creta');
    await userEvent.click(screen.getByRole('switch', { name: /^Es el certificado de un representante o asesor con otro NIF/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Subir certificado' }));
    expect(await screen.findByText('ASESORES DEL SUR SL')).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'UPLOAD')!.fields).toEqual({ password: 's3creta', representante: '1' });
    expect(screen.getByText('De un representante o asesor de la empresa')).toBeTruthy();
  });

  it('a wrong password is shown under the password; a file that is not PKCS#12 under the file', async () => {
    let error: ApiHttpError = new ApiHttpError(400, { RESULT: '1', errors: { password: MESSAGES.certificadoPasswordIncorrecta } });
    const fake = fakeVerifactu(estado(), {
      subircertificadoverifactu: () => {
        throw error;
      },
    });
    renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    await screen.findByRole('heading', { name: 'VERI*FACTU' });
    await userEvent.upload(screen.getByLabelText('Archivo del certificado (.p12 o .pfx)'), certificado());
    await userEvent.type(screen.getByLabelText('Contraseña del certificado'), 'mala');
    await userEvent.click(screen.getByRole('button', { name: 'Subir certificado' }));
    const password = screen.getByLabelText('Contraseña del certificado');
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText(MESSAGES.certificadoPasswordIncorrecta).length).toBeGreaterThan(0);

    error = new ApiHttpError(400, { RESULT: '1', message: 'El certificado ha caducado el 01/01/2025' });
    await userEvent.click(screen.getByRole('button', { name: 'Subir certificado' }));
    expect(await screen.findByText('El certificado ha caducado el 01/01/2025')).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('false');

    // The wrong password as the answer's message goes under the password too.
    error = new ApiHttpError(400, { RESULT: '1', message: MESSAGES.certificadoPasswordIncorrecta });
    await userEvent.click(screen.getByRole('button', { name: 'Subir certificado' }));
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByText('El certificado ha caducado el 01/01/2025')).toBeNull();
  });

  it('warns 30 days before the certificate expires, and in red once expired; deleting asks first', async () => {
    const fake = fakeVerifactu(estado({ certificado: { ...CERT, caduca: '2026-12-01', dias: 12 } }), {
      eliminarcertificadoverifactu: () => {
        fake.s.actual = { ...fake.s.actual, certificado: null };
        return { RESULT: '0', data: [] };
      },
    });
    const r = renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    expect(await screen.findByText(/El certificado caduca el 01\/12\/2026\. Renuévelo/)).toBeTruthy();
    expect(screen.getByText('01/12/2026 (quedan 12 días)')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Eliminar certificado' }));
    const dialog = screen.getByRole('dialog', { name: 'Eliminar el certificado' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('No hay certificado: sin él no se puede enviar a la AEAT.')).toBeTruthy();
    expect(fake.calls.filter((c) => c.ac === 'eliminarcertificadoverifactu')).toHaveLength(1);
    expect(r.toasts).toContain(`success:${MESSAGES.certificadoEliminado}`);
    r.unmount();

    const caducado = fakeVerifactu(estado({ certificado: { ...CERT, caduca: '2026-11-01', dias: -18 } }));
    renderSection(Section, menu.prefix, '/config/verifactu', { api: caducado.api });
    const alerta = await screen.findByText(/El certificado caducó el 01\/11\/2026/);
    expect(alerta.closest('[role="alert"]')).toBeTruthy();
  });

  it('shows the server’s warnings and the queue; «Enviar ahora» runs a cycle and says what it did', async () => {
    const fake = fakeVerifactu(
      estado({
        activo: 1,
        certificado: CERT,
        cola: {
          pendientes: 42,
          pendiente_desde: '2026-11-20T08:00:00Z',
          incorrectos: 2,
          aceptados_con_errores: 1,
          ultimo_envio: '2026-11-20T08:10:00Z',
          proximo_envio: '2026-11-20T08:11:00Z',
          ultimo_error: 'No se ha podido conectar con la AEAT',
        },
        avisos: [
          { nivel: 'error', texto: 'Hay 2 registros rechazados por la AEAT sin subsanar' },
          { nivel: 'aviso', texto: 'Hay 42 registros pendientes de envío desde hace más de una hora' },
        ],
      }),
      {
        enviarregistrosverifactu: () => {
          fake.s.actual = { ...fake.s.actual, cola: { ...fake.s.actual.cola, pendientes: 0, pendiente_desde: null } };
          return { RESULT: '0', message: 'Se han enviado 42 registros', data: [{ enviados: 42 }] };
        },
      },
    );
    renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    const avisos = await screen.findByLabelText('Avisos de VERI*FACTU');
    expect(within(avisos).getByRole('alert').textContent).toBe('Hay 2 registros rechazados por la AEAT sin subsanar');
    expect(within(avisos).getByRole('status').textContent).toBe('Hay 42 registros pendientes de envío desde hace más de una hora');
    expect(screen.getByText(/^42 \(el más antiguo, del/)).toBeTruthy();
    expect(screen.getByText('No se ha podido conectar con la AEAT')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Enviar ahora' }));
    expect(await screen.findByText('Se han enviado 42 registros')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Pendientes de envío').nextElementSibling?.textContent).toBe('0'));
    expect(bodiesOf(fake.calls, 'enviarregistrosverifactu')).toHaveLength(1);

    await userEvent.click(screen.getByRole('link', { name: 'Ver los registros que hay que subsanar' }));
    expect(currentPath()).toBe('/ventas/registros');
  });

  it('«Enviar ahora» waits until sending is switched on', async () => {
    const fake = fakeVerifactu(estado({ activo: 0, certificado: CERT }));
    renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    const enviar = (await screen.findByRole('button', { name: 'Enviar ahora' })) as HTMLButtonElement;
    expect(enviar.disabled).toBe(true);
    // Why, on the screen and named by the button (not only a tooltip).
    const porQue = screen.getByText(/«Enviar ahora» no está disponible: el envío a la AEAT está desactivado/);
    expect(enviar.getAttribute('aria-describedby')).toBe(porQue.id);
    expect(enviar.getAttribute('title')).toBeNull();
  });

  it('is a checklist with what is done and what is missing, the obligation date a setting; a self-signed certificate is flagged', async () => {
    const pasos = estado().pasos.map((p) => (p.id === 'prueba' ? { ...p, hecho: true, detalle: 'Hecho: la AEAT aceptó un envío de prueba el 20/11/2026.' } : p));
    pasos[0] = { ...pasos[0], detalle: 'El certificado subido es autofirmado (lo emite «FERRETERIA PEREZ SL»): la AEAT no lo aceptará.' };
    const fake = fakeVerifactu(estado({ certificado: { ...CERT, emisor: 'FERRETERIA PEREZ SL', autofirmado: true }, pasos, dias_obligacion: 20, fecha_obligacion: '2026-12-16' }));
    renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api });
    const lista = await screen.findByRole('list', { name: 'Pasos de VERI*FACTU' });
    expect(within(lista).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual([
      '1. Certificado electrónico de la empresa, de una autoridad reconocida: falta',
      '2. Envío de prueba en el entorno «Pruebas»: hecho',
      '3. Envío activado en «Producción»: falta',
    ]);
    expect(within(lista).getByText(/autofirmado/)).toBeTruthy();
    expect(screen.getByText(/Desde el 16\/12\/2026 cada registro de facturación debe llegar a la AEAT\. Quedan 20 días/)).toBeTruthy();
    // The certificate's own section says it in red.
    expect(screen.getByText('FERRETERIA PEREZ SL (autofirmado)')).toBeTruthy();
    expect(screen.getByRole('alert', { name: '' }).textContent).toContain('no lo ha emitido una autoridad reconocida');
    // The date: 1 January 2027 for Impuesto sobre Sociedades payers, 1 July 2027 for the rest.
    const fecha = screen.getByLabelText('Obligada a enviar desde') as HTMLSelectElement;
    expect([...fecha.options].map((o) => o.value)).toEqual(['2027-01-01', '2027-07-01', '2026-12-16']);
    expect(fecha.options[0].textContent).toContain('Impuesto sobre Sociedades');
    await userEvent.selectOptions(fecha, '2027-01-01');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(bodiesOf(fake.calls, 'editarverifactu')).toEqual([{ activo: 0, entorno: 'pruebas', fecha_obligacion: '2027-01-01' }]));
  });

  it('the obligation date: where the default comes from (the company\'s NIF), and that another one is the owner\'s from the save', async () => {
    const fake = fakeVerifactu(estado({ fecha_obligacion: '2027-01-01', fecha_obligacion_origen: 'sociedad', fecha_obligacion_nif: '2027-01-01' }));
    renderSection(Section, menu.prefix, '/config/verifactu', { api: fake.api, config: { nif: 'B86420973' } as never });
    const fecha = (await screen.findByLabelText('Obligada a enviar desde')) as HTMLSelectElement;
    expect(fecha.value).toBe('2027-01-01');
    expect(screen.getByText('Por el NIF de la empresa (B86420973): una sociedad o entidad que tributa por el Impuesto sobre Sociedades. Si no es así, elija otra fecha.')).toBeTruthy();
    await userEvent.selectOptions(fecha, '2027-07-01');
    expect(screen.getByText('Al guardar quedará elegida a mano: ya no seguirá al NIF de la empresa.')).toBeTruthy();
  });

  it('a natural person\'s NIF gives 1 July; a date chosen by hand says so', async () => {
    const { api } = fakeVerifactu(estado({ fecha_obligacion: '2027-07-01', fecha_obligacion_origen: 'persona', fecha_obligacion_nif: '2027-07-01' }));
    const r = renderSection(Section, menu.prefix, '/config/verifactu', { api, config: { nif: '50738214F' } as never });
    expect(await screen.findByText('Por el NIF de la empresa (50738214F): una persona física (autónomo). Si no es así, elija otra fecha.')).toBeTruthy();
    r.unmount();
    const manual = fakeVerifactu(estado({ fecha_obligacion: '2027-07-01', fecha_obligacion_origen: 'manual', fecha_obligacion_nif: '2027-01-01' }));
    renderSection(Section, menu.prefix, '/config/verifactu', { api: manual.api, config: { nif: 'B86420973' } as never });
    expect(await screen.findByText(/^Elegida a mano: ya no sigue al NIF de la empresa/)).toBeTruthy();
  });

  it('«Producción» with sending off: warned before the obligation date, said it cannot be saved from it', async () => {
    const { api } = fakeVerifactu(estado({ fecha_obligacion: '2027-07-01' }));
    const r = renderSection(Section, menu.prefix, '/config/verifactu', { api });
    await userEvent.selectOptions(await screen.findByLabelText('Entorno'), 'produccion');
    expect(screen.getByText(/Con el envío desactivado, los registros de «Producción» se guardan y no llegan a la AEAT\. Desde el 01\/07\/2027 será obligatorio enviarlos\./)).toBeTruthy();
    r.unmount();
    const pasada = fakeVerifactu(estado({ fecha_obligacion: '2026-01-01', dias_obligacion: -300 }));
    renderSection(Section, menu.prefix, '/config/verifactu', { api: pasada.api });
    await userEvent.selectOptions(await screen.findByLabelText('Entorno'), 'produccion');
    expect(screen.getByText(/Desde el 01\/01\/2026 la empresa está obligada a enviar los registros: «Producción» con el envío desactivado no se puede guardar\. Active el envío\./)).toBeTruthy();
  });
});
