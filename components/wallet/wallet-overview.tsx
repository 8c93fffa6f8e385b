import type { WalletSummary } from '@/lib/web/resources';
import { counted } from '@/lib/web/format';
import { Facts, Kas, TimeAgo } from '../ui';

function Activity({ time }: { time: number | null }) {
  return time === null ? <span>none yet</span> : <TimeAgo time={time} />;
}

/** The wallet's balance, pending change, UTXOs, addresses and activity span. */
export function WalletOverview({ summary }: { summary: WalletSummary }) {
  const pending = BigInt(summary.pending);
  return (
    <div className="space-y-3">
      <p className="text-3xl font-semibold tabular-nums" data-testid="wallet-balance" data-sompi={summary.balance}>
        <Kas sompi={summary.balance} digits={8} /> <span className="text-base font-normal text-slate-500 dark:text-slate-400">KAS</span>
      </p>
      <Facts
        items={[
          {
            label: 'Pending change',
            hint: 'What transactions waiting in the mempool add to or take from the balance',
            value: (
              <span data-testid="wallet-pending" data-sompi={summary.pending}>
                {pending === 0n ? 'none' : <Kas sompi={pending} digits={8} signed />}
              </span>
            ),
          },
          { label: 'UTXOs', value: <span data-testid="wallet-utxo-count">{summary.utxoCount.toLocaleString('en')}</span> },
          {
            label: 'Addresses',
            value: `${counted(summary.usedAddressCount, 'used address', 'used addresses')} of ${summary.addresses.length.toLocaleString('en')} checked${
              summary.gapLimit === null ? '' : ` (gap limit ${summary.gapLimit})`
            }`,
          },
          { label: 'First activity', value: <Activity time={summary.firstActivity} /> },
          { label: 'Last activity', value: <Activity time={summary.lastActivity} /> },
        ]}
      />
    </div>
  );
}
