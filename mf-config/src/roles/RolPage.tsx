import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  Badge,
  Button,
  Callout,
  CheckboxListField,
  DERECHOS_ESPECIALES,
  DecimalField,
  ESPECIAL_LABEL,
  FormActions,
  MESSAGES,
  FormGrid,
  FormSection,
  NotFoundPanel,
  PageHeader,
  RecordActions,
  RecordForm,
  Spinner,
  TextField,
  puede,
  rolSchema,
  tiene,
  usePermisos,
  useRecordEditor,
  useShell,
  type DerechoEspecial,
  type Rol,
  type Schema,
} from 'shared';
import { paths } from '../paths';
import { DerechosGrid, type DerechosAreas } from './DerechosGrid';

export type RolValues = {
  nombre: string;
  areas: DerechosAreas;
  especiales: DerechoEspecial[];
  /** Hundredths of a percent, as typed (DecimalField). */
  descuento_maximo: bigint | string | null;
};

const EMPTY: RolValues = { nombre: '', areas: {}, especiales: [], descuento_maximo: 0n };

/** The form's fields: the name, and the discount between 0 and 100 %. */
const SCHEMA: Schema = { ...rolSchema, descuento_maximo: { type: 'int', required: true, min: 0, max: 10000 } };

const toValues = (r: Pick<Rol, 'nombre' | 'derechos'>): RolValues => ({
  nombre: r.nombre,
  areas: { ...r.derechos.areas },
  especiales: [...r.derechos.especiales],
  descuento_maximo: BigInt(r.derechos.descuento_maximo),
});

const ESPECIALES_OPTIONS = DERECHOS_ESPECIALES.map((e) => ({ value: e as DerechoEspecial, label: ESPECIAL_LABEL[e] }));

/**
 * /config/rol/:rolId, /config/rol/nuevo-rol (and ?copia=<id>, a new role starting from another's rights): the name,
 * the table of rights per area and level, the named rights and the largest discount without «descuento». The
 * built-in roles are shown read-only, with «Copiar».
 */
