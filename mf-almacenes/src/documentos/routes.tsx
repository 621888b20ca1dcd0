import type { ReactElement } from 'react';

/** The document screens (movimientos, inventarios, pérdidas): written in their own task. */
export function documentoRoutes(): ReactElement[] {
  return [];
}
