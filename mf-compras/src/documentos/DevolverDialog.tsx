import { useEffect, useId, useRef, useState } from 'react';
import {
  Button,
  LineasDialogBackdrop,
  LineasDialogBox,
  MESSAGES,
  nuevaClave,
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

type Fila = { linea: DocumentoLinea; disponible: number; elegida: boolean; texto: string };

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
  const clave = useRef(nuevaClave());
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
    if (v === null || v <= 0n) return MESSAGES.invalidNumber;
    if (v > BigInt(f.disponible)) return MESSAGES.devolverMasDeRecibido;
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
    <LineasDialogBackdrop onClick={busy ? undefined : onCancel}>
      <LineasDialogBox role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
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
      </LineasDialogBox>
    </LineasDialogBackdrop>
  );
}
