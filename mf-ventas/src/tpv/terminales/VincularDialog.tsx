import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { Button, LineasDialogBackdrop, LineasDialogBox, useDialogKeyboard, type Theme } from 'shared';
import type { CodigoVinculo } from '../datos';

type T = { theme: Theme };

const StyledCodigo = styled.div`
  text-align: center;
  margin: 8px 0 16px;
  .codigo {
    display: block;
    font-size: clamp(40px, 11vw, 64px);
    font-weight: 700;
    letter-spacing: 0.18em;
    font-variant-numeric: tabular-nums;
    font-family: ui-monospace, 'SFMono-Regular', Menlo, monospace;
    color: ${({ theme }: T) => theme.gray[900]};
    padding: 12px 8px;
    border: 2px dashed ${({ theme }: T) => theme.primary[300]};
    border-radius: 10px;
    background: ${({ theme }: T) => theme.primary[50]};
    user-select: all;
  }
  .expira { margin-top: 10px; font-size: 14px; color: ${({ theme }: T) => theme.gray[600]}; }
  .caducado { color: ${({ theme }: T) => theme.danger}; font-weight: 600; }
`;

/** Minutes and seconds left until `iso`, or null once it has passed. */
function quedan(iso: string, ahora: number): string | null {
  const ms = Date.parse(iso) - ahora;
  if (!(ms > 0)) return null;
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  return m > 0 ? `${m} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
}

const hora = (iso: string) => new Date(iso).toLocaleTimeString('es-ES', { hour: '2-digit', minute: '2-digit' });

/** The one-time code of «Vincular TPV», large enough to read from the till, with its expiry counting down. */
export function VincularDialog({ terminal, vinculo, onClose, onOtro, busy }: { terminal: string; vinculo: CodigoVinculo; onClose: () => void; onOtro: () => void; busy: boolean }) {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const [ahora, setAhora] = useState(() => Date.now());
  useDialogKeyboard({ foco: closeRef, onEscape: onClose });
  useEffect(() => {
    const t = setInterval(() => setAhora(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const resta = quedan(vinculo.expira, ahora);
  return (
    <LineasDialogBackdrop onClick={onClose}>
      <LineasDialogBox role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <h2 id={titleId}>Vincular TPV · {terminal}</h2>
        <p>
          En el navegador del mostrador, abra <strong>/tpv</strong> y escriba este código. Sirve una sola vez; después ese navegador queda
          vinculado a este terminal y solo pide el usuario o el PIN del cajero.
        </p>
        <StyledCodigo>
          <output className="codigo" aria-label="Código de vinculación">
            {vinculo.codigo}
          </output>
          <div className={resta ? 'expira' : 'expira caducado'} role="status">
            {resta ? `Caduca a las ${hora(vinculo.expira)} (quedan ${resta})` : 'El código ha caducado: genere otro.'}
          </div>
        </StyledCodigo>
        <div className="actions">
          <Button type="button" $variant="secondary" onClick={onOtro} disabled={busy} aria-busy={busy}>
            Generar otro código
          </Button>
          <Button ref={closeRef} type="button" onClick={onClose}>
            Cerrar
          </Button>
        </div>
      </LineasDialogBox>
    </LineasDialogBackdrop>
  );
}
