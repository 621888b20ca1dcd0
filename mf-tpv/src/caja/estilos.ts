import styled, { createGlobalStyle, css } from 'styled-components';

/**
 * The till's own primitives, not a copy of shared/ui: touch-sized, and imported by first screens that load nothing of
 * the federated `shared` (issue 23's budget). Why they keep their names (`TouchDialog` here is the dialog's box, shared's
 * `TouchDialog` a whole confirmation dialog): mf-tpv/README.md «Una palabra para cada cosa».
 */

/** The till's look: full screen, large touch targets (≥ 48 px), readable from a step away. */
export const Pantalla = styled.div`
  position: fixed;
  inset: 0;
  z-index: 50;
  display: flex;
  flex-direction: column;
  background: #f1f5f9;
  color: #0f172a;
  font-family: system-ui, sans-serif;
  font-size: 16px;
`;

/**
 * Printing (the browser's dialog, «Imprimir»): only the roll on screen (`.impresion`: the ticket, the Z) on an 80 mm
 * page. Everything else is hidden, and the boxes the roll sits in (the till's full screen, the dialog's backdrop,
 * the dialog) print as plain blocks: hiding them, or leaving them fixed and clipped, printed a blank page.
 */
export const EstiloImpresion = createGlobalStyle`
  @media print {
    @page { size: 80mm 297mm; margin: 2mm; }
    html, body { background: #fff !important; }
    body *:not(.impresion):not(.impresion *):not(:has(.impresion)) { display: none !important; }
    body *:has(.impresion) {
      position: static !important;
      display: block !important;
      inset: auto !important;
      overflow: visible !important;
      max-height: none !important;
      height: auto !important;
      min-height: 0 !important;
      width: auto !important;
      background: none !important;
      box-shadow: none !important;
      padding: 0 !important;
      margin: 0 !important;
      border: 0 !important;
    }
  }
`;

export const Barra = styled.header`
  display: flex;
  align-items: center;
  gap: 12px;
  padding: 6px 12px;
  background: #0f172a;
  color: #e2e8f0;
  font-size: 14px;
  min-height: 40px;
  flex-wrap: wrap;
  strong { color: #fff; }
  .sp { flex: 1; }
  .quien { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
  @media (max-width: 760px) {
    flex-wrap: nowrap;
    gap: 8px;
    font-size: 13px;
    .articulos { display: none; }
    .sp { display: none; }
    .quien { flex: 1; }
    .que-hacer { white-space: normal; min-width: 0; font-size: 12px; }
    button { min-height: 30px; padding: 0 10px; }
  }
`;

export const Estado = styled.span<{ $ok: boolean }>`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  padding: 2px 10px;
  border-radius: 999px;
  background: ${({ $ok }) => ($ok ? '#166534' : '#b45309')};
  color: #fff;
  font-weight: 600;
  white-space: nowrap;
`;

export const Centro = styled.main`
  flex: 1;
  display: grid;
  place-items: center;
  padding: 16px;
  overflow: auto;
`;

export const Tarjeta = styled.section`
  background: #fff;
  border-radius: 14px;
  box-shadow: 0 8px 30px rgb(15 23 42 / 0.12);
  padding: 24px;
  width: min(440px, 100%);
  h1 { font-size: 22px; margin: 0 0 12px; }
  label { display: block; font-weight: 600; margin: 12px 0 6px; }
`;

export const Campo = styled.input`
  width: 100%;
  box-sizing: border-box;
  font-size: 20px;
  padding: 10px 12px;
  border: 2px solid #cbd5e1;
  border-radius: 10px;
  background: #fff;
  &:focus { outline: none; border-color: #2563eb; box-shadow: 0 0 0 3px rgb(37 99 235 / 0.25); }
`;

const tonos = {
  primario: css`background: #2563eb; color: #fff; border-color: #1d4ed8;`,
  ok: css`background: #15803d; color: #fff; border-color: #166534;`,
  peligro: css`background: #dc2626; color: #fff; border-color: #b91c1c;`,
  neutro: css`background: #fff; color: #0f172a; border-color: #cbd5e1;`,
};

export const TouchButton = styled.button<{ $tono?: keyof typeof tonos; $grande?: boolean }>`
  min-height: ${({ $grande }) => ($grande ? 64 : 48)}px;
  padding: 0 16px;
  font-size: ${({ $grande }) => ($grande ? 20 : 16)}px;
  font-weight: 600;
  border-radius: 10px;
  border: 2px solid;
  cursor: pointer;
  touch-action: manipulation;
  ${({ $tono = 'neutro' }) => tonos[$tono]}
  &:disabled { opacity: 0.45; cursor: default; }
  &:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  kbd { font-size: 12px; margin-left: 6px; font-family: inherit; font-weight: 500; }
  /* A phone or a touch screen without a keyboard: no F-key hints. */
  @media (max-width: 760px), (hover: none) and (pointer: coarse) { kbd { display: none; } }
`;

export const Aviso = styled.p.attrs({ role: 'alert' })`
  color: #b91c1c;
  font-weight: 600;
  margin: 10px 0 0;
`;

export const Fondo = styled.div`
  position: fixed;
  inset: 0;
  z-index: 60;
  background: rgb(15 23 42 / 0.55);
  display: grid;
  place-items: center;
  padding: 8px;
`;

export const TouchDialog = styled.div.attrs({ role: 'dialog', 'aria-modal': true })`
  background: #fff;
  border-radius: 14px;
  width: min(720px, 100%);
  max-height: calc(100vh - 16px);
  overflow: auto;
  box-sizing: border-box;
  padding: 18px;
  h2 { margin: 0 0 12px; font-size: 20px; }
  label { display: block; font-weight: 600; margin: 10px 0 4px; }
  table { width: 100%; border-collapse: collapse; }
  td, th { padding: 6px 4px; border-bottom: 1px solid #e2e8f0; text-align: left; }
  td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
`;

export const Fila = styled.div<{ $gap?: number }>`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ $gap = 8 }) => $gap}px;
  align-items: center;
`;

/**
 * The till's own «Cargando» (the shared Spinner's look): its first screens import nothing of the federated `shared`
 * (issue 23: the till's JavaScript before its first paint).
 */
export const Spinner = styled.div.attrs({ role: 'status', 'aria-label': 'Cargando' })`
  width: 28px;
  height: 28px;
  margin: 24px auto;
  border-radius: 50%;
  border: 3px solid #e2e8f0;
  border-top-color: #2563eb;
  animation: mtpv-caja-spin 0.8s linear infinite;
  @keyframes mtpv-caja-spin { to { transform: rotate(360deg); } }
`;
