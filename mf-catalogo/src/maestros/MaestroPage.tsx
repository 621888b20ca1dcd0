import { useNavigate } from 'react-router';
import {
  DecimalField,
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
  useRecordEditor,
  type Proceso,
  type Subfamilia,
  usePermisos,
} from 'shared';
import { useFamilias } from '../opciones';
import type { Maestro } from './entidades';

type MaestroRecord = { id: number; codigo: string; nombre: string; activo: 0 | 1 } & Partial<Pick<Subfamilia, 'familia_id'>> & Partial<Pick<Proceso, 'tiempo' | 'coste'>>;

export type MaestroValues = {
  codigo: string;
  nombre: string;
  activo: 0 | 1;
  /** Subfamilia only. */
  familia_id: string;
  /** Proceso only: minutes. */
  tiempo: string;
  /** Proceso only: ten-thousandths of a euro. */
  coste: bigint | number | string | null;
};

const EMPTY: MaestroValues = { codigo: '', nombre: '', activo: 1, familia_id: '', tiempo: '', coste: 0n };

/** Record and "nuevo" screen of a familia, subfamilia, marca, material or proceso. */
export function MaestroPage({ maestro, id }: { maestro: Maestro; id?: string }) {
  const navigate = useNavigate();
  const isSub = maestro.key === 'subfamilia';
  const isProceso = maestro.key === 'proceso';
  // Without «ver precios de compra, costes y márgenes» no Coste (the server keeps the saved one: auth/costes.ts).
  const costes = usePermisos().tiene('ver_costes');
  const familias = useFamilias(isSub);

  const editor = useRecordEditor<MaestroRecord, MaestroValues>({
    actions: maestro.actions,
    id,
    schema: maestro.schema,
    empty: EMPTY,
    toValues: (m) => ({
      codigo: m.codigo,
      nombre: m.nombre,
      activo: m.activo,
      familia_id: m.familia_id ? String(m.familia_id) : '',
      tiempo: m.tiempo === null || m.tiempo === undefined ? '' : String(m.tiempo),
      coste: m.coste ?? 0,
    }),
    onSaved: (m, isNew) => {
      if (isNew) navigate(maestro.recordPath(m.id), { replace: true });
    },
    onRemoved: () => navigate(maestro.listPath),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  const back = { to: maestro.listPath, label: maestro.plural };
  const la = maestro.femenino ? 'la' : 'el';

  if (editor.loading) return <Spinner />;
  if (editor.notFound)
    return (
      <NotFoundPanel
        title={`${maestro.singular} no encontrad${maestro.femenino ? 'a' : 'o'}`}
        text={`${maestro.femenino ? 'La' : 'El'} ${maestro.singular.toLowerCase()} no existe o se ha eliminado.`}
        back={back}
      />
    );

  return (
    <>
      <PageHeader back={back} title={isNew ? maestro.nuevo : `${maestro.singular} ${record?.codigo ?? ''}`} description={record?.nombre} />
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? maestro.nuevo : maestro.singular}>
        <FormSection title={`Datos de ${la} ${maestro.singular.toLowerCase()}`}>
          <FormGrid>
            <TextField label="Código" required maxLength={30} autoComplete="off" value={values.codigo} error={errors.codigo} onChange={(v) => set('codigo', v)} />
            <TextField label="Nombre" required maxLength={120} value={values.nombre} error={errors.nombre} onChange={(v) => set('nombre', v)} />
            {isSub && (
              <SelectField
                label="Familia"
                required
                placeholder={familias.loading ? 'Cargando…' : 'Seleccione…'}
                options={familias.options}
                value={values.familia_id}
                error={errors.familia_id}
                onChange={(v) => set('familia_id', v)}
              />
            )}
            {isProceso && (
              <>
                <TextField
                  label="Tiempo (minutos)"
                  inputMode="numeric"
                  value={values.tiempo}
                  error={errors.tiempo}
                  onChange={(v) => set('tiempo', v.trim())}
                />
                {costes && (
                  <DecimalField label="Coste" scale={4} suffix="€" value={values.coste} error={errors.coste} onChange={(v) => set('coste', v)} hint="Hasta 4 decimales" />
                )}
              </>
            )}
          </FormGrid>
          <SwitchField
            label={maestro.femenino ? 'Activa' : 'Activo'}
            name="activo"
            checked={values.activo === 1}
            error={errors.activo}
            hint={`${maestro.femenino ? 'Una' : 'Un'} ${maestro.singular.toLowerCase()} inactiv${maestro.femenino ? 'a' : 'o'} se conserva pero no se ofrece en los artículos nuevos.`}
            onChange={(on) => set('activo', on ? 1 : 0)}
          />
        </FormSection>
        {/* Articles use it: RESULT 2 shows 'Acción no posible' and the record stays. */}
        <RecordActions
          editor={editor}
          cancelTo={maestro.listPath}
          deletion={{
            title: `Eliminar ${maestro.singular.toLowerCase()}`,
            text: `Se eliminará ${la} ${maestro.singular.toLowerCase()} «${record?.nombre ?? ''}». Si algún artículo ${maestro.femenino ? 'la' : 'lo'} usa no se podrá eliminar: desactíve${maestro.femenino ? 'la' : 'lo'}.`,
          }}
        />
      </RecordForm>
    </>
  );
}
