'use client';

import type { NodeUtxoEntry } from '@/lib/api/node-format';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { formatInteger } from '@/lib/web/format';
import { Card, ErrorState, Facts, Kas, Skeleton, TransactionLink } from '../ui';

const REFRESH_MS = 5_000;
const UTXOS_LISTED = 10;

/** Balance and UTXOs from the node (getUtxosByAddresses), pending transactions from its mempool; both refresh live. */
export function AddressBalance({ address, initialUtxos }: { address: string; initialUtxos: NodeUtxoEntry[] | null }) {
  const utxos = useResource(
    resources.utxos,
    { body: { addresses: [address] } },
    { refetchInterval: REFRESH_MS, initialData: initialUtxos === null ? undefined : { entries: initialUtxos } },
  );
  const pending = useResource(
    resources.mempoolByAddresses,
    { body: { addresses: [address], includeOrphanPool: true, filterTransactionPool: false } },
    { refetchInterval: REFRESH_MS },
  );

  if (utxos.isError) return <ErrorState error={utxos.error} onRetry={() => void utxos.refetch()} />;
  const entries = utxos.data?.entries ?? [];
  const balance = entries.reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
  const largest = [...entries].sort((a, b) => (BigInt(b.amount) > BigInt(a.amount) ? 1 : -1)).slice(0, UTXOS_LISTED);
  const pendingEntries = pending.data?.entries ?? [];

  return (
    <Card title="Balance">
      {utxos.isPending ? (
        <Skeleton className="h-8 w-48" />
      ) : (
        <>
          <p className="text-2xl font-semibold tabular-nums" data-testid="address-balance">
            <Kas sompi={balance} digits={8} />
          </p>
          <div className="mt-3">
            <Facts
              items={[
                { label: 'UTXOs', value: formatInteger(entries.length) },
                {
                  label: 'Pending in mempool',
                  value: pending.isPending ? '…' : formatInteger(pendingEntries.length),
                  hint: 'Transactions of this address the node holds but no block has included yet',
                },
              ]}
            />
          </div>
          {pendingEntries.length > 0 && (
            <ul className="mt-2 space-y-1 text-sm">
              {pendingEntries.slice(0, UTXOS_LISTED).map((entry) => {
                const id = entry.transaction.verboseData?.transactionId;
                return id === undefined ? null : (
                  <li key={id}>
                    <TransactionLink id={id} /> {entry.isOrphan ? '(orphan)' : ''} fee <Kas sompi={entry.fee} digits={8} />
                  </li>
                );
              })}
            </ul>
          )}
          {largest.length > 0 && (
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer text-slate-700 dark:text-slate-300">
                Largest {largest.length} of {formatInteger(entries.length)} UTXOs
              </summary>
              <ul className="mt-2 space-y-1">
                {largest.map((entry) => (
                  <li key={`${entry.outpoint.transactionId}:${entry.outpoint.index}`} className="flex flex-wrap gap-x-2">
                    <TransactionLink id={entry.outpoint.transactionId} />
                    <span className="text-slate-500">#{entry.outpoint.index}</span>
                    <Kas sompi={entry.amount} />
                    {entry.isCoinbase && <span className="text-xs text-slate-500">coinbase</span>}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </Card>
  );
}
