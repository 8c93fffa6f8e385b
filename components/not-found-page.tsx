import Link from 'next/link';
import type { ReactNode } from 'react';
import { pages } from '@/lib/web/urls';
import { SearchBox } from './search-box';

/** The branded "not found" page (HTTP 404): what was not found and why it may be, a search box and ways on. */
export function NotFoundPage({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10" data-testid="not-found">
      <p className="font-mono text-sm font-semibold tracking-widest text-teal-700 dark:text-teal-400">404</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight">{heading}</h1>
      <div className="mt-3 space-y-3 text-slate-700 dark:text-slate-300">{children}</div>
      <div className="mt-6 max-w-xl">
        <SearchBox id="not-found-search" />
      </div>
      <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2">
        <Link href={pages.home()} className="text-teal-700 hover:underline dark:text-teal-400">
          The dashboard
        </Link>
        <Link href={pages.mempool()} className="text-teal-700 hover:underline dark:text-teal-400">
          The mempool
        </Link>
        <Link href={pages.docs()} className="text-teal-700 hover:underline dark:text-teal-400">
          The API reference
        </Link>
      </p>
    </main>
  );
}
