import {
  DIR3_CAMPOS,
  DOCUMENTO_TIPOS,
  ESQUEMAS_SEPA,
  ESQUEMA_LABEL,
  MANDATO_CAMPOS,
  SECUENCIAS_SEPA,
  SECUENCIA_LABEL,
  DecimalField,
  FormGrid,
  FormSection,
  OPERACIONES,
  OPERACION_LABEL,
  SelectField,
  SwitchField,
  TERCEROS,
  TerceroRecordPage,
  TextField,
  clienteSchema,
  formatMoney,
  operacionPorDestino,
  useShell,
  validarDir3,
  direccionesDocumento,
  tiposDeSeccion,
  type Cliente,
  type Destino,
  type TerceroDocumentosDe,
  type TerceroFormState,
} from 'shared';
import { paths } from '../paths';
import { tarifaOptions } from './condiciones';

/** Issue 16: a customer's operation, the default of its lines ('' none: S1). */
/** The operations a customer may name; «none» is the one where it is (issue 25: E5 to an EU operator, E2 abroad), else S1. */
function operacionOptions(porDestino: ReturnType<typeof operacionPorDestino>) {
  const ninguna = porDestino ? `Según su país: ${OPERACION_LABEL[porDestino.operacion]}` : 'Sujeta y no exenta (S1), o la del artículo';
  return [{ value: '', label: ninguna }, ...OPERACIONES.map((o) => ({ value: o, label: OPERACION_LABEL[o] }))];
}

/**
 * The sales documents a customer's record lists (each shown while its flags are on), with their screens: every type of
 * the section, from its definition (shared/src/domain/documentos/<tipo>.ts), in the menu's order.
 */
const DOCUMENTOS: TerceroDocumentosDe[] = tiposDeSeccion('ventas').map((def) => {
  const { record, list, flag } = direccionesDocumento(def);
  return { def, record, list, flag };
});

/** What the customer owes: emitted invoices not yet paid, and of it what is overdue (with ventas_facturas). */
function Deuda({ cliente }: { cliente: Cliente }) {
  return (
    <dl>
      <dt>Pendiente de cobro</dt>
      <dd data-testid="pendiente-cobro">{formatMoney(cliente.pendiente_cobro ?? 0)}</dd>
      <dt>Vencido</dt>
      <dd data-testid="vencido">{formatMoney(cliente.vencido ?? 0)}</dd>
    </dl>
  );
}

const DIR3_VACIOS = Object.fromEntries(DIR3_CAMPOS.map((d) => [d.campo, '']));
const MANDATO_VACIO = Object.fromEntries(MANDATO_CAMPOS.map((c) => [c, '']));
const SECUENCIA_OPTIONS = SECUENCIAS_SEPA.map((s) => ({ value: s, label: SECUENCIA_LABEL[s] }));
const ESQUEMA_OPTIONS = ESQUEMAS_SEPA.map((s) => ({ value: s, label: ESQUEMA_LABEL[s] }));

/**
 * Issue 26: the SEPA mandate its «Recibo domiciliado» invoices are collected under (Ventas › Remesas): its reference,
 * the date the customer signed it, whether it has been used already (recurrent) and its scheme; beside the IBAN above.
 */
function MandatoSepa({ values, errors, set }: TerceroFormState) {
  return (
    <FormSection title="Mandato SEPA" description="Para cobrarle por recibo domiciliado (remesas): el mandato que ha firmado y su IBAN, en los datos de pago.">
      <FormGrid>
        <TextField label="Referencia del mandato" name="mandato_referencia" maxLength={35} value={String(values.mandato_referencia ?? '')} error={errors.mandato_referencia} onChange={(v) => set('mandato_referencia', v)} />
        <TextField label="Fecha de firma" name="mandato_fecha" type="date" value={String(values.mandato_fecha ?? '')} error={errors.mandato_fecha} onChange={(v) => set('mandato_fecha', v)} />
        <SelectField
          label="Secuencia"
          placeholder="Primer cargo (FRST)"
          options={SECUENCIA_OPTIONS}
          value={String(values.mandato_secuencia ?? '')}
          error={errors.mandato_secuencia}
          hint="Recurrente si el mandato ya se ha usado en otro programa o banco; si no, el primer recibo sale como FRST y los siguientes como RCUR."
          onChange={(v) => set('mandato_secuencia', v)}
        />
        <SelectField label="Esquema" placeholder="Básico (CORE)" options={ESQUEMA_OPTIONS} value={String(values.mandato_esquema ?? '')} error={errors.mandato_esquema} onChange={(v) => set('mandato_esquema', v)} />
        <TextField label="BIC del banco del cliente (opcional)" name="bic" maxLength={11} value={String(values.bic ?? '')} error={errors.bic} onChange={(v) => set('bic', v.toUpperCase())} />
      </FormGrid>
    </FormSection>
  );
}

/**
 * Issue 16: a public administration (a town hall, a ministry) is invoiced through FACe with a Facturae that names
 * its DIR3 units: oficina contable, órgano gestor and unidad tramitadora (and the órgano proponente where asked).
 */
