import { useNavigate } from 'react-router';
import {
  FormGrid,
  FormSection,
  Muted,
  NotFoundPanel,
  PageHeader,
  RecordActions,
  RecordForm,
  SERIE_TIPOS,
  SERIE_TIPO_LABEL,
  SelectField,
  Spinner,
  SwitchField,
  TextField,
  serieSchema,
  useRecordEditor,
  type Serie,
  type SerieTipo,
} from 'shared';
import { paths } from '../paths';

export type SerieValues = { codigo: string; descripcion: string; tipo: SerieTipo | ''; activo: 0 | 1 };

const EMPTY: SerieValues = { codigo: '', descripcion: '', tipo: '', activo: 1 };

const TIPO_HINT: Record<SerieTipo, string> = {
  normal: 'Pedidos, albaranes y facturas ordinarias.',
  rectificativa: 'Facturas rectificativas: corrigen facturas ya emitidas.',
  simplificada: 'Tickets del TPV (facturas simplificadas).',
};

const TIPO_OPTIONS = SERIE_TIPOS.map((t) => ({ value: t, label: SERIE_TIPO_LABEL[t] }));

/** /config/serie/:serieId and /config/serie/nueva-serie: one form for both. */
export function SeriePage({ id }: { id?: string }) {
  const navigate = useNavigate();
  const editor = useRecordEditor<Serie, SerieValues>({
    actions: { list: 'listadoseries', save: 'editarserie', remove: 'eliminarserie' },
    id,
    schema: serieSchema,
    empty: EMPTY,
    toValues: (s) => ({ codigo: s.codigo, descripcion: s.descripcion, tipo: s.tipo, activo: s.activo }),
    onSaved: (s, isNew) => {
      if (isNew) navigate(paths.serie(s.id), { replace: true });
    },
    onRemoved: () => navigate(paths.series),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  const back = { to: paths.series, label: 'Series' };

  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title="Serie no encontrada" text="La serie no existe o se ha eliminado." back={back} />;

  return (
    <>
      <PageHeader back={back} title={isNew ? 'Nueva serie' : `Serie ${record?.codigo ?? ''}`} description={record?.descripcion} />
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? 'Nueva serie' : 'Serie'}>
        <FormSection title="Datos de la serie">
          <FormGrid>
            <TextField
              label="Código"
              required
              maxLength={10}
              autoCapitalize="characters"
              hint="Hasta 10 letras o números; se guarda en mayúsculas"
              value={values.codigo}
              error={errors.codigo}
              onChange={(v) => set('codigo', v.toUpperCase())}
            />
            <TextField label="Descripción" required maxLength={100} value={values.descripcion} error={errors.descripcion} onChange={(v) => set('descripcion', v)} />
            <SelectField
              label="Tipo"
              required
              placeholder="Seleccione…"
              options={TIPO_OPTIONS}
              value={values.tipo}
              error={errors.tipo}
              onChange={(v) => set('tipo', v)}
            />
          </FormGrid>
          {values.tipo && <Muted style={{ marginTop: 8, fontSize: 13 }}>{TIPO_HINT[values.tipo]}</Muted>}
          {/* Issue 23: a terminal's serie is the till's own — the back office's documents never use it. */}
          {record?.terminal && (
            <Muted style={{ marginTop: 8, fontSize: 13 }} data-testid="serie-terminal">
              Serie del terminal «{record.terminal}» del TPV: solo ese terminal numera en ella (no se ofrece en los documentos de la oficina).
            </Muted>
          )}
          <SwitchField
            label="Activa"
            name="activo"
            checked={values.activo === 1}
            error={errors.activo}
            hint="Una serie inactiva no se ofrece en los documentos nuevos."
            onChange={(on) => set('activo', on ? 1 : 0)}
          />
        </FormSection>
        {/* Documents use it: RESULT 2 shows 'Acción no posible' and the serie stays. */}
        <RecordActions
          editor={editor}
          cancelTo={paths.series}
          deletion={{ title: 'Eliminar serie', text: `Se eliminará la serie «${record?.codigo ?? ''}». Una serie con documentos no se puede eliminar: desactívela.` }}
        />
      </RecordForm>
    </>
  );
}
