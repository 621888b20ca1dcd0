import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  AvisosVerifactu,
  Button,
  CheckboxListField,
  ConfirmDialog,
  hoyIso,
  DocumentRecordPage,
  MESSAGES,
  MODOS_RECTIFICACION,
  MODO_RECTIFICACION_LABEL,
  SelectField,
  TIPO_FACTURA_LABEL,
  useAlmacenInicial,
  useAlmacenes,
  useDocumentEditor,
  enfocarLinea,
  useImprimirDocumento,
  usePermisos,
  useShell,
  type Documento,
  type LineaEditable,
  type TipoFactura,
} from 'shared';
import { paths } from '../paths';
import { CobroDialog } from './CobroDialog';
import { CobrosCuenta } from './CobrosCuenta';
import { SignoDialog, useSignoRectificativa } from './SignoLinea';
import { CorreoDialog } from './CorreoDialog';
import { useClienteDocumento } from './ClienteDocumento';
import { useDisponibleFactura } from './disponible';
import { situacionCobro, textosCobro, useSeries, useValorInicial } from './datos';
import { AVISOS_DEVOLUCION, leerDevolucionARectificar } from './devolucion';
import { EstadoFactura } from './EstadoFactura';
import { AvisoFacturae, BotonFacturae, useFacturae } from './Facturae';
import { cuerpoRectificativa, type CampoFactura, type PantallaFactura } from './pantallas';
import { LineasFacturaRectificada, leerFacturaRectificada, lineasDesdeFactura, tiposPermitidos, useFacturasCliente } from './rectificar';

const MODO_OPTIONS = MODOS_RECTIFICACION.map((m) => ({ value: m, label: MODO_RECTIFICACION_LABEL[m] }));
const tipoOption = (t: TipoFactura) => ({ value: t, label: TIPO_FACTURA_LABEL[t] });

/** The ids of `facturas_rectificadas`, as the document stores them ('[12,15]') or the form keeps them ('12,15'). */
const idsDe = (v: string | undefined) => (v ?? '').replace(/[[\]\s]/g, '').split(',').filter(Boolean);

/** The lines a rectificativa starts with in a mode: none by differences, the invoice's by substitution. */
const lineasIniciales = (f: Documento | null, modo: string): LineaEditable[] => (modo === 'sustitucion' && f ? lineasDesdeFactura(f.lineas ?? [], 1) : []);

type FormDialog = 'cobro' | 'correo' | null;
/** A change of the corrected invoice or of the mode that would replace lines already there: asked first. */
type Cambio = { campo: 'factura_id' | 'modo_rectificacion'; valor: string } | null;

/**
 * Record and "nuevo" screen of a factura or a rectificativa: the serie (of its kinds), the customer (its terms
 * and tariff for new lines), the lines; once emitted, read-only with its registro de facturación, the
 * payment (cobrarfactura), the e-mail to the customer (enviarfactura) and «Rectificar». A rectificativa
 * adds the invoice it corrects (`?factura=ID` preselects it), its kind R1-R5 and its mode: by differences it
 * starts empty and takes lines of the invoice negative; by substitution it starts from the invoice's lines.
 * `?devolucion=ID` (a devolución of goods already invoiced) preselects the invoice they were invoiced in, by
 * differences, with the devolución's lines negative and linked to them (they settle it; no stock moves twice).
 */
