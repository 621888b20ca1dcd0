import { DOCUMENTO_TIPOS, lineaDesdeDocumento, type ApiClient, type Documento, type DocumentoEnlace, type DocumentoLinea, type LineaEditable } from 'shared';

/** Why a devolución can't be settled by a rectificativa from this screen. */
export const AVISOS_DEVOLUCION = {
  noEncontrada: 'No se ha encontrado la devolución',
  yaFacturada: 'La devolución ya está facturada',
  sinFactura: 'La mercancía de esta devolución no está en ninguna factura emitida: se factura en negativo con la facturación de albaranes',
  otraFactura: 'Algunas líneas de la devolución no están en esta factura: quedan fuera de la rectificativa',
} as const;

/** A parent of a devolución whose goods were already invoiced: an invoice, or an albarán already invoiced (Finalizado). */
export const padreFacturado = (p: DocumentoEnlace) =>
  p.tipo === 'factura' || p.tipo === 'rectificativa' || (p.tipo === 'albaranventa' && p.estado === 'finalizado');

/** What a rectificativa of a devolución starts with: the invoice its goods were invoiced in and its lines. */
export type DevolucionARectificar = {
  devolucion: Documento;
  factura: Documento;
  lineas: LineaEditable[];
  /** Invoice line each devolución line stands for (devolución line id → invoice line id). */
  equivalentes: Map<number, number>;
  /** Some lines were invoiced in another invoice and are left out. */
  incompleta: boolean;
};

/**
 * Reads a devolución de venta and finds the emitted invoice its goods were invoiced in, from its lines'
 * origins: an invoice line directly, or the invoice line made from the albarán line it returns (the
 * albarán's `hijos`). Answers the rectificativa's lines: each devolución line negative, linked to it by
 * `origen_linea_id`, at the invoice line's price and discount; or why it can't (a message).
 */
export async function leerDevolucionARectificar(api: ApiClient, id: number | string): Promise<DevolucionARectificar | string> {
  const leidos = new Map<string, Promise<Documento | null>>();
  const leer = (plural: string, docId: number | string) => {
    const clave = `${plural}:${docId}`;
    let p = leidos.get(clave);
    if (!p) {
      p = api
        .get<Documento>(`listado${plural}`, { id: docId })
        .then((r) => (r.RESULT === '0' && r.data?.[0] ? r.data[0] : null))
        .catch(() => null);
      leidos.set(clave, p);
    }
    return p;
  };

  const devolucion = await leer(DOCUMENTO_TIPOS.devolucionventa.plural, id);
  if (!devolucion) return AVISOS_DEVOLUCION.noEncontrada;
  if (devolucion.estado !== DOCUMENTO_TIPOS.devolucionventa.inicial) return AVISOS_DEVOLUCION.yaFacturada;
  const lineasDev = devolucion.lineas ?? [];
  const origenes = new Set(lineasDev.map((l) => l.origen_linea_id).filter((o): o is number => !!o));

  // The invoice line of each returned line (by the returned line's id).
  const facturadas = new Map<number, { factura: Documento; linea: DocumentoLinea }>();
  const anotar = (factura: Documento, linea: DocumentoLinea, origen: number) => {
    if (factura.estado === 'emitida' && !facturadas.has(origen)) facturadas.set(origen, { factura, linea });
  };
  for (const p of devolucion.padres ?? []) {
    if (p.tipo === 'factura' || p.tipo === 'rectificativa') {
      const f = await leer(DOCUMENTO_TIPOS[p.tipo].plural, p.id);
      for (const l of f?.lineas ?? []) if (f && origenes.has(l.id)) anotar(f, l, l.id);
    } else if (p.tipo === 'albaranventa') {
      const albaran = await leer(DOCUMENTO_TIPOS.albaranventa.plural, p.id);
      const devueltas = new Set((albaran?.lineas ?? []).filter((l) => origenes.has(l.id)).map((l) => l.id));
      for (const h of albaran?.hijos ?? []) {
        if (h.tipo !== 'factura') continue;
        const f = await leer(DOCUMENTO_TIPOS.factura.plural, h.id);
        for (const l of f?.lineas ?? []) if (f && l.origen_linea_id && devueltas.has(l.origen_linea_id)) anotar(f, l, l.origen_linea_id);
      }
    }
  }

  // The invoice that holds most of the returned lines.
  const cuenta = new Map<number, { factura: Documento; n: number }>();
  for (const l of lineasDev) {
    const f = l.origen_linea_id ? facturadas.get(l.origen_linea_id)?.factura : undefined;
    if (f) cuenta.set(f.id, { factura: f, n: (cuenta.get(f.id)?.n ?? 0) + 1 });
  }
  const factura = [...cuenta.values()].sort((a, b) => b.n - a.n)[0]?.factura;
  if (!factura) return AVISOS_DEVOLUCION.sinFactura;

  const equivalentes = new Map<number, number>();
  const lineas: LineaEditable[] = [];
  for (const l of lineasDev) {
    const facturada = l.origen_linea_id ? facturadas.get(l.origen_linea_id) : undefined;
    if (!facturada || facturada.factura.id !== factura.id) continue;
    const { id: _id, pendiente: _pendiente, ...rest } = lineaDesdeDocumento(l);
    equivalentes.set(l.id, facturada.linea.id);
    lineas.push({
      ...rest,
      cantidad: BigInt(-Math.abs(l.cantidad)),
      precio: BigInt(facturada.linea.precio),
      descuento: BigInt(facturada.linea.descuento ?? 0),
      origen_linea_id: l.id,
    });
  }
  return { devolucion, factura, lineas, equivalentes, incompleta: lineas.length < lineasDev.length };
}
