import { useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  Button,
  DOCUMENTO_TIPOS,
  FormSection,
  Tabla,
  formatDate,
  formatDecimal,
  formatPrecio,
  formatMoney,
  importeLinea,
  lineaDesdeDocumento,
  useShell,
  type ApiClient,
  type Documento,
  type DocumentoFila,
  type DocumentoLinea,
  type LineaEditable,
  type SelectOption,
  type TipoFactura,
} from 'shared';
import { TIPOS_RECTIFICATIVA } from './pantallas';

/** The types a rectificativa may correct: an emitted invoice, or an emitted rectificativa. */
const CORREGIBLES = [DOCUMENTO_TIPOS.factura, DOCUMENTO_TIPOS.rectificativa];

/** An invoice to correct with its lines, by id (a factura first, else a rectificativa); null when there is none. */
export async function leerFacturaRectificada(api: ApiClient, id: number | string): Promise<Documento | null> {
  for (const def of CORREGIBLES) {
    try {
      const res = await api.get<Documento>(`listado${def.plural}`, { id });
      if (res.RESULT === '0' && res.data?.[0]) return res.data[0];
    } catch {
      // Try the other type.
    }
  }
  return null;
}

/** The kinds a rectificativa of this invoice may have: R5 for a simplified one (F2, or an R5), R1-R4 otherwise. */
export function tiposPermitidos(tipoFactura: TipoFactura | null | undefined): TipoFactura[] {
  if (!tipoFactura) return [...TIPOS_RECTIFICATIVA];
  return tipoFactura === 'F2' || tipoFactura === 'R5' ? ['R5'] : ['R1', 'R2', 'R3', 'R4'];
}

/**
 * Lines of a rectificativa from the invoice's: linked to them (`origen_linea_id`), as they are (substitution)
 * or with the quantity negative (differences: the whole line taken back, to be adjusted).
 */
export function lineasDesdeFactura(lineas: readonly DocumentoLinea[], signo: 1 | -1): LineaEditable[] {
  return lineas.map((l) => {
    const { id: _id, pendiente: _pendiente, ...rest } = lineaDesdeDocumento(l);
    return { ...rest, cantidad: BigInt(signo * l.cantidad), origen_linea_id: l.id };
  });
}

/** A corrected invoice in the select: number, date and total. */
const opcionFactura = (d: Pick<Documento, 'id' | 'numero' | 'fecha' | 'total'>): SelectOption => ({
  value: String(d.id),
  label: `${d.numero} · ${formatDate(d.fecha)} · ${formatMoney(d.total)}`,
});

/**
 * The emitted invoices (and rectificativas) of a customer, newest first, for the «Factura rectificada»
 * select; the document's own choice stays among them even if it isn't in the page read.
 */
export function useFacturasCliente(clienteId: string, actual: { id: number; numero: string } | null) {
  const { api } = useShell();
  const [filas, setFilas] = useState<DocumentoFila[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!clienteId) {
      setFilas([]);
      return;
    }
    let live = true;
    setLoading(true);
    const params = { cliente_id: clienteId, estado: 'emitida', pagina: 1, porPagina: 100, orden: 'fecha', dir: 'desc' as const };
    Promise.all(CORREGIBLES.map((def) => api.get<DocumentoFila>(`listado${def.plural}`, params).catch(() => null)))
      .then((answers) => {
        if (!live) return;
        const rows = answers.flatMap((r) => (r?.RESULT === '0' ? (r.data ?? []) : []));
        rows.sort((a, b) => (a.fecha < b.fecha ? 1 : a.fecha > b.fecha ? -1 : b.id - a.id));
        setFilas(rows);
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [api, clienteId]);
  const options = filas.map(opcionFactura);
  if (actual && !filas.some((f) => f.id === actual.id)) options.unshift({ value: String(actual.id), label: actual.numero });
  return { filas, options, loading };
}

const StyledLineas = styled.div`
  overflow-x: auto;
  .desc { color: ${({ theme }) => theme.gray[600]}; font-size: 13px; }
  ${({ theme }) => theme.phone} {
    .precio { display: none; }
  }
`;

type LineasFacturaProps = {
  factura: Documento;
  /** Lines of the rectificativa: those already linked to an invoice line show as added. */
  lineas: readonly LineaEditable[];
  onAdd: (lineas: LineaEditable[]) => void;
  /** Lines of another document that stand for an invoice line (a devolución's: devolución line id → invoice line id). */
  equivalentes?: ReadonlyMap<number, number>;
};

/**
 * A rectificativa by differences: the corrected invoice's lines, each one added with its quantity negative
 * (what is taken back; the clerk then leaves only what changes: fewer units, a lower price).
 */
export function LineasFacturaRectificada({ factura, lineas, onAdd, equivalentes }: LineasFacturaProps) {
  const propias = factura.lineas ?? [];
  const enlazadas = new Set(lineas.map((l) => (l.origen_linea_id ? (equivalentes?.get(l.origen_linea_id) ?? l.origen_linea_id) : null)).filter(Boolean));
  const libres = propias.filter((l) => !enlazadas.has(l.id));
  return (
    <FormSection
      title={`Líneas de la factura ${factura.numero}`}
      description="Añada las líneas que cambian: entran en negativo (lo que se anula de ellas); ajuste después la cantidad o el precio."
      aside={
        <Button type="button" $variant="secondary" $small disabled={libres.length === 0} onClick={() => onAdd(lineasDesdeFactura(libres, -1))}>
          Añadir todas
        </Button>
      }
    >
      <StyledLineas>
        <Tabla aria-label="Líneas de la factura rectificada">
          <thead>
            <tr>
              <th>Artículo</th>
              <th className="num">Cantidad</th>
              <th className="num precio">Precio</th>
              <th className="num">Importe</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {propias.map((l) => (
              <tr key={l.id}>
                <td>
                  <strong>{l.codigo}</strong> <span className="desc">{l.descripcion}</span>
                </td>
                <td className="num">{formatDecimal(l.cantidad, 3, 0)}</td>
                <td className="num precio">{formatPrecio(l.precio)}</td>
                <td className="num">{formatMoney(importeLinea({ cantidad: BigInt(l.cantidad), precio: BigInt(l.precio), descuento: BigInt(l.descuento ?? 0) }))}</td>
                <td className="num">
                  {enlazadas.has(l.id) ? (
                    <span className="desc">Añadida</span>
                  ) : (
                    <Button type="button" $variant="secondary" $small aria-label={`Rectificar ${l.codigo}`} onClick={() => onAdd(lineasDesdeFactura([l], -1))}>
                      Rectificar
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Tabla>
      </StyledLineas>
    </FormSection>
  );
}
