import Link from 'next/link';
import { pages } from '@/lib/web/urls';

export default function TokenNotFound() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-semibold tracking-tight">Token not found</h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        No KRC-20 token with this ticker is deployed on this network. Tickers are 4 to 6 letters in any case; an
        issue-mode token is named by its 64-character contract address. A token appears here once its deploy is
        accepted.
      </p>
      <p className="mt-6">
        <Link href={pages.tokens()} className="text-teal-700 hover:underline dark:text-teal-400">
          All tokens
        </Link>
      </p>
    </main>
  );
}
