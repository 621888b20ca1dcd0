import { memo, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import styled from 'styled-components';
import { useShell } from '../context';
import type { DocumentoTipoDef } from '../domain/documentos';
import type { FlagName, ModuleFlags } from '../domain/flags';
import { formatDate, formatMoney } from '../domain/format';
import { isEntryVisible } from '../domain/menu';
import { NIF_IVA, TIPOS_ID, TIPO_ID_LABEL, opcionesPais, validarIdentificacion } from '../domain/paises';
import { FORMA_PAGO_OPTIONS, RETENCION_OPTIONS, formatIban, provinciaDeCodigoPostal, type Proveedor } from '../domain/terceros';
import type { FieldErrors, Schema } from '../domain/validation';
import { useRecordEditor } from '../hooks/useRecordEditor';
import { NifField, SelectField, SwitchField, TextField } from '../ui/fields';
import { FieldSpan, FormGrid, FormSection, RecordActions, RecordForm } from '../ui/form';
import { TextAreaField } from '../ui/inputs';
import { NotFoundPanel, PageHeader } from '../ui/layout';
import { Button, Muted, PanelCard, Spinner, Tabla } from '../ui/primitives';
import { usePermisos } from '../hooks/usePermisos';
import type { FormValues } from '../ui/useForm';
import type { DocumentoFila } from './DocumentListPageImpl';
import { EstadoBadge } from './EstadoBadge';
import type { TerceroDef } from './terceros';

/** What every party record has (proveedores, clientes). */
export type TerceroComun = Omit<Proveedor, 'compras_por_ejercicio'>;

/** The common fields as the form holds them (retención: hundredths of a percent, as the select's value). */
export type TerceroValues = {
  codigo: string;
  nif: string;
  /** ISO 3166-1 alpha-2 ('ES' by default). */
  pais: string;
  /** 'NIF' (a Spanish NIF) or the AEAT's IDType ('02' NIF-IVA … '06'). */
  tipo_id: string;
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
  retencion: string;
  observaciones: string;
  activo: 0 | 1;
};

/** The form as the section's own fields see it. */
export type TerceroFormState = { values: FormValues; errors: FieldErrors; set: (name: string, value: unknown) => void };

/** The section's own fields of a party (a customer's recargo, tarifa, discount): their values and the form section drawing them. */
export type TerceroPropios<R> = {
  /** Values of a new record. */
  empty: FormValues;
  /** Form values of a saved record. */
  toValues: (record: R) => FormValues;
  /** After «Pago»: a `FormSection` with them. */
  render: (form: TerceroFormState) => ReactNode;
  /** Cross-field checks of its own fields (a public administration's DIR3 codes), the server's messages before sending. */
  check?: (values: FormValues) => FieldErrors;
};

/** Figures of one year (purchases, sales), cents. */
export type EjercicioFila = { ejercicio: number; base: number; total: number };

/**
 * A document type listed in the record: its latest documents of this party, the record screen and the whole list;
 * shown while the type's flags (and `flag`, its screen's, if another) are on.
 */
export type TerceroDocumentosDe = { def: DocumentoTipoDef; record: (id: number) => string; list: string; flag?: FlagName | readonly FlagName[] };

export type TerceroRecordPageProps<R extends TerceroComun> = {
  /** Which party: labels, `listado<…>`, `editar<entidad>`, `eliminar<entidad>` and the documents' filter. */
  tercero: TerceroDef;
  /** The record's id from the route; undefined for "nuevo". */
  id?: string;
  /** `editar<entidad>`'s input schema (the common fields and the section's own). */
  schema: Schema;
  list: string;
  record: (id: number) => string;
  propios?: TerceroPropios<R>;
  /** A first panel under the saved record (what a customer owes). */
  resumen?: { titulo: string; render: (record: R) => ReactNode };
  /** Purchases or sales per year, as the record answers them. */
  porEjercicio?: { titulo: string; vacio: string; filas: (record: R) => EjercicioFila[] | undefined };
  /** The types whose latest documents of this party are listed (those whose flags are on). */
  documentos?: TerceroDocumentosDe[];
  /**
   * «Nuevo pedido», «Nueva factura»…: a document started from the saved party (its new screen with `?cliente_id=` or
   * `?proveedor_id=`, the party preselected), each shown while its type's flags are on and the role may save one.
   * A screen that is not a document type's (a supplier's invoice in hcp) names its flags and its saving action.
   */
  nuevos?: TerceroNuevo[];
};

/** A document started from the party: a document type's, or another screen's with its flags and its saving action. */
export type TerceroNuevo = { label: string; to: string } & ({ def: DocumentoTipoDef } | { flags: readonly FlagName[]; accion: string });

/** Whether a «Nuevo…» of the party is offered: its flags on and the role allowed to save it. */
const nuevoPermitido = (n: TerceroNuevo, flags: ModuleFlags, accion: (ac: string) => boolean) =>
  'def' in n ? isEntryVisible({ module: [...n.def.flags] }, flags) && accion(`editar${n.def.entidad}`) : isEntryVisible({ module: [...n.flags] }, flags) && accion(n.accion);

/** The IBAN takes two columns: its 29 characters in groups of four fit whole (one column on a phone). */
const IbanSpan = styled.div`
  grid-column: span 2;
  ${({ theme }) => theme.phone} { grid-column: auto; }
`;

const EMPTY: TerceroValues = {
  codigo: '',
  nif: '',
  pais: 'ES',
  tipo_id: 'NIF',
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

const str = (v: string | null | undefined) => v ?? '';

function terceroValues(t: TerceroComun): TerceroValues {
  return {
    codigo: t.codigo,
    nif: t.nif,
    pais: t.pais || 'ES',
    tipo_id: t.tipo_id || 'NIF',
    razon_social: t.razon_social,
    nombre_comercial: str(t.nombre_comercial),
    direccion: str(t.direccion),
    codigo_postal: str(t.codigo_postal),
    poblacion: str(t.poblacion),
    provincia: str(t.provincia),
    telefono: str(t.telefono),
    email: str(t.email),
    iban: formatIban(str(t.iban)),
    forma_pago: str(t.forma_pago),
    retencion: String(t.retencion ?? 0),
    observaciones: str(t.observaciones),
    activo: t.activo,
  };
}

type Values = TerceroValues & FormValues;

/** The party record's implementation (see TerceroRecordPage.tsx). */
export default function TerceroRecordPageImpl<R extends TerceroComun>({
  tercero,
  id,
  schema,
  list,
  record: recordPath,
  propios,
  resumen,
  porEjercicio,
  documentos,
  nuevos,
}: TerceroRecordPageProps<R>) {
  const navigate = useNavigate();
  const { flags } = useShell();
  const permisos = usePermisos();
  const nuevosPermitidos = (nuevos ?? []).filter((n) => nuevoPermitido(n, flags, permisos.accion));
  const visibles = (documentos ?? []).filter((d) => isEntryVisible({ module: [...d.def.flags, ...(typeof d.flag === 'string' ? [d.flag] : (d.flag ?? []))] }, flags));
  const nombre = tercero.label.toLowerCase();
  const editor = useRecordEditor<R, Values>({
    actions: { list: tercero.ac, save: `editar${tercero.entidad}`, remove: `eliminar${tercero.entidad}` },
    id,
    schema,
    empty: { ...EMPTY, ...propios?.empty },
    toValues: (t) => ({ ...terceroValues(t), ...propios?.toValues(t) }),
    // The identifier with its country and type, the postal code in Spain only (what the server checks too).
    rules: () => ({
      check: (v) => {
        const r = validarIdentificacion({ nif: String(v.nif ?? ''), pais: String(v.pais ?? 'ES'), tipo_id: String(v.tipo_id ?? 'NIF'), codigo_postal: String(v.codigo_postal ?? '') });
        return { ...propios?.check?.(v as FormValues), ...(r.ok ? {} : r.errors) };
      },
    }),
    onSaved: (t, isNew) => {
      if (isNew) navigate(recordPath(t.id), { replace: true });
    },
    onRemoved: () => navigate(list),
  });
  const { form, record, isNew } = editor;
  const { values, errors, set } = form;
  // The country's select (some 240 options) is drawn again only when its value changes: a stable handler.
  const setPaisRef = useRef<(pais: string) => void>(() => {});
  const cambiarPais = useCallback((pais: string) => setPaisRef.current(pais), []);
  const back = { to: list, label: tercero.plural };

  if (editor.loading) return <Spinner />;
  if (editor.notFound) return <NotFoundPanel title={`${tercero.label} no encontrado`} text={`El ${nombre} no existe o se ha eliminado.`} back={back} />;

  const espana = values.pais === 'ES';
  const setCodigoPostal = (v: string) => {
    set('codigo_postal', v);
    // A Spanish postal code gives the province (01 Álava … 52 Melilla).
    const provincia = espana ? provinciaDeCodigoPostal(v) : null;
    if (provincia) set('provincia', provincia);
  };
  const setPais = (pais: string) => {
    set('pais', pais);
    // The usual identifier of the country (a NIF in Spain, a NIF-IVA in the EU, a passport elsewhere); another may be chosen after.
    set('tipo_id', pais === 'ES' ? 'NIF' : NIF_IVA[pais] ? '02' : '03');
  };
  setPaisRef.current = setPais;
  const tipoId = String(values.tipo_id || 'NIF') as keyof typeof TIPO_ID_LABEL;
  const hintId =
    tipoId === 'NIF' ? 'NIF, CIF o NIE' : tipoId === '02' ? `Con el prefijo del país${NIF_IVA[values.pais] ? ` (p. ej. ${NIF_IVA[values.pais].ejemplo})` : ''}` : TIPO_ID_LABEL[tipoId];

  return (
    <>
      <PageHeader
        back={back}
        title={isNew ? `Nuevo ${nombre}` : `${tercero.label} ${record?.codigo ?? ''}`}
        description={record?.razon_social}
        actions={
          !isNew && record && nuevosPermitidos.length > 0 ? (
            nuevosPermitidos.map((n) => (
                <Button key={n.to} as={Link} $variant="secondary" to={`${n.to}?${tercero.param}=${record.id}`}>
                  {n.label}
                </Button>
              ))
          ) : undefined
        }
      />
      <RecordForm onSubmit={editor.save} dirty={form.dirty} aria-label={isNew ? `Nuevo ${nombre}` : tercero.label}>
        <FormSection title={`Datos del ${nombre}`}>
          <FormGrid>
            <TextField
              label="Código"
              maxLength={20}
              autoComplete="off"
              hint={isNew ? `Vacío: se asigna el siguiente (${tercero.prefijoCodigo}0001, ${tercero.prefijoCodigo}0002…)` : undefined}
              value={values.codigo}
              error={errors.codigo}
              onChange={(v) => set('codigo', v)}
            />
            <PaisField value={String(values.pais)} error={errors.pais} onChange={cambiarPais} />
            <SelectField
              label="Tipo de identificación"
              options={(['NIF', ...TIPOS_ID] as const).map((t) => ({ value: t, label: TIPO_ID_LABEL[t] }))}
              value={tipoId}
              error={errors.tipo_id}
              onChange={(v) => set('tipo_id', v)}
            />
            <NifField
              label={tipoId === 'NIF' ? 'NIF' : 'Identificador'}
              required
              maxLength={30}
              hint={hintId}
              value={values.nif}
              error={errors.nif}
              onChange={(v) => set('nif', v)}
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
            hint={`Un ${nombre} inactivo conserva sus documentos, pero no se ofrece en los nuevos.`}
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
              inputMode={espana ? 'numeric' : undefined}
              maxLength={espana ? 5 : 20}
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
        {propios?.render({ values, errors, set: set as TerceroFormState['set'] })}
        {/* A party with documents can't be deleted: RESULT 2 shows 'Acción no posible' and the record stays. */}
        <RecordActions
          editor={editor}
          cancelTo={list}
          deletion={{
            title: `Eliminar ${nombre}`,
            text: `Se eliminará el ${nombre} «${record?.razon_social ?? ''}». Si tiene documentos no se podrá eliminar: desactívelo.`,
          }}
        />
      </RecordForm>
      {record && (
        <>
          {resumen && (
            <StyledPanel as="section" aria-label={resumen.titulo}>
              <h2>{resumen.titulo}</h2>
              {resumen.render(record)}
            </StyledPanel>
          )}
          {porEjercicio && <PorEjercicio titulo={porEjercicio.titulo} vacio={porEjercicio.vacio} filas={porEjercicio.filas(record) ?? []} />}
          {visibles.length > 0 && <Documentos tercero={tercero} terceroId={record.id} tipos={visibles} />}
        </>
      )}
    </>
  );
}

/** The party's country (ISO 3166-1), Spain first and the rest by their Spanish name. */
const PaisField = memo(function PaisField({ value, error, onChange }: { value: string; error?: string; onChange: (pais: string) => void }) {
  return <SelectField label="País" options={opcionesPais()} value={value} error={error} onChange={onChange} />;
});

/** A panel of the saved record (what it owes, per year, its documents); «dl» for a panel's figures. */
const StyledPanel = styled(PanelCard)`
  dl { display: grid; grid-template-columns: auto auto; justify-content: start; gap: 4px 16px; margin: 0; font-size: 14px; }
  dt { color: ${({ theme }) => theme.gray[600]}; }
  dd { margin: 0; font-variant-numeric: tabular-nums; font-weight: 600; }
`;

/** Figures per year from real documents, as the record answers them. */
function PorEjercicio({ titulo, vacio, filas }: { titulo: string; vacio: string; filas: EjercicioFila[] }) {
  const id = `ejercicio-${titulo.replace(/\W+/g, '-')}`;
  return (
    <StyledPanel as="section" aria-labelledby={id}>
      <h2 id={id}>{titulo}</h2>
      {filas.length === 0 ? (
        <Muted>{vacio}</Muted>
      ) : (
        <Tabla aria-label={titulo}>
          <thead>
            <tr>
              <th>Ejercicio</th>
              <th className="num">Base imponible</th>
              <th className="num">Total</th>
            </tr>
          </thead>
          <tbody>
            {filas.map((r) => (
              <tr key={r.ejercicio}>
                <td>{r.ejercicio}</td>
                <td className="num">{formatMoney(r.base)}</td>
                <td className="num">{formatMoney(r.total)}</td>
              </tr>
            ))}
          </tbody>
        </Tabla>
      )}
    </StyledPanel>
  );
}

const ULTIMOS = 10;

/** The latest documents of one type for this party, each a link to its record. */
function DocumentosDeTipo({ tercero, terceroId, tipo }: { tercero: TerceroDef; terceroId: number; tipo: TerceroDocumentosDe }) {
  const { api } = useShell();
  const { def } = tipo;
  const [rows, setRows] = useState<DocumentoFila[] | null>(null);
  const [total, setTotal] = useState(0);

  useEffect(() => {
    let live = true;
    api
      .get<DocumentoFila>(`listado${def.plural}`, { [tercero.param]: terceroId, pagina: 1, porPagina: ULTIMOS, orden: 'fecha', dir: 'desc' })
      .then((res) => {
        if (!live) return;
        setRows(res.RESULT === '0' ? (res.data ?? []) : []);
        setTotal(res.total ?? 0);
      })
      .catch(() => live && setRows([]));
    return () => {
      live = false;
    };
  }, [api, def.plural, tercero.param, terceroId]);

  return (
    <>
      <h3>{def.pluralLabel}</h3>
      {rows === null ? (
        <Muted>Cargando…</Muted>
      ) : rows.length === 0 ? (
        <Muted>No hay {def.pluralLabel.toLowerCase()}.</Muted>
      ) : (
        <Tabla aria-label={def.pluralLabel}>
          <thead>
            <tr>
              <th>Número</th>
              <th>Fecha</th>
              <th>Estado</th>
              <th className="num">Total</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link to={tipo.record(d.id)}>{d.numero}</Link>
                </td>
                <td>{formatDate(d.fecha)}</td>
                <td>
                  <EstadoBadge def={def} estado={d.estado} />
                </td>
                <td className="num">{formatMoney(d.total ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </Tabla>
      )}
      {total > ULTIMOS && (
        <Muted>
          Se muestran los {ULTIMOS} más recientes de {total.toLocaleString('es-ES')}: <Link to={tipo.list}>ver todos en {def.pluralLabel.toLowerCase()}</Link>.
        </Muted>
      )}
    </>
  );
}

/** The party's documents of each type given. */
function Documentos({ tercero, terceroId, tipos }: { tercero: TerceroDef; terceroId: number; tipos: TerceroDocumentosDe[] }) {
  const nombre = tercero.label.toLowerCase();
  return (
    <StyledPanel as="section" aria-labelledby={`documentos-${tercero.entidad}`}>
      <h2 id={`documentos-${tercero.entidad}`}>Documentos del {nombre}</h2>
      {tipos.map((t) => (
        <DocumentosDeTipo key={t.def.tipo} tercero={tercero} terceroId={terceroId} tipo={t} />
      ))}
    </StyledPanel>
  );
}
