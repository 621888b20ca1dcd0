export * from './lineas';
export * from './LinesEditor';
export * from './useDocumentEditor';
export * from './DocumentActions';
export * from './DocumentListPage';
export * from './terceros';
export * from './pantalla';
export * from './DocumentRecordPage';