export function FacturaPage({ pantalla, id }: { pantalla: PantallaFactura; id?: string }) {
  const { def } = pantalla;
  const rectificativa = def.tipo === 'rectificativa';
  const navigate = useNavigate();
  const permisos = usePermisos();
  const [search] = useSearchParams();
  const { api, toast } = useShell();
  // The body's names of a rectificativa's kind and mode, from the values when it is saved (a getter: read then).
  const valoresRef = useRef<Record<string, string>>({});
  const extra = useMemo(
    () =>
      rectificativa
        ? {
            get body() {
              return cuerpoRectificativa(valoresRef.current);
            },
            dirty: false,
          }
        : undefined,
    [rectificativa],
  );
  const editor = useDocumentEditor(def, id, {
    schema: pantalla.schema,
    empty: rectificativa ? { retencion: '0', modo_rectificacion: 'diferencias' } : { retencion: '0' },
    extra,
    onSaved: (d, isNew) => {
      if (isNew) navigate(pantalla.record(d.id), { replace: true });
    },
    onRemoved: () => navigate(pantalla.list),
  });
  const { form, documento, isNew, editable, dispatch } = editor;
  const { values, errors, set } = form;
  valoresRef.current = values;

  const almacenes = useAlmacenes({ soloActivos: editable });
  useAlmacenInicial(form, isNew, almacenes.porDefecto);
  const series = useSeries(pantalla.series, values.serie_id);
  useValorInicial(form, isNew, 'serie_id', series.porDefecto);

  const cliente = useClienteDocumento(editor);
  const disponible = useDisponibleFactura(editor, !rectificativa);
  const lineasProps = useMemo(() => ({ ...cliente.lineas, disponible }), [cliente.lineas, disponible]);

  // Rectificativa: the invoice it corrects, with its lines.
  const [corregida, setCorregida] = useState<Documento | null>(null);
  const facturaId = values.factura_id ?? '';
  // By differences, a positive quantity on a line offered in negative asks which way it goes.
  const signo = useSignoRectificativa(rectificativa && editable && values.modo_rectificacion === 'diferencias', editor.lineas, dispatch);
  const facturas = useFacturasCliente(rectificativa && editable ? (values.cliente_id ?? '') : '', documento?.factura_id ? { id: documento.factura_id, numero: documento.factura_numero ?? `#${documento.factura_id}` } : null);
  useEffect(() => {
    if (!rectificativa || !facturaId) {
      setCorregida(null);
      return;
    }
    if (corregida && String(corregida.id) === facturaId) return;
    let live = true;
    void leerFacturaRectificada(api, facturaId).then((f) => {
      if (live) setCorregida(f);
    });
    return () => {
      live = false;
    };
  }, [api, rectificativa, facturaId, corregida]);

  const [dialogo, setDialogo] = useState<FormDialog>(null);
  const [cambio, setCambio] = useState<Cambio>(null);
  // The PDF with its fiscal QR (the company's NIF) and the customer's full data.
  const pdf = useImprimirDocumento(def);
  const working = pdf.working;

  /** Another customer's invoice can't be corrected by this one. */
  const otroCliente = () => {
    if (rectificativa && values.factura_id) {
      set('factura_id', '');
      dispatch({ type: 'reset', lineas: [] });
    }
  };

  /** A rectificativa's invoice or mode changes: its kind follows the invoice, its lines start again. */
  const aplicarCambio = async ({ campo, valor }: NonNullable<Cambio>) => {
    setCambio(null);
    set(campo, valor);
    const modo = campo === 'modo_rectificacion' ? valor : values.modo_rectificacion;
    let f = corregida;
    if (campo === 'factura_id') {
      f = valor ? await leerFacturaRectificada(api, valor) : null;
      setCorregida(f);
      const permitidos = tiposPermitidos(f?.tipo_factura);
      if (f && !permitidos.includes(values.tipo_factura as TipoFactura)) set('tipo_factura', permitidos[0]);
      if (f?.almacen_id && !values.almacen_id) set('almacen_id', String(f.almacen_id));
    }
    dispatch({ type: 'reset', lineas: lineasIniciales(f, modo) });
  };
  const pedirCambio = (c: NonNullable<Cambio>) => {
    if (editor.lineas.length > 0) setCambio(c);
    else void aplicarCambio(c);
  };

  // «Rectificar» on an invoice: ?factura=ID preselects it with its customer, terms and warehouse.
  const preseleccion = isNew && rectificativa ? search.get('factura') : null;
  const preseleccionada = useRef(false);
  useEffect(() => {
    if (!preseleccion || preseleccionada.current) return;
    preseleccionada.current = true;
    void leerFacturaRectificada(api, preseleccion).then((f) => {
      if (!f) return toast.error(MESSAGES.facturaARectificarNoValida);
      setCorregida(f);
      cliente.nombrar(String(f.cliente_id ?? ''), f.cliente_nombre ?? '');
      // Field by field: what other defaults (warehouse, serie) set meanwhile stays.
      const preset: Record<string, string> = {
        cliente_id: String(f.cliente_id ?? ''),
        factura_id: String(f.id),
        tipo_factura: tiposPermitidos(f.tipo_factura)[0],
        forma_pago: f.forma_pago ?? '',
        retencion: String(f.retencion ?? 0),
        ...(f.almacen_id ? { almacen_id: String(f.almacen_id) } : {}),
      };
      for (const [campo, valor] of Object.entries(preset)) set(campo, valor);
      dispatch({ type: 'reset', lineas: lineasIniciales(f, valoresRef.current.modo_rectificacion) });
    });
    // Once, when the screen opens (the setters are stable).
  }, [preseleccion, api, set, dispatch, toast, cliente.nombrar]);

  // «Rectificar la factura» on a devolución: ?devolucion=ID brings the invoice its goods were invoiced in and its lines.
  const [equivalentes, setEquivalentes] = useState<ReadonlyMap<number, number> | undefined>(undefined);
  const devolucionId = isNew && rectificativa ? search.get('devolucion') : null;
  const devolucionLeida = useRef(false);
  useEffect(() => {
    if (!devolucionId || devolucionLeida.current) return;
    devolucionLeida.current = true;
    void leerDevolucionARectificar(api, devolucionId).then((r) => {
      if (typeof r === 'string') return toast.error(r);
      const { devolucion, factura: f } = r;
      setCorregida(f);
      setEquivalentes(r.equivalentes);
      cliente.nombrar(String(f.cliente_id ?? ''), f.cliente_nombre ?? '');
      const almacen = devolucion.almacen_id ?? f.almacen_id;
      const preset: Record<string, string> = {
        cliente_id: String(f.cliente_id ?? ''),
        factura_id: String(f.id),
        tipo_factura: tiposPermitidos(f.tipo_factura)[0],
        modo_rectificacion: 'diferencias',
        forma_pago: f.forma_pago ?? '',
        retencion: String(f.retencion ?? 0),
        ...(almacen ? { almacen_id: String(almacen) } : {}),
        ...(valoresRef.current.observaciones ? {} : { observaciones: `Devolución ${devolucion.numero}` }),
      };
      for (const [campo, valor] of Object.entries(preset)) set(campo, valor);
      dispatch({ type: 'reset', lineas: r.lineas });
      if (r.incompleta) toast.info(AVISOS_DEVOLUCION.otraFactura);
    });
    // Once, when the screen opens (the setters are stable).
  }, [devolucionId, api, set, dispatch, toast, cliente.nombrar]);


  const cobrado = (d: Documento | null) => {
    setDialogo(null);
    toast.success(documento?.cobro_fecha ? undefined : textosCobro(def.tipo).registrado);
    if (d) editor.setDocumento(d);
    else void editor.reload();
  };

  const emitida = documento?.estado === 'emitida';
  // Something left to collect (or, a rectificativa, to refund): its cobro can be recorded.
  const situacion = documento ? situacionCobro(documento, hoyIso()) : null;
  // Paid with cobros of its own (not only settled through its invoice's): «Quitar cobro» takes them away.
  const propios = !!documento?.cobro_fecha && (!documento.cuenta || documento.cuenta.cobros.some((c) => c.documento_id === documento.id));
  const conNumero = !!documento && documento.estado !== def.inicial;
  const esperaGuardar = { disabled: working || editor.dirty, title: editor.dirty ? 'Guarde los cambios antes.' : undefined };
  // Issue 16: the signed Facturae of an emitted invoice (for FACe), when the role may download it.
  const facturae = useFacturae(documento ?? null, permisos.accion('descargarfacturae'));

  // «Registrar cobro» (the next thing to do: first) or «Quitar cobro» (an undo: last).
  const botonCobro =
    documento && emitida && permisos.accion('cobrarfactura') && (propios || situacion?.queda) ? (
      <Button type="button" $variant="secondary" {...esperaGuardar} onClick={() => setDialogo('cobro')}>
        {documento.cobro_fecha ? textosCobro(def.tipo).quitar : textosCobro(def.tipo).registrar}
      </Button>
    ) : null;

  const renderCampo = (campo: CampoFactura, disabled: boolean) => {
    switch (campo) {
      case 'serie_id':
        return (
          <SelectField
            label="Serie"
            required
            disabled={disabled}
            placeholder={series.loading ? 'Cargando…' : series.options.length ? 'Seleccione…' : 'No hay series activas de este tipo: créelas en Configuración › Series'}
            options={series.options}
            value={values.serie_id}
            error={errors.serie_id}
            onChange={(v) => set('serie_id', v)}
          />
        );
      case 'factura_id':
        return (
          <SelectField
            label="Factura rectificada"
            required
            disabled={disabled || !values.cliente_id}
            placeholder={!values.cliente_id ? 'Elija antes el cliente' : facturas.loading ? 'Cargando…' : facturas.options.length ? 'Seleccione…' : 'El cliente no tiene facturas emitidas'}
            options={disabled && documento?.factura_id ? [{ value: String(documento.factura_id), label: documento.factura_numero ?? '' }] : facturas.options}
            value={values.factura_id}
            error={errors.factura_id}
            onChange={(v) => pedirCambio({ campo: 'factura_id', valor: v })}
          />
        );
      case 'tipo_factura':
        return (
          <SelectField
            label="Tipo de rectificativa"
            required
            disabled={disabled}
            placeholder="Seleccione…"
            options={tiposPermitidos(corregida?.tipo_factura).map(tipoOption)}
            value={values.tipo_factura}
            error={errors.tipo_factura ?? errors.tipo}
            onChange={(v) => set('tipo_factura', v)}
          />
        );
      case 'modo_rectificacion':
        return (
          <SelectField
            label="Modo"
            required
            disabled={disabled}
            options={MODO_OPTIONS}
            value={values.modo_rectificacion}
            error={errors.modo_rectificacion ?? errors.modo}
            onChange={(v) => pedirCambio({ campo: 'modo_rectificacion', valor: v })}
          />
        );
      case 'facturas_rectificadas': {
        // Issue 16: a rectificativa by differences may correct more of the customer's invoices (a rappel over a period).
        if (values.modo_rectificacion !== 'diferencias') return null;
        const elegidas = idsDe(values.facturas_rectificadas);
        const opciones = facturas.options.filter((o) => o.value !== values.factura_id);
        return (
          <CheckboxListField
            label="Otras facturas rectificadas"
            hint="Para un rappel o un descuento sobre varias facturas del cliente: la rectificativa las nombra todas ante la AEAT."
            disabled={disabled || !values.factura_id}
            empty={!values.factura_id ? 'Elija antes la factura rectificada' : 'El cliente no tiene más facturas emitidas'}
            options={disabled ? elegidas.map((x) => facturas.options.find((o) => o.value === x) ?? { value: x, label: `#${x}` }) : opciones}
            value={elegidas}
            error={errors.facturas_rectificadas}
            onChange={(v) => set('facturas_rectificadas', v.join(','))}
          />
        );
      }
      default:
        return null;
    }
  };

  const lineasDescripcion = !rectificativa
    ? undefined
    : values.modo_rectificacion === 'sustitucion'
      ? 'Por sustitución: las líneas de la factura rectificada, corregidas. La rectificativa sustituye a la factura entera.'
      : 'Por diferencias: solo lo que cambia, en negativo lo que se reduce (unidades devueltas, un precio más bajo).';

  return (
    <DocumentRecordPage
      pantalla={pantalla}
      editor={editor}
      almacenes={almacenes}
      working={working}
      description={documento?.cliente_nombre ?? undefined}
      onTercero={(c) => {
        cliente.elegir(c);
        otroCliente();
      }}
      terceroNombre={cliente.nombre}
      imprimir={{ onClick: () => documento && void pdf.imprimir(documento) }}
      actions={
        documento && (
          <>
            {!documento.cobro_fecha && botonCobro}
            {conNumero && permisos.accion('enviarfactura') && (
              <Button type="button" $variant="secondary" {...esperaGuardar} onClick={() => setDialogo('correo')}>
                Enviar por correo
              </Button>
            )}
            {emitida && <BotonFacturae documento={documento} estado={facturae} />}
            {emitida && permisos.accion('editarrectificativa') && (
              // The correction of an emitted invoice: its primary action («Anular» is the guarded secondary one).
              <Button type="button" $variant="primary" {...esperaGuardar} onClick={() => navigate(`${paths.nuevaRectificativa}?factura=${documento.id}`)}>
                Rectificar
              </Button>
            )}
            {/* «Quitar cobro» undoes: never the toolbar's first button, the last one. */}
            {!!documento.cobro_fecha && botonCobro}
          </>
        )
      }
      renderCampo={renderCampo}
      lineas={lineasProps}
      lineasDescripcion={lineasDescripcion}
      secciones={
        rectificativa &&
        editable &&
        corregida &&
        values.modo_rectificacion === 'diferencias' && (
          <LineasFacturaRectificada factura={corregida} lineas={editor.lineas} equivalentes={equivalentes} onAdd={(lineas) => {
              dispatch({ type: 'add', lineas });
              // The clerk types what changes next: the new line's quantity.
              if (lineas.length === 1) enfocarLinea(lineas[0].key);
            }}
          />
        )
      }
    >
      <AvisosVerifactu soloObligacion />
      {documento && conNumero && <EstadoFactura documento={documento} />}
      {documento && emitida && <AvisoFacturae estado={facturae} />}
      {documento && emitida && <CobrosCuenta documento={documento} puedeQuitar={permisos.accion('eliminarcobro')} onCambio={cobrado} />}
      <SignoDialog {...signo} />
      {dialogo === 'cobro' && documento && <CobroDialog factura={documento} onDone={cobrado} onCancel={() => setDialogo(null)} />}
      {dialogo === 'correo' && documento && <CorreoDialog factura={documento} email={cliente.cliente?.email ?? ''} pdfOpciones={pdf.opciones} onClose={() => setDialogo(null)} />}
      <ConfirmDialog
        open={cambio !== null}
        title={cambio?.campo === 'factura_id' ? 'Cambiar la factura rectificada' : 'Cambiar el modo'}
        text="Las líneas de la rectificativa se sustituirán por las que corresponden a la nueva elección."
        confirmLabel="Cambiar"
        onConfirm={() => cambio && void aplicarCambio(cambio)}
        onCancel={() => setCambio(null)}
      />
    </DocumentRecordPage>
  );
}
