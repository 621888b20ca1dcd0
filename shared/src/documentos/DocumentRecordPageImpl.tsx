import { Fragment, type ReactNode } from 'react';
import { formatDecimal } from '../domain/format';
import { FORMAS_PAGO, RETENCIONES } from '../domain/terceros';
import { SelectField, TextField, type SelectOption } from '../ui/fields';
import { FormGrid, FormSection, RecordActions, RecordForm } from '../ui/form';
import { TextAreaField } from '../ui/inputs';
import { NotFoundPanel, PageHeader } from '../ui/layout';
import { Button, Spinner } from '../ui/primitives';
// This page is itself loaded on demand: its editor and state bar come in the same chunk, not one after another.
import DocumentActions from './DocumentActionsImpl';
import LinesEditor, { type LinesEditorProps } from './LinesEditorImpl';
import type { CampoCabecera, PantallaDocumento } from './pantalla';
import { DocumentLinks } from './terceros';
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
  /** The section's header buttons, before «Imprimir». */
  actions?: ReactNode;
  /** «Imprimir», shown once the document exists. */
  imprimir?: ImprimirDocumento;
  /** A print or a mail under way: the header's buttons wait. */
  working?: boolean;
  /** The lines editor's own options (locations, retención of the totals, article search). */
  lineas?: Pick<LinesEditorProps, 'ubicaciones' | 'ubicacionPorDefecto' | 'opcionesTotales' | 'params'>;
  /** Under «Líneas». */
  lineasDescripcion?: ReactNode;
  /** Between the state bar and the form: the section's dialogs. */
  children?: ReactNode;
};

const PARAMS_ARTICULOS = { activo: 1 };
const GUARDE_ANTES = 'Guarde los cambios antes.';
// Kept out of the shared entry (the login's first paint): they load with this page.
const CAMPOS_CABECERA: readonly string[] = ['fecha', 'almacen_id', 'almacen_destino_id', 'fecha_entrega', 'forma_pago', 'retencion', 'observaciones'] satisfies CampoCabecera[];
const esComun = (campo: string): campo is CampoCabecera => CAMPOS_CABECERA.includes(campo);
const FORMA_PAGO_OPTIONS = FORMAS_PAGO.map((f) => ({ value: f.id, label: f.label }));
const RETENCION_OPTIONS = RETENCIONES.map((r) => ({ value: String(r), label: `${formatDecimal(r, 2, 0)} %` }));

/** The document record page's implementation (see DocumentRecordPage.tsx). */
export default function DocumentRecordPageImpl<C extends string>({
  pantalla,
  editor,
  almacenes,
  renderCampo,
  description,
  actions,
  imprimir,
  working = false,
  lineas: lineasProps,
  lineasDescripcion,
  children,
}: DocumentRecordPageProps<C>) {
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
  const titulo = isNew ? pantalla.nuevoLabel : `${def.singular} ${documento?.numero ?? ''}`;
  const almacenPlaceholder = almacenes.loading ? 'Cargando…' : 'Seleccione…';
  const esperaGuardar = !imprimir?.sinGuardar && editor.dirty;

  const campoComun = (campo: CampoCabecera): ReactNode => {
    switch (campo) {
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
          (actions || (documento && imprimir)) && (
            <>
              {actions}
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
      {documento && (
        <div style={{ display: 'grid', gap: 10, marginBottom: 16 }}>
          <DocumentActions
            def={def}
            documento={documento}
            onChange={editor.setDocumento}
            disabled={editor.dirty}
            disabledReason="Guarde los cambios antes de cambiar el estado del documento."
          />
          <DocumentLinks padres={documento.padres} hijos={documento.hijos} />
        </div>
      )}
      {children}
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
                label="Observaciones"
                rows={3}
                maxLength={2000}
                disabled={disabled}
                value={values.observaciones}
                error={errors.observaciones}
                onChange={(v) => set('observaciones', v)}
              />
            </div>
          )}
        </FormSection>
        <FormSection title="Líneas" description={lineasDescripcion}>
          <LinesEditor
            modo={def.lineas}
            lineas={editor.lineas}
            dispatch={editor.dispatch}
            readOnly={!editable}
            errores={editor.lineErrors}
            params={PARAMS_ARTICULOS}
            {...lineasProps}
            titulo={`Líneas ${de}`}
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
