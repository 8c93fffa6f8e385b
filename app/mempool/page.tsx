import type { Metadata } from 'next';
import Link from 'next/link';
import { MempoolView } from '@/components/mempool/mempool-view';
import { pageResource, requestTime, shareMetadata } from '@/lib/serving/page-support';
import { resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

export const dynamic = 'force-dynamic';

export function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.mempool(),
    title: 'Mempool',
    description: 'Live Kaspa mempool: pending transactions, fee rates and what the next blocks would take.',
  });
}

export default async function MempoolPage() {
  const result = await pageResource(resources.mempoolEntries, { query: { includeOrphanPool: true, filterTransactionPool: false } });
  const initial = result.ok ? result.body.mempoolEntries : null;
  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-baseline gap-2">
        <h1 className="text-xl font-semibold">Mempool</h1>
        <Link href={pages.broadcast()} className="ml-auto text-sm font-medium text-teal-800 underline dark:text-teal-300">
          Broadcast a signed transaction
        </Link>
      </div>
      <MempoolView initialEntries={initial} openedAt={requestTime()} />
    </main>
  );
}
