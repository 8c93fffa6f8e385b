'use client';

import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import type { StatisticsIntervalName, StatisticsView as StatisticsRow } from '@/lib/api/endpoints/statistics-endpoint';
import { absoluteTime, compactTime, formatInteger, kasDisplay, kasExact } from '@/lib/web/format';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { pages, STATISTICS_PAGE_ROWS } from '@/lib/web/urls';
import { Card, EmptyState, ErrorState, LoadingRows, ScrollArea } from '../ui';
import { StatisticsChart, type StatisticsPoint } from './statistics-chart';

/** The statistics are computed again every 10 s (lib/indexer/statistics-refresher.ts). */
const REFRESH_MS = 10_000;
const TABLE_ROWS = 12;
const SOMPI_PER_KAS = 100_000_000;

const INTERVALS: { value: StatisticsIntervalName; label: string }[] = [
  { value: 'minute', label: 'Minutes' },
  { value: 'hour', label: 'Hours' },
  { value: 'day', label: 'Days' },
];

const FIGURES: { label: string; unit: string; value: (row: StatisticsRow) => number }[] = [
  { label: 'Transactions', unit: 'accepted, coinbases apart', value: (row) => row.transactions },
  { label: 'Blocks', unit: 'all, chain and merged', value: (row) => row.blocks },
  { label: 'Fees', unit: 'KAS', value: (row) => Number(row.fees) / SOMPI_PER_KAS },
  { label: 'Mass', unit: 'grams', value: (row) => Number(row.mass) },
  { label: 'Active addresses', unit: 'paid or spending, estimated', value: (row) => row.activeAddresses },
];

function pointsOf(rows: readonly StatisticsRow[], value: (row: StatisticsRow) => number): StatisticsPoint[] {
  return [...rows].reverse().map((row) => ({ time: row.start, value: value(row), complete: row.complete }));
}

export function StatisticsView({
  interval,
  initial,
}: {
  interval: StatisticsIntervalName;
  initial: StatisticsRow[] | null;
}) {
  const router = useRouter();
  const statistics = useResource(
    resources.statistics,
    { query: { interval, limit: STATISTICS_PAGE_ROWS } },
    {
      refetchInterval: REFRESH_MS,
      initialData: initial === null ? undefined : { interval, statistics: initial, metadata: { count: initial.length } },
    },
  );
  const rows = useMemo(() => statistics.data?.statistics ?? [], [statistics.data]);
  const charts = useMemo(() => FIGURES.map((figure) => ({ ...figure, points: pointsOf(rows, figure.value) })), [rows]);

  return (
    <div className="space-y-4">
      <div role="group" aria-label="Interval" className="inline-flex overflow-hidden rounded border border-slate-300 text-sm dark:border-slate-700">
        {INTERVALS.map((choice) => (
          <button
            key={choice.value}
            type="button"
            aria-pressed={choice.value === interval}
            onClick={() => router.replace(pages.statistics(choice.value))}
            className="px-3 py-1 aria-pressed:bg-teal-700 aria-pressed:text-white dark:aria-pressed:bg-teal-600"
          >
            {choice.label}
          </button>
        ))}
      </div>
      {statistics.isError ? (
        <ErrorState error={statistics.error} onRetry={() => void statistics.refetch()} />
      ) : statistics.isPending ? (
        <LoadingRows rows={6} label="Loading the statistics" />
      ) : rows.length === 0 ? (
        <EmptyState>No statistics yet: they are computed from the index every 10 seconds once it holds blocks.</EmptyState>
      ) : (
        <>
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {charts.map((chart) => (
              <Card key={chart.label}>
                <StatisticsChart label={chart.label} unit={chart.unit} points={chart.points} />
              </Card>
            ))}
          </div>
          <Card title="Newest rows">
            <ScrollArea label="Statistics table">
              <table className="w-full min-w-[44rem] text-sm" data-testid="statistics-table">
                <thead>
                  <tr className="text-left text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                    <th scope="col" className="py-2 pr-3 font-medium">Start (UTC)</th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">Blocks</th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">Chain blocks</th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">Transactions</th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">Fees</th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">Mass (g)</th>
                    <th scope="col" className="py-2 text-right font-medium">Active addresses</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.slice(0, TABLE_ROWS).map((row) => (
                    <tr key={row.start} className="border-t border-slate-200 tabular-nums dark:border-slate-800" data-testid="statistics-row">
                      <th scope="row" className="py-2 pr-3 text-left font-normal" title={`${absoluteTime(row.start)} to ${absoluteTime(row.end)}`}>
                        {compactTime(row.start)}
                        {!row.complete && <span className="ml-2 text-xs text-amber-700 dark:text-amber-400">growing</span>}
                      </th>
                      <td className="py-2 pr-3 text-right">{formatInteger(row.blocks)}</td>
                      <td className="py-2 pr-3 text-right">{formatInteger(row.chainBlocks)}</td>
                      <td className="py-2 pr-3 text-right" data-testid="statistics-transactions">{formatInteger(row.transactions)}</td>
                      <td className="py-2 pr-3 text-right" title={kasExact(row.fees)}>{kasDisplay(row.fees)}</td>
                      <td className="py-2 pr-3 text-right">{formatInteger(row.mass)}</td>
                      <td className="py-2 text-right">≈ {formatInteger(row.activeAddresses)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollArea>
          </Card>
        </>
      )}
    </div>
  );
}
