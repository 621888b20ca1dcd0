import styled from 'styled-components';

/** An 80 mm roll as HTML (the ticket, the Z): what the browser prints (EstiloImpresion: an 80 mm page) and what the screen shows. */
export const Rollo = styled.div`
  width: 80mm;
  max-width: 100%;
  box-sizing: border-box;
  margin: 0 auto;
  padding: 3mm;
  background: #fff;
  color: #000;
  font: 12px/1.35 ui-monospace, 'DejaVu Sans Mono', monospace;
  border: 1px dashed #94a3b8;
  .c { text-align: center; }
  .r { text-align: right; }
  .b { font-weight: 700; }
  hr { border: 0; border-top: 1px dashed #000; margin: 4px 0; }
  table { width: 100%; border-collapse: collapse; }
  td { padding: 0; vertical-align: top; border: 0; }
  .total { font-size: 16px; font-weight: 800; }
  svg { display: block; margin: 4px auto; width: 34mm; height: 34mm; }
  /* The page is 80 mm (EstiloImpresion, caja/estilos.ts). */
  @media print {
    border: 0;
    padding: 0;
    width: 76mm;
  }
`;
