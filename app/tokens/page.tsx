import type { Metadata } from 'next';
import { TokenList } from '@/components/tokens/token-list';
import { pageResource, shareMetadata } from '@/lib/serving/page-support';
import { resources, TOKEN_LIST_PAGE_SIZE } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

export const dynamic = 'force-dynamic';

export function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.tokens(),
    title: 'KRC-20 tokens',
    description: 'KRC-20 tokens on this Kaspa network: price in USD and KAS, 24 hour change and volume, holders and minted supply.',
  });
}

export default async function TokensPage() {
  const first = await pageResource(resources.tokens, { query: { limit: TOKEN_LIST_PAGE_SIZE } });
  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <h1 className="text-xl font-semibold">KRC-20 tokens</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        Tokens deployed with KRC-20 inscriptions, indexed from accepted transactions. Prices come from filled trades
        (the last fill, in KAS per whole token); 24 h change compares it with the last fill before the past 24 hours.
      </p>
      <TokenList initialPage={first.ok ? first.body : null} />
    </main>
  );
}
