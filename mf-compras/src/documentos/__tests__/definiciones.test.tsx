import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES, direccionesDocumento, flagsPantalla, tiposDeSeccion } from 'shared';
import { allFlags, renderSection } from 'shared/testing';
import { fakeCompras } from '../../fakeCompras';
import menu from '../../menu.json';
import { paths } from '../../paths';
import Section from '../../section';

/**
 * Issue 27: each purchase type's menu entry opens its list, mounted from its definition, behind its definition's flags.
 */
describe.each(tiposDeSeccion('compras').map((d) => [d.tipo, d] as const))('%s from its definition', (_t, def) => {
  const entrada = menu.entries.find((e) => e.path === def.pantalla?.lista);
  const direcciones = direccionesDocumento(def);

  it('its menu entry opens its list, with its description', async () => {
    expect(entrada?.label).toBe(def.pantalla?.menu.label);
    renderSection(Section, menu.prefix, `${menu.prefix}/${entrada?.path}`, { api: fakeCompras().api });
    expect(await screen.findByText(def.pantalla!.description)).toBeTruthy();
    expect(Object.values(paths)).toContain(direcciones.list);
  });

  it('its «nuevo» address opens the new document, titled as its definition says', async () => {
    renderSection(Section, menu.prefix, direcciones.nuevo, { api: fakeCompras().api });
    expect(await screen.findByRole('heading', { name: def.pantalla!.nuevoLabel })).toBeTruthy();
  });

  it('with one of its screens’ flags off, its list says the module is off', async () => {
    const propio = flagsPantalla(def).find((f) => f !== menu.module);
    if (!propio) return;
    renderSection(Section, menu.prefix, direcciones.list, { api: fakeCompras().api, flags: { ...allFlags(1), [propio]: 0 } });
    expect(await screen.findByText(MESSAGES.moduleOff)).toBeTruthy();
  });
});
