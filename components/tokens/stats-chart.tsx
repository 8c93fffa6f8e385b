'use client';

import type { IChartApi, ISeriesApi, Time } from 'lightweight-charts';
import type { TokenStatsItem } from '@/lib/web/resources';
import { chartTime, themeOptions, useChartPalette, type ChartPalette } from '../charts/chart-theme';
import { useChart } from '../charts/use-chart';

const LINES = [
  { key: 'h', label: 'Holders', color: 'holders', scale: 'left' },
  { key: 'm', label: 'Mints', color: 'mints', scale: 'right' },
  { key: 'tf', label: 'Transfers', color: 'transfers', scale: 'right' },
] as const satisfies readonly { key: keyof TokenStatsItem; label: string; color: keyof ChartPalette; scale: string }[];

interface ChartParts {
  chart: IChartApi;
  lines: ISeriesApi<'Line'>[];
}

function build({ createChart, LineSeries }: typeof import('lightweight-charts'), element: HTMLElement): ChartParts {
  const chart = createChart(element, {
    autoSize: true,
    timeScale: { timeVisible: true, secondsVisible: false },
    leftPriceScale: { visible: true },
    localization: { locale: 'en' },
  });
  const lines = LINES.map((line) =>
    chart.addSeries(LineSeries, {
      priceScaleId: line.scale,
      lineWidth: 2,
      title: line.label,
      priceFormat: { type: 'price', precision: 0, minMove: 1 },
    }),
  );
  return { chart, lines };
}

function apply(parts: ChartParts, stats: readonly TokenStatsItem[], palette: ChartPalette): void {
  parts.chart.applyOptions(themeOptions(palette));
  LINES.forEach((line, index) => {
    const series = parts.lines[index];
    if (series === undefined) return;
    series.applyOptions({ color: palette[line.color] });
    series.setData(stats.map((item) => ({ time: chartTime(item.t) as Time, value: item[line.key] })));
  });
}

/** Cumulative holders (left scale), mints and transfers (right scale) per bucket. */
export function StatsChart({ stats }: { stats: readonly TokenStatsItem[] }) {
  const container = useChart(build, apply, stats);
  const palette = useChartPalette();
  const last = stats.at(-1);
  return (
    <figure aria-label="Holders, mints and transfers over time (cumulative)">
      <div ref={container} className="h-56 w-full sm:h-64" data-testid="stats-chart" />
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600 dark:text-slate-400" data-testid="stats-legend">
        {LINES.map((line) => (
          <span key={line.key} className="inline-flex items-center gap-1">
            <span className="inline-block h-2 w-3 rounded" style={{ background: palette[line.color] }} aria-hidden="true" />
            {line.label}
            {last !== undefined && <span className="tabular-nums text-slate-900 dark:text-slate-100">{last[line.key].toLocaleString('en')}</span>}
            <span className="sr-only">{line.scale === 'left' ? '(left scale)' : '(right scale)'}</span>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
