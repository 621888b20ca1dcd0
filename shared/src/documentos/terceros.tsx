import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import styled from 'styled-components';
import type { ApiClient } from '../api/client';
import { rutaDocumento, DOCUMENTO_TIPOS, estadoLabel, type Documento, type DocumentoEnlace, type DocumentoTipoDef } from '../domain/documentos';
import { formatDate } from '../domain/format';
import { terceroPdf, terceroPdfDe, type DocumentosPdfOptions } from '../io/documentosPdf';
import { SearchPicker, type PickerOption } from '../ui/inputs';
import { Button } from '../ui/primitives';
import { useShell } from '../context';
import type { Theme } from '../ui/theme';

type T = { theme: Theme };

/** How a document's party is searched, filtered and named (docs/documentos.md: `proveedor_id` / `cliente_id`). */
export type TerceroDef = {
  /** 'Proveedor', 'Cliente'. */
  label: string;
  /** 'Proveedores', 'Clientes'. */
  plural: string;
  /** Entity of its own actions: editar<entidad>, eliminar<entidad>. */
  entidad: 'proveedor' | 'cliente';
  /** Letter of the codes given when none is typed: P0001, C0001. */
  prefijoCodigo: string;
  /** The listing searched with `q`. */
  ac: string;
  /** The header field and the list filter. */
  param: 'proveedor_id' | 'cliente_id';
  /** The name the documents answer. */
  nombre: 'proveedor_nombre' | 'cliente_nombre';
};

export const TERCEROS: Record<NonNullable<DocumentoTipoDef['tercero']>, TerceroDef> = {
  proveedor: {
    label: 'Proveedor',
    plural: 'Proveedores',
    entidad: 'proveedor',
    prefijoCodigo: 'P',
    ac: 'listadoproveedores',
    param: 'proveedor_id',
    nombre: 'proveedor_nombre',
  },
  cliente: { label: 'Cliente', plural: 'Clientes', entidad: 'cliente', prefijoCodigo: 'C', ac: 'listadoclientes', param: 'cliente_id', nombre: 'cliente_nombre' },
};

/** A party row as the listings answer it (proveedores, clientes). */
export type TerceroFila = { id: number; codigo?: string | null; nif?: string | null; razon_social: string; nombre_comercial?: string | null; activo?: 0 | 1 };

/** A party row as a document's header picks it: with its terms, the document's defaults. */
export type TerceroDocumentoFila = TerceroFila & { forma_pago?: string | null; retencion?: number | null };

/**
 * Issue 26: a screen started from the party's record («Nuevo pedido», «Nueva factura» on a customer or a supplier)
 * comes with `?cliente_id=` / `?proveedor_id=`: the party is read and handed to `onPick` once, as if it had been
 * picked on the screen (its terms with it). `listo` false holds it back (the screen still loading, not a new one).
 */
export function useTerceroPreelegido(tercero: TerceroDef | null, onPick: (t: TerceroDocumentoFila) => void, listo = true) {
  const { api } = useShell();
  const [search] = useSearchParams();
  const hecho = useRef(false);
  const pick = useRef(onPick);
  pick.current = onPick;
  const id = tercero ? Number(search.get(tercero.param)) : Number.NaN;
  useEffect(() => {
    if (!listo || hecho.current || !tercero || !Number.isInteger(id) || id <= 0) return;
    hecho.current = true;
    void api
      .get<TerceroDocumentoFila>(tercero.ac, { id })
      .then((r) => {
        const t = r.RESULT === '0' ? r.data?.[0] : undefined;
        if (t) pick.current(t);
      })
      .catch(() => {});
  }, [api, id, listo, tercero]);
}

/** A party in a picker: razón social (nombre comercial), with código and NIF beside. */
export function terceroOption(t: TerceroFila): PickerOption {
  return {
    value: String(t.id),
    label: t.nombre_comercial && t.nombre_comercial !== t.razon_social ? `${t.razon_social} (${t.nombre_comercial})` : t.razon_social,
    detail: [t.codigo, t.nif].filter(Boolean).join(' · '),
  };
}

const StyledTercero = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  min-width: 0;
  .chosen { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; min-height: 38px; }
  .label { font-size: 13px; font-weight: 600; color: ${({ theme }: T) => theme.gray[700]}; }
  .req { color: ${({ theme }: T) => theme.danger}; margin-left: 2px; }
  .name { font-weight: 600; }
