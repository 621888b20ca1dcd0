import { useCallback, useEffect, useState } from 'react';
import {
  Button,
  CONF_FIELDS,
  ErrorText,
  FieldSpan,
  FormActions,
  FormGrid,
  FormSection,
  IMPUESTOS,
  IMPUESTO_LABEL,
  ImageField,
  PageHeader,
  SelectField,
  SwitchField,
  RecordForm,
  Spinner,
  TextField,
  configuracionSchema,
  NifField,
  useAction,
  useForm,
  usePermisos,
  useShell,
  validate,
  type Configuracion,
} from 'shared';
import { FlagSwitches } from './FlagSwitches';

const TEXT_FIELDS = ['razon_social', 'nombre_comercial', 'nif', 'direccion', 'codigo_postal', 'poblacion', 'provincia', 'telefono', 'email', 'iban', 'bic', 'acreedor_sepa'] as const;
type TextFieldName = (typeof TEXT_FIELDS)[number];

export type ConfiguracionValues = Record<TextFieldName, string> & { logo: string | null; favicon: string | null } & Record<string, unknown>;

/** Form values of a configuration record; none yet (RESULT 3) gives an empty company with every module off. */
export function toConfiguracionValues(config: Configuracion | null): ConfiguracionValues {
  const src = (config ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) values[f] = src[f] == null ? '' : String(src[f]);
  values.logo = typeof src.logo === 'string' && src.logo ? src.logo : null;
  values.favicon = typeof src.favicon === 'string' && src.favicon ? src.favicon : null;
  for (const f of [...CONF_FIELDS, 'minorista']) values[f] = src[f] === 1 || src[f] === '1' || src[f] === true ? 1 : 0;
  // Negative stock is allowed unless the company says otherwise (an installation from before the setting allows it).
  // Issue 16: IVA unless the company is in the Canary Islands (IGIC) or Ceuta/Melilla (IPSI).
  values.impuesto = src.impuesto === 'igic' || src.impuesto === 'ipsi' ? src.impuesto : 'iva';
  values.stock_negativo = src.stock_negativo === 0 || src.stock_negativo === '0' || src.stock_negativo === false ? 0 : 1;
  return values as ConfiguracionValues;
}

