import { useNavigate } from 'react-router';
import {
  FORMAS_PAGO,
  FieldSpan,
  FormGrid,
  FormSection,
  NotFoundPanel,
  PageHeader,
  RETENCIONES,
  RecordActions,
  RecordForm,
  SelectField,
  Spinner,
  SwitchField,
  TextAreaField,
  TextField,
  formatDecimal,
  proveedorSchema,
  provinciaDeCodigoPostal,
  useRecordEditor,
  type Proveedor,
} from 'shared';
import styled from 'styled-components';
import { paths } from '../paths';
import { ProveedorCompras, ProveedorDocumentos } from './ProveedorDocumentos';

/** The IBAN takes two columns: its 29 characters in groups of four fit whole (one column on a phone). */
const IbanSpan = styled.div`
  grid-column: span 2;
  ${({ theme }) => theme.phone} { grid-column: auto; }
`;

export type ProveedorValues = {
  codigo: string;
  nif: string;
  razon_social: string;
  nombre_comercial: string;
  direccion: string;
  codigo_postal: string;
  poblacion: string;
  provincia: string;
  telefono: string;
  email: string;
  iban: string;
  forma_pago: string;
  /** Hundredths of a percent, as the select's value. */
  retencion: string;
  observaciones: string;
  activo: 0 | 1;
};

const EMPTY: ProveedorValues = {
  codigo: '',
  nif: '',
  razon_social: '',
  nombre_comercial: '',
  direccion: '',
  codigo_postal: '',
  poblacion: '',
  provincia: '',
  telefono: '',
  email: '',
  iban: '',
  forma_pago: '',
  retencion: '0',
  observaciones: '',
  activo: 1,
};

const ACTIONS = { list: 'listadoproveedores', save: 'editarproveedor', remove: 'eliminarproveedor' };

/** An IBAN as people read it: groups of four ('ES91 2100 0418 4502 0005 1332'). */
export function formatIban(v: string): string {
  return v
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .replace(/(.{4})(?=.)/g, '$1 ');
}

/** '7 %' of a retención in hundredths of a percent. */
export const retencionLabel = (r: number) => `${formatDecimal(r, 2, 0)} %`;
export const RETENCION_OPTIONS = RETENCIONES.map((r) => ({ value: String(r), label: retencionLabel(r) }));
export const FORMA_PAGO_OPTIONS = FORMAS_PAGO.map((f) => ({ value: f.id, label: f.label }));

const str = (v: string | null | undefined) => v ?? '';

