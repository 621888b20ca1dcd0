import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DOCUMENTO_TIPOS } from '../domain/documentos';
import { ROL_PREDEFINIDO, codificarNecesidad, necesidadDocumento, type Derechos } from '../domain/roles';
import DocumentActions from '../documentos/DocumentActionsImpl';
import { hoyIso } from '../documentos/useDocumentEditor';
import { createFakeApi, fakeDocumento, renderWithShell } from '../testing';
import { RecordActions, RecordForm } from '../ui/form';
import { RecordListPage } from '../ui/ListView';
import { usePermisos } from './usePermisos';
import { useRecordEditor } from './useRecordEditor';

afterEach(cleanup);

const ACCIONES: Record<string, string> = {
  listadoseries: 'facturas|ventas.ver',
  editarserie: 'facturas.editar',
  eliminarserie: 'facturas.eliminar',
  ...Object.fromEntries(
    Object.values(DOCUMENTO_TIPOS).flatMap((def) => def.acciones.map((a) => [`${a.verbo}${def.entidad}`, codificarNecesidad(necesidadDocumento(def, a.verbo))])),
  ),
};
const con = (derechos: Derechos) => ({ user: { id: 1, nombre: 'Ana', email: 'ana@demo.es', rol: { id: 9, nombre: 'Prueba', clave: null, derechos } }, acciones: ACCIONES });

function Probe() {
  const p = usePermisos();
  return <output>{[p.accion('editarserie'), p.accion('eliminarserie'), p.crear('listadoseries'), p.tiene('ver_costes'), p.accion('desconocida')].join(',')}</output>;
}

describe('usePermisos', () => {
  it('answers from the session: the role and the table of needs', () => {
    const { unmount } = renderWithShell(<Probe />, con(ROL_PREDEFINIDO.consulta.derechos));
    expect(screen.getByRole('status').textContent).toBe('false,false,false,true,true');
    unmount();
    renderWithShell(<Probe />, con(ROL_PREDEFINIDO.gestion.derechos));
    expect(screen.getByRole('status').textContent).toBe('true,true,true,true,true');
  });

  it('without a role in the session (from before roles) everything shows: the server decides', () => {
    renderWithShell(<Probe />);
    expect(screen.getByRole('status').textContent).toBe('true,true,true,true,true');
  });
});

function SerieScreen() {
  const editor = useRecordEditor<{ id: number; codigo: string }, { codigo: string }>({
    actions: { list: 'listadoseries', save: 'editarserie', remove: 'eliminarserie' },
    id: 3,
    schema: { codigo: { type: 'string', required: true } },
    empty: { codigo: '' },
    toValues: (s) => ({ codigo: s.codigo }),
  });
  if (editor.loading) return null;
  return (
    <RecordForm onSubmit={editor.save} dirty={editor.form.dirty}>
      <input aria-label="Código" value={editor.form.values.codigo} onChange={(e) => editor.form.set('codigo', e.target.value)} />
      <RecordActions editor={editor} cancelTo="/series" deletion={{ title: 'Eliminar serie', text: '¿Seguro?' }} />
    </RecordForm>
  );
}

describe('the shared primitives follow the role', () => {
  const api = () => createFakeApi({ listadoseries: () => ({ RESULT: '0', data: [{ id: 3, codigo: 'A' }], total: 1 }) }).api;

  it('a record editor: no Guardar nor Eliminar the role would be refused, fields disabled, «Volver»', async () => {
    renderWithShell(<SerieScreen />, { api: api(), ...con(ROL_PREDEFINIDO.consulta.derechos) });
    const bar = await screen.findByRole('group', { name: 'Acciones del formulario' });
    expect(within(bar).queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(within(bar).getByRole('link', { name: 'Volver' })).toBeTruthy();
    expect(within(bar).getByText('Solo consulta: su rol no permite guardar cambios aquí.')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Código').closest('fieldset') as HTMLFieldSetElement).disabled).toBe(true));
  });

  it('… and both for a role that may', async () => {
    renderWithShell(<SerieScreen />, { api: api(), ...con(ROL_PREDEFINIDO.gestion.derechos) });
    const bar = await screen.findByRole('group', { name: 'Acciones del formulario' });
    expect(within(bar).getByRole('button', { name: 'Guardar' })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Eliminar' })).toBeTruthy();
  });

  it('a list page: no «Nuevo…» for a role that can only read', async () => {
    const props = { title: 'Series', create: { label: 'Nueva serie', to: '/x' }, recordPath: () => '/x', ac: 'listadoseries', listKey: 'k', columns: [] };
    const { unmount } = renderWithShell(<RecordListPage {...props} />, { api: api(), ...con(ROL_PREDEFINIDO.consulta.derechos) });
    expect(screen.queryByRole('button', { name: 'Nueva serie' })).toBeNull();
    unmount();
    renderWithShell(<RecordListPage {...props} />, { api: api(), ...con(ROL_PREDEFINIDO.gestion.derechos) });
    expect(screen.getByRole('button', { name: 'Nueva serie' })).toBeTruthy();
  });

  it('a document: only the actions of the role, no undo of an earlier day without «deshacer anterior a hoy»', async () => {
    const pedido = (fecha: string) =>
      fakeDocumento({ tipo: 'pedidoventa', numero: 'PV 2026/000001', estado: 'confirmado', fecha, cliente_id: 1 });
    const sinDeshacer: Derechos = { ...ROL_PREDEFINIDO.gestion.derechos, especiales: [] };
    const botones = () => within(screen.getByRole('group', { name: 'Estado y acciones del documento' })).queryAllByRole('button').map((b) => b.textContent);
    const def = DOCUMENTO_TIPOS.pedidoventa;
    const r1 = renderWithShell(<DocumentActions def={def} documento={pedido('2020-01-02')} onChange={vi.fn()} />, con(sinDeshacer));
    expect(botones()).toEqual(['Servir', 'Finalizar']);
    r1.unmount();
    const r2 = renderWithShell(<DocumentActions def={def} documento={pedido(hoyIso())} onChange={vi.fn()} />, con(sinDeshacer));
    expect(botones()).toEqual(['Deshacer confirmación', 'Servir', 'Finalizar']);
    r2.unmount();
    renderWithShell(<DocumentActions def={def} documento={pedido(hoyIso())} onChange={vi.fn()} />, con(ROL_PREDEFINIDO.consulta.derechos));
    expect(botones()).toEqual([]);
    await act(async () => {});
  });
});
