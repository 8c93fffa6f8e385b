import type { Metadata } from 'next';
import { CovenantList } from '@/components/covenant/covenant-list';
import { ShowApiCall } from '@/components/show-api-call';
import { pageResource, shareMetadata } from '@/lib/serving/page-support';
import { COVENANT_LIST_PAGE_SIZE, resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

export const dynamic = 'force-dynamic';

export function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.covenants(),
    title: 'Covenants',
    description: 'KIP-20 covenants on this Kaspa network: lineages of outputs whose scripts enforce their successors, most recent activity first.',
  });
}

export default async function CovenantsPage() {
  const first = await pageResource(resources.covenants, { query: { limit: COVENANT_LIST_PAGE_SIZE } });
  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-xl font-semibold">Covenants</h1>
        <span className="ml-auto">
          <ShowApiCall request={{ route: resources.covenants.route, query: { limit: String(COVENANT_LIST_PAGE_SIZE) } }} />
        </span>
      </div>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        A covenant (KIP-20, Toccata) binds outputs to an id fixed by its genesis transaction; each later transaction that
        spends them must bind its new outputs to the same id, as the spent output&apos;s script allows, so the outputs form
        a lineage. A covenant is active while an output bound to it is unspent and ended once none is.
      </p>
      <CovenantList initialPage={first.ok ? first.body : null} />
    </main>
  );
}
