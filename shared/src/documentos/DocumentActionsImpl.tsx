import { useId, useRef, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { useShell } from '../context';
import { parseDecimal } from '../domain/decimal';
import { accionesDesde, type AccionDef, type Documento, type DocumentoTipoDef, } from '../domain/documentos';
import { formatDecimal } from '../domain/format';
import { MESSAGES } from '../domain/messages';
import { useAction } from '../hooks/useApi';
import { usePermisos } from '../hooks/usePermisos';
import { necesidadDocumento } from '../domain/roles';
import { hoyIso } from './useDocumentEditor';
import { decimalInputText } from '../ui/inputs';
import { ConfirmDialog } from '../ui/layout';
import { Button } from '../ui/primitives';
import type { Theme } from '../ui/theme';
import { EstadoBadge } from './EstadoBadge';
import { CantidadLinea, LineasDialogBackdrop, LineasDialogBox, useLineasDialogTeclado } from './LineasDialog';

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
  /** Stock available of an article (thousandths): a column of the per-line dialog (servir). */
  disponible?: (articuloId: number) => number | null | undefined;
};

/**
 * The state bar of a document: its state and exactly the actions the table allows from it
 * (`accionesDesde`, without those whose own flag is off). An action with `confirm` asks first; an action by lines (recibir) opens a
 * dialog with each line's pending quantity to receive all, some or nothing ('Ausente'). The server
 * runs `<verbo><entidad>` and answers the document after it, handed back by `onChange`.
 */
export default function DocumentActionsImpl({ def, documento, onChange, disabled, disabledReason, extra, disponible }: DocumentActionsProps) {
  const { run, busy } = useAction();
  const { flags } = useShell();
  const [asking, setAsking] = useState<AccionDef | null>(null);
  const permisos = usePermisos();
  // An undo on a document of an earlier day needs its own right (the server refuses it without).
  const anterior = documento.fecha < hoyIso() && !permisos.tiene('deshacer_anterior');
  // An action that needs another flag (facturar needs ventas_facturas) is not offered without it, nor one the user's role can't run.
  const acciones = accionesDesde(def, documento.estado).filter(
    (a) => (!a.flag || flags[a.flag] === 1) && permisos.cumple(necesidadDocumento(def, a.verbo)) && !(a.undoes && anterior),
  );

  const ejecutar = async (accion: AccionDef, lineas?: { id: number; cantidad: number }[], extra?: Record<string, unknown>) => {
    const body: Record<string, unknown> = { id: documento.id, ...extra };
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
            $variant={a.undoes || a.secundaria ? 'secondary' : 'primary'}
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
        <PorLineasDialog
          accion={asking}
          documento={documento}
          disponible={disponible}
          busy={busy}
          conAlbaranProveedor={def.hijo === 'albarancompra'}
          onCancel={() => setAsking(null)}
          onConfirm={(lineas, extra) => void ejecutar(asking, lineas, extra)}
        />
      )}
    </StyledBar>
  );
}

type Fila = { id: number; texto: string; ausente: boolean };

const cantidadOGuion = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatDecimal(v, 3, 0));

/** The words of the per-line dialog of each partial verb. */
type TextosPorLineas = {
  ayuda: string;
  tabla: string;
  columna: string;
  cantidad: (codigo: string) => string;
  /** The box that takes 0 of a line. */
  ausente: string;
  exceso: string;
};

const TEXTOS_POR_LINEAS: Partial<Record<AccionDef['verbo'], TextosPorLineas>> & { recibir: TextosPorLineas } = {
  recibir: {
    ayuda: 'Indique lo que llega de cada línea: por defecto todo lo pendiente. «Ausente» recibe 0 y la línea queda pendiente.',
    tabla: 'Líneas a recibir',
    columna: 'Recibido',
    cantidad: (c) => `Cantidad recibida de ${c}`,
    ausente: 'Ausente',
    exceso: MESSAGES.recibirMasDePendiente,
  },
  servir: {
    ayuda: 'Indique lo que sale de cada línea: por defecto todo lo pendiente. «No servir» sirve 0 y la línea queda pendiente. Lo servido sale en un albarán nuevo.',
    tabla: 'Líneas a servir',
    columna: 'Servido',
    cantidad: (c) => `Cantidad servida de ${c}`,
    ausente: 'No servir',
    exceso: MESSAGES.servirMasDePendiente,
  },
};

/**
 * A partial action by lines (recibir, servir): each line with its pending quantity, what goes (all by default) or
 * nothing ('Ausente', 'No servir'); with `disponible`, the stock available of each article beside.
 */
