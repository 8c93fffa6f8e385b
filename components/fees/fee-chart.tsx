'use client';

import type { IChartApi, ISeriesApi, Time } from 'lightweight-charts';
import type { FeeSample } from '@/lib/web/live-types';
import { chartTime, themeOptions, type ChartPalette } from '../charts/chart-theme';
import { useChart } from '../charts/use-chart';

const SERIES = [
  { key: 'priority', label: 'Priority', color: '#0f766e' },
  { key: 'normal', label: 'Normal', color: '#2563eb' },
  { key: 'low', label: 'Low', color: '#a16207' },
] as const;

interface ChartParts {
  chart: IChartApi;
  lines: ISeriesApi<'Line'>[];
}

function build({ createChart, LineSeries }: typeof import('lightweight-charts'), element: HTMLElement): ChartParts {
  const chart = createChart(element, { autoSize: true, timeScale: { timeVisible: true, secondsVisible: false } });
  return { chart, lines: SERIES.map((series) => chart.addSeries(LineSeries, { color: series.color, lineWidth: 2, title: series.label })) };
}

function apply(parts: ChartParts, samples: readonly FeeSample[], palette: ChartPalette): void {
  parts.chart.applyOptions(themeOptions(palette));
  SERIES.forEach((series, index) => {
    parts.lines[index]?.setData(samples.map((sample) => ({ time: chartTime(sample.time) as Time, value: sample[series.key] })));
  });
}

/** Fee-rate history as lines (lightweight-charts, loaded only on this page), in the current theme. */
export function FeeChart({ samples }: { samples: FeeSample[] }) {
  const container = useChart(build, apply, samples);
  return (
    <figure aria-label="Fee rate history">
      <div ref={container} className="h-64 w-full" data-testid="fee-chart" />
      <figcaption className="mt-2 flex gap-4 text-xs text-slate-600 dark:text-slate-400">
        {SERIES.map((series) => (
          <span key={series.key} className="inline-flex items-center gap-1">
            <span className="inline-block h-2 w-3 rounded" style={{ background: series.color }} aria-hidden="true" />
            {series.label} (sompi/g)
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
