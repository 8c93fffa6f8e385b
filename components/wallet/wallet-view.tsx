'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { fetchResource, useResource } from '@/lib/web/queries';
import { resources, type WalletRequest } from '@/lib/web/resources';
import {
  parseStoredWallet,
  parseWalletFragment,
  walletInputText,
  WALLET_SESSION_KEY,
  type WalletSource,
} from '@/lib/web/wallet-input';
import { Card, ErrorState, LoadingRows } from '../ui';
import { WalletAddresses } from './wallet-addresses';
import { WalletBalanceChart } from './wallet-balance-chart';
import { WalletExport } from './wallet-export';
import { WalletForm } from './wallet-form';
import { WalletHistory } from './wallet-history';
import { WalletOverview } from './wallet-overview';
import { WalletShare } from './wallet-share';

interface Chosen {
  source: WalletSource;
  gapLimit?: number;
}

/** A share link's fragment wins over the tab's stored wallet; the fragment is then dropped from the address bar. */
function restoredWallet(): Chosen | null {
  const shared = parseWalletFragment(window.location.hash);
  if (shared !== null) {
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
    return { source: shared };
  }
  const stored = parseStoredWallet(window.sessionStorage.getItem(WALLET_SESSION_KEY));
  return stored === null ? null : { source: stored };
}

function WalletDetails({ chosen }: { chosen: Chosen }) {
  const request: WalletRequest = useMemo(
    () => ({
      ...chosen.source,
      ...(chosen.gapLimit === undefined || 'addresses' in chosen.source ? {} : { gapLimit: chosen.gapLimit }),
    }),
    [chosen],
  );
  const summary = useResource(resources.walletSummary, { body: request }, { staleTime: 30_000 });

  if (summary.isPending) return <LoadingRows label="Finding the wallet’s addresses" />;
  if (summary.isError) return <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />;
  const transactionEstimate = summary.data.addresses.reduce((total, entry) => total + entry.transactionCount, 0);
  return (
    <div className="space-y-6" data-testid="wallet-details">
      <Card title="Balance" actions={<WalletShare source={chosen.source} />}>
        <WalletOverview summary={summary.data} />
      </Card>
      <Card title="Balance history">
        <WalletBalanceChart request={request} balance={summary.data.balance} />
      </Card>
      <section aria-labelledby="wallet-addresses-heading">
        <h2 id="wallet-addresses-heading" className="mb-3 text-lg font-semibold">
          Addresses
        </h2>
        <WalletAddresses addresses={summary.data.addresses} />
      </section>
      <section aria-labelledby="wallet-history-heading">
        <h2 id="wallet-history-heading" className="mb-3 text-lg font-semibold">
          Transactions
        </h2>
        <WalletHistory request={request} />
      </section>
      <Card title="Export for taxes">
        <WalletExport source={chosen.source} gapLimit={request.gapLimit} transactionEstimate={transactionEstimate} />
      </Card>
    </div>
  );
}

/**
 * The /wallet page's body. The wallet chosen lives in this component's state and the tab's session storage; every
 * call that names it is a POST through the explorer path, so the key is never in a URL the server sees.
 */
export function WalletView() {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [demoLoading, setDemoLoading] = useState(false);
  const [demoError, setDemoError] = useState<Error | null>(null);

  useEffect(() => {
    const restore = () => {
      const restored = restoredWallet();
      if (restored !== null) setChosen(restored);
    };
    restore();
    window.addEventListener('hashchange', restore);
    return () => window.removeEventListener('hashchange', restore);
  }, []);

  function choose(next: Chosen) {
    window.sessionStorage.setItem(WALLET_SESSION_KEY, JSON.stringify(next.source));
    setChosen(next);
  }

  function handleForget() {
    window.sessionStorage.removeItem(WALLET_SESSION_KEY);
    for (const resource of [resources.walletSummary, resources.walletHistory]) {
      queryClient.removeQueries({ queryKey: ['v1', resource.route] });
    }
    setChosen(null);
  }

  async function handleDemo() {
    setDemoLoading(true);
    setDemoError(null);
    try {
      const demo = await fetchResource(resources.walletDemo, {});
      choose({ source: { extendedPublicKey: demo.extendedPublicKey } });
    } catch (error) {
      setDemoError(error as Error);
    } finally {
      setDemoLoading(false);
    }
  }

  return (
    <div className="space-y-6">
      <Card>
        <WalletForm
          key={chosen === null ? 'none' : `${walletInputText(chosen.source)}/${chosen.gapLimit ?? ''}`}
          source={chosen?.source ?? null}
          gapLimit={chosen?.gapLimit}
          demoLoading={demoLoading}
          onShow={(source, gapLimit) => choose({ source, gapLimit })}
          onDemo={() => void handleDemo()}
          onForget={handleForget}
        />
        {demoError !== null && (
          <div className="mt-3">
            <ErrorState error={demoError} title="No demo wallet" />
          </div>
        )}
      </Card>
      {chosen !== null && <WalletDetails chosen={chosen} />}
    </div>
  );
}
