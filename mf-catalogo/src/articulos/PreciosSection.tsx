import {
  DecimalField,
  FieldSpan,
  FormGrid,
  FormSection,
  Muted,
  OPERACIONES,
  OPERACION_LABEL,
  SelectField,
  IMPUESTO_NOMBRE,
  TIPOS_POR_IMPUESTO,
  TIPO_IVA_LABEL,
  type FieldErrors,
  type Impuesto,
  type TipoIva,
  type ModuleFlags,
} from 'shared';
import { TARIFAS, type ArticuloValues, type Dec, type NetField, type PvpField } from './articuloForm';

export type PreciosSectionProps = {
  values: ArticuloValues;
  errors: FieldErrors;
  flags: ModuleFlags;
  /** Issue 16: the company's tax (Configuración › Empresa); the select offers its types. Default IVA. */
  impuesto?: Impuesto;
  /** The user's role sees purchase prices (ver_costes); without it no «Precio de compra». */
  costes?: boolean;
  onNet: (field: NetField, value: Dec) => void;
  onPvp: (field: PvpField, value: Dec) => void;
  onIva: (iva: string) => void;
  /** Issue 16: the operation its sale lines take (none: the customer's). */
  onOperacion?: (operacion: string) => void;
  onCompra: (value: Dec) => void;
};

/** The company's tax's types; an article still carrying another tax's (saved before a change) keeps it shown. */
function opcionesTipo(impuesto: Impuesto, actual: string) {
  const tipos: readonly string[] = TIPOS_POR_IMPUESTO[impuesto];
  return [...tipos, ...(actual && !tipos.includes(actual) ? [actual] : [])].map((t) => ({ value: t, label: TIPO_IVA_LABEL[t as TipoIva] ?? t }));
}
const OPERACION_OPTIONS = [{ value: '', label: 'La del cliente (si no, S1)' }, ...OPERACIONES.map((o) => ({ value: o, label: OPERACION_LABEL[o] }))];

const NET_LABEL: Record<NetField, string> = { precio_venta: 'Precio de venta (tarifa 1)', tarifa_2: 'Tarifa 2', tarifa_3: 'Tarifa 3' };
const pvpLabel = (pvp: PvpField, impuesto: string) => `PVP ${pvp.slice(-1)} (${impuesto} incluido)`;
const NET_FLAG: Record<NetField, 'tarifa_2' | 'tarifa_3' | null> = { precio_venta: null, tarifa_2: 'tarifa_2', tarifa_3: 'tarifa_3' };
const PVP_FLAG: Record<PvpField, 'pvp' | 'pvp_2' | 'pvp_3'> = { pvp_1: 'pvp', pvp_2: 'pvp_2', pvp_3: 'pvp_3' };

/**
 * Purchase price (when the user's role sees costs), the net tariffs and their PVPs with IVA, as the flags allow. Typing a PVP computes
 * the net price that gives exactly that PVP; typing a net price computes its PVP.
 */
export function PreciosSection({ values, errors, flags, impuesto = 'iva', costes = true, onNet, onPvp, onIva, onOperacion, onCompra }: PreciosSectionProps) {
  const anyPvp = flags.pvp === 1 || flags.pvp_2 === 1 || flags.pvp_3 === 1;
  const nombre = IMPUESTO_NOMBRE[impuesto];
  return (
    <FormSection
      title="Precios y tarifas"
      description={
        anyPvp
          ? `Precios sin ${nombre} con 4 decimales. Al escribir un PVP se calcula el precio sin ${nombre} que lo da exactamente, y al revés.`
          : `Precios sin ${nombre}, con hasta 4 decimales.`
      }
    >
      <FormGrid $min="200px">
        {costes && <DecimalField label="Precio de compra" scale={4} suffix="€" value={values.precio_compra} error={errors.precio_compra} onChange={onCompra} />}
        <SelectField label={`Tipo de ${nombre}`} required options={opcionesTipo(impuesto, values.tipo_iva)} value={values.tipo_iva} error={errors.tipo_iva} onChange={onIva} />
        {onOperacion && (
          <SelectField
            label="Operación en las ventas"
            hint="Inversión del sujeto pasivo (chatarra, obras…) o la causa de exención del artículo; vacío: la del cliente"
            options={OPERACION_OPTIONS}
            value={values.operacion}
            error={errors.operacion}
            onChange={onOperacion}
          />
        )}
        {TARIFAS.map(({ net, pvp }) => {
          const netFlag = NET_FLAG[net];
          const showNet = netFlag === null || flags[netFlag] === 1;
          const showPvp = flags[PVP_FLAG[pvp]] === 1;
          if (!showNet && !showPvp) return null;
          return (
            <FieldSpan key={net}>
              <FormGrid $min="200px">
                {showNet && <DecimalField label={NET_LABEL[net]} scale={4} suffix="€" value={values[net]} error={errors[net]} onChange={(v) => onNet(net, v)} />}
                {showPvp && <DecimalField label={pvpLabel(pvp, nombre)} scale={2} suffix="€" value={values[pvp]} error={errors[pvp]} onChange={(v) => onPvp(pvp, v)} />}
              </FormGrid>
            </FieldSpan>
          );
        })}
      </FormGrid>
      {values.tipo_iva === 'exento' && (
        <Muted style={{ marginTop: 8, fontSize: 13 }}>Operación exenta de IVA: el PVP coincide con el precio sin IVA.</Muted>
      )}
    </FormSection>
  );
}
