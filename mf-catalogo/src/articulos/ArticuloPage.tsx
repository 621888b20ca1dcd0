import { useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import {
  ActiveBadge,
  Button,
  DecimalField,
  FieldSpan,
  FormGrid,
  FormSection,
  ImageField,
  NotFoundPanel,
  PageHeader,
  RecordActions,
  RecordForm,
  SelectField,
  Spinner,
  SwitchField,
  TextAreaField,
  TextField,
  TIPOS_POR_IMPUESTO,
  UNIDADES_MEDIDA,
  UNIDAD_LABEL,
  articuloSchema,
  isValidEan,
  useRecordEditor,
  usePermisos,
  useShell,
  type Articulo,
} from 'shared';
import { useFamilias, useMarcas, useMateriales, useProcesos, useSubfamilias } from '../opciones';
import { paths } from '../paths';
import {
  EMPTY_ARTICULO,
  MSG,
  checkArticulo,
  slugify,
  toBody,
  toValues,
  withIva,
  withNet,
  withPvp,
  type ArticuloValues,
} from './articuloForm';
import { ComponentesSection, ProporcionesSection, VinculosSection } from './ComposicionSections';
import { EstadisticasPanel } from './EstadisticasPanel';
import { MovimientosPanel } from './MovimientosPanel';
import { PreciosSection } from './PreciosSection';

const UNIDAD_OPTIONS = UNIDADES_MEDIDA.map((u) => ({ value: u, label: `${UNIDAD_LABEL[u]} (${u})` }));

/** /catalogo/articulo/:articuloId and /catalogo/articulo/nuevo-articulo: one form for both. */
export function ArticuloPage({ id }: { id?: string }) {
  const navigate = useNavigate();
  const { flags, config } = useShell();
  // Issue 16: the company's tax (IVA, IGIC, IPSI) gives the types offered and a new article's default.
  const impuesto = config?.impuesto ?? 'iva';
  const empty = useMemo(() => ({ ...EMPTY_ARTICULO, tipo_iva: TIPOS_POR_IMPUESTO[impuesto][0] }), [impuesto]);
  // Without «ver precios de compra y márgenes» the server answers no costs: the form neither shows nor sends them.
  const costes = usePermisos().tiene('ver_costes');
  const current = useRef<ArticuloValues | undefined>(undefined);

  const editor = useRecordEditor<Articulo, ArticuloValues>({
    actions: { list: 'listadoarticulos', save: 'editararticulo', remove: 'eliminararticulo' },
    id,
    schema: articuloSchema,
    empty,
    toValues: (a) => toValues(a, current.current),
    rules: () => ({ check: (v) => checkArticulo(v, flags) }),
    toBody: (validated, { isNew, values }) => {
      const body = toBody(validated, values, flags, isNew ? undefined : Number(id));
      if (!costes) delete body.precio_compra;
      return body;
    },
    onSaved: (a, isNew) => {
      if (isNew) navigate(paths.articulo(a.id), { replace: true });
    },
    onRemoved: () => navigate(paths.articulos),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  current.current = values;

  const familias = useFamilias();
  const subfamilias = useSubfamilias(values.familia_id, values.familia_id !== '');
  const marcas = useMarcas();
  const materiales = useMateriales(flags.materiales === 1 || flags.proporciones === 1);
  const procesos = useProcesos(flags.procesos === 1);

  const back = { to: paths.articulos, label: 'Artículos' };
  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title="Artículo no encontrado" text="El artículo no existe o se ha eliminado." back={back} />;

  const patch = (p: Partial<ArticuloValues>) => {
    for (const [k, v] of Object.entries(p)) set(k as keyof ArticuloValues & string, v);
  };

  const ean = values.codigo_barras.trim();
  const eanComplete = /^(\d{8}|\d{13})$/.test(ean);
  // A scanner or a careful typist sees a wrong check digit at once, not only on saving.
  const eanError = errors.codigo_barras ?? (eanComplete && !isValidEan(ean) ? MSG.ean : undefined);

  return (
    <>
      <PageHeader
        back={back}
        title={
          isNew ? (
            'Nuevo artículo'
          ) : (
            <>
              {record?.codigo} <ActiveBadge activo={record?.activo} />
            </>
          )
        }
        description={record?.descripcion}
      />
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? 'Nuevo artículo' : 'Artículo'}>
        <FormSection title="Datos generales">
          <FormGrid>
            <TextField label="Código" required maxLength={30} autoComplete="off" value={values.codigo} error={errors.codigo} onChange={(v) => set('codigo', v)} />
            <TextField label="Referencia" maxLength={50} value={values.referencia} error={errors.referencia} onChange={(v) => set('referencia', v)} />
            <FieldSpan>
              <TextField label="Descripción" required maxLength={200} value={values.descripcion} error={errors.descripcion} onChange={(v) => set('descripcion', v)} />
            </FieldSpan>
            <FieldSpan>
              <TextAreaField
                label="Descripción larga"
                maxLength={5000}
                value={values.descripcion_larga}
                error={errors.descripcion_larga}
                onChange={(v) => set('descripcion_larga', v)}
              />
            </FieldSpan>
            <SelectField
              label="Familia"
              placeholder="Sin familia"
              options={familias.options}
              value={values.familia_id}
              error={errors.familia_id}
              onChange={(v) => patch({ familia_id: v, subfamilia_id: '' })}
            />
            <SelectField
              label="Subfamilia"
              placeholder={values.familia_id ? 'Sin subfamilia' : 'Elija antes la familia'}
              disabled={!values.familia_id}
              options={values.familia_id ? subfamilias.options : []}
              value={values.subfamilia_id}
              error={errors.subfamilia_id}
              onChange={(v) => set('subfamilia_id', v)}
            />
            <SelectField label="Marca" placeholder="Sin marca" options={marcas.options} value={values.marca_id} error={errors.marca_id} onChange={(v) => set('marca_id', v)} />
            <SelectField
              label="Unidad de medida"
              required
              options={UNIDAD_OPTIONS}
              value={values.unidad_medida}
              error={errors.unidad_medida}
              onChange={(v) => set('unidad_medida', v)}
            />
            <TextField
              label="Tiempo (minutos)"
              inputMode="numeric"
              hint="Para servicios: lo que dura"
              value={values.tiempo}
              error={errors.tiempo}
              onChange={(v) => set('tiempo', v.trim())}
            />
            {flags.almacenes && (
              <DecimalField
                label="Stock mínimo"
                scale={3}
                minFraction={0}
                hint="Sumando todos los almacenes; por debajo sale en Informes › Inventario › Bajo mínimo (0: sin mínimo)"
                value={values.stock_minimo}
                error={errors.stock_minimo}
                onChange={(v) => set('stock_minimo', v)}
              />
            )}
          </FormGrid>
          <FormGrid style={{ marginTop: 14 }}>
            <ImageField label="Foto" value={values.foto} error={errors.foto} onChange={(url) => set('foto', url)} />
            <SwitchField
              label="Activo"
              name="activo"
              checked={values.activo === 1}
              error={errors.activo}
              hint="Un artículo inactivo se conserva con su historial pero no se ofrece en documentos nuevos ni en el TPV."
              onChange={(on) => set('activo', on ? 1 : 0)}
            />
          </FormGrid>
        </FormSection>

        <PreciosSection
          values={values}
          errors={errors}
          flags={flags}
          impuesto={impuesto}
          costes={costes}
          onCompra={(v) => set('precio_compra', v)}
          onNet={(field, v) => patch(withNet(values, field, v))}
          onPvp={(field, v) => patch(withPvp(values, field, v))}
          onIva={(iva) => patch(withIva(values, iva))}
          onOperacion={(op) => set('operacion', op)}
        />

        <FormSection title="Códigos y TPV">
          <FormGrid>
            <TextField
              label="Código de barras"
              inputMode="numeric"
              maxLength={13}
              autoComplete="off"
              hint={eanComplete ? 'Dígito de control correcto' : 'EAN-13 o EAN-8'}
              value={values.codigo_barras}
              error={eanError}
              onChange={(v) => set('codigo_barras', v.trim())}
            />
            <TextField label="Nombre en el TPV" maxLength={30} hint="Hasta 30 caracteres" value={values.nombre_tpv} error={errors.nombre_tpv} onChange={(v) => set('nombre_tpv', v)} />
            <FieldSpan>
              <TextField
                label="Palabras clave"
                maxLength={500}
                hint="Otras palabras con las que encontrarlo en la búsqueda"
                value={values.palabras_clave}
                error={errors.palabras_clave}
                onChange={(v) => set('palabras_clave', v)}
              />
            </FieldSpan>
          </FormGrid>
        </FormSection>

        {(flags.materiales === 1 || flags.procesos === 1) && (
          <VinculosSection
            materiales={{ on: flags.materiales === 1, options: materiales.options, value: values.materiales, error: materiales.error }}
            procesos={{ on: flags.procesos === 1, options: procesos.options, value: values.procesos, error: procesos.error }}
            onMateriales={(v) => set('materiales', v)}
            onProcesos={(v) => set('procesos', v)}
          />
        )}

        {flags.compuestos === 1 && (
          <ComponentesSection articuloId={record?.id} componentes={values.componentes} error={errors.componentes} onChange={(v) => set('componentes', v)} />
        )}

        {flags.proporciones === 1 && (
          <ProporcionesSection
            proporciones={values.proporciones}
            materiales={materiales.options}
            materialesError={materiales.error}
            error={errors.proporciones}
            onChange={(v) => set('proporciones', v)}
          />
        )}

        {flags.seo === 1 && (
          <FormSection title="Web (SEO)" description="Cómo aparece el artículo en la tienda en línea y en los buscadores.">
            <FormGrid>
              <TextField
                label="Dirección (slug)"
                maxLength={200}
                hint="Minúsculas, números y guiones"
                value={values.seo_slug}
                error={errors.seo_slug}
                onChange={(v) => set('seo_slug', v)}
              />
              <div style={{ alignSelf: 'end', paddingBottom: errors.seo_slug ? 22 : 20 }}>
                <Button type="button" $variant="secondary" $small disabled={!values.descripcion.trim()} onClick={() => set('seo_slug', slugify(values.descripcion))}>
                  Generar desde la descripción
                </Button>
              </div>
              <FieldSpan>
                <TextField
                  label="Título"
                  maxLength={70}
                  hint={`${values.seo_titulo.length} / 70`}
                  value={values.seo_titulo}
                  error={errors.seo_titulo}
                  onChange={(v) => set('seo_titulo', v)}
                />
              </FieldSpan>
              <FieldSpan>
                <TextAreaField
                  label="Descripción para buscadores"
                  rows={2}
                  maxLength={160}
                  value={values.seo_descripcion}
                  error={errors.seo_descripcion}
                  onChange={(v) => set('seo_descripcion', v)}
                />
              </FieldSpan>
            </FormGrid>
          </FormSection>
        )}

        {record && <EstadisticasPanel articulo={record} almacenes={flags.almacenes === 1} costes={costes} />}
        {record && flags.almacenes === 1 && <MovimientosPanel articuloId={record.id} />}

        {/* Documents or kits use it: RESULT 2 shows 'Acción no posible' and the article stays. */}
        <RecordActions
          editor={editor}
          cancelTo={paths.articulos}
          deletion={{
            title: 'Eliminar artículo',
            text: `Se eliminará el artículo «${record?.codigo ?? ''} ${record?.descripcion ?? ''}». Si lo usan documentos o kits no se podrá eliminar: desactívelo.`,
          }}
        />
      </RecordForm>
    </>
  );
}
