/**
 * What the till (mf-tpv) needs before its first paint (issue 23: its JavaScript ≤ 200 KB gzip), from the files that
 * hold it and nothing else — as `shared/arranque` is for the shell's login. The till's first screens (pairing, cashier,
 * opening, the lock) and its state import these from `shared/caja`, which is bundled into mf-tpv and tree-shaken; the
 * federated `shared` (the whole library: it cannot be tree-shaken) loads only with the screens that need it (the sale,
 * the closing, the printouts), which the till's service worker keeps for offline use (precache.json). What must be one
 * per page (`ApiHttpError`, `ShellContext`) lives in `globalThis`, so both copies agree. Every export here is also
 * exported by `shared`.
 */
export { ApiHttpError, createApiClient, type ApiClient } from './api/client';
export type { ApiResponse } from './domain/api';
export { parseDecimal } from './domain/decimal';
export { formatMoney } from './domain/format';
export { fechaAeat, LIMITE_SIMPLIFICADA, presentacionQr } from './domain/fiscal';
export {
  BLOQUEO_MINUTOS_TPV,
  cantidadNoEntera,
  DENOMINACIONES,
  FORMA_PAGO_TPV_LABEL,
  FORMAS_PAGO_TPV,
  MESSAGES_TPV,
  reembolsoComoSePago,
  textoTpv,
  totalesTicket,
} from './domain/tpv';
