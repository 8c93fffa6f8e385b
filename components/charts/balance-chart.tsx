'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { IChartApi, ISeriesApi, Time } from 'lightweight-charts';
import { balanceHistory, type BalanceChange, type BalancePoint } from '@/lib/web/balance-history';
import { absoluteTime } from '@/lib/web/format';
import { ErrorState, Skeleton } from '../ui';
import { themeOptions, type ChartPalette } from './chart-theme';
import { useChart } from './use-chart';

/** The chart walks the newest BALANCE_CHART_PAGES × BALANCE_CHART_PAGE_SIZE transactions; older history is left to the table. */
export const BALANCE_CHART_PAGES = 5;
export const BALANCE_CHART_PAGE_SIZE = 100;
const SOMPI_PER_KAS = 100_000_000;

/** The recent history, newest first, and whether it is all of it. */
export interface WalkedHistory {
  transactions: BalanceChange[];
  complete: boolean;
}

/** Walks cursor pages (newest first) of a history until it ends or BALANCE_CHART_PAGES were read. */
export async function walkHistory<T extends BalanceChange & { transactionId: string }>(
  page: (startingAfter: string | undefined) => Promise<{ transactions: T[]; metadata: { hasMore: boolean } }>,
): Promise<WalkedHistory> {
  const transactions: T[] = [];
  let startingAfter: string | undefined;
  for (let count = 0; count < BALANCE_CHART_PAGES; count += 1) {
    const result = await page(startingAfter);
    transactions.push(...result.transactions);
    startingAfter = result.transactions.at(-1)?.transactionId;
    if (!result.metadata.hasMore || startingAfter === undefined) return { transactions, complete: true };
  }
  return { transactions, complete: false };
}

interface ChartParts {
  chart: IChartApi;
  area: ISeriesApi<'Area'>;
}

function build({ createChart, AreaSeries }: typeof import('lightweight-charts'), element: HTMLElement): ChartParts {
  const chart = createChart(element, {
    autoSize: true,
    timeScale: { timeVisible: true, secondsVisible: false },
    localization: { locale: 'en' },
  });
  return { chart, area: chart.addSeries(AreaSeries, { lineWidth: 2, priceFormat: { type: 'price', precision: 4, minMove: 0.0001 } }) };
}

function apply(parts: ChartParts, points: readonly BalancePoint[], palette: ChartPalette): void {
  parts.chart.applyOptions(themeOptions(palette));
  parts.area.applyOptions({ lineColor: palette.balance, topColor: `${palette.balance}55`, bottomColor: `${palette.balance}05` });
  parts.area.setData(points.map((point) => ({ time: point.second as Time, value: Number(point.balance) / SOMPI_PER_KAS })));
}

function BalanceLine({ points, testId }: { points: readonly BalancePoint[]; testId: string }) {
  const container = useChart(build, apply, points);
  return <div ref={container} className="h-56 w-full sm:h-64" data-testid={testId} />;
}

export interface BalanceChartProps {
  /** What is charted, for the figure's label: "the wallet", "the address". */
  subject: string;
  queryKey: readonly unknown[];
  walk: (signal: AbortSignal) => Promise<WalkedHistory>;
  /** The current balance, sompi; the chart keeps the one it was opened with, as its walked history does not move. */
  balance: string;
  testId: string;
  captionTestId: string;
}

/** The balance after each accepted transaction of the recent history, walked back from the current balance. */
export function BalanceChart({ subject, queryKey, walk, balance, testId, captionTestId }: BalanceChartProps) {
  const [anchor] = useState(balance);
  const history = useQuery({ queryKey, queryFn: ({ signal }) => walk(signal), staleTime: Number.POSITIVE_INFINITY });
  const points = useMemo(
    () => (history.data === undefined ? [] : balanceHistory(BigInt(anchor), history.data.transactions)),
    [history.data, anchor],
  );

  if (history.isPending) {
    // The caption's line is kept too, so the page below does not move when the chart arrives.
    return (
      <div>
        <Skeleton className="h-56 w-full sm:h-64" />
        <p className="mt-2 text-xs">&nbsp;</p>
      </div>
    );
  }
  if (history.isError) return <ErrorState error={history.error} onRetry={() => void history.refetch()} />;
  const first = points[0];
  return (
    <figure aria-label={`Balance of ${subject} over time, in KAS`}>
      {points.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No accepted transactions yet: nothing to chart.</p>
      ) : (
        <BalanceLine points={points} testId={testId} />
      )}
      {first !== undefined && (
        <figcaption className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid={captionTestId}>
          Balance in KAS after each accepted transaction{' '}
          {history.data.complete
            ? 'over the whole history'
            : `over the latest ${history.data.transactions.length.toLocaleString('en')} transactions`}
          , since {absoluteTime(first.second * 1000)}.
        </figcaption>
      )}
    </figure>
  );
}
