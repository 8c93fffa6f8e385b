'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { IChartApi, ISeriesApi, Time } from 'lightweight-charts';
import { balanceHistory, type BalancePoint } from '@/lib/web/balance-history';
import { absoluteTime } from '@/lib/web/format';
import { fetchResource } from '@/lib/web/queries';
import { resourceKey, resources, type WalletRequest } from '@/lib/web/resources';
import type { WalletTransactionView } from '@/lib/api/endpoints/wallet-endpoints';
import { themeOptions, type ChartPalette } from '../charts/chart-theme';
import { useChart } from '../charts/use-chart';
import { ErrorState, Skeleton } from '../ui';

/** The chart walks the newest CHART_PAGES × 100 transactions (1 RU a page); older history is left to the table. */
const CHART_PAGES = 5;
const CHART_PAGE_SIZE = 100;
const SOMPI_PER_KAS = 100_000_000;

interface ChartHistory {
  transactions: WalletTransactionView[];
  complete: boolean;
}

async function walkHistory(request: WalletRequest, signal: AbortSignal): Promise<ChartHistory> {
  const transactions: WalletTransactionView[] = [];
  let startingAfter: string | undefined;
  for (let page = 0; page < CHART_PAGES; page += 1) {
    const result = await fetchResource(
      resources.walletHistory,
      { body: { ...request, limit: CHART_PAGE_SIZE, startingAfter } },
      signal,
    );
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

function BalanceLine({ points }: { points: readonly BalancePoint[] }) {
  const container = useChart(build, apply, points);
  return <div ref={container} className="h-56 w-full sm:h-64" data-testid="wallet-balance-chart" />;
}

/** The balance after each accepted transaction of the recent history, walked back from the current balance. */
export function WalletBalanceChart({ request, balance }: { request: WalletRequest; balance: string }) {
  const history = useQuery({
    queryKey: [...resourceKey(resources.walletHistory, { body: request }), 'chart'],
    queryFn: ({ signal }) => walkHistory(request, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const points = useMemo(
    () => (history.data === undefined ? [] : balanceHistory(BigInt(balance), history.data.transactions)),
    [history.data, balance],
  );

  if (history.isPending) return <Skeleton className="h-56 w-full sm:h-64" />;
  if (history.isError) return <ErrorState error={history.error} onRetry={() => void history.refetch()} />;
  const first = points[0];
  return (
    <figure aria-label="Balance of the wallet over time, in KAS">
      {points.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No accepted transactions yet: nothing to chart.</p>
      ) : (
        <BalanceLine points={points} />
      )}
      {first !== undefined && (
        <figcaption className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="wallet-chart-caption">
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