function PorLineasDialog({
  accion,
  documento,
  disponible,
  busy,
  conAlbaranProveedor = false,
  onCancel,
  onConfirm,
}: {
  accion: AccionDef;
  documento: Documento;
  disponible?: (articuloId: number) => number | null | undefined;
  busy: boolean;
  /** Recibir on a pedido de compra: the supplier's own delivery-note number goes with it, and more than ordered may be received once confirmed (issue 17). */
  conAlbaranProveedor?: boolean;
  onCancel: () => void;
  onConfirm: (lineas: { id: number; cantidad: number }[], extra?: Record<string, unknown>) => void;
}) {
  const titleId = useId();
  const textos = TEXTOS_POR_LINEAS[accion.verbo] ?? TEXTOS_POR_LINEAS.recibir;
  const pendientes = (documento.lineas ?? []).filter((l) => l.pendiente > 0);
  const todo = () => pendientes.map((l) => ({ id: l.id, texto: decimalInputText(l.pendiente, 3, 0), ausente: false }));
  const [filas, setFilas] = useState<Fila[]>(todo);
  const firstRef = useRef<HTMLButtonElement>(null);
  const tablaRef = useRef<HTMLDivElement>(null);
  // Opens on the first line's quantity (its first field); with nothing pending, on Cancelar.
  useLineasDialogTeclado(pendientes.length ? tablaRef : firstRef, onCancel, busy);

  // Issue 17: a supplier may deliver more than was ordered — received after a confirmation, never silently (a
  // transfer still receives at most what was sent).
  const recibir = accion.verbo === 'recibir' && conAlbaranProveedor;
  const [albaranProveedor, setAlbaranProveedor] = useState('');
  const [confirmandoExceso, setConfirmandoExceso] = useState(false);
  const cantidadDe = (f: Fila) => (f.ausente ? 0n : (parseDecimal(f.texto, 3) ?? 0n));
  const errorDe = (f: Fila, pendiente: number): string | null => {
    if (f.ausente) return null;
    const v = parseDecimal(f.texto, 3);
    if (v === null || v < 0n) return MESSAGES.invalidNumber;
    if (v > BigInt(pendiente) && !recibir) return textos.exceso;
    return null;
  };
  const errores = pendientes.map((l, i) => errorDe(filas[i], l.pendiente));
  const invalid = errores.some((e) => e !== null);
  const demas = recibir ? pendientes.filter((l, i) => cantidadDe(filas[i]) > BigInt(l.pendiente)) : [];
  const set = (i: number, patch: Partial<Fila>) => {
    setConfirmandoExceso(false);
    setFilas((fs) => fs.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  };

  const handleConfirm = () => {
    if (invalid) return;
    if (demas.length && !confirmandoExceso) {
      setConfirmandoExceso(true);
      return;
    }
    const extra: Record<string, unknown> = {};
    if (conAlbaranProveedor && albaranProveedor.trim()) extra.albaran_proveedor = albaranProveedor.trim();
    if (demas.length) extra.exceso = 1;
    onConfirm(
      pendientes.map((l, i) => ({ id: l.id, cantidad: Number(cantidadDe(filas[i])) })),
      Object.keys(extra).length ? extra : undefined,
    );
  };

  return (
    <LineasDialogBackdrop onClick={busy ? undefined : onCancel}>
      <LineasDialogBox role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <h2 id={titleId}>{accion.label}</h2>
        <p>{textos.ayuda}</p>
        {accion.confirm && <p>{accion.confirm}</p>}
        {pendientes.length === 0 ? (
          <p>No queda nada pendiente.</p>
        ) : (
          <div className="scroll" ref={tablaRef}>
            <table aria-label={textos.tabla}>
              <thead>
                <tr>
                  <th>Artículo</th>
                  <th className="num">Pendiente</th>
                  {disponible && <th className="num">Disponible</th>}
                  <th className="num">{textos.columna}</th>
                  <th>{textos.ausente}</th>
                </tr>
              </thead>
              <tbody>
                {pendientes.map((l, i) => (
                  <tr key={l.id}>
                    <td>
                      <strong>{l.codigo}</strong> {l.descripcion}
                    </td>
                    <td className="num">{formatDecimal(l.pendiente, 3, 0)}</td>
                    {disponible && <td className="num">{cantidadOGuion(disponible(l.articulo_id))}</td>}
                    <td className="num">
                      <CantidadLinea
                        label={textos.cantidad(l.codigo)}
                        error={errores[i]}
                        disabled={filas[i].ausente}
                        value={filas[i].ausente ? '0' : filas[i].texto}
                        onChange={(texto) => set(i, { texto })}
                        onEnter={handleConfirm}
                      />
                    </td>
                    <td>
                      <input type="checkbox" aria-label={`${textos.ausente} ${l.codigo}`} checked={filas[i].ausente} onChange={(e) => set(i, { ausente: e.target.checked })} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {conAlbaranProveedor && (
          <label className="ref">
            Albarán del proveedor{' '}
            <input type="text" maxLength={60} placeholder="Su número de albarán" value={albaranProveedor} onChange={(e) => setAlbaranProveedor(e.target.value)} />
          </label>
        )}
        {demas.length > 0 && (
          <p role={confirmandoExceso ? 'alert' : 'status'} className="exceso">
            {MESSAGES.recibirMasDeLoPedido}: {demas.map((l) => `${l.codigo} ${formatDecimal(cantidadDe(filas[pendientes.indexOf(l)]), 3, 0)} de ${formatDecimal(l.pendiente, 3, 0)}`).join(', ')}.
            {confirmandoExceso ? ' ¿Las recibe igualmente? Quedarán anotadas en el albarán.' : ''}
          </p>
        )}
        <div className="actions">
          <Button type="button" className="first" $variant="secondary" onClick={() => setFilas(todo())} disabled={busy || pendientes.length === 0}>
            {accion.label} todo
          </Button>
          <Button ref={firstRef} type="button" $variant="secondary" onClick={onCancel} disabled={busy}>
            Cancelar
          </Button>
          <Button type="button" onClick={handleConfirm} disabled={busy || invalid || pendientes.length === 0} aria-busy={busy}>
            {confirmandoExceso && demas.length ? 'Recibir de más' : accion.label}
          </Button>
        </div>
      </LineasDialogBox>
    </LineasDialogBackdrop>
  );
}
