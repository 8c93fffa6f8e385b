import type { Metadata } from 'next';
import { WalletView } from '@/components/wallet/wallet-view';
import { shareMetadata } from '@/lib/serving/page-support';
import { pages } from '@/lib/web/urls';

export function generateMetadata(): Promise<Metadata> {
  return shareMetadata({
    path: pages.wallet(),
    title: 'Wallet',
    description:
      'A whole Kaspa HD wallet in one view, from its extended public key or its addresses: balance and its history, every address, the merged transactions and a CSV export for taxes.',
  });
}

export default function WalletPage() {
  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <h1 className="text-xl font-semibold">Wallet</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        An HD wallet receives on a new address each time and sends its change to another, so one address shows only a
        part of it. Paste the account’s extended public key to see the whole wallet: its addresses are derived on both
        chains until the gap limit of unused ones, as wallets do.
      </p>
      <WalletView />
    </main>
  );
}
