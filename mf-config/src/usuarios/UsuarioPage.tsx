import { useNavigate } from 'react-router';
import {
  Badge,
  CONSTANTS,
  Callout,
  FormGrid,
  FormSection,
  MESSAGES,
  Muted,
  NotFoundPanel,
  PageHeader,
  RecordActions,
  RecordForm,
  SelectField,
  Spinner,
  SwitchField,
  TextField,
  derechoAjeno,
  esAdministrador,
  formatDateTime,
  nombreDerecho,
  rolAsignable,
  useListOptions,
  useRecordEditor,
  useShell,
  usuarioSchema,
  type FieldErrors,
  type Rol,
  type Schema,
  type Usuario,
} from 'shared';
import { paths } from '../paths';

export type UsuarioValues = { nombre: string; email: string; password: string; password2: string; activo: 0 | 1; rol_id: string };

const EMPTY: UsuarioValues = { nombre: '', email: '', password: '', password2: '', activo: 1, rol_id: '' };

/** The roles to choose from: the built-in ones first (as the server lists them). */
const ROLES_PARAMS = {};

/** Creating needs a password; editing changes it only when one is typed. */
const passwordRequired: Schema = { password: { ...usuarioSchema.password, required: true } };

/** /config/usuario/:usuarioId and /config/usuario/nuevo-usuario: one form for both. */
export function UsuarioPage({ id }: { id?: string }) {
  const navigate = useNavigate();
  const { user } = useShell();
  const yo = user?.rol ?? null;
  const roles = useListOptions<Rol>('listadoroles', { params: ROLES_PARAMS, toOption: (r) => ({ value: String(r.id), label: r.nombre }) });
  // A new user starts as Consulta (the role that changes nothing) until another is chosen; not a change to save —
  // unless the user's own role may not give Consulta's rights (issue 24): then a role must be chosen.
  const consulta = roles.rows.find((r) => r.clave === 'consulta');
  const rolPorDefecto = consulta && (!yo || rolAsignable(yo, consulta)) ? String(consulta.id) : '';

  const editor = useRecordEditor<Usuario, UsuarioValues>({
    actions: { list: 'listadousuarios', save: 'editarusuario', remove: 'eliminarusuario' },
    id,
    schema: usuarioSchema,
    empty: EMPTY,
    toValues: (u) => ({ nombre: u.nombre, email: u.email, password: '', password2: '', activo: u.activo, rol_id: u.rol_id ? String(u.rol_id) : '' }),
    rules: ({ isNew }) => ({
      schema: isNew ? passwordRequired : undefined,
      check: (v): FieldErrors => ((v.password || v.password2) && v.password !== v.password2 ? { password2: MESSAGES.passwordsDiffer } : {}),
    }),
    toBody: ({ password, rol_id, ...rest }, { isNew }) => {
      const rol = rol_id ?? (isNew && rolPorDefecto ? Number(rolPorDefecto) : null);
      return { ...(isNew ? {} : { id: Number(id) }), ...rest, ...(rol ? { rol_id: rol } : {}), ...(password ? { password } : {}) };
    },
    onSaved: (u, isNew) => {
      if (isNew) navigate(paths.usuario(u.id), { replace: true });
    },
    onRemoved: () => navigate(paths.usuarios),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  // Nobody deletes or deactivates themselves (the server refuses it too).
  const isSelf = !isNew && user !== null && Number(id) === user.id;
  // No self-promotion (shared/domain/promocion.ts): what the server would refuse is not offered.
  const rolActual = record ? roles.rows.find((r) => r.id === record.rol_id) : undefined;
  const administradorAjeno = !!rolActual && esAdministrador(rolActual) && !!yo && !esAdministrador(yo);
  const falta = !isSelf && rolActual && yo ? derechoAjeno(yo.derechos, rolActual.derechos) : null;
  const credencialesAjenas = administradorAjeno
    ? MESSAGES.reglaUsuarioAdministrador
    : falta
      ? MESSAGES.reglaCredencialesAjenas.replace('{derecho}', nombreDerecho(falta, rolActual?.derechos))
      : null;
  const opcionesRol = roles.options.map((o) => {
    const r = roles.rows.find((x) => String(x.id) === o.value);
    return { ...o, disabled: !!yo && !!r && r.id !== record?.rol_id && !rolAsignable(yo, r, rolActual) };
  });
  const back = { to: paths.usuarios, label: 'Usuarios' };

  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title="Usuario no encontrado" text="El usuario no existe o se ha eliminado." back={back} />;

  return (
    <>
      <PageHeader
        back={back}
        title={
          isNew ? (
            'Nuevo usuario'
          ) : (
            <>
              {record?.nombre}
              {isSelf && (
                <>
                  {' '}
                  <Badge $tone="info">Usted</Badge>
                </>
              )}
            </>
          )
        }
        description={
          record ? `Creado el ${formatDateTime(record.creado)} · Último acceso: ${record.ultimo_acceso ? formatDateTime(record.ultimo_acceso) : 'nunca'}` : undefined
        }
      />
      {administradorAjeno && (
        <Callout role="status" style={{ marginBottom: 16 }}>
          {MESSAGES.reglaUsuarioAdministrador}
        </Callout>
      )}
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? 'Nuevo usuario' : 'Usuario'}>
        <FormSection title="Datos del usuario" description="El rol decide lo que puede hacer (Configuración › Roles); un cambio se aplica desde su siguiente acción.">
          <FormGrid>
            <TextField label="Nombre" required autoComplete="off" value={values.nombre} error={errors.nombre} onChange={(v) => set('nombre', v)} />
            <TextField
              label="Email"
              required
              type="email"
              inputMode="email"
              autoComplete="off"
              hint={credencialesAjenas ?? 'Con él se identifica al entrar'}
              disabled={!!credencialesAjenas}
              value={values.email}
              error={errors.email}
              onChange={(v) => set('email', v)}
            />
          </FormGrid>
          <FormGrid>
            <SelectField
              label="Rol"
              required
              placeholder={roles.loading ? 'Cargando…' : 'Seleccione un rol'}
              options={opcionesRol}
              disabled={isSelf || administradorAjeno}
              hint={isSelf ? MESSAGES.reglaRolPropio : 'Solo los roles con derechos que tiene su propio rol.'}
              value={values.rol_id || (isNew ? rolPorDefecto : '')}
              error={errors.rol_id ?? roles.error ?? undefined}
              onChange={(v) => set('rol_id', v)}
            />
          </FormGrid>
          <SwitchField
            label="Activo"
            name="activo"
            checked={values.activo === 1}
            disabled={isSelf || administradorAjeno}
            error={errors.activo}
            hint={isSelf ? MESSAGES.cannotDeactivateSelf : 'Un usuario inactivo no puede entrar; se conserva con su historial.'}
            onChange={(on) => set('activo', on ? 1 : 0)}
          />
        </FormSection>

        <FormSection
          title="Contraseña"
          description={
            isNew
              ? `Al menos ${CONSTANTS.minPasswordLength} caracteres.`
              : `Déjela en blanco para mantener la actual. Si la cambia, se cerrarán las demás sesiones de este usuario.`
          }
        >
          <FormGrid>
            <TextField
              label={isNew ? 'Contraseña' : 'Nueva contraseña'}
              required={isNew}
              type="password"
              autoComplete="new-password"
              disabled={!!credencialesAjenas}
              hint={credencialesAjenas ?? undefined}
              value={values.password}
              error={errors.password}
              onChange={(v) => set('password', v)}
            />
            <TextField
              label="Repetir contraseña"
              required={isNew}
              type="password"
              autoComplete="new-password"
              disabled={!!credencialesAjenas}
              value={values.password2}
              error={errors.password2}
              onChange={(v) => set('password2', v)}
            />
          </FormGrid>
        </FormSection>

        {isSelf && <Muted>{MESSAGES.cannotDeleteSelf}: otro usuario puede hacerlo.</Muted>}

        <RecordActions
          editor={editor}
          cancelTo={paths.usuarios}
          deletion={
            isSelf || administradorAjeno
              ? undefined
              : { title: 'Eliminar usuario', text: `Se eliminará el usuario «${record?.nombre ?? ''}» y se cerrarán sus sesiones. Esta acción no se puede deshacer.` }
          }
        />
      </RecordForm>
    </>
  );
}
