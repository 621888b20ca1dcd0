import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeApi, currentPath, renderSection } from 'shared/testing';
import Section from './section';
import menu from './menu.json';

describe('Sección de configuración', () => {
  it('an unknown address shows "Página no encontrada" with a link back', async () => {
    const fake = createFakeApi({ listadoconfiguraciones: () => ({ RESULT: '3' }) });
    renderSection(Section, menu.prefix, '/config/no-existe', { api: fake.api });
    expect(screen.getByRole('heading', { name: 'Página no encontrada' })).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: /Volver a Configuración/ }));
    expect(currentPath()).toBe('/config');
    expect(await screen.findByRole('heading', { name: 'Configuración' })).toBeTruthy();
  });

  it('every menu entry leads to a screen of the section', () => {
    for (const entry of menu.entries) {
      const fake = createFakeApi({});
      const { unmount } = renderSection(Section, menu.prefix, entry.path ? `${menu.prefix}/${entry.path}` : menu.prefix, { api: fake.api });
      expect(screen.queryByText('Página no encontrada')).toBeNull();
      unmount();
    }
  });
});
