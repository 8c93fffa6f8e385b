/** The chart view a token page's URL names (`?interval=7d&currency=kas`); defaults are left out of the URL. */
import type { TokenChartInterval } from '@/lib/web/resources';

export type ChartCurrency = 'usd' | 'kas';

export const CHART_INTERVALS: readonly TokenChartInterval[] = ['1d', '7d', '1m', '1y'];
export const CHART_CURRENCIES: readonly ChartCurrency[] = ['usd', 'kas'];
export const DEFAULT_CHART_INTERVAL: TokenChartInterval = '1d';
export const DEFAULT_CHART_CURRENCY: ChartCurrency = 'usd';

export interface ChartView {
  interval: TokenChartInterval;
  currency: ChartCurrency;
}

/** The view from a page's search parameters; an unknown or missing value means the default. */
export function chartView(search: Record<string, string | string[] | undefined>): ChartView {
  const read = (name: string) => {
    const value = search[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const interval = CHART_INTERVALS.find((value) => value === read('interval')) ?? DEFAULT_CHART_INTERVAL;
  const currency = CHART_CURRENCIES.find((value) => value === read('currency')) ?? DEFAULT_CHART_CURRENCY;
  return { interval, currency };
}
