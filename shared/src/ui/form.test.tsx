import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { Link, Route, Routes, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentPath, renderSection, renderWithShell } from '../testing';
import { RecordActions, RecordForm, type RecordActionsProps } from './form';

afterEach(cleanup);

const deletion = { title: 'Eliminar serie', text: 'Se eliminará la serie «A».' };

function editor(over: Partial<RecordActionsProps['editor']> = {}): RecordActionsProps['editor'] {
  return { isNew: false, form: { dirty: false }, saving: false, removing: false, remove: vi.fn(async () => true), ...over };
}

describe('RecordActions', () => {
  it('a new record, or one without deletion, has no Eliminar', () => {
    const { unmount } = renderWithShell(<RecordActions editor={editor({ isNew: true })} deletion={deletion} />);
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    unmount();
    renderWithShell(<RecordActions editor={editor()} />);
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeTruthy();
  });

  it('Eliminar asks first; Cancelar deletes nothing', () => {
    const ed = editor();
    renderWithShell(<RecordActions editor={ed} deletion={deletion} cancelTo="/series" />);
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = screen.getByRole('dialog', { name: 'Eliminar serie' });
    expect(within(dialog).getByText('Se eliminará la serie «A».')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(ed.remove).not.toHaveBeenCalled();
  });

  it('a refused delete closes the dialog; a done one leaves it to the screen', async () => {
    const refused = editor({ remove: vi.fn(async () => false) });
    const { unmount } = renderWithShell(<RecordActions editor={refused} deletion={deletion} />);
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' })));
    expect(refused.remove).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    unmount();

    const done = editor();
    renderWithShell(<RecordActions editor={done} deletion={deletion} />);
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' })));
    expect(done.remove).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('shows the unsaved changes and waits while saving', () => {
    renderWithShell(<RecordActions editor={editor({ form: { dirty: true }, saving: true })} deletion={deletion} />);
    expect(screen.getByText('Guardando…')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

/** A record screen as useRecordEditor drives it: a save resets the form and navigates in the same turn. */
function Ficha() {
  const [nombre, setNombre] = useState('');
  const [dirty, setDirty] = useState(false);
  const navigate = useNavigate();
  const save = async () => {
    await Promise.resolve();
    setDirty(false);
    navigate('/s/lista');
    return true;
  };
  // As useRecordEditor's remove with an onRemoved that goes back to the list.
  const remove = async () => {
    await Promise.resolve();
    navigate('/s/lista');
    return true;
  };
  return (
    <RecordForm dirty={dirty} onSubmit={save} aria-label="Ficha">
      <input
        aria-label="Nombre"
        value={nombre}
        onChange={(e) => {
          setNombre(e.target.value);
          setDirty(true);
        }}
      />
      <Link to="/s/lista">Ir al listado</Link>
      <button type="button" onClick={() => navigate(-1)}>
        Atrás
      </button>
      <RecordActions
        editor={{ isNew: false, form: { dirty }, saving: false, removing: false, remove }}
        deletion={{ title: 'Eliminar ficha', text: 'Se eliminará.' }}
      />
    </RecordForm>
  );
}

function Seccion() {
  return (
    <Routes>
      <Route path="ficha" element={<Ficha />} />
      <Route
        path="lista"
        element={
          <>
            <p>listado</p>
            <Link to="/s/ficha">Abrir ficha</Link>
          </>
        }
      />
    </Routes>
  );
}

const LEAVE = 'Hay cambios sin guardar. ¿Salir sin guardar?';

describe('RecordForm: leaving with unsaved changes', () => {
  const type = (text: string) => fireEvent.change(screen.getByRole('textbox', { name: 'Nombre' }), { target: { value: text } });
  const clickLink = async () => act(async () => fireEvent.click(screen.getByRole('link', { name: 'Ir al listado' })));

  it('a clean form leaves at once', async () => {
    renderSection(Seccion, '/s', '/s/ficha');
    await clickLink();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(currentPath()).toBe('/s/lista');
  });

  it('a dirty form asks; «Seguir editando» stays with the changes, «Salir sin guardar» leaves', async () => {
    renderSection(Seccion, '/s', '/s/ficha');
    type('Tornillo');
    await clickLink();
    const dialog = screen.getByRole('dialog', { name: 'Cambios sin guardar' });
    expect(within(dialog).getByText(LEAVE)).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Seguir editando' }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Seguir editando' })));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(currentPath()).toBe('/s/ficha');
    expect((screen.getByRole('textbox', { name: 'Nombre' }) as HTMLInputElement).value).toBe('Tornillo');

    await clickLink();
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Salir sin guardar' })));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(currentPath()).toBe('/s/lista');
  });

  it('asks on Back (history) too, and Escape stays', async () => {
    renderSection(Seccion, '/s', '/s/lista');
    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'Abrir ficha' })));
    type('Tuerca');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Atrás' })));
    expect(screen.getByRole('dialog', { name: 'Cambios sin guardar' })).toBeTruthy();
    await act(async () => fireEvent.keyDown(document, { key: 'Escape' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(currentPath()).toBe('/s/ficha');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Atrás' })));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Salir sin guardar' })));
    expect(currentPath()).toBe('/s/lista');
  });

  it('saving, then the save navigating, does not ask', async () => {
    renderSection(Seccion, '/s', '/s/ficha');
    type('Arandela');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Guardar' })));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(currentPath()).toBe('/s/lista');
  });

  it('deleting the record goes back to the list without asking about its changes', async () => {
    renderSection(Seccion, '/s', '/s/ficha');
    type('Clavo');
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog', { name: 'Eliminar ficha' })).getByRole('button', { name: 'Eliminar' })));
    expect(screen.queryByRole('dialog', { name: 'Cambios sin guardar' })).toBeNull();
    expect(currentPath()).toBe('/s/lista');
  });
});

