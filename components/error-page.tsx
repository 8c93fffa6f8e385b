'use client';

import Link from 'next/link';
import { pages } from '@/lib/web/urls';

/** The branded page for a failure while rendering: what happened, the error's reference and a retry. */
export function ErrorPage({ error, onRetry }: { error: Error & { digest?: string }; onRetry: () => void }) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10" data-testid="error-page">
      <p className="font-mono text-sm font-semibold tracking-widest text-rose-700 dark:text-rose-400">Error</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight">This page could not be shown</h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        Something failed while the page was being prepared: usually the node or the database did not answer in time. The
        chain is not affected; trying again in a moment normally works.
      </p>
      {error.digest !== undefined && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Reference for the operator&apos;s logs: <code className="font-mono">{error.digest}</code>
        </p>
      )}
      <p className="mt-6 flex flex-wrap items-center gap-x-6 gap-y-2">
        <button
          type="button"
          onClick={onRetry}
          className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600 dark:bg-teal-600 dark:hover:bg-teal-500"
        >
          Try again
        </button>
        <Link href={pages.home()} className="text-teal-700 hover:underline dark:text-teal-400">
          The dashboard
        </Link>
      </p>
    </main>
  );
}
