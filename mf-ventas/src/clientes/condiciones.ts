import { OPERACION_CORTA, TARIFAS, formatDecimal, type Cliente, type ModuleFlags, type Operacion } from 'shared';

/** 'Tarifa 2'. */
export const tarifaLabel = (t: number) => `Tarifa ${t}`;

/** The tarifas a customer may have: 1 always, 2 and 3 as the flags tarifa_2 / tarifa_3 allow (and the one it has, whatever the flags). */
export function tarifaOptions(flags: ModuleFlags, actual?: string) {
  return TARIFAS.filter((t) => t === 1 || (t === 2 && flags.tarifa_2 === 1) || (t === 3 && flags.tarifa_3 === 1) || String(t) === actual).map((t) => ({
    value: String(t),
    label: tarifaLabel(t),
  }));
}

/** The customer's terms in a few words: 'Tarifa 2 · Dto. 5 % · Recargo de equivalencia', and its lines' operation when not S1. */
export function condicionesTexto(c: Pick<Cliente, 'tarifa' | 'descuento' | 'recargo'>, operacion?: Operacion | null): string {
  return [
    tarifaLabel(c.tarifa),
    c.descuento ? `Dto. ${formatDecimal(c.descuento, 2, 0)} %` : null,
    c.recargo ? 'Recargo de equivalencia' : null,
    operacion && operacion !== 'S1' ? OPERACION_CORTA[operacion] : null,
  ]
    .filter(Boolean)
    .join(' · ');
}
