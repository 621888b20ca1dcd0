import { useNavigate, useSearchParams } from 'react-router';
import {
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
  ubicacionSchema,
  useRecordEditor,
  type Ubicacion,
} from 'shared';
import { useAlmacenes } from '../opciones';
import { paths } from '../paths';

export type UbicacionValues = {
  /** The almacén's id, '' until chosen. */
  almacen_id: string;
  codigo: string;
  descripcion: string;
  activo: 0 | 1;
};

const ACTIONS = { list: 'listadoubicaciones', save: 'editarubicacion', remove: 'eliminarubicacion' };

/**
 * /almacenes/ubicacion/:ubicacionId and /almacenes/ubicacion/nueva-ubicacion (`?almacen=ID` chooses
 * the almacén, as the almacén's "Nueva ubicación" button does).
 */
export function UbicacionPage({ id }: { id?: string }) {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const almacenes = useAlmacenes();

  const editor = useRecordEditor<Ubicacion, UbicacionValues>({
    actions: ACTIONS,
    id,
    schema: ubicacionSchema,
    empty: { almacen_id: /^\d+$/.test(search.get('almacen') ?? '') ? (search.get('almacen') as string) : '', codigo: '', descripcion: '', activo: 1 },
    toValues: (u) => ({ almacen_id: String(u.almacen_id), codigo: u.codigo, descripcion: u.descripcion ?? '', activo: u.activo }),
    onSaved: (u, isNew) => {
      if (isNew) navigate(paths.ubicacion(u.id), { replace: true });
    },
    onRemoved: () => navigate(paths.ubicaciones),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  const back = { to: paths.ubicaciones, label: 'Ubicaciones' };

  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title="Ubicación no encontrada" text="La ubicación no existe o se ha eliminado." back={back} />;

  return (
    <>
      <PageHeader back={back} title={isNew ? 'Nueva ubicación' : `Ubicación ${record?.codigo ?? ''}`} description={record?.almacen_nombre} />
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? 'Nueva ubicación' : 'Ubicación'}>
        <FormSection title="Datos de la ubicación">
          <FormGrid>
            <SelectField
              label="Almacén"
              required
              placeholder={almacenes.loading ? 'Cargando…' : 'Seleccione…'}
              options={almacenes.options}
              value={values.almacen_id}
              error={errors.almacen_id ?? almacenes.error ?? undefined}
              onChange={(v) => set('almacen_id', v)}
            />
            <TextField
              label="Código"
              required
              maxLength={30}
              autoComplete="off"
              placeholder="A-03-2"
              hint="Pasillo, estantería y balda; único dentro del almacén."
              value={values.codigo}
              error={errors.codigo}
              onChange={(v) => set('codigo', v)}
            />
            <TextField label="Descripción" maxLength={120} value={values.descripcion} error={errors.descripcion} onChange={(v) => set('descripcion', v)} />
          </FormGrid>
          <SwitchField
            label="Activa"
            name="activo"
            checked={values.activo === 1}
            error={errors.activo}
            hint="Una ubicación inactiva conserva su historial, pero no se ofrece en los documentos nuevos."
            onChange={(on) => set('activo', on ? 1 : 0)}
          />
        </FormSection>
        {/* Stock rows or document lines refer to it: RESULT 2 shows 'Acción no posible' and the record stays. */}
        <RecordActions
          editor={editor}
          cancelTo={paths.ubicaciones}
          deletion={{
            title: 'Eliminar ubicación',
            text: `Se eliminará la ubicación «${record?.codigo ?? ''}». Si tiene movimientos de stock o líneas de documentos no se podrá eliminar: desactívela.`,
          }}
        />
      </RecordForm>
    </>
  );
}
