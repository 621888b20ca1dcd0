import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Button,
  DocumentRecordPage,
  SelectField,
  downloadDocumentosPdf,
  empresaPdf,
  nuevaClaveLinea,
  useDocumentEditor,
  useListOptions,
  useShell,
  type Documento,
  type DocumentoLinea,
  type Familia,
  type LineaEditable,
  type TipoIva,
  type Ubicacion,
  type VariantePdf,
  useAlmacenInicial,
  usePermisos,
} from 'shared';
import { useAlmacenes } from '../opciones';
import type { Pantalla } from './pantallas';

/** A row of `lineasteoricasinventario`: an article to count with its theoretical stock. */
export type LineaTeorica = {
  articulo_id: number;
  codigo: string;
  descripcion: string;
  teorico: number;
  ubicacion_id?: number | null;
  ubicacion_codigo?: string | null;
  tipo_iva?: TipoIva;
  precio?: number;
};

const num = (v: LineaEditable['cantidad']) => (typeof v === 'bigint' ? Number(v) : 0);

/** The lines on screen as a document's lines, for a PDF printed before (or without) saving. */
function comoLineasDocumento(lineas: LineaEditable[], ubicaciones: Map<number, string>): DocumentoLinea[] {
  return lineas.map((l, i) => ({
    id: l.id ?? 0,
    orden: i + 1,
    articulo_id: l.articulo_id,
    codigo: l.codigo,
    descripcion: l.descripcion,
    tipo_iva: l.tipo_iva,
    cantidad: num(l.cantidad),
    precio: num(l.precio),
    descuento: num(l.descuento),
    pendiente: l.pendiente ?? 0,
    ubicacion_id: l.ubicacion_id,
    ubicacion_codigo: l.ubicacion_id ? (ubicaciones.get(l.ubicacion_id) ?? null) : null,
    motivo: l.motivo,
    teorico: l.teorico,
  }));
}

const archivo = (numero: string, sufijo = '') => `${numero.replace(/[^\w-]+/g, '-')}${sufijo}.pdf`;

