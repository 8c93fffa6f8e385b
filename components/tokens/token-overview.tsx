'use client';

import { useResource } from '@/lib/web/queries';
import { resources, type TokenMetadata } from '@/lib/web/resources';
import { AddressLink, Card, ErrorState, Facts, TimeAgo, TransactionLink } from '../ui';
import { percentText, safeHttpUrl, tokenAmount, usdText } from './token-format';
import { TokenIcon } from './token-icon';

const REFRESH_MS = 5_000;

/** A registry link: shown as a link only when it is http(s), as plain (escaped) text otherwise. */
function ExternalLink({ url, children }: { url: string; children: string }) {
  const safe = safeHttpUrl(url);
  if (safe === null) return <span className="break-all text-slate-500 dark:text-slate-400">{children} (not an http link)</span>;
  return (
    <a href={safe} rel="noopener noreferrer nofollow" target="_blank" className="break-all text-teal-700 hover:underline dark:text-teal-400">
      {children}
    </a>
  );
}

function Amount({ units, decimals }: { units: TokenMetadata['maxSupply']; decimals: number }) {
  return (
    <span className="tabular-nums" title={`${units.toString()} smallest units`}>
      {tokenAmount(units, decimals)}
    </span>
  );
}

function mintedPercent(token: TokenMetadata): number | null {
  const max = BigInt(token.maxSupply);
  if (max === 0n) return null;
  return Number((BigInt(token.totalMinted) * 1_000_000n) / max) / 10_000;
}

/** The token's metadata (SERVICE-SPEC §2.9), kept live. */
export function TokenOverview({ ticker, initial }: { ticker: string; initial: TokenMetadata }) {
  const query = useResource(
    resources.tokenMetadata,
    { params: { ticker } },
    { initialData: { result: initial }, refetchInterval: REFRESH_MS },
  );
  const token = query.data?.result ?? initial;
  const decimals = token.decimal;
  const minted = mintedPercent(token);
  const unlimited = BigInt(token.maxSupply) === 0n;

  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
      <Card title="Token">
        {query.isError && <ErrorState error={query.error} onRetry={() => void query.refetch()} />}
        <Facts
          items={[
            {
              label: 'Status',
              value: (
                <span data-testid="token-status">
                  {token.status === 'finished' ? 'finished (fully minted)' : token.status === 'deployed' ? 'deployed (mintable)' : token.status}
                </span>
              ),
            },
            { label: 'Max supply', value: unlimited ? 'unlimited' : <Amount units={token.maxSupply} decimals={decimals} /> },
            {
              label: 'Minted',
              value: (
                <span data-testid="token-minted">
                  <Amount units={token.totalMinted} decimals={decimals} />
                  {minted !== null && <span className="text-slate-600 dark:text-slate-400"> ({percentText(minted)})</span>}
                </span>
              ),
            },
            { label: 'Mint limit', value: <Amount units={token.mintLimit} decimals={decimals} />, hint: 'Tokens one mint op creates' },
            { label: 'Pre-mint', value: <Amount units={token.preMint} decimals={decimals} /> },
            { label: 'Burned', value: <Amount units={token.burned} decimals={decimals} /> },
            { label: 'Decimals', value: decimals },
            {
              label: 'Holders',
              value: (
                <span className="tabular-nums" data-testid="token-holders">
                  {token.holderTotal.toLocaleString('en')}
                </span>
              ),
            },
            { label: 'Mints', value: <span className="tabular-nums">{token.mintTotal.toLocaleString('en')}</span> },
            { label: 'Transfers', value: <span className="tabular-nums">{token.transferTotal.toLocaleString('en')}</span> },
            { label: 'Deployer', value: <AddressLink address={token.deployerAddress} copy /> },
            { label: 'Deployed', value: <TimeAgo time={token.deployedAt} /> },
            { label: 'Deploy reveal', value: <TransactionLink id={token.revealHash} copy /> },
            {
              label: 'Op scores',
              value: (
                <span className="font-mono text-xs">
                  created {token.opScoreCreated.toString()} · updated {token.opScoreUpdated.toString()}
                </span>
              ),
              hint: 'KRC-20 opScore: accepting DAA score × 10,000 + the op’s place in that block',
            },
          ]}
        />
      </Card>
      <Card title="Links and markets">
        {token.socialLinks.length === 0 && token.markets.length === 0 && token.iconUrl === '' ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            The operator&apos;s token registry has no entry for {token.ticker}.
          </p>
        ) : (
          <div className="space-y-3 text-sm">
            {token.iconUrl !== '' && (
              <p className="flex items-center gap-3">
                <TokenIcon ticker={token.ticker} url={token.iconUrl} size={48} />
                <span className="text-xs text-slate-600 dark:text-slate-400">{token.ticker}&apos;s icon in the registry</span>
              </p>
            )}
            {token.socialLinks.length > 0 && (
              <ul className="space-y-1" aria-label="Social links">
                {token.socialLinks.map((link) => (
                  <li key={`${link.type} ${link.url}`}>
                    <span className="text-slate-500 dark:text-slate-400">{link.type}: </span>
                    <ExternalLink url={link.url}>{link.url}</ExternalLink>
                  </li>
                ))}
              </ul>
            )}
            {token.markets.length > 0 && (
              <ul className="space-y-2" aria-label="Markets">
                {token.markets.map((market) => (
                  <li key={market.name} className="rounded border border-slate-200 p-2 dark:border-slate-800">
                    <span className="flex items-center gap-2">
                      {market.metadata.iconUrl !== '' && <TokenIcon ticker={market.name} url={market.metadata.iconUrl} size={20} />}
                      <ExternalLink url={market.metadata.url}>{market.name}</ExternalLink>
                    </span>
                    <span className="block text-xs text-slate-600 tabular-nums dark:text-slate-400">
                      {usdText(market.tradingData.price.usd)} · 24 h volume {usdText(market.tradingData.volume.usd)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <p className="text-xs text-slate-500 dark:text-slate-400">
              Off-chain links come from the operator&apos;s registry; market figures are this token&apos;s on-chain fills.
            </p>
          </div>
        )}
      </Card>
    </div>
  );
}
