import { diferido } from './diferido';

export type { DocumentListPageProps, DocumentoFila } from './DocumentListPageImpl';

// Loads with the first document list, not with the login.
/**
 * The list screen of a document type: número (a link to the record), fecha, estado and the type's
 * own columns, total; filters by state (the type's labels), dates, warehouse and party; the total of
 * all the filtered documents under the table; rows chosen by hand print as one PDF.
 */
export const DocumentListPage = diferido(() => import('./DocumentListPageImpl'), 'Cargando', 200);
