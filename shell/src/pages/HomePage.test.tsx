import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeployInfo } from 'shared';
import { allFlags, createFakeApi, renderWithShell } from 'shared/testing';
import { HomePage } from './HomePage';

// The chart (recharts) is not what these tests look at.
vi.mock('./HomeChart', () => ({ default: () => <p>gráfico</p> }));
afterEach(cleanup);

const deploy: DeployInfo = {
  remotes: [
    { name: 'mf_catalogo', prefix: '/catalogo', group: 'Productos', entries: [], manifest: '' },
    { name: 'mf_compras', prefix: '/compras', group: 'Compras', module: 'compras', entries: [], manifest: '' },
  ],
  branding: { title: 'Manager TPV', logo: '', favicon: '' },
};
const api = () => createFakeApi({ graficoinicio: () => ({ RESULT: '0', data: [] }) }).api;

describe('HomePage', () => {
  it('«Nueva compra» opens a new pedido de compra', () => {
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: allFlags(1) });
    expect(screen.getByText('Nueva compra').closest('a')?.getAttribute('href')).toBe('/compras/pedido/nuevo-pedido');
  });

  it('without compras_pedidos, «Nueva compra» opens a new albarán de compra', () => {
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: { ...allFlags(1), compras_pedidos: 0 } });
    expect(screen.getByText('Nueva compra').closest('a')?.getAttribute('href')).toBe('/compras/albaran/nuevo-albaran');
  });

  it('without compras, no «Nueva compra»', () => {
    renderWithShell(<HomePage deploy={deploy} />, { api: api(), flags: { ...allFlags(1), compras: 0 } });
    expect(screen.queryByText('Nueva compra')).toBeNull();
  });
});
