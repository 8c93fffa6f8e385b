'use client';

import { useEffect, useRef, useState, type RefObject } from 'react';
import type { IChartApi } from 'lightweight-charts';
import { useChartPalette, type ChartPalette } from './chart-theme';

type ChartLibrary = typeof import('lightweight-charts');

/**
 * A lightweight-charts chart in the returned container, the library loaded on demand: `build` creates it once (its
 * parts: the chart and its series), `apply` draws `data` in the current theme's palette whenever either changes.
 * `build` and `apply` must be stable (module-level functions).
 */
export function useChart<Parts extends { chart: IChartApi }, Data>(
  build: (library: ChartLibrary, element: HTMLElement) => Parts,
  apply: (parts: Parts, data: Data, palette: ChartPalette) => void,
  data: Data,
): RefObject<HTMLDivElement | null> {
  const container = useRef<HTMLDivElement>(null);
  const parts = useRef<Parts | null>(null);
  const palette = useChartPalette();
  const latest = useRef({ data, palette });
  const [ready, setReady] = useState(false);

  useEffect(() => {
    latest.current = { data, palette };
  }, [data, palette]);

  useEffect(() => {
    let disposed = false;
    let remove: (() => void) | undefined;
    void import('lightweight-charts').then((library) => {
      const element = container.current;
      if (disposed || element === null) return;
      parts.current = build(library, element);
      apply(parts.current, latest.current.data, latest.current.palette);
      parts.current.chart.timeScale().fitContent();
      setReady(true);
      const chart = parts.current.chart;
      remove = () => chart.remove();
    });
    return () => {
      disposed = true;
      parts.current = null;
      remove?.();
    };
  }, [build, apply]);

  useEffect(() => {
    if (parts.current === null) return;
    apply(parts.current, data, palette);
    parts.current.chart.timeScale().fitContent();
  }, [apply, data, palette, ready]);

  return container;
}
