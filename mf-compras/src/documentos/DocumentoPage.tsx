import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  ApiHttpError,
  Button,
  DocumentActions,
  DocumentLinks,
  FormGrid,
  FormSection,
  LinesEditor,
  NotFoundPanel,
  PageHeader,
  RecordActions,
  RecordForm,
  SelectField,
  Spinner,
  TERCEROS,
  TerceroField,
  TextAreaField,
  TextField,
  documentosPdfBlob,
  downloadDocumentosPdf,
  empresaPdf,
  useDocumentEditor,
  useShell,
  type Documento,
  type Proveedor,
  useAlmacenInicial,
} from 'shared';
import { useAlmacenes } from '../opciones';
import { paths } from '../paths';
import { FORMA_PAGO_OPTIONS, RETENCION_OPTIONS } from '../proveedores/ProveedorPage';
import { DevolverDialog } from './DevolverDialog';
import type { Pantalla } from './pantallas';
import { archivoPdf, opcionesPdfProveedor } from './pdfProveedor';

const PROVEEDOR = TERCEROS.proveedor;
const PARAMS_ARTICULOS = { activo: 1 };

/** Record and "nuevo" screen of a pedido, albarán or devolución de compra: one screen for the three. */
export function DocumentoPage({ pantalla, id }: { pantalla: Pantalla; id?: string }) {
  const { def } = pantalla;
  const navigate = useNavigate();
  const { api, config, toast, flags } = useShell();
  const editor = useDocumentEditor(def, id, {
    schema: pantalla.schema,
    empty: { retencion: '0' },
    onSaved: (d, isNew) => {
      if (isNew) navigate(pantalla.record(d.id), { replace: true });
    },
    onRemoved: () => navigate(pantalla.list),
  });
  const { form, documento, isNew, editable, lineas, dispatch } = editor;
  const { values, errors, set } = form;
  const almacenes = useAlmacenes({ soloActivos: editable });
  useAlmacenInicial(form, isNew, almacenes.porDefecto);
  // The supplier's name as chosen on this screen (the document answers its own).
  const [elegido, setElegido] = useState<{ id: string; nombre: string } | null>(null);
  const [working, setWorking] = useState(false);
  const [devolviendo, setDevolviendo] = useState(false);

  const retencion = Number(values.retencion) || 0;
  const opcionesTotales = useMemo(() => ({ retencion }), [retencion]);
  const proveedorNombre = elegido && elegido.id === values.proveedor_id ? elegido.nombre : (documento?.proveedor_nombre ?? '');

  const pickProveedor = (p: Proveedor) => {
    set('proveedor_id', String(p.id));
    // The supplier's terms are the document's defaults.
    set('forma_pago', p.forma_pago ?? '');
    set('retencion', String(p.retencion ?? 0));
    setElegido({ id: String(p.id), nombre: p.razon_social });
  };

  const pdfDe = async (d: Documento) => ({ empresa: empresaPdf(config), def, ...(await opcionesPdfProveedor(api, [d])) });

  const imprimir = async (d: Documento) => {
    setWorking(true);
    try {
      await downloadDocumentosPdf([d], { fileName: archivoPdf(d.numero), ...(await pdfDe(d)) });
    } catch {
      toast.error();
    } finally {
      setWorking(false);
    }
  };

  /** The order's PDF, made here, mailed to the supplier by the server (its outbox without SMTP). */
  const enviarCorreo = async (d: Documento) => {
    setWorking(true);
    try {
      const blob = await documentosPdfBlob([d], await pdfDe(d));
      const res = await api.upload<unknown>('enviarcorreopedidocompra', blob, archivoPdf(d.numero), { id: d.id });
      if (res.RESULT === '0') toast.success(`Se ha enviado el pedido ${d.numero} por correo al proveedor`);
      else if (res.RESULT === '2') toast.associated();
      else toast.error(res.message);
    } catch (e) {
      toast.error(e instanceof ApiHttpError ? e.body.message : undefined);
    } finally {
      setWorking(false);
    }
  };

  const back = { to: pantalla.list, label: def.pluralLabel };
  const la = def.femenino ? 'la' : 'el';
  if (editor.loading) return <Spinner />;
  if (editor.notFound)
    return (
      <NotFoundPanel
        title={`${def.singular} no encontrad${def.femenino ? 'a' : 'o'}`}
        text={`${def.femenino ? 'La' : 'El'} ${def.singular.toLowerCase()} no existe o se ha eliminado.`}
        back={back}
      />
    );

  const disabled = !editable;
  const titulo = isNew ? pantalla.nuevoLabel : `${def.singular} ${documento?.numero ?? ''}`;
  const guardeAntes = 'Guarde los cambios antes.';

  return (
    <>
      <PageHeader
        back={back}
        title={titulo}
        description={documento?.proveedor_nombre ?? undefined}
        actions={
          documento && (
            <>
              {def.tipo === 'albarancompra' && flags.compras_devoluciones === 1 && (
                <Button
                  type="button"
                  $variant="secondary"
                  disabled={working || editor.dirty}
                  title={editor.dirty ? guardeAntes : undefined}
                  onClick={() => setDevolviendo(true)}
                >
                  Devolver…
                </Button>
              )}
              {def.tipo === 'pedidocompra' && (
                <Button
                  type="button"
                  $variant="secondary"
                  disabled={working || editor.dirty}
                  title={editor.dirty ? guardeAntes : undefined}
                  aria-busy={working}
                  onClick={() => void enviarCorreo(documento)}
                >
                  Enviar por correo
                </Button>
              )}
              <Button
                type="button"
                $variant="secondary"
                disabled={working || editor.dirty}
                title={editor.dirty ? guardeAntes : undefined}
                onClick={() => void imprimir(documento)}
              >
                Imprimir
              </Button>
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
      {devolviendo && documento && (
        <DevolverDialog albaran={documento} onCancel={() => setDevolviendo(false)} onCreated={(d) => navigate(paths.devolucion(d.id))} />
      )}
      <RecordForm onSubmit={editor.save} dirty={editable && form.dirty} aria-label={titulo}>
        <FormSection title={`Datos de${def.femenino ? ' la' : 'l'} ${def.singular.toLowerCase()}`}>
          <FormGrid>
            {pantalla.campos.map((campo) => {
              switch (campo) {
                case 'proveedor_id':
                  return (
                    <TerceroField<Proveedor>
                      key={campo}
                      tercero={PROVEEDOR}
                      required
                      // Its lines come from another document of this supplier (a receipt, a return): the supplier stays.
                      disabled={disabled || (documento?.padres?.length ?? 0) > 0}
                      value={values.proveedor_id ?? ''}
                      nombre={proveedorNombre}
                      error={errors.proveedor_id}
                      onPick={pickProveedor}
                    />
                  );
                case 'almacen_id':
                  return (
                    <SelectField
                      key={campo}
                      label="Almacén"
                      required
                      disabled={disabled}
                      placeholder={almacenes.loading ? 'Cargando…' : 'Seleccione…'}
                      options={almacenes.options}
                      value={values.almacen_id}
                      error={errors.almacen_id}
                      onChange={(v) => set('almacen_id', v)}
                    />
                  );
                case 'fecha':
                  return (
                    <TextField key={campo} label="Fecha" type="date" required disabled={disabled} value={values.fecha} error={errors.fecha} onChange={(v) => set('fecha', v)} />
                  );
                case 'fecha_entrega':
                  return (
                    <TextField
                      key={campo}
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
                      key={campo}
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
                      key={campo}
                      label="% Retención"
                      disabled={disabled}
                      options={RETENCION_OPTIONS}
                      value={values.retencion || '0'}
                      error={errors.retencion}
                      onChange={(v) => set('retencion', v)}
                    />
                  );
                default:
                  return null;
              }
            })}
          </FormGrid>
          {pantalla.campos.includes('observaciones') && (
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
        <FormSection title="Líneas">
          <LinesEditor
            modo={def.lineas}
            lineas={lineas}
            dispatch={dispatch}
            readOnly={!editable}
            errores={editor.lineErrors}
            params={PARAMS_ARTICULOS}
            opcionesTotales={opcionesTotales}
            titulo={`Líneas de${def.femenino ? ' la' : 'l'} ${def.singular.toLowerCase()}`}
          />
        </FormSection>
        {editable && (
          <RecordActions
            editor={editor}
            cancelTo={pantalla.list}
            deletion={
              editor.eliminable
                ? {
                    title: `Eliminar ${def.singular.toLowerCase()}`,
                    text: `Se eliminará ${la} ${def.singular.toLowerCase()} ${documento?.numero ?? ''} con sus líneas.`,
                  }
                : undefined
            }
          />
        )}
      </RecordForm>
    </>
  );
}