/** /config: company data, logo and favicon, and the module flags; saving makes the shell re-read the configuration. */
export function ConfiguracionPage() {
  const { api, reloadConfig } = useShell();
  const form = useForm<ConfiguracionValues>(configuracionSchema, toConfiguracionValues(null));
  const { values, errors, set, reset } = form;
  const { run, busy } = useAction();
  // The role: company data is Configuración's «crear y modificar», switching modules its «acciones».
  const permisos = usePermisos();
  const puedeGuardar = permisos.accion('editarconfiguracion');
  const puedeModulos = permisos.puede('configuracion', 'acciones');
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [recordId, setRecordId] = useState<number | null>(null);

  const load = useCallback(async () => {
    setStatus('loading');
    try {
      const res = await api.get<Configuracion>('listadoconfiguraciones');
      // Spec §8: RESULT 1 or 3 on this list is an empty list.
      const config = res.RESULT === '0' ? (res.data?.[0] ?? null) : null;
      reset(toConfiguracionValues(config));
      setRecordId(config?.id ?? null);
      setStatus('ready');
    } catch {
      setStatus('failed');
    }
  }, [api, reset]);

  useEffect(() => {
    void load();
  }, [load]);

  const handleSave = async (): Promise<boolean> => {
    if (!form.validateAll()) return false;
    const checked = validate(configuracionSchema, values);
    if (!checked.ok) return false;
    const body = { ...(recordId !== null ? { id: recordId } : {}), ...checked.value };
    const outcome = await run<Configuracion>('editarconfiguracion', body, { associatedAsFailure: true });
    if (!outcome.ok) {
      form.takeServerErrors(outcome.error);
      return false;
    }
    const saved = outcome.data[0];
    if (saved) {
      reset(toConfiguracionValues(saved));
      setRecordId(saved.id);
    }
    // The header menu and the branding follow the new flags at once.
    await reloadConfig().catch(() => undefined);
    return true;
  };

  const text = (name: TextFieldName) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (v: string) => set(name, v),
  });

  if (status === 'loading') return <Spinner />;
  if (status === 'failed')
    return (
      <div role="alert">
        <PageHeader title="Configuración" />
        <ErrorText>No se ha podido cargar la configuración.</ErrorText>{' '}
        <Button $variant="secondary" $small onClick={() => void load()}>
          Reintentar
        </Button>
      </div>
    );

  return (
    <>
      <PageHeader title="Configuración" description="Datos de la empresa, imagen y módulos activos de Manager TPV." />
      <RecordForm onSubmit={handleSave} dirty={form.dirty} aria-label="Configuración">
        <FormSection title="Datos de la empresa" description="Aparecen en los documentos (facturas, albaranes, pedidos) y en los listados impresos.">
          <FormGrid>
            <TextField label="Razón social" required autoComplete="organization" {...text('razon_social')} />
            <TextField label="Nombre comercial" {...text('nombre_comercial')} />
            <NifField label="NIF" required hint="DNI, NIE o CIF de la empresa" {...text('nif')} />
            <FieldSpan>
              <TextField label="Dirección" autoComplete="street-address" {...text('direccion')} />
            </FieldSpan>
            <TextField label="Código postal" inputMode="numeric" maxLength={5} autoComplete="postal-code" {...text('codigo_postal')} />
            <TextField label="Población" autoComplete="address-level2" {...text('poblacion')} />
            <TextField label="Provincia" autoComplete="address-level1" {...text('provincia')} />
            <TextField label="Teléfono" type="tel" inputMode="tel" autoComplete="tel" {...text('telefono')} />
            <TextField label="Email" type="email" inputMode="email" autoComplete="email" {...text('email')} />
            <SelectField
              label="Impuesto indirecto"
              name="impuesto"
              hint="IGIC en Canarias, IPSI en Ceuta y Melilla. Se elige antes de vender: con documentos de venta ya hechos no se puede cambiar."
              options={IMPUESTOS.map((i) => ({ value: i, label: IMPUESTO_LABEL[i] }))}
              value={String(values.impuesto)}
              error={errors.impuesto}
              onChange={(v) => set('impuesto', v)}
            />
            <FieldSpan>
              <TextField label="IBAN de la empresa" hint="La cuenta donde se cobran las transferencias: la imprimen los documentos de venta que se pagan por transferencia y la indica la factura electrónica (Facturae)." {...text('iban')} />
            </FieldSpan>
            <TextField label="BIC del banco de la empresa" hint="8 u 11 caracteres (p. ej. CAIXESBBXXX): los ficheros SEPA de transferencias y remesas lo indican." {...text('bic')} onChange={(v: string) => set('bic', v.toUpperCase())} />
            <TextField
              label="Identificador de acreedor SEPA"
              hint="Para las remesas de recibos domiciliados: ES, dos dígitos de control, el sufijo (ZZZ o el que le dé su banco) y el NIF, p. ej. ES97ZZZB12345678."
              {...text('acreedor_sepa')}
            />
            <FieldSpan>
              <SwitchField
                name="minorista"
                label="Comercio minorista u hostelería"
                hint="Las facturas simplificadas admiten hasta 3.000 € IVA incluido en lugar de 400 €."
                checked={values.minorista === 1}
                onChange={(v) => set('minorista', v ? 1 : 0)}
                disabled={busy}
              />
            </FieldSpan>
            <FieldSpan>
              <SwitchField
                name="stock_negativo"
                label="Permitir vender sin stock"
                hint="Activado, un albarán o una factura puede dejar el stock por debajo de cero (con un aviso en la línea). Desactivado, el documento se rechaza."
                checked={values.stock_negativo === 1}
                onChange={(v) => set('stock_negativo', v ? 1 : 0)}
                disabled={busy}
              />
            </FieldSpan>
          </FormGrid>
        </FormSection>

        <FormSection title="Imagen" description="El logotipo se muestra en la cabecera y en los documentos; el icono, en la pestaña del navegador.">
          <FormGrid $min="260px">
            <ImageField label="Logotipo" value={values.logo} error={errors.logo} onChange={(url) => set('logo', url)} />
            <ImageField
              label="Icono del navegador (favicon)"
              value={values.favicon}
              error={errors.favicon}
              hint="Cuadrado, de 32×32 o 64×64 píxeles; PNG o ICO de hasta 2 MB"
              onChange={(url) => set('favicon', url)}
            />
          </FormGrid>
        </FormSection>

        <FormSection
          title="Módulos"
          description={
            puedeModulos || !puedeGuardar
              ? 'Un módulo desactivado desaparece del menú y el servidor rechaza sus acciones. Los cambios se aplican al guardar.'
              : 'Su rol no permite activar ni desactivar módulos: los datos de la empresa sí se guardan.'
          }
        >
          <FlagSwitches values={values} onChange={(field, v) => set(field, v)} disabled={busy || !puedeModulos} />
        </FormSection>

        <FormActions dirty={form.dirty} busy={busy} readOnly={!puedeGuardar} />
      </RecordForm>
    </>
  );
}
