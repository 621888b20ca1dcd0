import { useCallback, useMemo } from 'react';
import type { DocumentEditor } from 'shared';
import { useDisponibleVenta } from '../documentos/useDisponible';

/**
 * An invoice's stock available, like a pedido's or an albarán's, for its direct-sale lines (those without an origin:
 * their goods leave the warehouse when it is emitted; a line invoicing an albarán or a parte moved none). While a
 * draft the figure is what would be left once it is emitted — the warehouse's available less the draft's direct
 * quantities of the article — so a figure below zero warns before selling what is not there (with negative stock
 * refused in the configuration, emitting it is refused); once emitted, what is left. `enabled` false: rectificativas.
 */
export function useDisponibleFactura(editor: DocumentEditor, enabled: boolean) {
  const { form, documento, editable, lineas } = editor;
  const directas = useMemo(() => lineas.filter((l) => !l.origen_linea_id), [lineas]);
  const articuloIds = useMemo(() => directas.map((l) => l.articulo_id), [directas]);
  const disponible = useDisponibleVenta(form.values.almacen_id ?? '', articuloIds, { enabled, version: documento });
  // What the draft's direct lines will take, per article (thousandths; a quantity being typed counts as nothing).
  const aSalir = useMemo(() => {
    const m = new Map<number, bigint>();
    if (!editable) return m;
    for (const l of directas) if (typeof l.cantidad === 'bigint') m.set(l.articulo_id, (m.get(l.articulo_id) ?? 0n) + l.cantidad);
    return m;
  }, [directas, editable]);
  const consulta = useCallback(
    (id: number) => {
      const d = disponible?.(id);
      return d === undefined || d === null ? d : d - Number(aSalir.get(id) ?? 0n);
    },
    [disponible, aSalir],
  );
  return disponible ? consulta : undefined;
}
