import Chart from 'react-apexcharts';
import { useTheme } from 'styled-components';
import type { Theme } from 'shared';

export type SerieGrafico = { name: string; data: number[] };

export type GraficoImplProps = {
  tipo: 'meses' | 'top' | 'reparto';
  categorias: string[];
  series: SerieGrafico[];
  /** Values are in the report's units (cents for money): the labels format them back exactly. */
  formato: (v: number) => string;
  /** Clicking a bar or slice: its index in `categorias`. */
  onSelect?: (index: number) => void;
};

/** The chart itself (apexcharts), loaded only when a report draws one: it stays out of the first paint. */
export default function GraficoImpl({ tipo, categorias, series, formato, onSelect }: GraficoImplProps) {
  const theme = useTheme() as Theme;
  const colores = [theme.primary[600], theme.primary[300], theme.primary[800], theme.primary[500], theme.primary[200], theme.gray[300]];
  const events = onSelect
    ? { dataPointSelection: (_e: MouseEvent, _c?: unknown, cfg?: { dataPointIndex?: number }) => cfg?.dataPointIndex !== undefined && onSelect(cfg.dataPointIndex) }
    : undefined;
  if (tipo === 'reparto') {
    return (
      <Chart
        type="donut"
        height={300}
        series={series[0]?.data ?? []}
        options={{
          chart: { fontFamily: 'inherit', animations: { enabled: false }, events },
          labels: categorias,
          colors: colores,
          legend: { position: 'bottom' },
          dataLabels: { enabled: true, formatter: (v: number) => `${v.toLocaleString('es-ES', { maximumFractionDigits: 1 })} %` },
          tooltip: { y: { formatter: (v: number) => formato(v) } },
        }}
      />
    );
  }
  const horizontal = tipo === 'top';
  return (
    <Chart
      type="bar"
      height={horizontal ? Math.max(220, categorias.length * 30 + 60) : 300}
      series={series}
      options={{
        chart: { toolbar: { show: false }, fontFamily: 'inherit', animations: { enabled: false }, events },
        colors: colores,
        plotOptions: { bar: { horizontal, columnWidth: '60%', barHeight: '70%', borderRadius: 3 } },
        dataLabels: { enabled: false },
        xaxis: { categories: categorias, ...(horizontal ? { labels: { formatter: (v: string) => formato(Number(v)) } } : {}) },
        yaxis: horizontal ? { labels: { maxWidth: 180 } } : { labels: { formatter: (v: number) => formato(v) } },
        tooltip: { y: { formatter: (v: number) => formato(v) } },
        legend: { position: 'top' },
        noData: { text: 'Sin datos' },
      }}
    />
  );
}