`;

export type TerceroFieldProps<R extends TerceroFila> = {
  tercero: TerceroDef;
  /** The chosen party's id ('' when none) and its name as shown. */
  value: string;
  nombre?: string | null;
  onPick: (row: R) => void;
  /** Clears the choice; without it, a chosen party is changed by searching another. */
  onClear?: () => void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  /** Fixed filters of the search (default: active ones). */
  params?: Record<string, string | number>;
  label?: string;
  /** Takes the focus when the screen opens with no party chosen (a new document). */
  autoFocus?: boolean;
};

/**
 * The party of a document (or of a filter): its name once chosen, and a server search (razón
 * social, nombre comercial, código, NIF) to choose or change it; Intro picks the highlighted one.
 */
export function TerceroField<R extends TerceroFila>({
  tercero,
  value,
  nombre,
  onPick,
  onClear,
  error,
  required,
  disabled,
  params = { activo: 1 },
  label = tercero.label,
  autoFocus,
}: TerceroFieldProps<R>) {
  const chosen = value !== '';
  if (disabled)
    return (
      <StyledTercero>
        <span className="label">{label}</span>
        <div className="chosen">
          <span className="name" data-testid="tercero">
            {nombre ?? ''}
          </span>
        </div>
      </StyledTercero>
    );
  return (
    <StyledTercero>
      {chosen && (
        <div className="chosen">
          <span className="name" data-testid="tercero">
            {nombre || `#${value}`}
          </span>
          {onClear && (
            <Button type="button" $variant="ghost" $small onClick={onClear} aria-label={`Quitar ${label.toLowerCase()}`}>
              ✕
            </Button>
          )}
        </div>
      )}
      <SearchPicker<R>
        label={
          <>
            {chosen ? `Cambiar ${label.toLowerCase()}` : label}
            {required && !chosen && <span className="req">*</span>}
          </>
        }
        ac={tercero.ac}
        params={params}
        toOption={terceroOption}
        onPick={onPick}
        exclude={chosen ? [value] : []}
        placeholder="Razón social, nombre comercial, código o NIF…"
        error={error}
        autoFocus={autoFocus && !chosen}
      />
    </StyledTercero>
  );
}

const StyledEnlaces = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 6px 14px;
  align-items: baseline;
  padding: 10px 12px;
  border: 1px solid ${({ theme }: T) => theme.gray[200]};
  border-radius: ${({ theme }: T) => theme.radius};
  background: #fff;
  font-size: 14px;
  .k { font-size: 13px; color: ${({ theme }: T) => theme.gray[500]}; }
  a { font-weight: 600; color: ${({ theme }: T) => theme.primary[700]}; }
  .s { color: ${({ theme }: T) => theme.gray[500]}; font-size: 13px; }
`;

function Enlace({ e }: { e: DocumentoEnlace }) {
  const def = DOCUMENTO_TIPOS[e.tipo];
  const to = rutaDocumento(e.tipo, e.id);
  const text = `${def?.singular ?? e.tipo} ${e.numero}`;
  return (
    <span>
      {to ? <Link to={to}>{text}</Link> : text}
      {(e.fecha || e.estado) && (
        <span className="s">
          {' '}
          ({[e.fecha ? formatDate(e.fecha) : null, e.estado && def ? estadoLabel(def, e.estado) : null].filter(Boolean).join(' · ')})
        </span>
      )}
    </span>
  );
}

/** The documents linked to one (`padres`: where it comes from; `hijos`: what was made from it), each a link to its record. */
export function DocumentLinks({ padres = [], hijos = [] }: { padres?: DocumentoEnlace[]; hijos?: DocumentoEnlace[] }) {
  if (padres.length === 0 && hijos.length === 0) return null;
  return (
    <StyledEnlaces aria-label="Documentos relacionados">
      {padres.length > 0 && (
        <>
          <span className="k">Procede de</span>
          {padres.map((e) => (
            <Enlace key={`${e.tipo}-${e.id}`} e={e} />
          ))}
        </>
      )}
      {hijos.length > 0 && (
        <>
          <span className="k">Documentos generados</span>
          {hijos.map((e) => (
            <Enlace key={`${e.tipo}-${e.id}`} e={e} />
          ))}
        </>
      )}
    </StyledEnlaces>
  );
}

/** The party of a document: its listing and id (a supplier's or a customer's), none for warehouse documents. */
function terceroDe(d: Documento): { ac: string; id: number } | null {
  if (d.proveedor_id) return { ac: TERCEROS.proveedor.ac, id: d.proveedor_id };
  if (d.cliente_id) return { ac: TERCEROS.cliente.ac, id: d.cliente_id };
  return null;
}

/** The PDF's party block with the party's full data (address, phone, email), read once per supplier or customer. */
export async function opcionesPdfTercero(api: ApiClient, documentos: Documento[]): Promise<Partial<DocumentosPdfOptions>> {
  const claves = new Map<string, { ac: string; id: number }>();
  for (const d of documentos) {
    const t = terceroDe(d);
    if (t) claves.set(`${t.ac}:${t.id}`, t);
  }
  const leidos = new Map<string, TerceroFila & Parameters<typeof terceroPdfDe>[0]>();
  await Promise.all(
    [...claves].map(async ([clave, t]) => {
      try {
        const res = await api.get<TerceroFila & Parameters<typeof terceroPdfDe>[0]>(t.ac, { id: t.id });
        if (res.RESULT === '0' && res.data?.[0]) leidos.set(clave, res.data[0]);
      } catch {
        // The name and NIF the document carries are enough.
      }
    }),
  );
  return {
    tercero: (d) => {
      const t = terceroDe(d);
      const r = t ? leidos.get(`${t.ac}:${t.id}`) : undefined;
      return r ? terceroPdfDe(r) : terceroPdf(d);
    },
  };
}

/** A PDF's file name from a document's number: 'PC-2026-000012.pdf'. */
export const archivoPdf = (numero: string) => `${numero.replace(/[^\w-]+/g, '-')}.pdf`;
