'use client';

import { useMemo } from 'react';
import { ShowApiCall } from '@/components/show-api-call';
import type { IndexedTransactionView } from '@/lib/api/endpoints/indexed-format';
import { lineageStep } from '@/lib/web/covenant-lineage';
import { formatInteger } from '@/lib/web/format';
import { loadedItems, useCursorPages, useResource } from '@/lib/web/queries';
import {
  COVENANT_LINEAGE_PAGE_SIZE,
  resources,
  type CovenantDetail,
  type CovenantLineagePage,
} from '@/lib/web/resources';
import { LoadMore } from '../load-more';
import { StackedTable, type StackedColumn } from '../stacked-table';
import { AddressLink, Card, CopyButton, EmptyState, ErrorState, Facts, Kas, TimeAgo, TransactionLink, useNow } from '../ui';
import { CovenantScript } from './covenant-script';
import { CovenantTimeline, kindLabel } from './covenant-timeline';

const LINEAGE_COLUMNS: readonly StackedColumn[] = [
  { label: 'Transaction' },
  { label: 'Step' },
  { label: 'Time' },
  { label: 'Bound outputs' },
  { label: 'Value bound', alignRight: true },
  { label: 'Status', alignRight: true },
];

const UTXO_COLUMNS: readonly StackedColumn[] = [
  { label: 'Output' },
  { label: 'Address' },
  { label: 'DAA score', alignRight: true },
  { label: 'Amount', alignRight: true },
];

const REFRESH_MS = 5_000;

function nextCursor(page: CovenantLineagePage): string | undefined {
  return page.metadata.hasMore ? page.transactions.at(-1)?.transactionId : undefined;
}

export function CovenantStateBadge({ state }: { state: 'active' | 'ended' }) {
  return state === 'active' ? (
    <span className="rounded bg-teal-100 px-1.5 py-0.5 text-xs font-medium text-teal-900 dark:bg-teal-950 dark:text-teal-200">active</span>
  ) : (
    <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-200">ended</span>
  );
}

function LineageRow({ transaction, covenantId }: { transaction: IndexedTransactionView; covenantId: string }) {
  const step = lineageStep(transaction, covenantId);
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800" data-testid="lineage-row" data-txid={transaction.transactionId} data-kind={step.kind}>
      <td data-label="Transaction" className="py-2 pr-3">
        <TransactionLink id={transaction.transactionId} />
      </td>
      <td data-label="Step" className="py-2 pr-3">{kindLabel(step.kind)}</td>
      <td data-label="Time" className="py-2 pr-3 text-slate-600 dark:text-slate-400">
        <TimeAgo time={transaction.blockTime} />
      </td>
      <td data-label="Bound outputs" className="py-2 pr-3 tabular-nums">
        {step.boundOutputs.length === 0 ? '—' : step.boundOutputs.map((index) => `#${index}`).join(', ')}
      </td>
      <td data-label="Value bound" className="py-2 pr-3 text-right">
        {step.boundOutputs.length === 0 ? '—' : <Kas sompi={step.boundAmount} digits={8} />}
      </td>
      <td data-label="Status" className="py-2 text-right">
        {transaction.isAccepted ? (
          <span className="text-emerald-700 dark:text-emerald-400">{formatInteger(transaction.confirmations)} conf.</span>
        ) : (
          <span className="text-amber-700 dark:text-amber-400">not accepted</span>
        )}
      </td>
    </tr>
  );
}

/**
 * A covenant's page: its summary and current UTXOs (refreshed every few seconds), the lineage newest first with older
 * pages loaded as the reader scrolls (keyset paging, as the address history), the lineage drawn over time, and its
 * scripts. When the summary names a last transaction the list does not show, a button reloads the list from the top.
 */
