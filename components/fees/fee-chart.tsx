'use client';

import { useEffect, useRef } from 'react';
import type { FeeSample } from '@/lib/web/live-types';

const SERIES = [
  { key: 'priority', label: 'Priority', color: '#0f766e' },
  { key: 'normal', label: 'Normal', color: '#2563eb' },
  { key: 'low', label: 'Low', color: '#a16207' },
] as const;

/** Fee-rate history as lines (lightweight-charts, loaded only on this page). */
export function FeeChart({ samples }: { samples: FeeSample[] }) {
  const container = useRef<HTMLDivElement>(null);
  const update = useRef<((samples: FeeSample[]) => void) | null>(null);
  const samplesRef = useRef(samples);

  useEffect(() => {
    let disposed = false;
    let remove: (() => void) | undefined;
    void import('lightweight-charts').then(({ createChart, LineSeries }) => {
      const element = container.current;
      if (disposed || element === null) return;
      const dark = document.documentElement.classList.contains('dark');
      const chart = createChart(element, {
        autoSize: true,
        layout: { background: { color: 'transparent' }, textColor: dark ? '#cbd5e1' : '#334155' },
        grid: { vertLines: { visible: false }, horzLines: { color: dark ? '#1e293b' : '#e2e8f0' } },
        timeScale: { timeVisible: true, secondsVisible: false },
      });
      const lines = SERIES.map((series) => ({
        key: series.key,
        line: chart.addSeries(LineSeries, { color: series.color, lineWidth: 2, title: series.label }),
      }));
      update.current = (next) => {
        for (const { key, line } of lines) {
          line.setData(next.map((sample) => ({ time: Math.floor(sample.time / 1000) as never, value: sample[key] })));
        }
      };
      update.current(samplesRef.current);
      remove = () => chart.remove();
    });
    return () => {
      disposed = true;
      update.current = null;
      remove?.();
    };
  }, []);

  useEffect(() => {
    samplesRef.current = samples;
    update.current?.(samples);
  }, [samples]);

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