function AdministracionPublica({ values, errors, set }: TerceroFormState) {
  const on = values.administracion_publica === 1;
  return (
    <FormSection title="Administración pública" description="Para facturarle con Facturae a través de FACe: los códigos DIR3 que le indique la administración.">
      <SwitchField
        label="Es una administración pública"
        name="administracion_publica"
        checked={on}
        error={errors.administracion_publica}
        hint="Ayuntamientos, diputaciones, comunidades autónomas, ministerios y sus organismos."
        onChange={(v) => set('administracion_publica', v ? 1 : 0)}
      />
      {on && (
        <FormGrid>
          {DIR3_CAMPOS.map((d) => (
            <TextField
              key={d.campo}
              label={d.requerido ? d.label : `${d.label} (opcional)`}
              name={d.campo}
              value={String(values[d.campo] ?? '')}
              error={errors[d.campo]}
              maxLength={9}
              hint={`Código DIR3, rol ${d.rol}: 9 caracteres (p. ej. L01280796)`}
              onChange={(v) => set(d.campo, v.toUpperCase())}
            />
          ))}
        </FormGrid>
      )}
    </FormSection>
  );
}

/** Issue 26: a document started from the customer, preselected on it. */
const NUEVOS = [
  { label: 'Nuevo pedido', to: paths.nuevoPedido, def: DOCUMENTO_TIPOS.pedidoventa },
  { label: 'Nueva factura', to: paths.nuevaFactura, def: DOCUMENTO_TIPOS.factura },
];

/**
 * /ventas/cliente/:clienteId and /ventas/cliente/nuevo-cliente: the shared party record plus the customer's
 * terms (recargo de equivalencia, tarifa as the flags allow, default discount); once saved, what it owes,
 * its sales per year and its documents.
 */
export function ClientePage({ id }: { id?: string }) {
  const { flags, config } = useShell();
  const impuesto = config?.impuesto ?? 'iva';
  return (
    <TerceroRecordPage<Cliente>
      tercero={TERCEROS.cliente}
      id={id}
      schema={clienteSchema}
      list={paths.clientes}
      record={paths.cliente}
      nuevos={NUEVOS}
      propios={{
        empty: { recargo: 0, tarifa: '1', descuento: 0n, operacion: '', administracion_publica: 0, ...DIR3_VACIOS, ...MANDATO_VACIO },
        toValues: (c) => ({
          recargo: c.recargo,
          tarifa: String(c.tarifa ?? 1),
          descuento: BigInt(c.descuento ?? 0),
          operacion: c.operacion ?? '',
          administracion_publica: c.administracion_publica === 1 ? 1 : 0,
          ...Object.fromEntries(DIR3_CAMPOS.map((d) => [d.campo, c[d.campo] ?? ''])),
          ...Object.fromEntries(MANDATO_CAMPOS.map((k) => [k, c[k] ?? ''])),
        }),
        check: (v) => validarDir3(v),
        render: ({ values, errors, set }) => {
          const porDestino = operacionPorDestino(values as Destino, impuesto);
          return (
          <>
          <FormSection title="Condiciones de venta" description="Lo que cada documento nuevo del cliente toma por defecto.">
            <FormGrid>
              <SelectField
                label="Tarifa"
                options={tarifaOptions(flags, String(values.tarifa))}
                value={String(values.tarifa)}
                error={errors.tarifa}
                onChange={(v) => set('tarifa', v)}
              />
              <DecimalField
                label="% Descuento"
                scale={2}
                minFraction={0}
                suffix="%"
                hint="Descuento de cada línea nueva"
                value={values.descuento as bigint | string | null}
                error={errors.descuento}
                onChange={(v) => set('descuento', v ?? 0n)}
              />
              <SelectField
                label="Operación"
                options={operacionOptions(porDestino)}
                value={String(values.operacion ?? '')}
                error={errors.operacion}
                hint={
                  porDestino && !values.operacion
                    ? `Sus líneas serán ${porDestino.operacion}: ${porDestino.motivo}. Cada línea se puede cambiar.`
                    : 'La de sus líneas si el artículo no tiene otra: sin elegir, la de su país (E5 para una empresa de otro país de la UE con NIF-IVA, E2 fuera de la UE o en Canarias, Ceuta y Melilla)'
                }
                onChange={(v) => set('operacion', v)}
              />
            </FormGrid>
            <SwitchField
              label="Recargo de equivalencia"
              name="recargo"
              checked={values.recargo === 1}
              error={errors.recargo}
              hint="Comerciante minorista en recargo de equivalencia: sus ventas llevan el recargo de cada tipo de IVA."
              onChange={(on) => set('recargo', on ? 1 : 0)}
            />
          </FormSection>
          <AdministracionPublica values={values} errors={errors} set={set} />
          <MandatoSepa values={values} errors={errors} set={set} />
          </>
          );
        },
      }}
      resumen={flags.ventas_facturas === 1 ? { titulo: 'Pendiente de cobro', render: (c) => <Deuda cliente={c} /> } : undefined}
      porEjercicio={{ titulo: 'Ventas por ejercicio', vacio: 'Todavía no hay ventas a este cliente.', filas: (c) => c.ventas_por_ejercicio }}
      documentos={DOCUMENTOS}
    />
  );
}