export function CovenantView({ initialCovenant, initialLineage }: { initialCovenant: CovenantDetail; initialLineage: CovenantLineagePage }) {
  const covenantId = initialCovenant.covenantId;
  const summary = useResource(resources.covenant, { params: { covenantId } }, {
    initialData: { covenant: initialCovenant },
    refetchInterval: REFRESH_MS,
  });
  const covenant = summary.data?.covenant ?? initialCovenant;
  const lineage = useCursorPages(
    resources.covenantLineage,
    { params: { covenantId }, query: { limit: COVENANT_LINEAGE_PAGE_SIZE } },
    nextCursor,
    { initialPage: initialLineage, staleTime: Number.POSITIVE_INFINITY },
  );
  const loaded = useMemo(
    () => loadedItems(lineage.data?.pages, (page) => page.transactions, (transaction) => transaction.transactionId),
    [lineage.data],
  );
  const now = useNow();
  const active = covenant.state === 'active';
  const timelineEnd = active ? Math.max(now ?? covenant.lastActivityAt, covenant.lastActivityAt) : covenant.lastActivityAt;
  const steps = loaded.map((transaction) => ({
    transactionId: transaction.transactionId,
    blockTime: transaction.blockTime,
    kind: lineageStep(transaction, covenantId).kind,
  }));
  const latestSpend = loaded
    .flatMap((transaction) => transaction.inputs)
    .find((input) => input.previousOutput.covenantId?.toLowerCase() === covenantId.toLowerCase());
  const held = covenant.currentUtxos.reduce((sum, utxo) => sum + BigInt(utxo.amount), 0n);
  const behind =
    loaded.length > 0 && !lineage.isFetching && !loaded.some((transaction) => transaction.transactionId === covenant.lastTransactionId);

  return (
    <main className="mx-auto max-w-7xl space-y-4 px-4 py-6">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Covenant</h1>
        <span data-testid="covenant-state">
          <CovenantStateBadge state={covenant.state} />
        </span>
        <span className="ml-auto">
          <ShowApiCall request={{ route: resources.covenant.route, params: { covenantId } }} />
        </span>
      </div>
      <p className="flex min-w-0 items-center font-mono text-sm break-all" data-testid="covenant-id">
        {covenantId}
        <CopyButton text={covenantId} label="Copy covenant id" />
      </p>
      {summary.error !== null && <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />}

      <Card title="Overview">
        <Facts
          items={[
            {
              label: 'State',
              value: active
                ? 'active: outputs bound to it remain unspent'
                : 'ended: no output bound to it remains; the lineage is complete',
            },
            {
              label: 'Genesis transaction',
              value:
                covenant.genesisTransactionId === null ? (
                  'before the indexed history'
                ) : (
                  <TransactionLink id={covenant.genesisTransactionId} copy />
                ),
            },
            { label: 'Created', value: <TimeAgo time={covenant.createdAt} /> },
            { label: 'Latest transaction', value: <TransactionLink id={covenant.lastTransactionId} copy /> },
            { label: 'Last activity', value: <TimeAgo time={covenant.lastActivityAt} /> },
            { label: 'Current UTXOs', value: <span data-testid="covenant-utxo-count">{formatInteger(covenant.utxoCount)}</span> },
            { label: 'Value held', value: <Kas sompi={held} digits={8} />, hint: 'The sum of the current UTXOs bound to the covenant' },
          ]}
        />
      </Card>

      <Card title="Lineage over time">
        {loaded.length === 0 ? (
          <EmptyState>No lineage transaction is indexed yet.</EmptyState>
        ) : (
          <>
            <CovenantTimeline steps={steps} start={covenant.createdAt} end={timelineEnd} active={active} />
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              {formatInteger(loaded.length)} transaction{loaded.length === 1 ? '' : 's'} drawn
              {lineage.hasNextPage ? '; older ones are drawn as the list below loads them' : ', the whole lineage'}.
            </p>
          </>
        )}
      </Card>

      <Card title={`Current UTXOs (${formatInteger(covenant.currentUtxos.length)})`}>
        {covenant.currentUtxos.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">None: every output bound to this covenant has been spent.</p>
        ) : (
          <StackedTable
            label="Current UTXOs"
            caption="Unspent outputs bound to the covenant"
            columns={UTXO_COLUMNS}
            density="detail"
            testId="covenant-utxos"
          >
            {covenant.currentUtxos.map((utxo) => (
              <tr key={`${utxo.outpoint.transactionId}:${utxo.outpoint.index}`} className="border-t border-slate-100 dark:border-slate-800">
                <td data-label="Output" className="py-1 pr-3 whitespace-nowrap">
                  <TransactionLink id={utxo.outpoint.transactionId} />
                  <span className="text-slate-500 dark:text-slate-400">:{utxo.outpoint.index}</span>
                </td>
                <td data-label="Address" className="py-1 pr-3">
                  <AddressLink address={utxo.address} copy />
                </td>
                <td data-label="DAA score" className="py-1 pr-3 text-right tabular-nums">{formatInteger(utxo.blockDaaScore)}</td>
                <td data-label="Amount" className="py-1 text-right">
                  <Kas sompi={utxo.amount} digits={8} />
                </td>
              </tr>
            ))}
          </StackedTable>
        )}
      </Card>

      <Card title="Script">
        <CovenantScript
          scriptPublicKey={covenant.currentUtxos[0]?.scriptPublicKey ?? null}
          latestSpendSignatureScript={latestSpend?.signatureScript ?? null}
        />
      </Card>

      <section aria-labelledby="lineage-heading">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="lineage-heading" className="text-lg font-semibold">
            Lineage
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
            {formatInteger(loaded.length)} shown, newest first{lineage.hasNextPage ? ', more below' : ''}
          </p>
        </div>
        {behind && (
          <button
            type="button"
            onClick={() => void lineage.refetch()}
            className="mb-2 w-full rounded-md bg-teal-700 px-3 py-2 text-sm font-medium text-white hover:bg-teal-800"
            data-testid="newer-lineage-banner"
          >
            Newer transactions in the lineage: show
          </button>
        )}
        {lineage.isError && <ErrorState error={lineage.error} onRetry={() => void lineage.refetch()} />}
        {loaded.length > 0 && (
          <StackedTable
            label="Lineage transactions"
            caption="Transactions of the covenant's lineage, newest first"
            columns={LINEAGE_COLUMNS}
            density="list"
            testId="covenant-lineage"
          >
            {loaded.map((transaction) => (
              <LineageRow key={transaction.transactionId} transaction={transaction} covenantId={covenantId} />
            ))}
          </StackedTable>
        )}
        <LoadMore pages={lineage} loadingLabel="Loading older lineage transactions" buttonLabel="Load older lineage transactions" />
      </section>
    </main>
  );
}
