import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { parseDecimal } from '../domain/decimal';
import { accionesDesde, type AccionDef, type Documento, type DocumentoTipoDef, } from '../domain/documentos';
import { formatDecimal } from '../domain/format';
import { MESSAGES } from '../domain/messages';
import { useAction } from '../hooks/useApi';
import { decimalInputText } from '../ui/inputs';
import { ConfirmDialog } from '../ui/layout';
import { Button } from '../ui/primitives';
import type { Theme } from '../ui/theme';
import { EstadoBadge } from './EstadoBadge';
import { LineasDialogBackdrop, LineasDialogBox } from './LineasDialog';

type T = { theme: Theme };

const StyledBar = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  flex-wrap: wrap;
  padding: 10px 12px;
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  border-radius: ${({ theme }: T) => theme.radius};
  background: #fff;
  .label { font-size: 13px; color: ${({ theme }: T) => theme.gray[500]}; }
  .actions { display: flex; gap: 8px; flex-wrap: wrap; margin-left: auto; }
  .why { font-size: 12px; color: ${({ theme }: T) => theme.gray[500]}; width: 100%; text-align: right; }
`;

export type DocumentActionsProps = {
  def: DocumentoTipoDef;
  /** The document as the server last returned it (with `lineas` for actions by lines). */
  documento: Documento;
  /** The document after an action, as the server returns it. */
  onChange: (documento: Documento) => void;
  /** The actions wait (unsaved changes on the screen); `disabledReason` says why. */
  disabled?: boolean;
  disabledReason?: string;
  /** More buttons at the end of the bar (Imprimir). */
  extra?: ReactNode;
};

/**
 * The state bar of a document: its state and exactly the actions the table allows from it
 * (`accionesDesde`). An action with `confirm` asks first; an action by lines (recibir) opens a
 * dialog with each line's pending quantity to receive all, some or nothing ('Ausente'). The server
 * runs `<verbo><entidad>` and answers the document after it, handed back by `onChange`.
 */
export default function DocumentActionsImpl({ def, documento, onChange, disabled, disabledReason, extra }: DocumentActionsProps) {
  const { run, busy } = useAction();
  const [asking, setAsking] = useState<AccionDef | null>(null);
  const acciones = accionesDesde(def, documento.estado);

  const ejecutar = async (accion: AccionDef, lineas?: { id: number; cantidad: number }[]) => {
    const body: Record<string, unknown> = { id: documento.id };
    if (lineas) body.lineas = lineas;
    const outcome = await run<Documento>(`${accion.verbo}${def.entidad}`, body);
    if (outcome.ok) {
      setAsking(null);
      if (outcome.data[0]) onChange(outcome.data[0]);
    } else setAsking(null);
  };

  const handleClick = (accion: AccionDef) => {
    if (accion.porLineas || accion.confirm) setAsking(accion);
    else void ejecutar(accion);
  };

  return (
    <StyledBar role="group" aria-label="Estado y acciones del documento">
      <span className="label">Estado</span>
      <EstadoBadge def={def} estado={documento.estado} />
      <div className="actions">
        {acciones.map((a) => (
          <Button
            key={a.verbo}
            type="button"
            $variant={a.undoes ? 'secondary' : 'primary'}
            disabled={disabled || busy}
            title={disabled ? disabledReason : undefined}
            onClick={() => handleClick(a)}
          >
            {a.label}
          </Button>
        ))}
        {extra}
      </div>
      {disabled && disabledReason && acciones.length > 0 && <div className="why">{disabledReason}</div>}
      {asking && !asking.porLineas && (
        <ConfirmDialog
          open
          title={asking.label}
          text={asking.confirm}
          confirmLabel={asking.label}
          busy={busy}
          onConfirm={() => void ejecutar(asking)}
          onCancel={() => setAsking(null)}
        />
      )}
      {asking?.porLineas && (
        <PorLineasDialog accion={asking} documento={documento} busy={busy} onCancel={() => setAsking(null)} onConfirm={(lineas) => void ejecutar(asking, lineas)} />
      )}
    </StyledBar>
  );
}

type Fila = { id: number; texto: string; ausente: boolean };

/** Receipt by lines: each line with its pending quantity, what arrives (all by default) or 'Ausente' (0). */
function PorLineasDialog({
  accion,
  documento,
  busy,
  onCancel,
  onConfirm,
}: {
  accion: AccionDef;
  documento: Documento;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (lineas: { id: number; cantidad: number }[]) => void;
}) {
  const titleId = useId();
  const pendientes = (documento.lineas ?? []).filter((l) => l.pendiente > 0);
  const todo = () => pendientes.map((l) => ({ id: l.id, texto: decimalInputText(l.pendiente, 3, 0), ausente: false }));
  const [filas, setFilas] = useState<Fila[]>(todo);
  const firstRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    firstRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !busy) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [busy, onCancel]);

  const errorDe = (f: Fila, pendiente: number): string | null => {
    if (f.ausente) return null;
    const v = parseDecimal(f.texto, 3);
    if (v === null || v < 0n) return MESSAGES.invalidNumber;
    if (v > BigInt(pendiente)) return MESSAGES.recibirMasDePendiente;
    return null;
  };
  const errores = pendientes.map((l, i) => errorDe(filas[i], l.pendiente));
  const invalid = errores.some((e) => e !== null);
  const set = (i: number, patch: Partial<Fila>) => setFilas((fs) => fs.map((f, j) => (j === i ? { ...f, ...patch } : f)));

  const handleConfirm = () => {
    if (invalid) return;
    onConfirm(pendientes.map((l, i) => ({ id: l.id, cantidad: filas[i].ausente ? 0 : Number(parseDecimal(filas[i].texto, 3) ?? 0n) })));
  };

  return (
    <LineasDialogBackdrop onClick={busy ? undefined : onCancel}>
      <LineasDialogBox role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <h2 id={titleId}>{accion.label}</h2>
        <p>Indique lo que llega de cada línea: por defecto todo lo pendiente. «Ausente» recibe 0 y la línea queda pendiente.</p>
        {accion.confirm && <p>{accion.confirm}</p>}
        {pendientes.length === 0 ? (
          <p>No queda nada pendiente.</p>
        ) : (
          <div className="scroll">
            <table aria-label="Líneas a recibir">
              <thead>
                <tr>
                  <th>Artículo</th>
                  <th className="num">Pendiente</th>
                  <th className="num">Recibido</th>
                  <th>Ausente</th>
                </tr>
              </thead>
              <tbody>
                {pendientes.map((l, i) => (
                  <tr key={l.id}>
                    <td>
                      <strong>{l.codigo}</strong> {l.descripcion}
                    </td>
                    <td className="num">{formatDecimal(l.pendiente, 3, 0)}</td>
                    <td className="num">
                      <input
                        className="dec"
                        inputMode="decimal"
                        aria-label={`Cantidad recibida de ${l.codigo}`}
                        aria-invalid={!!errores[i]}
                        disabled={filas[i].ausente}
                        value={filas[i].ausente ? '0' : filas[i].texto}
                        onFocus={(e) => e.currentTarget.select()}
                        onChange={(e) => set(i, { texto: e.target.value })}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter') {
                            e.preventDefault();
                            handleConfirm();
                          }
                        }}
                      />
                      {errores[i] && (
                        <span className="err" role="alert">
                          {errores[i]}
                        </span>
                      )}
                    </td>
                    <td>
                      <input type="checkbox" aria-label={`Ausente ${l.codigo}`} checked={filas[i].ausente} onChange={(e) => set(i, { ausente: e.target.checked })} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="actions">
          <Button type="button" className="first" $variant="secondary" onClick={() => setFilas(todo())} disabled={busy || pendientes.length === 0}>
            {accion.label} todo
          </Button>
          <Button ref={firstRef} type="button" $variant="secondary" onClick={onCancel} disabled={busy}>
            Cancelar
          </Button>
          <Button type="button" onClick={handleConfirm} disabled={busy || invalid || pendientes.length === 0} aria-busy={busy}>
            {accion.label}
          </Button>
        </div>
      </LineasDialogBox>
    </LineasDialogBackdrop>
  );
}
