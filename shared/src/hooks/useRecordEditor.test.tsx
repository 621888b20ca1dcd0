import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, renderWithShell } from '../testing';
import { useRecordEditor } from './useRecordEditor';

type Marca = { id: number; codigo: string; nombre: string };
const schema = { nombre: { type: 'string', required: true } } as const;

function Probe({ id, seen }: { id: number; seen: string[] }) {
  const editor = useRecordEditor<Marca, { nombre: string }>({
    actions: { list: 'listadomarcas', save: 'editarmarca' },
    id,
    schema,
    empty: { nombre: '' },
    toValues: (m) => ({ nombre: m.nombre }),
  });
  const shown = editor.loading ? 'cargando' : `nombre=${editor.form.values.nombre}`;
  seen.push(shown);
  return <p>{shown}</p>;
}

afterEach(cleanup);

describe('useRecordEditor', () => {
  it('never paints the empty form between loading and the loaded record', async () => {
    const { api } = createFakeApi({ listadomarcas: () => ({ RESULT: '0', data: [{ id: 7, codigo: 'ACME', nombre: 'Acme' }] }) });
    const seen: string[] = [];
    renderWithShell(<Probe id={7} seen={seen} />, { api });
    expect(await screen.findByText('nombre=Acme')).toBeTruthy();
    expect(seen).not.toContain('nombre=');
    expect(seen[0]).toBe('cargando');
  });
});
