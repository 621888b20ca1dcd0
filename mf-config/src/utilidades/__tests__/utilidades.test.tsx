import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiHttpError, MESSAGES, type EstadoDemo } from 'shared';
import { createFakeApi, renderSection } from 'shared/testing';
import menu from '../../menu.json';
import Section from '../../section';

/** The calls of the section under test (the demo section asks `listadodemo` as the page opens). */
const sinDemo = <C extends { ac: string }>(calls: C[]) => calls.filter((c) => c.ac !== 'listadodemo');

const backup = () => new File(['{"formato":"manager-tpv-backup"}'], 'manager-tpv-2026-11-21.json', { type: 'application/json' });

describe('Utilidades', () => {
  it('the backup is a plain download of copiaseguridad', async () => {
    renderSection(Section, menu.prefix, '/config/utilidades');
    const link = screen.getByRole('link', { name: 'Descargar copia de seguridad' });
    expect(link.getAttribute('href')).toBe('/api/op.asp?ac=copiaseguridad');
    expect(link.hasAttribute('download')).toBe(true);
    expect(screen.getByText(/SQLite como con PostgreSQL/)).toBeTruthy();
  });

  it('restoring asks for confirmation first, warning that everything is replaced; then uploads and re-reads the configuration', async () => {
    const fake = createFakeApi({
      restaurarcopia: () => ({ RESULT: '0', message: MESSAGES.backupRestored, data: [{ usuarios: 3, series: 2 }] }),
    });
    const reloadConfig = vi.fn(async () => {});
    const { toasts } = renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api, reloadConfig });
    const restore = screen.getByRole('button', { name: 'Restaurar copia…' }) as HTMLButtonElement;
    expect(restore.disabled).toBe(true);

    await userEvent.upload(screen.getByLabelText('Archivo de copia (.json)'), backup());
    expect(screen.getByText(/manager-tpv-2026-11-21\.json/)).toBeTruthy();
    await userEvent.click(restore);

    const dialog = screen.getByRole('dialog', { name: 'Restaurar copia de seguridad' });
    expect(within(dialog).getByText(/Se reemplazarán todos los datos actuales/)).toBeTruthy();
    expect(sinDemo(fake.calls)).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Restaurar' }));
    await waitFor(() => expect(reloadConfig).toHaveBeenCalledTimes(1));
    expect(sinDemo(fake.calls).map((c) => [c.method, c.ac])).toEqual([['UPLOAD', 'restaurarcopia']]);
    expect((fake.calls.find((c) => c.ac === 'restaurarcopia')!.body as File).name).toBe('manager-tpv-2026-11-21.json');
    expect(toasts).toContain(`success:${MESSAGES.backupRestored}`);
    expect(screen.getByText('Usuarios: 3 · Series: 2')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cancelling the confirmation uploads nothing', async () => {
    const fake = createFakeApi({ restaurarcopia: () => ({ RESULT: '0', data: [] }) });
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api });
    await userEvent.upload(screen.getByLabelText('Archivo de copia (.json)'), backup());
    await userEvent.click(screen.getByRole('button', { name: 'Restaurar copia…' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    expect(sinDemo(fake.calls)).toHaveLength(0);
  });

  it('a file that is not a backup shows the server message and changes nothing here', async () => {
    const fake = createFakeApi({
      restaurarcopia: () => {
        throw new ApiHttpError(400, { RESULT: '1', message: MESSAGES.invalidBackup });
      },
    });
    const reloadConfig = vi.fn(async () => {});
    const { toasts } = renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api, reloadConfig });
    await userEvent.upload(screen.getByLabelText('Archivo de copia (.json)'), backup());
    await userEvent.click(screen.getByRole('button', { name: 'Restaurar copia…' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restaurar' }));
    expect(await screen.findByText(MESSAGES.invalidBackup)).toBeTruthy();
    expect(toasts).toContain(`error:${MESSAGES.invalidBackup}`);
    expect(reloadConfig).not.toHaveBeenCalled();
  });
});

describe('Recalcular stock', () => {
  it('lists the articles whose stock or average cost differs from their ledger, and repairs them on request', async () => {
    const fake = createFakeApi({
      recalcularstock: (call) =>
        (call.body as { aplicar: number }).aplicar === 1
          ? { RESULT: '0', data: [{ reparados: 1 }] }
          : { RESULT: '0', data: [{ articulo_id: 7, codigo: 'TOR-M4', descripcion: 'Tornillo M4', guardado: 5000, libro: 3500, coste_guardado: 1, coste_libro: 66_965 }] },
    });
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api });
    await userEvent.click(screen.getByRole('button', { name: 'Comprobar stock' }));
    const table = await screen.findByRole('table', { name: /1 artículo con diferencias/ });
    expect(within(table).getByText('TOR-M4')).toBeTruthy();
    expect(within(table).getByText('5')).toBeTruthy();
    expect(within(table).getByText('3,5')).toBeTruthy();
    expect(within(table).getByText('0,0001 €')).toBeTruthy();
    expect(within(table).getByText('6,6965 €')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Corregir la diferencia' }));
    expect(await screen.findByText('Stock corregido en 1 artículo.')).toBeTruthy();
    expect(sinDemo(fake.calls).map((c) => [c.ac, (c.body as { aplicar: number }).aplicar])).toEqual([
      ['recalcularstock', 0],
      ['recalcularstock', 1],
    ]);
  });

  it('says so when every article matches its ledger', async () => {
    const fake = createFakeApi({ recalcularstock: () => ({ RESULT: '0', data: [] }) });
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api });
    await userEvent.click(screen.getByRole('button', { name: 'Comprobar stock' }));
    expect(await screen.findByText('El stock y el coste medio de todos los artículos coinciden con sus movimientos.')).toBeTruthy();
  });
});

