import type { ReactElement } from 'react';
import { rutasDocumentos } from 'shared';
import { DocumentoListPage } from './DocumentoListPage';
import { DocumentoPage } from './DocumentoPage';
import { PANTALLAS } from './pantallas';

/** The routes of pedidos, albaranes, devoluciones and partes de trabajo under /ventas: list, "nuevo" and record of each, behind their flag. */
export function documentoRoutes(): ReactElement[] {
  return rutasDocumentos(Object.values(PANTALLAS), { List: DocumentoListPage, Record: DocumentoPage });
}
