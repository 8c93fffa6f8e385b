import type { Metadata } from 'next';
import { StatisticsView } from '@/components/statistics/statistics-view';
import { STATISTICS_INTERVALS, type StatisticsIntervalName } from '@/lib/api/endpoints/statistics-endpoint';
import { pageResource, shareMetadata } from '@/lib/serving/page-support';
import { resources } from '@/lib/web/resources';
import { DEFAULT_STATISTICS_INTERVAL, pages, STATISTICS_PAGE_ROWS } from '@/lib/web/urls';

export const dynamic = 'force-dynamic';

export function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.statistics(),
    title: 'Statistics',
    description: 'Kaspa over time: blocks, accepted transactions, fees, mass and active addresses per minute, hour and day.',
  });
}

/** An unknown interval falls back to the default rather than failing: the view is the same page either way. */
function intervalOf(value: string | string[] | undefined): StatisticsIntervalName {
  const text = Array.isArray(value) ? value[0] : value;
  return STATISTICS_INTERVALS.find((choice) => choice === text) ?? DEFAULT_STATISTICS_INTERVAL;
}

export default async function StatisticsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const interval = intervalOf((await searchParams).interval);
  const result = await pageResource(resources.statistics, { query: { interval, limit: STATISTICS_PAGE_ROWS } });
  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <h1 className="text-xl font-semibold">Statistics</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        What the chain did over time, from this explorer&apos;s index: its blocks, the transactions its selected chain
        accepted with their fees and mass, and how many addresses paid or were paid. A minute is a window of 600 DAA
        scores, shown once it is complete; hours and days are UTC, the newest still growing.
      </p>
      <StatisticsView interval={interval} initial={result.ok ? result.body.statistics : null} />
    </main>
  );
}
