import type { ReactElement } from 'react';
import { rutasDocumentos } from 'shared';
import { DocumentoListPage } from './DocumentoListPage';
import { DocumentoPage } from './DocumentoPage';
import { PANTALLAS } from './pantallas';

/** The routes of movimientos, inventarios and pérdidas under /almacenes: list, "nuevo" and record of each, behind their flags. */
export function documentoRoutes(): ReactElement[] {
  return rutasDocumentos(Object.values(PANTALLAS), { List: DocumentoListPage, Record: DocumentoPage });
}