/** /compras/proveedor/:proveedorId and /compras/proveedor/nuevo-proveedor: the form and, once saved, its documents and purchases per year. */
export function ProveedorPage({ id }: { id?: string }) {
  const navigate = useNavigate();
  const editor = useRecordEditor<Proveedor, ProveedorValues>({
    actions: ACTIONS,
    id,
    schema: proveedorSchema,
    empty: EMPTY,
    toValues: (p) => ({
      codigo: p.codigo,
      nif: p.nif,
      razon_social: p.razon_social,
      nombre_comercial: str(p.nombre_comercial),
      direccion: str(p.direccion),
      codigo_postal: str(p.codigo_postal),
      poblacion: str(p.poblacion),
      provincia: str(p.provincia),
      telefono: str(p.telefono),
      email: str(p.email),
      iban: formatIban(str(p.iban)),
      forma_pago: str(p.forma_pago),
      retencion: String(p.retencion ?? 0),
      observaciones: str(p.observaciones),
      activo: p.activo,
    }),
    onSaved: (p, isNew) => {
      if (isNew) navigate(paths.proveedor(p.id), { replace: true });
    },
    onRemoved: () => navigate(paths.proveedores),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  const back = { to: paths.proveedores, label: 'Proveedores' };

  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title="Proveedor no encontrado" text="El proveedor no existe o se ha eliminado." back={back} />;

  const setCodigoPostal = (v: string) => {
    set('codigo_postal', v);
    // The postal code gives the province (01 Álava … 52 Melilla).
    const provincia = provinciaDeCodigoPostal(v);
    if (provincia) set('provincia', provincia);
  };

  return (
    <>
      <PageHeader back={back} title={isNew ? 'Nuevo proveedor' : `Proveedor ${record?.codigo ?? ''}`} description={record?.razon_social} />
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? 'Nuevo proveedor' : 'Proveedor'}>
        <FormSection title="Datos del proveedor">
          <FormGrid>
            <TextField
              label="Código"
              maxLength={20}
              autoComplete="off"
              hint={isNew ? 'Vacío: se asigna el siguiente (P0001, P0002…)' : undefined}
              value={values.codigo}
              error={errors.codigo}
              onChange={(v) => set('codigo', v)}
            />
            <TextField
              label="NIF"
              required
              maxLength={15}
              autoComplete="off"
              hint="NIF, CIF o NIE"
              value={values.nif}
              error={errors.nif}
              onChange={(v) => set('nif', v.toUpperCase())}
            />
            <TextField label="Razón social" required maxLength={150} value={values.razon_social} error={errors.razon_social} onChange={(v) => set('razon_social', v)} />
            <TextField
              label="Nombre comercial"
              maxLength={150}
              value={values.nombre_comercial}
              error={errors.nombre_comercial}
              onChange={(v) => set('nombre_comercial', v)}
            />
          </FormGrid>
          <SwitchField
            label="Activo"
            name="activo"
            checked={values.activo === 1}
            error={errors.activo}
            hint="Un proveedor inactivo conserva sus documentos, pero no se ofrece en los nuevos."
            onChange={(on) => set('activo', on ? 1 : 0)}
          />
        </FormSection>
        <FormSection title="Dirección y contacto">
          <FormGrid>
            <FieldSpan>
              <TextField label="Dirección" maxLength={200} value={values.direccion} error={errors.direccion} onChange={(v) => set('direccion', v)} />
            </FieldSpan>
            <TextField
              label="Código postal"
              inputMode="numeric"
              maxLength={5}
              autoComplete="off"
              value={values.codigo_postal}
              error={errors.codigo_postal}
              onChange={setCodigoPostal}
            />
            <TextField label="Población" maxLength={100} value={values.poblacion} error={errors.poblacion} onChange={(v) => set('poblacion', v)} />
            <TextField label="Provincia" maxLength={100} value={values.provincia} error={errors.provincia} onChange={(v) => set('provincia', v)} />
            <TextField label="Teléfono" type="tel" maxLength={30} value={values.telefono} error={errors.telefono} onChange={(v) => set('telefono', v)} />
            <TextField label="Email" type="email" maxLength={254} value={values.email} error={errors.email} onChange={(v) => set('email', v)} />
          </FormGrid>
        </FormSection>
        <FormSection title="Pago">
          <FormGrid>
            <IbanSpan>
              <TextField
                label="IBAN"
                maxLength={42}
                autoComplete="off"
                spellCheck={false}
                value={values.iban}
                error={errors.iban}
                onChange={(v) => set('iban', formatIban(v))}
              />
            </IbanSpan>
            <SelectField
              label="Forma de pago"
              placeholder="Sin forma de pago"
              options={FORMA_PAGO_OPTIONS}
              value={values.forma_pago}
              error={errors.forma_pago}
              onChange={(v) => set('forma_pago', v)}
            />
            <SelectField
              label="% Retención"
              options={RETENCION_OPTIONS}
              value={values.retencion}
              error={errors.retencion}
              onChange={(v) => set('retencion', v)}
            />
          </FormGrid>
          <div style={{ marginTop: 14 }}>
            <TextAreaField
              label="Observaciones"
              rows={3}
              maxLength={2000}
              value={values.observaciones}
              error={errors.observaciones}
              onChange={(v) => set('observaciones', v)}
            />
          </div>
        </FormSection>
        {/* A supplier with documents can't be deleted: RESULT 2 shows 'Acción no posible' and the record stays. */}
        <RecordActions
          editor={editor}
          cancelTo={paths.proveedores}
          deletion={{
            title: 'Eliminar proveedor',
            text: `Se eliminará el proveedor «${record?.razon_social ?? ''}». Si tiene documentos no se podrá eliminar: desactívelo.`,
          }}
        />
      </RecordForm>
      {record && (
        <>
          <ProveedorCompras proveedor={record} />
          <ProveedorDocumentos proveedorId={record.id} />
        </>
      )}
    </>
  );
}
