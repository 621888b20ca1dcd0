import { useNavigate } from 'react-router';
import {
  Button,
  FieldSpan,
  FormGrid,
  FormSection,
  NotFoundPanel,
  PageHeader,
  RecordActions,
  RecordForm,
  SelectField,
  Spinner,
  SwitchField,
  TextField,
  almacenSchema,
  useRecordEditor,
  useShell,
  type Almacen,
  usePermisos,
} from 'shared';
import { useUsuarios } from '../opciones';
import { paths } from '../paths';
import { StockAlmacenPanel } from './StockAlmacenPanel';

export type AlmacenValues = {
  codigo: string;
  nombre: string;
  direccion: string;
  activo: 0 | 1;
  /** Flag furgonetas only. */
  es_furgoneta: 0 | 1;
  matricula: string;
  /** A user's id, or '' for none. */
  conductor_id: string;
};

const EMPTY: AlmacenValues = { codigo: '', nombre: '', direccion: '', activo: 1, es_furgoneta: 0, matricula: '', conductor_id: '' };

const ACTIONS = { list: 'listadoalmacenes', save: 'editaralmacen', remove: 'eliminaralmacen' };

/** /almacenes/almacen/:almacenId and /almacenes/almacen/nuevo-almacen: the form and, once saved, its stock. */
export function AlmacenPage({ id }: { id?: string }) {
  const navigate = useNavigate();
  const puedeUbicaciones = usePermisos().accion('editarubicacion');
  const { flags } = useShell();
  const furgonetas = flags.furgonetas === 1;
  const usuarios = useUsuarios(furgonetas);

  const editor = useRecordEditor<Almacen, AlmacenValues>({
    actions: ACTIONS,
    id,
    schema: almacenSchema,
    empty: EMPTY,
    toValues: (a) => ({
      codigo: a.codigo,
      nombre: a.nombre,
      direccion: a.direccion ?? '',
      activo: a.activo,
      es_furgoneta: a.es_furgoneta === 1 ? 1 : 0,
      matricula: a.matricula ?? '',
      conductor_id: a.conductor_id ? String(a.conductor_id) : '',
    }),
    // A van needs its number plate.
    rules: ({ values }) => (furgonetas && values.es_furgoneta === 1 ? { schema: { matricula: { ...almacenSchema.matricula, required: true } } } : {}),
    toBody: (v, { isNew }) => {
      const { es_furgoneta, matricula, conductor_id, ...rest } = v;
      const body: Record<string, unknown> = { ...rest, ...(isNew ? {} : { id: Number(id) }) };
      // With the flag off the server keeps what it has; a fixed warehouse has no plate nor driver.
      if (furgonetas) Object.assign(body, es_furgoneta === 1 ? { es_furgoneta, matricula, conductor_id } : { es_furgoneta: 0, matricula: null, conductor_id: null });
      return body;
    },
    onSaved: (a, isNew) => {
      if (isNew) navigate(paths.almacen(a.id), { replace: true });
    },
    onRemoved: () => navigate(paths.almacenes),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  const back = { to: paths.almacenes, label: 'Almacenes' };

  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title="Almacén no encontrado" text="El almacén no existe o se ha eliminado." back={back} />;

  const esFurgoneta = furgonetas && values.es_furgoneta === 1;

  return (
    <>
      <PageHeader
        back={back}
        title={isNew ? 'Nuevo almacén' : `${record?.es_furgoneta === 1 && furgonetas ? 'Furgoneta' : 'Almacén'} ${record?.codigo ?? ''}`}
        description={record?.nombre}
        actions={
          record && puedeUbicaciones ? (
            <Button $variant="secondary" onClick={() => navigate(`${paths.nuevaUbicacion}?almacen=${record.id}`)}>
              Nueva ubicación
            </Button>
          ) : undefined
        }
      />
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? 'Nuevo almacén' : 'Almacén'}>
        <FormSection title="Datos del almacén">
          <FormGrid>
            <TextField label="Código" required maxLength={30} autoComplete="off" value={values.codigo} error={errors.codigo} onChange={(v) => set('codigo', v)} />
            <TextField label="Nombre" required maxLength={120} value={values.nombre} error={errors.nombre} onChange={(v) => set('nombre', v)} />
            <FieldSpan>
              <TextField label="Dirección" maxLength={200} value={values.direccion} error={errors.direccion} onChange={(v) => set('direccion', v)} />
            </FieldSpan>
          </FormGrid>
          <SwitchField
            label="Activo"
            name="activo"
            checked={values.activo === 1}
            error={errors.activo}
            hint="Un almacén inactivo conserva su stock y su historial, pero no se ofrece en los documentos nuevos."
            onChange={(on) => set('activo', on ? 1 : 0)}
          />
        </FormSection>
        {furgonetas && (
          <FormSection title="Furgoneta" description="Una furgoneta es un almacén sobre ruedas: lleva stock y la conduce un usuario.">
            <SwitchField
              label="Es furgoneta"
              name="es_furgoneta"
              checked={values.es_furgoneta === 1}
              error={errors.es_furgoneta}
              onChange={(on) => set('es_furgoneta', on ? 1 : 0)}
            />
            {esFurgoneta && (
              <FormGrid>
                <TextField
                  label="Matrícula"
                  required
                  maxLength={15}
                  autoComplete="off"
                  value={values.matricula}
                  error={errors.matricula}
                  onChange={(v) => set('matricula', v.toUpperCase())}
                />
                <SelectField
                  label="Conductor"
                  placeholder={usuarios.loading ? 'Cargando…' : 'Sin conductor'}
                  options={usuarios.options}
                  value={values.conductor_id}
                  error={errors.conductor_id ?? usuarios.error ?? undefined}
                  onChange={(v) => set('conductor_id', v)}
                />
              </FormGrid>
            )}
          </FormSection>
        )}
        {/* Stock, ubicaciones or documents refer to it: RESULT 2 shows 'Acción no posible' and the record stays. */}
        <RecordActions
          editor={editor}
          cancelTo={paths.almacenes}
          deletion={{
            title: 'Eliminar almacén',
            text: `Se eliminará el almacén «${record?.nombre ?? ''}». Si tiene movimientos de stock, ubicaciones o documentos no se podrá eliminar: desactívelo.`,
          }}
        />
      </RecordForm>
      {record && (
        <div style={{ marginTop: 16 }}>
          <StockAlmacenPanel almacen={record} />
        </div>
      )}
    </>
  );
}
