'use client';

import type { IChartApi, ISeriesApi, Time } from 'lightweight-charts';
import { chartTime, themeOptions, type ChartPalette } from '../charts/chart-theme';
import { useChart } from '../charts/use-chart';

export interface StatisticsPoint {
  /** Milliseconds since the Unix epoch. */
  time: number;
  value: number;
  /** A row the index may still add to: drawn fainter. */
  complete: boolean;
}

interface ChartParts {
  chart: IChartApi;
  bars: ISeriesApi<'Histogram'>;
}

function build({ createChart, HistogramSeries }: typeof import('lightweight-charts'), element: HTMLElement): ChartParts {
  const chart = createChart(element, { autoSize: true, timeScale: { timeVisible: true, secondsVisible: false } });
  return { chart, bars: chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false, priceFormat: { type: 'volume' } }) };
}

function apply(parts: ChartParts, points: readonly StatisticsPoint[], palette: ChartPalette): void {
  parts.chart.applyOptions(themeOptions(palette));
  parts.bars.setData(
    points.map((point) => ({
      time: chartTime(point.time) as Time,
      value: point.value,
      color: point.complete ? palette.holders : palette.upVolume,
    })),
  );
}

/** One figure over time as bars (oldest left), an hour or day still growing lighter. */
export function StatisticsChart({ label, unit, points }: { label: string; unit: string; points: StatisticsPoint[] }) {
  const container = useChart(build, apply, points);
  return (
    <figure aria-label={`${label} over time`} className="min-w-0">
      <figcaption className="mb-1 text-sm font-medium">
        {label} <span className="font-normal text-slate-500 dark:text-slate-400">({unit})</span>
      </figcaption>
      <div ref={container} className="h-48 w-full" data-testid="statistics-chart" />
    </figure>
  );
}
