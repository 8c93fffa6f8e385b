'use client';

import { useMemo } from 'react';
import type { NodeUtxoEntry } from '@/lib/api/endpoints/node-format';
import { useResource } from '@/lib/web/queries';
import { resources } from '@/lib/web/resources';
import { formatInteger } from '@/lib/web/format';
import { summarizeUtxos, UTXOS_LISTED, type UtxoSummary } from '@/lib/web/utxo-summary';
import { Card, CovenantLink, ErrorState, Facts, Kas, Skeleton, TimeAgo, TransactionLink } from '../ui';
import { AddressBalanceChart } from './address-balance-chart';
import { useKasUsdNow, usdOf } from '../kas-usd';

const REFRESH_MS = 5_000;
/** The totals read the whole indexed history of the address (a miner's grows ten rows a second): refreshed slowly. */
const TOTALS_REFRESH_MS = 30_000;

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

/**
 * Balance and UTXOs from the node (getUtxosByAddresses), pending transactions from its mempool; both refresh live.
 * The server's first paint passes the set's summary; the browser then reads the set itself.
 */
export function AddressBalance({ address, initialSummary }: { address: string; initialSummary: UtxoSummary | null }) {
  const utxos = useResource(resources.utxos, { body: { addresses: [address] } }, { refetchInterval: REFRESH_MS });
  const fetched = useMemo(() => (utxos.data === undefined ? undefined : summarizeUtxos(utxos.data.entries)), [utxos.data]);
  const shown = fetched ?? initialSummary ?? undefined;
  const summary = useResource(resources.addressSummary, { params: { address }, query: {} }, { refetchInterval: TOTALS_REFRESH_MS });
  const totals = summary.data;
  const pending = useResource(
    resources.mempoolByAddresses,
    { body: { addresses: [address], includeOrphanPool: true, filterTransactionPool: false } },
    { refetchInterval: REFRESH_MS },
  );

  const usdNow = useKasUsdNow();

  if (utxos.isError && shown === undefined) return <ErrorState error={utxos.error} onRetry={() => void utxos.refetch()} />;
  const pendingEntries = pending.data?.entries ?? [];

  return (
    <>
      <Card title="Balance">
        {shown === undefined ? (
          <Skeleton className="h-8 w-48" />
        ) : (
          <>
            <p className="text-2xl font-semibold tabular-nums" data-testid="address-balance">
              <Kas sompi={shown.balance} digits={8} />
            </p>
              {usdNow.usd !== null && (
                <p className="text-sm text-slate-600 dark:text-slate-400" data-testid={usdNow.usd === undefined ? undefined : 'address-balance-usd'}>
                  {usdNow.usd === undefined ? (
                    '\u00a0'
                  ) : (
                    <>
                      ≈ {usdOf(shown.balance, usdNow.usd)} at today&apos;s rate
                      {usdNow.source === 'simulated' ? ' (simulated KAS/USD)' : ''}
                    </>
                  )}
                </p>
              )}
            <div className="mt-3">
              <Facts
                items={[
                  { label: 'UTXOs', value: formatInteger(shown.count) },
                  {
                    label: 'Covenant-bound',
                    value: <span data-testid="covenant-utxo-count">{formatInteger(shown.covenantBoundCount)}</span>,
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
            {shown.covenantBound.length > 0 && (
              <div className="mt-3 text-sm">
                <h3 className="text-xs font-medium uppercase text-slate-500 dark:text-slate-400">Covenant-bound UTXOs</h3>
                <ul className="mt-1 space-y-1" data-testid="covenant-utxos">
                  {shown.covenantBound.map((entry) => (
                    <UtxoItem key={`${entry.outpoint.transactionId}:${entry.outpoint.index}`} entry={entry} />
                  ))}
                </ul>
              </div>
            )}
            {shown.largest.length > 0 && (
              <details className="mt-3 text-sm">
                <summary className="cursor-pointer text-slate-700 dark:text-slate-300">
                  Largest {shown.largest.length} of {formatInteger(shown.count)} UTXOs
                </summary>
                <ul className="mt-2 space-y-1">
                  {shown.largest.map((entry) => (
                    <UtxoItem key={`${entry.outpoint.transactionId}:${entry.outpoint.index}`} entry={entry} />
                  ))}
                </ul>
              </details>
            )}
          </>
        )}
      </Card>
      {shown !== undefined && (
        <Card title="Balance over time">
          <AddressBalanceChart address={address} balance={shown.balance} />
        </Card>
      )}
    </>
  );
}
