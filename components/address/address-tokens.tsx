'use client';

import Link from 'next/link';
import { TokenIcon } from '@/components/tokens/token-icon';
import { tokenAmount } from '@/components/tokens/token-format';
import { Card, ErrorState, Skeleton } from '@/components/ui';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';

/** Token balances follow the token indexer, which trails the chain by a few seconds: refreshed slowly. */
const REFRESH_MS = 15_000;

/** The KRC-20 tokens the address holds, in whole tokens at each token's decimals, spendable and locked in listings. */
export function AddressTokens({ address }: { address: string }) {
  const tokens = useResource(resources.addressTokenBalances, { params: { address } }, { refetchInterval: REFRESH_MS });
  return (
    <Card title="KRC-20 tokens">
      {tokens.isPending ? (
        <Skeleton className="h-5 w-48" />
      ) : tokens.isError ? (
        <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : tokens.data.balances.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="address-tokens-none">
          Holds no KRC-20 token.
        </p>
      ) : (
        <ul className="grid gap-2 text-sm sm:grid-cols-2 lg:grid-cols-3" data-testid="address-tokens">
          {tokens.data.balances.map((token) => (
            <li key={token.ticker} className="flex min-w-0 items-center gap-2" data-testid="address-token">
              <TokenIcon ticker={token.ticker} url={token.iconUrl} size={24} />
              <Link href={pages.token(token.ticker)} className="font-mono font-semibold text-teal-700 hover:underline dark:text-teal-400">
                {token.ticker}
              </Link>
              <span className="tabular-nums break-all" title={`${token.balance.toString()} smallest units`} data-testid="address-token-balance">
                {tokenAmount(token.balance, token.decimals)}
              </span>
              {BigInt(token.locked) > 0n && (
                <span className="text-xs text-slate-600 dark:text-slate-400">+ {tokenAmount(token.locked, token.decimals)} listed</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
