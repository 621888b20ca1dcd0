import Chart from 'react-apexcharts';
import { useTheme } from 'styled-components';
import { formatMoney, formatMonth, type GraficoMes, type Theme } from 'shared';

/** Loaded lazily: the chart library stays out of the first paint. */
export default function HomeChart({ months, onMonth }: { months: GraficoMes[]; onMonth?: (mes: string, serie: 'compras' | 'ventas') => void }) {
  const theme = useTheme() as Theme;
  // Apex needs numbers; the amounts stay in cents and are formatted back exactly for the labels.
  const series = [
    ...(months.some((m) => typeof m.compras === 'number') ? [{ name: 'Pedidos de compra', data: months.map((m) => m.compras ?? 0) }] : []),
    ...(months.some((m) => m.ventas !== null) ? [{ name: 'Pedidos de venta', data: months.map((m) => m.ventas ?? 0) }] : []),
  ];
  const kinds = series.map((x) => (x.name === 'Pedidos de compra' ? 'compras' : 'ventas') as 'compras' | 'ventas');
  const total = months.reduce((s, m) => s + (m.compras ?? 0) + (m.ventas ?? 0), 0);
  return (
    <div data-testid="grafico-inicio" data-total={total}>
      <Chart
        type="bar"
        height={320}
        series={series}
        options={{
          chart: {
            toolbar: { show: false },
            fontFamily: 'inherit',
            animations: { enabled: false },
            // A month's bar opens that month's report (sales or purchases, as the bar).
            events: onMonth
              ? {
                  dataPointSelection: (_e: MouseEvent, _c?: unknown, o?: { dataPointIndex?: number; seriesIndex?: number }) => {
                    const m = months[o?.dataPointIndex ?? -1];
                    if (m) onMonth(m.mes, kinds[o?.seriesIndex ?? 0] ?? 'ventas');
                  },
                }
              : undefined,
          },
          colors: [theme.primary[600], theme.primary[300]],
          plotOptions: { bar: { columnWidth: '55%', borderRadius: 3 } },
          dataLabels: { enabled: false },
          xaxis: { categories: months.map((m) => formatMonth(m.mes)) },
          // With no documents yet the axis still reads in euros (0 to 1.000 €), not in cents.
          yaxis: { min: 0, ...(total === 0 ? { max: 100000, tickAmount: 4 } : {}), labels: { formatter: (v: number) => formatMoney(Math.round(v)) } },
          tooltip: { y: { formatter: (v: number) => formatMoney(Math.round(v)) } },
          legend: { position: 'top' },
          noData: { text: 'Sin datos' },
        }}
      />
    </div>
  );
}
