import { useEffect, useId, useRef, useState } from 'react';
import { Button, LineasDialogBackdrop, LineasDialogBox, formatDecimal, useDialogKeyboard, type LineaEditable, type LineasAction } from 'shared';

/** How long a positive quantity waits (the clerk may still be typing «20») before the question. */
export const ESPERA_SIGNO_MS = 600;

/**
 * A rectificativa by differences offers the corrected invoice's lines in negative (units returned, −10). A positive
 * quantity typed on one of them («2») increases the invoice: it is asked, once per value, whether the customer returns
 * them (the line becomes −2) or is charged more (it stays 2). Issue 17.
 */
export function useSignoRectificativa(activo: boolean, lineas: readonly LineaEditable[], dispatch: (a: LineasAction) => void) {
  const [pregunta, setPregunta] = useState<{ linea: LineaEditable; cantidad: bigint } | null>(null);
  // Per line key, the positive quantity the clerk confirmed as charged more.
  const aceptadas = useRef(new Map<string, bigint>());
  useEffect(() => {
    if (!activo || pregunta) return;
    const l = lineas.find((x) => x.origen_linea_id && typeof x.cantidad === 'bigint' && x.cantidad > 0n && aceptadas.current.get(x.key) !== x.cantidad);
    if (!l) return;
    const t = setTimeout(() => setPregunta({ linea: l, cantidad: l.cantidad as bigint }), ESPERA_SIGNO_MS);
    return () => clearTimeout(t);
  }, [activo, lineas, pregunta]);

  const devuelve = () => {
    if (!pregunta) return;
    dispatch({ type: 'update', key: pregunta.linea.key, patch: { cantidad: -pregunta.cantidad } });
    setPregunta(null);
  };
  const cobraMas = () => {
    if (!pregunta) return;
    aceptadas.current.set(pregunta.linea.key, pregunta.cantidad);
    setPregunta(null);
  };
  return { pregunta, devuelve, cobraMas };
}

/** The question itself: two explicit answers; Escape (or a click outside) takes the usual one, a return. */
export function SignoDialog({ pregunta, devuelve, cobraMas }: ReturnType<typeof useSignoRectificativa>) {
  const titleId = useId();
  const primero = useRef<HTMLButtonElement>(null);
  useDialogKeyboard({ abierto: !!pregunta, foco: primero, onEscape: devuelve });
  if (!pregunta) return null;
  const n = formatDecimal(pregunta.cantidad, 3, 0);
  return (
    <LineasDialogBackdrop onClick={devuelve}>
      <LineasDialogBox role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <h2 id={titleId}>¿Devuelve o se le cobra más?</h2>
        <p>
          La línea {pregunta.linea.codigo} · {pregunta.linea.descripcion} se ofrece en negativo (lo que el cliente devuelve). Con «{n}» la rectificativa
          aumenta la factura.
        </p>
        <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
          <Button ref={primero} type="button" onClick={devuelve}>
            El cliente devuelve {n} (−{n})
          </Button>
          <Button type="button" $variant="secondary" onClick={cobraMas}>
            Se le cobran {n} más
          </Button>
        </div>
      </LineasDialogBox>
    </LineasDialogBackdrop>
  );
}