describe('Recalcular informes', () => {
  it('rebuilds the reports from the documents and says whether they differed', async () => {
    let diferencias = 0;
    const fake = createFakeApi({ recalcularinformes: () => ({ RESULT: '0', data: [{ filas: 12_345, diferencias }] }) });
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api });
    await userEvent.click(screen.getByRole('button', { name: 'Recalcular informes' }));
    expect(await screen.findByText('Los informes coincidían con los documentos (12.345 filas).')).toBeTruthy();
    diferencias = 3;
    await userEvent.click(screen.getByRole('button', { name: 'Recalcular informes' }));
    expect(await screen.findByText('Había 3 filas distintas de los documentos; ya están corregidas.')).toBeTruthy();
    expect(sinDemo(fake.calls).map((c) => [c.method, c.ac])).toEqual([
      ['POST', 'recalcularinformes'],
      ['POST', 'recalcularinformes'],
    ]);
  });
});

describe('Empezar con mis datos', () => {
  const BORRA = { documentos: 4519, facturas: 721, tickets: 1626, registros: 2354, cobros: 561, movimientos: 6799, cajas: 301, cierres: 300, facturas_proveedor: 0, envios: 0 };
  const CONSERVA = { articulos: 33, clientes: 40, proveedores: 20, almacenes: 2, series: 4, usuarios: 1, terminales: 1, familias: 5 };
  const demo = (over: Partial<EstadoDemo> = {}): { RESULT: '0'; data: EstadoDemo[] } => ({ RESULT: '0', data: [{ demo: true, bloqueo: null, borra: BORRA, conserva: CONSERVA, ...over }] });
  const vivo = () => demo({ demo: false, bloqueo: MESSAGES.demoEnVivo, borra: { ...BORRA, documentos: 0, facturas: 0, tickets: 0, registros: 0, cobros: 0, movimientos: 0, cajas: 0, cierres: 0 } });

  it('the dialog says exactly what goes and what stays, offers the masters choice, runs it and shows the result', async () => {
    let empezada = false;
    const fake = createFakeApi({
      listadodemo: () => (empezada ? vivo() : demo()),
      eliminardemo: () => {
        empezada = true;
        return { RESULT: '0', message: MESSAGES.demoEliminada, data: [{ ...BORRA, maestros: 'ninguno' }] };
      },
    });
    const reloadConfig = vi.fn(async () => {});
    const { toasts } = renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api, reloadConfig });
    expect(await screen.findByText(/elimina todo lo de la prueba \(4519 documentos, de ellos 721 facturas\)/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Empezar con mis datos…' }));
    const dialog = screen.getByRole('dialog', { name: 'Empezar con mis datos' });
    const borra = within(dialog).getByRole('region', { name: 'Se elimina' });
    const conserva = within(dialog).getByRole('region', { name: 'Se conserva' });
    expect(within(borra).getByText('4519 documentos de compra, venta y almacén (721 facturas y rectificativas, 1626 tickets)')).toBeTruthy();
    expect(within(borra).getByText('2354 registros de facturación VERI*FACTU')).toBeTruthy();
    expect(within(borra).getByText('561 cobros')).toBeTruthy();
    expect(within(borra).getByText(/^6799 movimientos de stock/)).toBeTruthy();
    expect(within(borra).getByText('301 cajas y 300 cierres de TPV')).toBeTruthy();
    expect(within(conserva).getByText('4 series (cada una empieza en el número 1)')).toBeTruthy();
    expect(within(conserva).getByText(/^1 terminal de TPV/)).toBeTruthy();
    // The masters stay by default; «sin ninguno» moves them to what goes.
    expect(within(conserva).getByText('33 artículos, 40 clientes y 20 proveedores')).toBeTruthy();
    expect((within(dialog).getByRole('radio', { name: 'Conservar los de la demostración' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Empezar sin ninguno (también se eliminan)' }));
    expect(within(borra).getByText('33 artículos, 40 clientes y 20 proveedores')).toBeTruthy();
    expect(within(conserva).queryByText('33 artículos, 40 clientes y 20 proveedores')).toBeNull();
    expect(fake.calls.map((c) => c.ac)).toEqual(['listadodemo']);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Empezar con mis datos' }));
    expect(await screen.findByText(/Se han eliminado 4519 documentos, 2354 registros de facturación, 561 cobros y 6799 movimientos de stock, con los artículos/)).toBeTruthy();
    expect(fake.calls.map((c) => [c.method, c.ac, c.body])).toEqual([
      ['GET', 'listadodemo', undefined],
      ['POST', 'eliminardemo', { maestros: 'ninguno' }],
      ['GET', 'listadodemo', undefined],
    ]);
    expect(toasts).toContain(`success:${MESSAGES.demoEliminada}`);
    // The session read again: the header's band goes.
    expect(reloadConfig).toHaveBeenCalledTimes(1);
    expect(screen.getByText(/La empresa trabaja con sus datos/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Empezar con mis datos…' })).toBeNull();
  });

  it('cancelling runs nothing', async () => {
    const fake = createFakeApi({ listadodemo: () => demo() });
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api });
    await userEvent.click(await screen.findByRole('button', { name: 'Empezar con mis datos…' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    expect(fake.calls.map((c) => c.ac)).toEqual(['listadodemo']);
  });

  it('once the AEAT accepted a record in production, says why and offers nothing', async () => {
    const fake = createFakeApi({ listadodemo: () => demo({ bloqueo: MESSAGES.demoAceptadoProduccion }) });
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api });
    expect(await screen.findByText(MESSAGES.demoAceptadoProduccion)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Empezar con mis datos…' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a refusal by the server shows its message and changes nothing here', async () => {
    const fake = createFakeApi({
      listadodemo: () => demo(),
      eliminardemo: () => ({ RESULT: '2', message: MESSAGES.demoAceptadoProduccion }),
    });
    const reloadConfig = vi.fn(async () => {});
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api, reloadConfig });
    await userEvent.click(await screen.findByRole('button', { name: 'Empezar con mis datos…' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Empezar con mis datos' }));
    expect(await screen.findByText(MESSAGES.demoAceptadoProduccion)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Empezar con mis datos…' }) as HTMLButtonElement).disabled).toBe(true);
    expect(reloadConfig).not.toHaveBeenCalled();
  });

  it('a live company: nothing to start', async () => {
    const fake = createFakeApi({ listadodemo: () => vivo() });
    renderSection(Section, menu.prefix, '/config/utilidades', { api: fake.api });
    expect(await screen.findByText(/La empresa trabaja con sus datos/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Empezar con mis datos…' })).toBeNull();
  });
});
