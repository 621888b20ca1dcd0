import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { parseDecimal } from '../domain/decimal';
import { accionesDesde, type AccionDef, type Documento, type DocumentoTipoDef, } from '../domain/documentos';
import { formatDecimal } from '../domain/format';
import { useAction } from '../hooks/useApi';
import { decimalInputText } from '../ui/inputs';
import { ConfirmDialog } from '../ui/layout';
import { Button } from '../ui/primitives';
import type { Theme } from '../ui/theme';
import { EstadoBadge } from './EstadoBadge';

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

const StyledBackdrop = styled.div`
  position: fixed;
  inset: 0;
  background: rgb(15 23 42 / 0.45);
  display: grid;
  /* A track that never grows past the screen: the lines table scrolls inside the dialog instead. */
  grid-template-columns: minmax(0, 1fr);
  place-items: center;
  z-index: 1000;
  padding: 16px;
`;
const StyledDialog = styled.div`
  background: #fff;
  border-radius: 10px;
  padding: 20px;
  width: 100%;
  max-width: 760px;
  max-height: calc(100vh - 32px);
  min-width: 0;
  box-sizing: border-box;
  display: flex;
  flex-direction: column;
  gap: 12px;
  box-shadow: 0 20px 40px rgb(15 23 42 / 0.25);
  h2 { margin: 0; font-size: 18px; }
  p { margin: 0; color: ${({ theme }: T) => theme.gray[600]}; font-size: 14px; }
  .scroll { overflow: auto; border: 1px solid ${({ theme }: T) => theme.gray[200]}; border-radius: 6px; }
  table { width: 100%; border-collapse: collapse; font-size: 14px; }
  th, td { padding: 6px 8px; border-bottom: 1px solid ${({ theme }: T) => theme.gray[100]}; text-align: left; }
  th { background: ${({ theme }: T) => theme.gray[50]}; font-size: 12px; color: ${({ theme }: T) => theme.gray[600]}; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  input.dec { font: inherit; width: 100px; text-align: right; padding: 5px 7px; border-radius: 6px; border: 1px solid ${({ theme }: T) => theme.gray[300]}; }
  input.dec[aria-invalid='true'] { border-color: ${({ theme }: T) => theme.danger}; }
  input[type='checkbox'] { width: 18px; height: 18px; }
  .err { color: ${({ theme }: T) => theme.danger}; font-size: 12px; display: block; }
  .actions { display: flex; justify-content: flex-end; gap: 8px; flex-wrap: wrap; }
  .actions .first { margin-right: auto; }
  @media (max-width: 639px) {
    padding: 14px;
    th, td { padding: 6px 5px; }
    input.dec { width: 68px; }
  }
`;

type Fila = { id: number; texto: string; ausente: boolean };

const MAS_QUE_PENDIENTE = 'No se puede recibir más de lo pendiente';

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
    if (v === null || v < 0n) return 'Debe ser un número válido';
    if (v > BigInt(pendiente)) return MAS_QUE_PENDIENTE;
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
    <StyledBackdrop onClick={busy ? undefined : onCancel}>
      <StyledDialog role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
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
      </StyledDialog>
    </StyledBackdrop>
  );
}
