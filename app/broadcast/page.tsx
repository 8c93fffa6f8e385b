import type { Metadata } from 'next';
import { BroadcastView } from '@/components/broadcast/broadcast-view';
import { ShowApiCall } from '@/components/show-api-call';
import { shareMetadata } from '@/lib/serving/page-support';
import { pages } from '@/lib/web/urls';

export function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.broadcast(),
    title: 'Broadcast a transaction',
    description: 'Send a signed Kaspa transaction to the node, see its verdict and follow the transaction to acceptance.',
  });
}

export default function BroadcastPage() {
  return (
    <main className="mx-auto max-w-5xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-xl font-semibold">Broadcast a transaction</h1>
        <span className="ml-auto">
          <ShowApiCall request={{ route: 'POST /v1/rpc/submitTransaction' }} />
        </span>
      </div>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Paste a transaction your wallet signed. It goes to the node as it is; the node checks it (signatures, inputs,
        mass, fee) and either takes it into its mempool or says why not. Nothing here signs or stores anything.
      </p>
      <BroadcastView />
    </main>
  );
}
