'use client';

import { useState, type ReactNode } from 'react';
import { useResource } from '@/lib/web/queries';
import { resources, type TokenChart, type TokenChartInterval } from '@/lib/web/resources';
import { Card, ErrorState } from '../ui';
import { CandleChart } from './candle-chart';
import { DEFAULT_CHART_CURRENCY, DEFAULT_CHART_INTERVAL, type ChartCurrency } from './chart-view';
import { StatsChart } from './stats-chart';

const REFRESH_MS = 10_000;

const INTERVALS: { value: TokenChartInterval; label: string; bucket: string }[] = [
  { value: '1d', label: '1D', bucket: '15-minute candles over a day' },
  { value: '7d', label: '7D', bucket: 'hourly candles over 7 days' },
  { value: '1m', label: '1M', bucket: '4-hour candles over 30 days' },
  { value: '1y', label: '1Y', bucket: 'daily candles over a year' },
];

const CURRENCIES: { value: ChartCurrency; label: string }[] = [
  { value: 'usd', label: 'USD' },
  { value: 'kas', label: 'KAS' },
];

function Toggle<T extends string>({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: { value: T; label: string; bucket?: string }[];
  value: T;
  onChange: (value: T) => void;
  testId: string;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex overflow-hidden rounded-md border border-slate-300 text-sm dark:border-slate-700" data-testid={testId}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          title={option.bucket}
          onClick={() => onChange(option.value)}
          className={`px-3 py-1 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-teal-600 ${
            option.value === value
              ? 'bg-teal-700 text-white'
              : 'hover:bg-slate-100 dark:hover:bg-slate-800'
          }`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** Puts the view into the address bar (replacing the entry: switching ranges is not a page of history). */
function showInUrl(interval: TokenChartInterval, currency: ChartCurrency): void {
  const url = new URL(window.location.href);
  const set = (name: string, value: string, fallback: string) =>
    value === fallback ? url.searchParams.delete(name) : url.searchParams.set(name, value);
  set('interval', interval, DEFAULT_CHART_INTERVAL);
  set('currency', currency, DEFAULT_CHART_CURRENCY);
  window.history.replaceState(window.history.state, '', url);
}

/** Keeps the previous range's chart in place while the next one loads, saying so in text (not by fading it). */
function Busy({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <div aria-busy={busy} className="relative">
      {busy && (
        <p role="status" className="absolute right-0 top-0 z-10 rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          Loading…
        </p>
      )}
      {children}
    </div>
  );
}

/**
 * The candle and stats charts of one token, sharing one range switch; both refresh every 10 s. The range and currency
 * are part of the page's URL, so a shared link opens the same view.
 */
export function TokenCharts({
  ticker,
  initialInterval,
  initialCurrency,
  initialCandles,
  initialStats,
}: {
  ticker: string;
  initialInterval: TokenChartInterval;
  initialCurrency: ChartCurrency;
  initialCandles: TokenChart | null;
  initialStats: TokenChart | null;
}) {
  const [interval, setChartInterval] = useState<TokenChartInterval>(initialInterval);
  const [currency, setCurrency] = useState<ChartCurrency>(initialCurrency);
  const initial = interval === initialInterval;
  const chooseInterval = (next: TokenChartInterval) => {
    setChartInterval(next);
    showInUrl(next, currency);
  };
  const chooseCurrency = (next: ChartCurrency) => {
    setCurrency(next);
    showInUrl(interval, next);
  };
  const candles = useResource(
    resources.tokenChart,
    { params: { ticker }, query: { type: 'candles', interval } },
    {
      initialData: initial ? (initialCandles ?? undefined) : undefined,
      placeholderData: (previous) => previous,
      refetchInterval: REFRESH_MS,
    },
  );
  const stats = useResource(
    resources.tokenChart,
    { params: { ticker }, query: { type: 'stats', interval } },
    {
      initialData: initial ? (initialStats ?? undefined) : undefined,
      placeholderData: (previous) => previous,
      refetchInterval: REFRESH_MS,
    },
  );
  const usdSource = candles.data?.usdSource;
  const bucket = INTERVALS.find((option) => option.value === interval)?.bucket;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <Toggle label="Chart range" options={INTERVALS} value={interval} onChange={chooseInterval} testId="interval-switch" />
        <Toggle label="Price currency" options={CURRENCIES} value={currency} onChange={chooseCurrency} testId="currency-switch" />
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {bucket}
          {usdSource !== undefined && (
            <>
              {' · '}
              <span data-testid="chart-usd-source">
                USD at {usdSource === 'simulated' ? 'a simulated' : usdSource === 'unavailable' ? 'an unavailable' : `the ${usdSource}`}{' '}
                KAS/USD rate
              </span>
            </>
          )}
        </p>
      </div>
      <Card title="Price">
        {candles.isError && <ErrorState error={candles.error} onRetry={() => void candles.refetch()} />}
        <Busy busy={candles.isPlaceholderData || candles.isPending}>
          <CandleChart candles={candles.data?.candles ?? []} currency={currency} loading={candles.isPlaceholderData || candles.isPending} />
        </Busy>
      </Card>
      <Card title="Holders, mints and transfers">
        {stats.isError && <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />}
        <Busy busy={stats.isPlaceholderData || stats.isPending}>
          <StatsChart stats={stats.data?.stats ?? []} />
        </Busy>
      </Card>
    </div>
  );
}
