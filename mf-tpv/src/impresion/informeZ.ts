import { empresaPdf, formatMoney, type Configuracion, type InformeZPdf } from 'shared';
import type { CierreTpv } from '../caja/tipos';
import { DENOMINACIONES, FORMA_PAGO_LABEL } from '../venta/importes';

const hora = (iso: string | null) => (iso ? new Date(iso).toLocaleString('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }) : '');
const TIPO_LABEL: Record<string, string> = { '21': '21 %', '10': '10 %', '4': '4 %', exento: 'Exento' };

/** The Z report of a closing: its code, who and when, tickets, totals by method and by IVA rate, the cash. */
export function datosInformeZ(c: CierreTpv, config: Configuracion | null): InformeZPdf {
  const e = c.efectivo;
  return {
    empresa: empresaPdf(config),
    titulo: `Informe Z · Cierre nº ${c.codigo ?? ''}`,
    filas: [
      ['Terminal', c.terminal_nombre],
      ['Cajero', c.usuario_nombre ?? ''],
      ['Apertura', hora(c.apertura)],
      ['Cierre', hora(c.cierre)],
      ['Tickets', String(c.tickets)],
      ['Devoluciones', String(c.devoluciones)],
      ...(c.primer_numero ? ([['Números', `${c.primer_numero} – ${c.ultimo_numero ?? ''}`]] as [string, string][]) : []),
      ['Total ventas − devoluciones', formatMoney(c.total)],
      ['Diferencia total', formatMoney(c.diferencia)],
    ],
    secciones: [
      {
        titulo: 'Por forma de pago',
        cabecera: ['Forma', 'Esperado', 'Contado', 'Dif.'],
        filas: c.formas.map((f) => [FORMA_PAGO_LABEL[f.forma] ?? f.forma, formatMoney(f.esperado), formatMoney(f.contado), formatMoney(f.diferencia)]),
      },
      {
        titulo: 'Efectivo',
        cabecera: ['Concepto', 'Importe'],
        filas: [
          ['Fondo', formatMoney(e.fondo)],
          ['Cobrado', formatMoney(e.cobrado)],
          ['Cambio dado', formatMoney(-e.cambio)],
          ['Devuelto', formatMoney(-e.devuelto)],
          ['Entradas', formatMoney(e.entradas)],
          ['Salidas', formatMoney(-e.salidas)],
          ['Esperado', formatMoney(e.esperado)],
          ['Contado', formatMoney(e.contado)],
          ['Diferencia', formatMoney(e.diferencia)],
        ],
      },
      {
        titulo: 'Por tipo de IVA',
        cabecera: ['IVA', 'Base', 'Cuota', 'Total'],
        filas: c.impuestos.map((i) => [TIPO_LABEL[i.tipo_iva] ?? i.tipo_iva, formatMoney(i.base), formatMoney(i.iva), formatMoney(i.total)]),
      },
      ...(c.movimientos.length
        ? [{ titulo: 'Movimientos de caja', cabecera: ['Motivo', 'Importe'], filas: c.movimientos.map((m) => [m.motivo, formatMoney(m.importe)]) }]
        : []),
      ...(c.denominaciones?.length
        ? [
            {
              titulo: 'Arqueo',
              cabecera: ['Valor', 'Unidades', 'Importe'],
              filas: [...c.denominaciones]
                .sort((a, b) => DENOMINACIONES.indexOf(a.valor as never) - DENOMINACIONES.indexOf(b.valor as never))
                .map((d) => [formatMoney(d.valor), String(d.cantidad), formatMoney(d.valor * d.cantidad)]),
            },
          ]
        : []),
    ],
  };
}
