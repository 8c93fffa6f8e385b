import type { Metadata } from 'next';
import { notFound, permanentRedirect } from 'next/navigation';
import { TokenActivity } from '@/components/tokens/token-activity';
import { chartView } from '@/components/tokens/chart-view';
import { TokenCharts } from '@/components/tokens/token-charts';
import { percentText, tokenAmount } from '@/components/tokens/token-format';
import { TokenIcon } from '@/components/tokens/token-icon';
import { TokenOverview } from '@/components/tokens/token-overview';
import { ErrorState } from '@/components/ui';
import { pageResource, plainMetadata, shareMetadata } from '@/lib/serving/page-support';
import { resources, TOKEN_ACTIVITY_PAGE_SIZE, type TokenMetadata } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';
import { decodeSegment } from '@/lib/api/http/http';

export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ ticker: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

function loadMetadata(ticker: string) {
  return pageResource(resources.tokenMetadata, { params: { ticker } });
}

function describe(token: TokenMetadata): string {
  const max = BigInt(token.maxSupply);
  const minted = tokenAmount(token.totalMinted, token.decimal);
  const supply =
    max === 0n
      ? `${minted} minted (no maximum supply)`
      : `${minted} of ${tokenAmount(max, token.decimal)} minted (${percentText(Number((BigInt(token.totalMinted) * 10_000n) / max) / 100)})`;
  return `KRC-20 token ${token.ticker}: ${supply}, ${token.holderTotal.toLocaleString('en')} holders, ${token.transferTotal.toLocaleString('en')} transfers. Price chart, holders and mint history.`;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const ticker = decodeSegment((await params).ticker);
  const metadata = await loadMetadata(ticker);
  if (!metadata.ok) return plainMetadata(metadata.status === 404 ? 'Token not found' : 'Token');
  const token = metadata.body.result;
  return shareMetadata({ path: pages.token(token.ticker), title: `${token.ticker} (KRC-20)`, description: describe(token) });
}

export default async function TokenPage({ params, searchParams }: Props) {
  const ticker = decodeSegment((await params).ticker);
  if (ticker !== ticker.toLowerCase()) permanentRedirect(pages.token(ticker));
  const view = chartView(await searchParams);
  const activity = { params: { ticker }, query: { limit: TOKEN_ACTIVITY_PAGE_SIZE } };
  const [metadata, candles, stats, holders, operations, fills] = await Promise.all([
    loadMetadata(ticker),
    pageResource(resources.tokenChart, { params: { ticker }, query: { type: 'candles', interval: view.interval } }),
    pageResource(resources.tokenChart, { params: { ticker }, query: { type: 'stats', interval: view.interval } }),
    pageResource(resources.tokenHolders, activity),
    pageResource(resources.tokenOperations, activity),
    pageResource(resources.tokenFills, activity),
  ]);
  if (metadata.status === 404) notFound();
  if (!metadata.ok) {
    const problem = metadata.body as { title?: string; detail?: string };
    return (
      <main className="mx-auto max-w-7xl px-4 py-6">
        <h1 className="mb-4 text-xl font-semibold">Token {ticker.toUpperCase()}</h1>
        <ErrorState title={problem.title ?? 'The token could not be loaded'} detail={problem.detail ?? ''} />
      </main>
    );
  }
  const token = metadata.body.result;
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-6">
      <header className="flex items-center gap-3">
        <TokenIcon ticker={token.ticker} url={token.iconUrl} size={40} />
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">KRC-20 token</p>
          <h1 className="font-mono text-2xl font-semibold" data-testid="token-ticker">
            {token.ticker}
          </h1>
        </div>
      </header>
      <TokenOverview ticker={ticker} initial={token} />
      <TokenCharts
        ticker={ticker}
        initialInterval={view.interval}
        initialCurrency={view.currency}
        initialCandles={candles.ok ? candles.body : null}
        initialStats={stats.ok ? stats.body : null}
      />
      <TokenActivity
        ticker={ticker}
        initial={token}
        initialHolders={holders.ok ? holders.body : undefined}
        initialOperations={operations.ok ? operations.body : undefined}
        initialFills={fills.ok ? fills.body : undefined}
      />
    </main>
  );
}
