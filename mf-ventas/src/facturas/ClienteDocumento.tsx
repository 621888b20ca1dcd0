import { useCallback, useMemo, useState } from 'react';
import type { ArticuloLinea, DocumentEditor, TerceroDocumentoFila } from 'shared';
import { precioTarifa, useCliente, useOperacionCliente, type CondicionesCliente } from './datos';

/**
 * The customer of a sales document's screen, for what the shared header doesn't do with it: the one picked in the
 * header (`DocumentRecordPage`'s `onTercero`) or named by the screen, else the saved one read by id; from it, the
 * new lines' price (its tariff) and discount, and the totals' recargo (the saved document's until another customer
 * is chosen) and retención.
 */
export function useClienteDocumento(editor: DocumentEditor) {
  const { form, documento, editable } = editor;
  const id = form.values.cliente_id ?? '';
  // Picked or named here: its id, its name and (a row of listadoclientes) its terms.
  const [elegido, setElegido] = useState<{ id: string; nombre: string; condiciones: CondicionesCliente | null } | null>(null);
  const cliente = useCliente(id, elegido?.id === id ? elegido.condiciones : null);
  const operacion = useOperacionCliente(cliente);
  const guardado = !!documento && String(documento.cliente_id) === id;

  const retencion = Number(form.values.retencion) || 0;
  const recargo = guardado ? documento?.con_recargo === 1 : cliente?.recargo === 1;
  const opcionesTotales = useMemo(() => ({ retencion, recargo }), [retencion, recargo]);
  const tarifa = cliente?.tarifa ?? 1;
  const precioArticulo = useCallback((a: ArticuloLinea) => precioTarifa(a, tarifa), [tarifa]);

  /** `onTercero`: the customer picked in the header (a row of listadoclientes, with its terms). */
  const elegir = useCallback((c: TerceroDocumentoFila) => setElegido({ id: String(c.id), nombre: c.razon_social, condiciones: c as CondicionesCliente }), []);
  /** A customer the screen sets by id and name (the invoice a rectificativa corrects): its terms are read. */
  const nombrar = useCallback((clienteId: string, nombre: string) => setElegido({ id: clienteId, nombre, condiciones: null }), []);

  return {
    cliente,
    /** The name of a customer named by the screen (DocumentRecordPage's `terceroNombre`). */
    nombre: elegido?.id === id ? elegido.nombre : undefined,
    elegir,
    nombrar,
    /** The lines editor's options that come from the customer. */
    lineas: { opcionesTotales, precioArticulo, descuentoPorDefecto: editable ? cliente?.descuento : undefined, operacionPorDefecto: operacion },
  };
}
