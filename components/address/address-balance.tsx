'use client';

import type { NodeUtxoEntry } from '@/lib/api/endpoints/node-format';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { formatInteger } from '@/lib/web/format';
import { Card, CovenantLink, ErrorState, Facts, Kas, Skeleton, TimeAgo, TransactionLink } from '../ui';

const REFRESH_MS = 5_000;
/** The totals read the whole indexed history of the address (a miner's grows ten rows a second): refreshed slowly. */
const TOTALS_REFRESH_MS = 30_000;
const UTXOS_LISTED = 10;

function UtxoItem({ entry }: { entry: NodeUtxoEntry }) {
  return (
    <li className="flex flex-wrap items-center gap-x-2">
      <TransactionLink id={entry.outpoint.transactionId} />
      <span className="text-slate-500 dark:text-slate-400">#{entry.outpoint.index}</span>
      <Kas sompi={entry.amount} />
      {entry.isCoinbase && <span className="text-xs text-slate-500 dark:text-slate-400">coinbase</span>}
      {entry.covenantId !== undefined && <CovenantLink id={entry.covenantId} />}
    </li>
  );
}

/** Balance and UTXOs from the node (getUtxosByAddresses), pending transactions from its mempool; both refresh live. */
export function AddressBalance({ address, initialUtxos }: { address: string; initialUtxos: NodeUtxoEntry[] | null }) {
  const utxos = useResource(
    resources.utxos,
    { body: { addresses: [address] } },
    { refetchInterval: REFRESH_MS, initialData: initialUtxos === null ? undefined : { entries: initialUtxos } },
  );
  const summary = useResource(resources.addressSummary, { params: { address }, query: {} }, { refetchInterval: TOTALS_REFRESH_MS });
  const totals = summary.data;
  const pending = useResource(
    resources.mempoolByAddresses,
    { body: { addresses: [address], includeOrphanPool: true, filterTransactionPool: false } },
    { refetchInterval: REFRESH_MS },
  );

  if (utxos.isError) return <ErrorState error={utxos.error} onRetry={() => void utxos.refetch()} />;
  const entries = utxos.data?.entries ?? [];
  const balance = entries.reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
  const largest = [...entries].sort((a, b) => (BigInt(b.amount) > BigInt(a.amount) ? 1 : -1)).slice(0, UTXOS_LISTED);
  const covenantBound = entries.filter((entry) => entry.covenantId !== undefined);
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
                  label: 'Covenant-bound',
                  value: <span data-testid="covenant-utxo-count">{formatInteger(covenantBound.length)}</span>,
                  hint: 'UTXOs bound to a covenant (KIP-20): only a transaction its script allows can spend them',
                },
                {
                  label: 'Transactions',
                  value: <span data-testid="address-transaction-count">{totals === undefined ? '…' : formatInteger(totals.transactionCount)}</span>,
                  hint: 'Transactions of the index touching this address, accepted or not',
                },
                {
                  label: 'Total received',
                  value: <span data-testid="address-total-received">{totals === undefined ? '…' : <Kas sompi={totals.totalReceived} />}</span>,
                  hint: 'What its outputs received in accepted transactions, change to itself included',
                },
                {
                  label: 'Total sent',
                  value: <span data-testid="address-total-sent">{totals === undefined ? '…' : <Kas sompi={totals.totalSent} />}</span>,
                  hint: 'What its inputs spent in accepted transactions, change to itself included',
                },
                {
                  label: 'First activity',
                  value: totals?.firstActivity == null ? '—' : <TimeAgo time={totals.firstActivity} />,
                },
                {
                  label: 'Last activity',
                  value: totals?.lastActivity == null ? '—' : <TimeAgo time={totals.lastActivity} />,
                },
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
          {covenantBound.length > 0 && (
            <div className="mt-3 text-sm">
              <h3 className="text-xs font-medium uppercase text-slate-500 dark:text-slate-400">Covenant-bound UTXOs</h3>
              <ul className="mt-1 space-y-1" data-testid="covenant-utxos">
                {covenantBound.slice(0, UTXOS_LISTED).map((entry) => (
                  <UtxoItem key={`${entry.outpoint.transactionId}:${entry.outpoint.index}`} entry={entry} />
                ))}
              </ul>
            </div>
          )}
          {largest.length > 0 && (
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer text-slate-700 dark:text-slate-300">
                Largest {largest.length} of {formatInteger(entries.length)} UTXOs
              </summary>
              <ul className="mt-2 space-y-1">
                {largest.map((entry) => (
                  <UtxoItem key={`${entry.outpoint.transactionId}:${entry.outpoint.index}`} entry={entry} />
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </Card>
  );
}
