import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import {
  Button,
  decimalInputText,
  formatDecimal,
  hoyIso,
  parseDecimal,
  useAction,
  useShell,
  type Documento,
  type DocumentoLinea,
  type LineaInput,
} from 'shared';

const StyledBackdrop = styled.div`
  position: fixed;
  inset: 0;
  background: rgb(15 23 42 / 0.45);
  display: grid;
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
  p { margin: 0; color: ${({ theme }) => theme.gray[600]}; font-size: 14px; }
  .scroll { overflow: auto; border: 1px solid ${({ theme }) => theme.gray[200]}; border-radius: 6px; }
  table { width: 100%; border-collapse: collapse; font-size: 14px; }
  th, td { padding: 6px 8px; border-bottom: 1px solid ${({ theme }) => theme.gray[100]}; text-align: left; }
  th { background: ${({ theme }) => theme.gray[50]}; font-size: 12px; color: ${({ theme }) => theme.gray[600]}; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  input.dec { font: inherit; width: 100px; text-align: right; padding: 5px 7px; border-radius: 6px; border: 1px solid ${({ theme }) => theme.gray[300]}; }
  input.dec[aria-invalid='true'] { border-color: ${({ theme }) => theme.danger}; }
  input[type='checkbox'] { width: 18px; height: 18px; }
  .err { color: ${({ theme }) => theme.danger}; font-size: 12px; display: block; }
  .actions { display: flex; justify-content: flex-end; gap: 8px; flex-wrap: wrap; }
`;

export const MAS_QUE_RECIBIDO = 'No se puede devolver más de lo recibido y no devuelto';
const NUMERO = 'Debe ser un número válido';

type Fila = { linea: DocumentoLinea; disponible: number; elegida: boolean; texto: string };

function newUuid(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}

/**
 * What each line of the albarán already returned: the server's `devuelto` when it says, else the
 * lines of its devoluciones (`hijos`) that point at it (`origen_linea_id`).
 */
async function devueltoPorLinea(get: (id: number) => Promise<Documento | null>, albaran: Documento): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const lineas = albaran.lineas ?? [];
  if (lineas.every((l) => l.devuelto !== undefined)) {
    for (const l of lineas) out.set(l.id, l.devuelto ?? 0);
    return out;
  }
  const devoluciones = (albaran.hijos ?? []).filter((h) => h.tipo === 'devolucioncompra');
  const docs = await Promise.all(devoluciones.map((h) => get(h.id)));
  for (const d of docs)
    for (const l of d?.lineas ?? []) if (l.origen_linea_id) out.set(l.origen_linea_id, (out.get(l.origen_linea_id) ?? 0) + l.cantidad);
  return out;
}

/**
 * «Devolver…» on an albarán de compra: choose lines and quantities (at most what was received and
 * not yet returned); creates the devolución (`editardevolucioncompra`, each line with its
 * `origen_linea_id`) and hands it back.
 */
