import Link from 'next/link';
import { pages } from '@/lib/web/urls';

export default function BlockNotFound() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-semibold tracking-tight">Block not found</h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        The node does not know a block with this hash. It may belong to another network, or it may be older than the
        node&apos;s pruning point. A transaction id is also 64 hex characters: try the search box if you meant one.
      </p>
      <p className="mt-6">
        <Link href={pages.home()} className="text-teal-700 hover:underline dark:text-teal-400">
          Back to the dashboard
        </Link>
      </p>
    </main>
  );
}