describe('Ctrl+S saves the form (issue 26)', () => {
  it('Ctrl+S and ⌘S save from any field, and the browser’s own «Guardar página» never opens', async () => {
    renderSection(Seccion, '/s', '/s/ficha');
    fireEvent.change(screen.getByRole('textbox', { name: 'Nombre' }), { target: { value: 'Tornillos' } });
    const ctrlS = new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true, cancelable: true });
    await act(async () => {
      screen.getByRole('textbox', { name: 'Nombre' }).dispatchEvent(ctrlS);
    });
    expect(ctrlS.defaultPrevented).toBe(true);
    // The save navigated to the list, as «Guardar» does.
    expect(await screen.findByText('listado')).toBeTruthy();
    expect(currentPath()).toBe('/s/lista');
  });

  it('⌘S on a Mac does the same; a plain «s» is just a letter', async () => {
    renderSection(Seccion, '/s', '/s/ficha');
    const s = new KeyboardEvent('keydown', { key: 's', bubbles: true, cancelable: true });
    document.body.dispatchEvent(s);
    expect(s.defaultPrevented).toBe(false);
    expect(currentPath()).toBe('/s/ficha');
    await act(async () => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 's', metaKey: true, bubbles: true, cancelable: true }));
    });
    expect(await screen.findByText('listado')).toBeTruthy();
  });
});

describe('a focused field is never hidden under the sticky bar (issue 26)', () => {
  const caja = (top: number, bottom: number) => ({ top, bottom, left: 0, right: 0, width: 0, height: bottom - top, x: 0, y: top, toJSON: () => ({}) }) as DOMRect;

  it('a field that takes the focus behind «Cancelar / Guardar» scrolls into view above it; one in sight stays put', () => {
    renderSection(Seccion, '/s', '/s/ficha');
    const nombre = screen.getByRole('textbox', { name: 'Nombre' });
    const barra = screen.getByRole('group', { name: 'Acciones del formulario' });
    const scroll = vi.fn();
    nombre.scrollIntoView = scroll;
    vi.spyOn(barra, 'getBoundingClientRect').mockReturnValue(caja(700, 768));
    // In sight, above the bar: no scroll.
    const rect = vi.spyOn(nombre, 'getBoundingClientRect').mockReturnValue(caja(400, 434));
    fireEvent.focus(nombre);
    expect(scroll).not.toHaveBeenCalled();
    // Under the bar (Tab reached it at the bottom of the window): brought up above the bar.
    rect.mockReturnValue(caja(710, 744));
    fireEvent.focus(nombre);
    expect(scroll).toHaveBeenCalledWith({ block: 'nearest' });
    // The bar's own buttons are never moved.
    const guardar = within(barra).getByRole('button', { name: 'Guardar' });
    guardar.scrollIntoView = scroll;
    scroll.mockClear();
    fireEvent.focus(guardar);
    expect(scroll).not.toHaveBeenCalled();
  });
});