export function RolPage({ id, copiaDe }: { id?: string; copiaDe?: string }) {
  const navigate = useNavigate();
  const { api, user } = useShell();
  const yo = user?.rol ?? null;
  const permisos = usePermisos();
  const editor = useRecordEditor<Rol, RolValues>({
    actions: { list: 'listadoroles', save: 'editarrol', remove: 'eliminarrol' },
    id,
    schema: SCHEMA,
    empty: EMPTY,
    toValues,
    toBody: (v, { isNew, values }) => ({
      ...(isNew ? {} : { id: Number(id) }),
      nombre: v.nombre,
      derechos: { areas: values.areas, especiales: values.especiales, descuento_maximo: v.descuento_maximo },
    }),
    onSaved: (r, isNew) => {
      if (isNew) navigate(paths.rol(r.id), { replace: true });
    },
    onRemoved: () => navigate(paths.roles),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set, reset } = form;

  // A copy starts with the other role's rights and a name of its own.
  useEffect(() => {
    if (!copiaDe) return;
    let live = true;
    api
      .get<Rol>('listadoroles', { id: copiaDe })
      .then((res) => {
        const r = res.RESULT === '0' ? res.data?.[0] : undefined;
        if (live && r) reset({ ...toValues(r), nombre: `${r.nombre} (copia)` });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, copiaDe, reset]);

  const back = { to: paths.roles, label: 'Roles' };
  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title="Rol no encontrado" text="El rol no existe o se ha eliminado." back={back} />;

  const predefinido = record?.predefinido === 1;
  // Nobody edits the role they hold (issue 24, shared/domain/promocion.ts).
  const propio = !isNew && !!yo && record?.id === yo.id;
  // A built-in role, one's own, or a user whose role can't change roles: the fields only show.
  const soloLectura = predefinido || propio || !editor.puedeGuardar;
  // Nobody grants a right they do not hold: a box is offered when the user's role has it or the saved role had it.
  const concede = {
    nivel: (a: Parameters<typeof puede>[1], n: Parameters<typeof puede>[2]) => !yo || puede(yo.derechos, a, n) || puede(record?.derechos, a, n),
    especial: (e: DerechoEspecial) => !yo || tiene(yo.derechos, e) || tiene(record?.derechos, e),
  };
  const especialesOpciones = ESPECIALES_OPTIONS.map((o) => ({ ...o, disabled: !concede.especial(o.value) && !values.especiales.includes(o.value) }));
  const puedeCopiar = !isNew && permisos.accion('editarrol');
  const usuarios = record?.usuarios ?? 0;

  return (
    <>
      <PageHeader
        back={back}
        title={
          isNew ? (
            'Nuevo rol'
          ) : (
            <>
              {record?.nombre} {predefinido && <Badge $tone="info">Predefinido</Badge>}
            </>
          )
        }
        description={record ? `${usuarios.toLocaleString('es-ES')} ${usuarios === 1 ? 'usuario tiene' : 'usuarios tienen'} este rol.` : undefined}
        actions={
          puedeCopiar && record ? (
            <Button as={Link} to={paths.copiaRol(record.id)} $variant="secondary">
              Copiar
            </Button>
          ) : undefined
        }
      />
      {predefinido && (
        <Callout role="status" style={{ marginBottom: 16 }}>
          Es un rol predefinido: no se puede modificar ni eliminar. Para ajustarlo, cópielo y cambie la copia.
        </Callout>
      )}
      {propio && !predefinido && (
        <Callout role="status" style={{ marginBottom: 16 }}>
          {MESSAGES.reglaRolPropio}
        </Callout>
      )}
      <RecordForm onSubmit={editor.save} dirty={!predefinido && form.dirty} aria-label={isNew ? 'Nuevo rol' : 'Rol'}>
        <FormSection title="Nombre">
          <FormGrid>
            <TextField label="Nombre" required autoComplete="off" maxLength={60} disabled={soloLectura} value={values.nombre} error={errors.nombre} onChange={(v) => set('nombre', v)} />
          </FormGrid>
        </FormSection>

        <FormSection title="Derechos por área" description="El servidor comprueba cada acción con esta tabla; los menús y los botones la siguen.">
          <DerechosGrid areas={values.areas} disabled={soloLectura} concede={concede.nivel} onChange={(areas) => set('areas', areas)} />
        </FormSection>

        <FormSection title="Derechos concretos" description="Lo que una tienda suele querer decidir aparte.">
          <CheckboxListField
            label="Además, puede"
            options={especialesOpciones}
            hint={yo && soloLectura ? undefined : 'Solo puede dar los derechos que tiene su propio rol.'}
            value={values.especiales}
            disabled={soloLectura}
            onChange={(v) => set('especiales', v as DerechoEspecial[])}
          />
          <div style={{ maxWidth: 320, marginTop: 12 }}>
            <DecimalField
              label="Descuento máximo en una línea"
              required
              scale={2}
              suffix="%"
              hint="Sin «Dar un descuento superior al máximo del rol», una línea no puede llevar más (salvo el descuento propio del cliente)."
              value={values.descuento_maximo}
              error={errors.descuento_maximo}
              disabled={soloLectura || values.especiales.includes('descuento')}
              onChange={(v) => set('descuento_maximo', v)}
            />
          </div>
        </FormSection>

        {predefinido || propio ? (
          <FormActions readOnly readOnlyNote={predefinido ? "Rol predefinido: para cambiarlo, cópielo." : MESSAGES.reglaRolPropio} cancelTo={paths.roles} />
        ) : (
          <RecordActions
            editor={editor}
            cancelTo={paths.roles}
            deletion={
              usuarios > 0
                ? undefined
                : { title: 'Eliminar rol', text: `Se eliminará el rol «${record?.nombre ?? ''}». Esta acción no se puede deshacer.` }
            }
          />
        )}
      </RecordForm>
    </>
  );
}
