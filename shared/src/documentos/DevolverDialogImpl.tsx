import { useEffect, useId, useRef, useState } from 'react';
import { useShell } from '../context';
import { parseDecimal } from '../domain/decimal';
import { DOCUMENTO_TIPOS, type Documento, type DocumentoLinea, type DocumentoTipoDef, type LineaInput } from '../domain/documentos';
import { formatDecimal } from '../domain/format';
import { MESSAGES } from '../domain/messages';
import { useAction } from '../hooks/useApi';
import { decimalInputText } from '../ui/inputs';
import { Button } from '../ui/primitives';
import { CantidadLinea, LineasDialogBackdrop, LineasDialogBox, useLineasDialogTeclado } from './LineasDialog';
import { TERCEROS } from './terceros';
import { hoyIso, nuevaClave } from './useDocumentEditor';

type Fila = { linea: DocumentoLinea; disponible: number; elegida: boolean; texto: string };

export type DevolverDialogProps = {
  /** The albarán or invoice read with its lines (`&id=`), with its `hijos`. */
  origen: Documento;
  /** The return type created (devolucioncompra, devolucionventa). */
  devolucion: DocumentoTipoDef;
  onCancel: () => void;
  onCreated: (devolucion: Documento) => void;
};

/** An invoice's negative lines (returned units invoiced) are not goods to return. */
const esDevolvible = (l: DocumentoLinea) => l.cantidad > 0;

/**
 * What each line of the origin already returned: the server's `devuelto` when it says, else the
 * lines of its devoluciones (`hijos`) that point at it (`origen_linea_id`).
 */
async function devueltoPorLinea(get: (id: number) => Promise<Documento | null>, origen: Documento, tipo: string): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const lineas = (origen.lineas ?? []).filter(esDevolvible);
  if (lineas.every((l) => l.devuelto !== undefined)) {
    for (const l of lineas) out.set(l.id, l.devuelto ?? 0);
    return out;
  }
  const devoluciones = (origen.hijos ?? []).filter((h) => h.tipo === tipo);
  const docs = await Promise.all(devoluciones.map((h) => get(h.id)));
  for (const d of docs)
    for (const l of d?.lineas ?? []) if (l.origen_linea_id) out.set(l.origen_linea_id, (out.get(l.origen_linea_id) ?? 0) + l.cantidad);
  return out;
}

/** The return dialog's implementation (see DevolverDialog.tsx). */
export default function DevolverDialogImpl({ origen, devolucion, onCancel, onCreated }: DevolverDialogProps) {
  const { api } = useShell();
  const compra = devolucion.lineas === 'compra';
  const def = DOCUMENTO_TIPOS[origen.tipo];
  const de = `${def?.femenino ? 'de la' : 'del'} ${(def?.singular ?? origen.tipo).toLowerCase()} ${origen.numero}`;
  const tercero = devolucion.tercero ? TERCEROS[devolucion.tercero].param : null;
  const { run, busy } = useAction();
  const titleId = useId();
  const [filas, setFilas] = useState<Fila[] | null>(null);
  const clave = useRef(nuevaClave());
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    const get = async (id: number) => {
      const res = await api.get<Documento>(`listado${devolucion.plural}`, { id });
      return res.RESULT === '0' ? (res.data?.[0] ?? null) : null;
    };
    devueltoPorLinea(get, origen, devolucion.tipo)
      .catch(() => new Map<number, number>())
      .then((devuelto) => {
        if (!live) return;
        setFilas(
          (origen.lineas ?? []).filter(esDevolvible).map((l) => {
            const disponible = Math.max(0, l.cantidad - (devuelto.get(l.id) ?? 0));
            return { linea: l, disponible, elegida: false, texto: decimalInputText(disponible, 3, 0) };
          }),
        );
      });
    return () => {
      live = false;
    };
  }, [api, origen, devolucion]);

  useLineasDialogTeclado(cancelRef, onCancel, busy);

  const errorDe = (f: Fila): string | null => {
    if (!f.elegida) return null;
    const v = parseDecimal(f.texto, 3);
    if (v === null || v <= 0n) return MESSAGES.invalidNumber;
    if (v > BigInt(f.disponible)) return compra ? MESSAGES.devolverMasDeRecibido : MESSAGES.devolverMasDeVendido;
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
    const outcome = await run<Documento>(`editar${devolucion.entidad}`, {
      fecha: hoyIso(),
      ...(tercero ? { [tercero]: origen[tercero] } : {}),
      almacen_id: origen.almacen_id,
      forma_pago: origen.forma_pago,
      retencion: origen.retencion,
      observaciones: `Devolución ${de}`,
      clave: clave.current,
      lineas,
    });
    if (outcome.ok && outcome.data[0]) onCreated(outcome.data[0]);
  };

  return (
    <LineasDialogBackdrop onClick={busy ? undefined : onCancel}>
      <LineasDialogBox role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <h2 id={titleId}>Devolver mercancía {de}</h2>
        <p>
          {compra
            ? 'Marque las líneas que devuelve y la cantidad de cada una: como mucho lo recibido y aún no devuelto. El stock saldrá del almacén.'
            : 'Marque las líneas que le devuelven y la cantidad de cada una: como mucho lo vendido y aún no devuelto. El stock volverá al almacén.'}
        </p>
        {filas === null ? (
          <p role="status">Cargando…</p>
        ) : (
          <div className="scroll">
            <table aria-label="Líneas a devolver">
              <thead>
                <tr>
                  <th>Devolver</th>
                  <th>Artículo</th>
                  <th className="num">{compra ? 'Recibido' : 'Vendido'}</th>
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
                      <CantidadLinea
                        label={`Cantidad a devolver de ${f.linea.codigo}`}
                        error={errores[i]}
                        disabled={!f.elegida}
                        value={f.texto}
                        onChange={(texto) => set(i, { texto })}
                        onEnter={() => void confirmar()}
                      />
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
