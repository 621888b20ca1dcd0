import { Fragment, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { DocumentoTipoDef } from '../domain/documentos';
import { necesidadDocumento } from '../domain/roles';
import { usePermisos } from '../hooks/usePermisos';
import { FORMA_PAGO_OPTIONS, RETENCION_OPTIONS } from '../domain/terceros';
import { SelectField, TextField, type SelectOption } from '../ui/fields';
import { FormGrid, FormSection, RecordActions, RecordForm } from '../ui/form';
import { TextAreaField } from '../ui/inputs';
import { NotFoundPanel, PageHeader } from '../ui/layout';
import { Button, Spinner } from '../ui/primitives';
// This page is itself loaded on demand: its editor and state bar come in the same chunk, not one after another.
import DocumentActions from './DocumentActionsImpl';
import EditorLineas, { type EditorLineasProps } from './EditorLineasImpl';
import { DevolverDialog } from './DevolverDialog';
import { DocumentHistory } from './DocumentHistory';
import type { CampoCabecera, PantallaDocumento } from './pantalla';
import { DocumentLinks, TERCEROS, TerceroField, useTerceroPreelegido, type TerceroDocumentoFila } from './terceros';
import type { DocumentEditor } from './useDocumentEditor';

export type ImprimirDocumento = {
  onClick: () => void;
  /** Prints what is on screen, saved or not (by default it asks to save first). */
  sinGuardar?: boolean;
};

export type DocumentRecordPageProps<C extends string> = {
  pantalla: PantallaDocumento<C>;
  /** The screen's `useDocumentEditor`. */
  editor: DocumentEditor;
  /** The 'Almacén' selects' options (`useAlmacenes`). */
  almacenes: { options: SelectOption[]; loading: boolean };
  /** The section's own header fields (those not in `CampoCabecera`), each in its place among `campos`. */
  renderCampo?: (campo: C, disabled: boolean) => ReactNode;
  /** Under the title (the party's name). */
  description?: ReactNode;
  /** A party chosen in the header (after its id, forma de pago and retención are set): the section's own defaults from it. */
  onTercero?: (tercero: TerceroDocumentoFila) => void;
  /** The party's name when the screen set its id itself (a new rectificativa preselected from its invoice). */
  terceroNombre?: string;
  /** The section's header buttons, before «Imprimir». */
  actions?: ReactNode;
  /** «Imprimir», shown once the document exists. */
  imprimir?: ImprimirDocumento;
  /**
   * «Devolver…» on a saved document (an albarán): the dialog that chooses its lines and creates the devolución of
   * type `def`, then opens it (`record`).
   */
  devolver?: { def: DocumentoTipoDef; record: (id: number) => string };
  /** A print or a mail under way: the header's buttons wait. */
  working?: boolean;
  /**
   * The lines editor's own options (locations, retención and recargo of the totals, article search, a new
   * line's price and discount, the stock available beside each quantity; the last also in the per-line dialog).
   */
  lineas?: Pick<
    EditorLineasProps,
    'ubicaciones' | 'ubicacionPorDefecto' | 'opcionesTotales' | 'totalesFijos' | 'params' | 'precioArticulo' | 'descuentoPorDefecto' | 'operacionPorDefecto' | 'disponible'
  >;
  /** Under «Líneas». */
  lineasDescripcion?: ReactNode;
  /** Other words for the common parts: the lines' section ('Materiales'), observaciones ('Descripción del trabajo'). */
  etiquetas?: { lineas?: string; observaciones?: string };
  /** Inside the form, between «Datos de…» and the lines: the type's own sections (a parte's hours). */
  secciones?: ReactNode;
  /** Between the state bar and the form: the section's dialogs. */
  children?: ReactNode;
};

const PARAMS_ARTICULOS = { activo: 1 };
const GUARDE_ANTES = 'Guarde los cambios antes.';
// Kept out of the shared entry (the login's first paint): they load with this page.
const CAMPOS_CABECERA: readonly string[] = ['fecha', 'almacen_id', 'almacen_destino_id', 'fecha_entrega', 'forma_pago', 'retencion', 'observaciones'] satisfies CampoCabecera[];
const esComun = (campo: string): campo is CampoCabecera => CAMPOS_CABECERA.includes(campo) || campo === 'proveedor_id' || campo === 'cliente_id';

/** The document record page's implementation (see DocumentRecordPage.tsx). */
export default function DocumentRecordPageImpl<C extends string>({
  pantalla,
  editor,
  almacenes,
  renderCampo,
  description,
  onTercero,
  terceroNombre,
  actions,
  imprimir,
  devolver,
  working = false,
  lineas: lineasProps,
  lineasDescripcion,
  etiquetas,
  secciones,
  children,
}: DocumentRecordPageProps<C>) {
  // The party's name as chosen on this screen (the document answers its own).
  const [elegido, setElegido] = useState<{ id: string; nombre: string } | null>(null);
  const [devolviendo, setDevolviendo] = useState(false);
  const navigate = useNavigate();
  const permisos = usePermisos();
  // Issue 26: started from the party's record («Nuevo pedido» on a customer): `?cliente_id=` / `?proveedor_id=`
  // preselects it, with its terms, as if it had been picked here — once, on the new document.
  const elegirRef = useRef<((campo: 'cliente_id' | 'proveedor_id', t: TerceroDocumentoFila) => void) | null>(null);
  const campoTercero = (['cliente_id', 'proveedor_id'] as const).find((c) => pantalla.campos.includes(c as C)) ?? null;
  useTerceroPreelegido(
    campoTercero ? TERCEROS[campoTercero === 'proveedor_id' ? 'proveedor' : 'cliente'] : null,
    (t) => campoTercero && elegirRef.current?.(campoTercero, t),
    !editor.loading && editor.isNew,
  );
  if (editor.loading) return <Spinner />;
  const { def, campos } = pantalla;
  const { form, documento, isNew, editable } = editor;
  const { values, errors, set } = form;
  const singular = def.singular.toLowerCase();
  const de = `de${def.femenino ? ' la' : 'l'} ${singular}`;
  const back = { to: pantalla.list, label: def.pluralLabel };
  if (editor.notFound)
    return (
      <NotFoundPanel
        title={`${def.singular} no encontrad${def.femenino ? 'a' : 'o'}`}
        text={`${def.femenino ? 'La' : 'El'} ${singular} no existe o se ha eliminado.`}
        back={back}
      />
    );

  const disabled = !editable;
  // A customer's or supplier's document: the observaciones it prints are apart from the internal ones.
  const paraTercero = !!def.tercero && 'observaciones_cliente' in values;
  const titulo = isNew ? pantalla.nuevoLabel : `${def.singular} ${documento?.numero ?? ''}`;
  const almacenPlaceholder = almacenes.loading ? 'Cargando…' : 'Seleccione…';
  const esperaGuardar = !imprimir?.sinGuardar && editor.dirty;

  const elegirTercero = (campo: 'cliente_id' | 'proveedor_id', t: TerceroDocumentoFila) => {
    set(campo, String(t.id));
    // The party's terms are the document's defaults.
    if (campos.includes('forma_pago' as C)) set('forma_pago', t.forma_pago ?? '');
    if (campos.includes('retencion' as C)) set('retencion', String(t.retencion ?? 0));
    setElegido({ id: String(t.id), nombre: t.razon_social });
    onTercero?.(t);
  };
  elegirRef.current = elegirTercero;

  const campoComun = (campo: CampoCabecera): ReactNode => {
    switch (campo) {
      case 'proveedor_id':
      case 'cliente_id': {
        const tercero = TERCEROS[campo === 'proveedor_id' ? 'proveedor' : 'cliente'];
        const nombre = elegido && elegido.id === values[campo] ? elegido.nombre : (documento?.[tercero.nombre] ?? terceroNombre ?? '');
        const pick = (t: TerceroDocumentoFila) => elegirTercero(campo, t);
        return (
          <TerceroField<TerceroDocumentoFila>
            tercero={tercero}
            required
            // Its lines come from another document of this party (a receipt, a serving, a return): the party stays.
            disabled={disabled || (documento?.padres?.length ?? 0) > 0}
            value={values[campo] ?? ''}
            nombre={nombre}
            error={errors[campo]}
            onPick={pick}
            // Issue 26: a new document opens with the focus on its party, the first thing a clerk types.
            autoFocus={isNew}
          />
        );
      }
      case 'fecha':
        return <TextField label="Fecha" type="date" required disabled={disabled} value={values.fecha} error={errors.fecha} onChange={(v) => set('fecha', v)} />;
      case 'almacen_id':
        return (
          <SelectField
            label={campos.includes('almacen_destino_id' as C) ? 'Almacén de origen' : 'Almacén'}
            required
            disabled={disabled}
            placeholder={almacenPlaceholder}
            options={almacenes.options}
            value={values.almacen_id}
            error={errors.almacen_id}
            onChange={(v) => {
              set('almacen_id', v);
              // A location belongs to one warehouse.
              if (values.ubicacion_id) set('ubicacion_id', '');
            }}
          />
        );
      case 'almacen_destino_id':
        return (
          <SelectField
            label="Almacén de destino"
            required
            disabled={disabled}
            placeholder={almacenPlaceholder}
            options={almacenes.options}
            value={values.almacen_destino_id}
            error={errors.almacen_destino_id}
            onChange={(v) => set('almacen_destino_id', v)}
          />
        );
      case 'fecha_entrega':
        return (
          <TextField
            label="Fecha de entrega"
            type="date"
            disabled={disabled}
            value={values.fecha_entrega}
            error={errors.fecha_entrega}
            onChange={(v) => set('fecha_entrega', v)}
          />
        );
      case 'forma_pago':
        return (
          <SelectField
            label="Forma de pago"
            disabled={disabled}
            placeholder="Sin forma de pago"
            options={FORMA_PAGO_OPTIONS}
            value={values.forma_pago}
            error={errors.forma_pago}
            onChange={(v) => set('forma_pago', v)}
          />
        );
      case 'retencion':
        return (
          <SelectField
            label="% Retención"
            disabled={disabled}
            options={RETENCION_OPTIONS}
            value={values.retencion || '0'}
            error={errors.retencion}
            onChange={(v) => set('retencion', v)}
          />
        );
      default:
        // observaciones: under the grid, the whole width.
        return null;
    }
  };

  return (
    <>
      <PageHeader
        back={back}
        title={titulo}
        description={description}
        actions={
          (actions || (documento && (imprimir || devolver))) && (
            <>
              {actions}
              {documento && devolver && permisos.cumple(necesidadDocumento(devolver.def, 'editar')) && (
                <Button
                  type="button"
                  $variant="secondary"
                  disabled={working || editor.dirty}
                  title={editor.dirty ? GUARDE_ANTES : undefined}
                  onClick={() => setDevolviendo(true)}
                >
                  Devolver…
                </Button>
              )}
              {documento && imprimir && (
                <Button
                  type="button"
                  $variant="secondary"
                  disabled={working || esperaGuardar}
                  title={esperaGuardar ? GUARDE_ANTES : undefined}
                  onClick={imprimir.onClick}
                >
                  Imprimir
                </Button>
              )}
            </>
          )
        }
      />
      {/* Why the header's buttons wait, on the screen (not only in their tooltip). */}
      {documento && esperaGuardar && (imprimir || devolver || actions) && (
        <p role="status" style={{ fontSize: 13, margin: '-8px 0 12px' }}>
          {GUARDE_ANTES.replace('.', '')} de imprimir, enviar o crear otro documento a partir de {def.femenino ? 'esta' : 'este'} {singular}.
        </p>
      )}
      {documento && (
        <div style={{ display: 'grid', gap: 10, marginBottom: 16 }}>
          <DocumentActions
            def={def}
            documento={documento}
            onChange={editor.setDocumento}
            disponible={lineasProps?.disponible}
            disabled={editor.dirty}
            disabledReason="Guarde los cambios antes de cambiar el estado del documento."
          />
          <DocumentLinks padres={documento.padres} hijos={documento.hijos} />
          <DocumentHistory def={def} documento={documento} />
        </div>
      )}
      {children}
      {devolviendo && documento && devolver && (
        <DevolverDialog origen={documento} devolucion={devolver.def} onCancel={() => setDevolviendo(false)} onCreated={(d) => navigate(devolver.record(d.id))} />
      )}
      <RecordForm onSubmit={editor.save} dirty={editable && form.dirty} aria-label={titulo}>
        <FormSection title={`Datos ${de}`}>
          <FormGrid>
            {campos.map((campo) => (
              <Fragment key={campo}>{esComun(campo) ? campoComun(campo) : renderCampo?.(campo, disabled)}</Fragment>
            ))}
          </FormGrid>
          {campos.includes('observaciones' as C) && (
            <div style={{ marginTop: 14 }}>
              <TextAreaField
                label={etiquetas?.observaciones ?? 'Observaciones'}
                rows={3}
                maxLength={2000}
                disabled={disabled}
                value={values.observaciones}
                error={errors.observaciones}
                hint={paraTercero ? `Internas: no se imprimen en el documento ${def.tercero === 'proveedor' ? 'del proveedor' : 'del cliente'}.` : undefined}
                onChange={(v) => set('observaciones', v)}
              />
            </div>
          )}
          {paraTercero && (
            <div style={{ marginTop: 14 }}>
              <TextAreaField
                label={def.tercero === 'proveedor' ? 'Observaciones para el proveedor' : 'Observaciones para el cliente'}
                rows={2}
                maxLength={2000}
                disabled={disabled}
                value={values.observaciones_cliente}
                error={errors.observaciones_cliente}
                hint="Se imprimen en el PDF y en el correo del documento."
                onChange={(v) => set('observaciones_cliente', v)}
              />
            </div>
          )}
        </FormSection>
        {secciones}
        <FormSection title={etiquetas?.lineas ?? 'Líneas'} description={lineasDescripcion}>
          <EditorLineas
            modo={def.lineas}
            lineas={editor.lineas}
            dispatch={editor.dispatch}
            readOnly={!editable}
            errores={editor.lineErrors}
            params={PARAMS_ARTICULOS}
            {...lineasProps}
            titulo={`${etiquetas?.lineas ?? 'Líneas'} ${de}`}
          />
        </FormSection>
        {editable && (
          <RecordActions
            editor={editor}
            cancelTo={pantalla.list}
            deletion={
              editor.eliminable
                ? {
                    title: `Eliminar ${singular}`,
                    text: `Se eliminará ${def.femenino ? 'la' : 'el'} ${singular} ${documento?.numero ?? ''} con sus líneas.`,
                  }
                : undefined
            }
          />
        )}
      </RecordForm>
    </>
  );
}