export function DevolverDialog({ albaran, onCancel, onCreated }: { albaran: Documento; onCancel: () => void; onCreated: (devolucion: Documento) => void }) {
  const { api } = useShell();
  const { run, busy } = useAction();
  const titleId = useId();
  const [filas, setFilas] = useState<Fila[] | null>(null);
  const clave = useRef(newUuid());
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    const get = async (id: number) => {
      const res = await api.get<Documento>('listadodevolucionescompra', { id });
      return res.RESULT === '0' ? (res.data?.[0] ?? null) : null;
    };
    devueltoPorLinea(get, albaran)
      .catch(() => new Map<number, number>())
      .then((devuelto) => {
        if (!live) return;
        setFilas(
          (albaran.lineas ?? []).map((l) => {
            const disponible = Math.max(0, l.cantidad - (devuelto.get(l.id) ?? 0));
            return { linea: l, disponible, elegida: false, texto: decimalInputText(disponible, 3, 0) };
          }),
        );
      });
    return () => {
      live = false;
    };
  }, [api, albaran]);

  useEffect(() => {
    cancelRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !busy) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [busy, onCancel]);

  const errorDe = (f: Fila): string | null => {
    if (!f.elegida) return null;
    const v = parseDecimal(f.texto, 3);
    if (v === null || v <= 0n) return NUMERO;
    if (v > BigInt(f.disponible)) return MAS_QUE_RECIBIDO;
    return null;
  };
  const errores = (filas ?? []).map(errorDe);
  const elegidas = (filas ?? []).filter((f) => f.elegida);
  const invalid = errores.some((e) => e !== null) || elegidas.length === 0;
  const set = (i: number, patch: Partial<Fila>) => setFilas((fs) => (fs ? fs.map((f, j) => (j === i ? { ...f, ...patch } : f)) : fs));

  const confirmar = async () => {
    if (invalid || !filas) return;
    const lineas: LineaInput[] = elegidas.map((f) => ({
      articulo_id: f.linea.articulo_id,
      cantidad: Number(parseDecimal(f.texto, 3) ?? 0n),
      precio: f.linea.precio,
      descuento: f.linea.descuento,
      descripcion: f.linea.descripcion,
      origen_linea_id: f.linea.id,
    }));
    const outcome = await run<Documento>('editardevolucioncompra', {
      fecha: hoyIso(),
      proveedor_id: albaran.proveedor_id,
      almacen_id: albaran.almacen_id,
      forma_pago: albaran.forma_pago,
      retencion: albaran.retencion,
      observaciones: `Devolución del albarán ${albaran.numero}`,
      clave: clave.current,
      lineas,
    });
    if (outcome.ok && outcome.data[0]) onCreated(outcome.data[0]);
  };

  return (
    <StyledBackdrop onClick={busy ? undefined : onCancel}>
      <StyledDialog role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <h2 id={titleId}>Devolver mercancía del albarán {albaran.numero}</h2>
        <p>Marque las líneas que devuelve y la cantidad de cada una: como mucho lo recibido y aún no devuelto. El stock saldrá del almacén.</p>
        {filas === null ? (
          <p role="status">Cargando…</p>
        ) : (
          <div className="scroll">
            <table aria-label="Líneas a devolver">
              <thead>
                <tr>
                  <th>Devolver</th>
                  <th>Artículo</th>
                  <th className="num">Recibido</th>
                  <th className="num">Puede devolver</th>
                  <th className="num">Cantidad</th>
                </tr>
              </thead>
              <tbody>
                {filas.map((f, i) => (
                  <tr key={f.linea.id}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Devolver ${f.linea.codigo}`}
                        checked={f.elegida}
                        disabled={f.disponible <= 0}
                        onChange={(e) => set(i, { elegida: e.target.checked })}
                      />
                    </td>
                    <td>
                      <strong>{f.linea.codigo}</strong> {f.linea.descripcion}
                    </td>
                    <td className="num">{formatDecimal(f.linea.cantidad, 3, 0)}</td>
                    <td className="num">{formatDecimal(f.disponible, 3, 0)}</td>
                    <td className="num">
                      <input
                        className="dec"
                        inputMode="decimal"
                        aria-label={`Cantidad a devolver de ${f.linea.codigo}`}
                        aria-invalid={!!errores[i]}
                        disabled={!f.elegida}
                        value={f.texto}
                        onFocus={(e) => e.currentTarget.select()}
                        onChange={(e) => set(i, { texto: e.target.value })}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter') {
                            e.preventDefault();
                            void confirmar();
                          }
                        }}
                      />
                      {errores[i] && (
                        <span className="err" role="alert">
                          {errores[i]}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="actions">
          <Button ref={cancelRef} type="button" $variant="secondary" onClick={onCancel} disabled={busy}>
            Cancelar
          </Button>
          <Button type="button" onClick={() => void confirmar()} disabled={busy || invalid} aria-busy={busy}>
            Crear devolución
          </Button>
        </div>
      </StyledDialog>
    </StyledBackdrop>
  );
}
