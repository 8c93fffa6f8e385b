import Link from 'next/link';
import { pages } from '@/lib/web/urls';

export default function TransactionNotFound() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-semibold tracking-tight">Transaction not found</h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        Neither the index nor the node&apos;s mempool holds a transaction with this id. A freshly submitted transaction
        appears within a second; one that was never accepted into the mempool, or that belongs to another network,
        never does. A block hash is also 64 hex characters: try the search box if you meant one.
      </p>
      <p className="mt-6">
        <Link href={pages.home()} className="text-teal-700 hover:underline dark:text-teal-400">
          Back to the dashboard
        </Link>
      </p>
    </main>
  );
}
