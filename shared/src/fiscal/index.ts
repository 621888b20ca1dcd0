/**
 * The fiscal record's pure code, for the server and for the browser (the till offline): SHA-256, the huella, the
 * RegFactuSistemaFacturacion XML, a ticket's record. No Node API: it runs wherever TextEncoder and Intl do.
 */
export * from './sha256';
export * from './registro';
export * from './ticket';
