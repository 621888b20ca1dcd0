import { IVA_RATE, TIPOS_IVA, type TipoIva } from '../catalogo';
import { divRound } from '../decimal';
import { OPERACIONES, conCuota, type Operacion } from '../operaciones';
import type { DesgloseIva, Totales } from './modelo';

/**
 * Recargo de equivalencia per IVA rate, hundredths of a percent: 5,2 / 1,4 / 0,5 %, and 1,75 % for tobacco (art. 161
 * LIVA). IGIC and IPSI have none (the Canary retailers' special regime charges no surcharge on the invoice).
 */
export const RECARGO_RATE: Record<TipoIva, bigint> = {
  '21': 520n, '10': 140n, '4': 50n, exento: 0n, tabaco: 175n,
  igic_0: 0n, igic_3: 0n, igic_7: 0n, igic_9_5: 0n, igic_15: 0n, igic_20: 0n,
  ipsi_0_5: 0n, ipsi_1: 0n, ipsi_2: 0n, ipsi_4: 0n, ipsi_8: 0n, ipsi_10: 0n,
};

/** Net amount of a line at scale 11 (quantity 3 × price 4 × (100 % − discount) 4): exact, not rounded. */
function lineaNeta11(l: { cantidad: number | bigint; precio: number | bigint; descuento?: number | bigint }): bigint {
  // cantidad (3) × precio (4) = scale 7; × (10000 − descuento) / 10000 keeps scale 7 exactly with a scale-11 intermediate.
  const bruto = BigInt(l.cantidad) * BigInt(l.precio);
  const dto = BigInt(l.descuento ?? 0);
  return dto === 0n ? bruto * 10000n : bruto * (10000n - dto);
}

/**
 * The one totals function (docs/fiscal.md): group lines by IVA rate (issue 16: S1 lines by rate, the others by their
 * operation, which charges no tax); each group's base rounded to cents; IVA and recargo half-up per group;
 * retención on the sum of bases; total = Σ(base + IVA + recargo) − retención. Exact (BigInt), whatever the number of
 * lines.
 */
export function calcularTotales(
  lineas: readonly { cantidad: number | bigint; precio: number | bigint; descuento?: number | bigint; tipo_iva: TipoIva; operacion?: Operacion | null }[],
  opciones: { retencion?: number | bigint; recargo?: boolean; iva?: boolean } = {},
): Totales {
  // Scale 11 sums per group: exact until the one rounding to cents of each group. Key: the rate (lines without an
  // operation), 'S1:rate', or the operation.
  const grupos = new Map<string, bigint>();
  for (const l of lineas) {
    const op = l.operacion ?? null;
    const k = op === null ? l.tipo_iva : op === 'S1' ? `S1:${l.tipo_iva}` : op;
    grupos.set(k, (grupos.get(k) ?? 0n) + lineaNeta11(l));
  }
  const desglose: DesgloseIva[] = [];
  let base = 0n;
  let iva = 0n;
  let recargo = 0n;
  const conIva = opciones.iva !== false;
  for (const { k, tipo, op } of ORDEN_GRUPOS) {
    const suma = grupos.get(k);
    if (suma === undefined) continue;
    const b = divRound(suma, 10n ** 9n);
    const cobra = conIva && (op === undefined || conCuota(op));
    const i = cobra ? divRound(b * IVA_RATE[tipo], 10000n) : 0n;
    const r = cobra && opciones.recargo ? divRound(b * RECARGO_RATE[tipo], 10000n) : 0n;
    desglose.push({ tipo_iva: tipo, base: Number(b), iva: Number(i), recargo: Number(r), ...(op ? { operacion: op } : {}) });
    base += b;
    iva += i;
    recargo += r;
  }
  const retencion = divRound(base * BigInt(opciones.retencion ?? 0), 10000n);
  return {
    base: Number(base),
    iva: Number(iva),
    recargo: Number(recargo),
    retencion_importe: Number(retencion),
    total: Number(base + iva + recargo - retencion),
    desglose,
  };
}

/** The totals' groups in print order: rates without an operation, S1 by rate, then each other operation. */
const TASAS = TIPOS_IVA;
const ORDEN_GRUPOS: readonly { k: string; tipo: TipoIva; op?: Operacion }[] = [
  ...TASAS.map((t) => ({ k: t as string, tipo: t })),
  ...TASAS.map((t) => ({ k: `S1:${t}`, tipo: t, op: 'S1' as const })),
  ...OPERACIONES.filter((o) => o !== 'S1').map((o) => ({ k: o as string, tipo: 'exento' as TipoIva, op: o })),
];
