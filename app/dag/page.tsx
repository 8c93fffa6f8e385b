import type { Metadata } from 'next';
import { LiveDag } from '@/components/dag/live-dag';
import { shareMetadata } from '@/lib/serving/page-support';
import { DAG_SPANS, DEFAULT_DAG_SPAN, pages, type DagSpan } from '@/lib/web/urls';

export const dynamic = 'force-dynamic';

export function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.dag(),
    title: 'Live BlockDAG',
    description: 'The Kaspa BlockDAG as it grows, ten blocks a second: the selected chain, blue and red blocks, live.',
  });
}

/** An unknown or missing span falls back to the default rather than failing: the view is the same page either way. */
function spanOf(value: string | string[] | undefined): DagSpan {
  const span = Number(Array.isArray(value) ? value[0] : value);
  return DAG_SPANS.find((choice) => choice === span) ?? DEFAULT_DAG_SPAN;
}

export default async function DagPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const span = spanOf((await searchParams).span);
  return (
    <main className="mx-auto max-w-[96rem] space-y-3 px-4 py-6">
      <h1 className="text-xl font-semibold">Live BlockDAG</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Every block the node adds, placed by its timestamp, with an edge to each parent (the selected parent&apos;s
        darker). Blocks on the selected chain, the blues they merge and the reds are coloured as they are decided. Hover
        or focus a block for its figures; open it with a click or Enter.
      </p>
      <LiveDag span={span} />
    </main>
  );
}