/** Record and "nuevo" screen of a movimiento, inventario or pérdida: one screen for the three. */
export function DocumentoPage({ pantalla, id }: { pantalla: Pantalla; id?: string }) {
  const { def } = pantalla;
  const navigate = useNavigate();
  const { api, config, toast } = useShell();
  const editor = useDocumentEditor(def, id, {
    schema: pantalla.schema,
    check: pantalla.check,
    permitirSinLineas: pantalla.permitirSinLineas,
    onSaved: (d, isNew) => {
      if (isNew) navigate(pantalla.record(d.id), { replace: true });
    },
    onRemoved: () => navigate(pantalla.list),
  });
  const { form, documento, isNew, editable, lineas, dispatch } = editor;
  const { values, errors, set } = form;
  const almacenes = useAlmacenes({ soloActivos: editable });
  useAlmacenInicial(form, isNew, almacenes.porDefecto);
  const almacenId = values.almacen_id ?? '';
  const ubicacionesList = useListOptions<Ubicacion>('listadoubicaciones', {
    params: { almacen_id: almacenId, orden: 'codigo', dir: 'asc' },
    enabled: !!almacenId && (pantalla.campos.includes('ubicacion_id') || pantalla.ubicacionPorLinea),
    toOption: (u) => ({ value: String(u.id), label: u.descripcion ? `${u.codigo} · ${u.descripcion}` : u.codigo }),
  });
  const familias = useListOptions<Familia>('listadofamilias', {
    params: { orden: 'nombre', dir: 'asc' },
    enabled: pantalla.campos.includes('familia_id'),
    toOption: (f) => ({ value: String(f.id), label: f.nombre }),
  });
  const [working, setWorking] = useState(false);

  // A transfer shows beside each line the stock its origin warehouse holds (issue 17), while it can still change.
  const conStockOrigen = def.tipo === 'movimiento' && editable && !!almacenId;
  const idsLineas = useMemo(() => [...new Set(lineas.map((l) => l.articulo_id))].sort((a, b) => a - b).join(','), [lineas]);
  const [stockOrigen, setStockOrigen] = useState<{ clave: string; stock: Map<number, number> } | null>(null);
  useEffect(() => {
    if (!conStockOrigen || !idsLineas) return;
    const clave = `${almacenId}:${idsLineas}`;
    let live = true;
    api
      .get<{ articulo_id: number; stock: number }>('listadostockalmacen', { almacen_id: almacenId, ids: idsLineas, porPagina: 100 })
      .then((res) => {
        if (live && res.RESULT === '0') setStockOrigen({ clave, stock: new Map((res.data ?? []).map((r) => [r.articulo_id, Number(r.stock)])) });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, conStockOrigen, almacenId, idsLineas]);
  const stockMap = conStockOrigen ? stockOrigen?.stock : undefined;
  // An article the answer leaves out has no stock there (0); before the first answer, nothing is shown.
  const disponible = useCallback((articuloId: number) => (stockMap ? (stockMap.get(articuloId) ?? 0) : undefined), [stockMap]);

  // Stable for the lines editor: its rows redraw only when their line changes.
  const ubicacionRows = ubicacionesList.rows;
  const ubicaciones = useMemo(
    () => (ubicacionRows.length ? ubicacionRows.map((u) => ({ value: String(u.id), label: u.codigo })) : undefined),
    [ubicacionRows],
  );
  const codigosUbicacion = useMemo(() => new Map(ubicacionRows.map((u) => [u.id, u.codigo])), [ubicacionRows]);
  const almacenNombre = useCallback((v: string) => almacenes.options.find((o) => o.value === v)?.label ?? null, [almacenes.options]);

  const costes = usePermisos().tiene('ver_costes');
  /** The document as it is on screen (saved or not), for a PDF. */
  const borrador = (): Documento => {
    // Without ver_costes (issue 24) a new document has no value either: its PDF prints without amounts, as a saved one.
    const base = documento ?? ({ id: 0, tipo: def.tipo, numero: 'Borrador', estado: def.inicial, desglose: [], ...(costes ? { total: 0 } : {}) } as unknown as Documento);
    return {
      ...base,
      fecha: values.fecha ?? base.fecha,
      almacen_id: Number(values.almacen_id) || null,
      almacen_nombre: almacenNombre(values.almacen_id ?? '') ?? base.almacen_nombre,
      almacen_destino_id: def.tipo === 'movimiento' ? Number(values.almacen_destino_id) || null : null,
      almacen_destino_nombre: def.tipo === 'movimiento' ? almacenNombre(values.almacen_destino_id ?? '') : null,
      familia_nombre: familias.options.find((o) => o.value === values.familia_id)?.label ?? null,
      ubicacion_codigo: values.ubicacion_id ? (codigosUbicacion.get(Number(values.ubicacion_id)) ?? null) : null,
      observaciones: values.observaciones || null,
      lineas: comoLineasDocumento(lineas, codigosUbicacion),
    };
  };

  const imprimir = async (d: Documento, variante: VariantePdf = 'documento', sufijo = '') => {
    setWorking(true);
    try {
      await downloadDocumentosPdf([d], { fileName: archivo(d.numero, sufijo), empresa: empresaPdf(config), def, variante });
    } catch {
      toast.error();
    } finally {
      setWorking(false);
    }
  };

  const leerTeoricas = async (): Promise<LineaTeorica[] | null> => {
    const res = await api.get<LineaTeorica>('lineasteoricasinventario', {
      almacen_id: values.almacen_id,
      familia_id: values.familia_id || undefined,
      ubicacion_id: values.ubicacion_id || undefined,
    });
    if (res.RESULT === '0' || res.RESULT === '3') return res.data ?? [];
    toast.error(res.message);
    return null;
  };

  /**
   * Starts the count from the theoretical stock: each article to count, its theoretical quantity beside an empty
   * «Contado» — a scan then counts from nothing (1, 2, …), never on top of what the system expects (issue 17).
   */
  const cargarTeorico = async () => {
    if (!values.almacen_id) {
      form.setErrors({ ...errors, almacen_id: 'Elija el almacén antes de cargar su stock' });
      return;
    }
    setWorking(true);
    try {
      const teoricas = await leerTeoricas();
      if (!teoricas) return;
      const presentes = new Set(lineas.map((l) => `${l.articulo_id}:${l.ubicacion_id ?? ''}`));
      const nuevas: LineaEditable[] = teoricas
        .filter((t) => !presentes.has(`${t.articulo_id}:${t.ubicacion_id ?? (values.ubicacion_id || '')}`))
        .map((t) => ({
          key: nuevaClaveLinea(),
          articulo_id: t.articulo_id,
          codigo: t.codigo,
          descripcion: t.descripcion,
          tipo_iva: t.tipo_iva ?? '21',
          cantidad: null,
          precio: BigInt(t.precio ?? 0),
          descuento: 0n,
          ubicacion_id: t.ubicacion_id ?? (values.ubicacion_id ? Number(values.ubicacion_id) : null),
          motivo: null,
          teorico: t.teorico,
        }));
      if (nuevas.length) dispatch({ type: 'add', lineas: nuevas });
      toast.info(
        nuevas.length
          ? `Se han cargado ${nuevas.length} artículos con su stock teórico: «Contado» queda vacío hasta que los cuente`
          : teoricas.length
            ? 'Todos los artículos ya estaban en el recuento'
            : 'No hay stock que contar con estos filtros',
      );
    } catch {
      toast.error();
    } finally {
      setWorking(false);
    }
  };

  /** The blank count sheet: the lines on screen, or the articles with stock when there are none yet. */
  const hojaRecuento = async () => {
    const d = borrador();
    if ((d.lineas ?? []).length === 0 && values.almacen_id) {
      setWorking(true);
      try {
        const teoricas = await leerTeoricas();
        if (!teoricas) return;
        d.lineas = comoLineasDocumento(
          teoricas.map((t) => ({ ...t, key: '', tipo_iva: t.tipo_iva ?? '21', cantidad: 0n, precio: 0n, descuento: 0n, ubicacion_id: t.ubicacion_id ?? null, motivo: null })),
          codigosUbicacion,
        );
      } finally {
        setWorking(false);
      }
    }
    await imprimir(d, 'recuento', '-hoja-recuento');
  };

  const inventarioAcabado = def.tipo === 'inventario' && documento?.estado === 'finalizado';

  return (
    <DocumentRecordPage
      pantalla={pantalla}
      editor={editor}
      almacenes={almacenes}
      working={working}
      imprimir={{ onClick: () => documento && void imprimir(editor.dirty ? borrador() : documento), sinGuardar: true }}
      actions={
        <>
          {def.tipo === 'inventario' && editable && (
            <Button type="button" $variant="secondary" disabled={working} onClick={() => void cargarTeorico()}>
              Cargar stock teórico
            </Button>
          )}
          {def.tipo === 'inventario' && !inventarioAcabado && (
            <Button type="button" $variant="secondary" disabled={working} onClick={() => void hojaRecuento()}>
              Imprimir hoja de recuento
            </Button>
          )}
          {inventarioAcabado && documento && (
            <Button type="button" $variant="secondary" disabled={working} onClick={() => void imprimir(documento, 'diferencias', '-diferencias')}>
              Diferencias (PDF)
            </Button>
          )}
        </>
      }
      renderCampo={(campo, disabled) =>
        campo === 'familia_id' ? (
          <SelectField
            label="Familia"
            disabled={disabled}
            placeholder="Todas las familias"
            options={familias.options}
            value={values.familia_id}
            error={errors.familia_id}
            onChange={(v) => set('familia_id', v)}
          />
        ) : campo === 'ubicacion_id' ? (
          <SelectField
            label="Ubicación"
            disabled={disabled || !almacenId}
            placeholder="Todas las ubicaciones"
            options={ubicacionesList.options}
            value={values.ubicacion_id}
            error={errors.ubicacion_id}
            onChange={(v) => set('ubicacion_id', v)}
          />
        ) : null
      }
      lineas={{
        ubicaciones: pantalla.ubicacionPorLinea ? ubicaciones : undefined,
        ubicacionPorDefecto: values.ubicacion_id ? Number(values.ubicacion_id) : null,
        disponible: conStockOrigen ? disponible : undefined,
      }}
      lineasDescripcion={
        def.tipo === 'inventario' && editable ? 'Escanee cada artículo: cada lectura suma 1 a lo contado (que empieza vacío, con el teórico al lado); escriba la cantidad para corregirla o 0 si no hay ninguno.' : undefined
      }
    />
  );
}
