import type { Metadata } from 'next';
import { FeesView } from '@/components/fees/fees-view';
import { pageResource, shareMetadata } from '@/lib/serving/page-support';
import { resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

export const dynamic = 'force-dynamic';

export function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.fees(),
    title: 'Fees',
    description: 'Live Kaspa fee estimate buckets (priority, normal, low) and their recent history.',
  });
}

export default async function FeesPage() {
  const result = await pageResource(resources.feeEstimate);
  const initial = result.ok ? result.body.estimate : null;
  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <h1 className="text-xl font-semibold">Fees</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        The node estimates, from its mempool, the fee rate (sompi per gram of mass) that gets a transaction into a block
        within a given time. Priority is the next block; normal and low trade waiting for lower fees.
      </p>
      <FeesView initialEstimate={initial} />
    </main>
  );
}
