'use client';

import { useSyncExternalStore } from 'react';

/** Colors of the charts (tokens, fees, the wallet's balance) per theme; the site's theme is the `.dark` class on <html> (components/theme-toggle). */
export interface ChartPalette {
  text: string;
  grid: string;
  border: string;
  up: string;
  down: string;
  upVolume: string;
  downVolume: string;
  holders: string;
  mints: string;
  transfers: string;
  /** The wallet page's balance line, a 6-digit hex color (the area fill appends an alpha). */
  balance: string;
}

const LIGHT: ChartPalette = {
  text: '#334155',
  grid: '#e2e8f0',
  border: '#cbd5e1',
  up: '#047857',
  down: '#b91c1c',
  upVolume: 'rgba(4, 120, 87, 0.35)',
  downVolume: 'rgba(185, 28, 28, 0.35)',
  holders: '#0f766e',
  mints: '#2563eb',
  transfers: '#a16207',
  balance: '#0f766e',
};

const DARK: ChartPalette = {
  text: '#cbd5e1',
  grid: '#1e293b',
  border: '#334155',
  up: '#34d399',
  down: '#f87171',
  upVolume: 'rgba(52, 211, 153, 0.35)',
  downVolume: 'rgba(248, 113, 113, 0.35)',
  holders: '#2dd4bf',
  mints: '#60a5fa',
  transfers: '#fbbf24',
  balance: '#2dd4bf',
};

function subscribeTheme(listener: () => void): () => void {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/** The palette of the current theme, following theme toggles. */
export function useChartPalette(): ChartPalette {
  const dark = useSyncExternalStore(
    subscribeTheme,
    () => document.documentElement.classList.contains('dark'),
    () => false,
  );
  return dark ? DARK : LIGHT;
}

/** The chart-wide options that follow the theme: text, grid and borders. */
export function themeOptions(palette: ChartPalette) {
  return {
    layout: { background: { color: 'transparent' }, textColor: palette.text },
    grid: { vertLines: { visible: false }, horzLines: { color: palette.grid } },
    leftPriceScale: { borderColor: palette.border },
    rightPriceScale: { borderColor: palette.border },
    timeScale: { borderColor: palette.border },
  };
}

/** The chart library's time (UTC seconds) from epoch milliseconds. */
export function chartTime(ms: number): number {
  return Math.floor(ms / 1000);
}
