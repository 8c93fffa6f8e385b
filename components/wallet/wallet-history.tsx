'use client';

import { useMemo } from 'react';
import type { WalletTransactionView } from '@/lib/api/endpoints/wallet-endpoints';
import { loadedItems, useCursorPages } from '@/lib/web/queries';
import { resources, WALLET_HISTORY_PAGE_SIZE, type WalletHistoryPage, type WalletRequest } from '@/lib/web/resources';
import { LoadMore } from '../load-more';
import { StackedTable, type StackedColumn } from '../stacked-table';
import { EmptyState, ErrorState, Kas, LoadingRows, TimeAgo, TransactionLink } from '../ui';

const HISTORY_COLUMNS: readonly StackedColumn[] = [
  { label: 'Transaction' },
  { label: 'Time' },
  { label: 'Kind' },
  { label: 'Status' },
  { label: 'Net change', alignRight: true },
  { label: 'Fee paid', alignRight: true },
];

const DIRECTION_LABEL = { incoming: 'received', outgoing: 'sent', internal: 'internal transfer' } as const;

function nextCursor(page: WalletHistoryPage): string | undefined {
  return page.metadata.hasMore ? page.transactions.at(-1)?.transactionId : undefined;
}

function HistoryRow({ transaction }: { transaction: WalletTransactionView }) {
  const change = BigInt(transaction.balanceChange);
  return (
    <tr
      className="border-t border-slate-200 dark:border-slate-800"
      data-testid="wallet-history-row"
      data-txid={transaction.transactionId}
      data-direction={transaction.direction}
    >
      <td data-label="Transaction" className="py-2 pr-3">
        <TransactionLink id={transaction.transactionId} />
      </td>
      <td data-label="Time" className="py-2 pr-3 text-slate-600 dark:text-slate-400">
        <TimeAgo time={transaction.blockTime} />
      </td>
      <td data-label="Kind" className="py-2 pr-3">
        {transaction.direction === 'internal' ? (
          <span
            className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium dark:bg-slate-800"
            title="Every input and output is the wallet’s: only the fee leaves it"
          >
            {DIRECTION_LABEL.internal}
          </span>
        ) : (
          DIRECTION_LABEL[transaction.direction]
        )}
      </td>
      <td data-label="Status" className="py-2 pr-3">
        {transaction.isAccepted ? (
          <span className="text-emerald-700 dark:text-emerald-400">{transaction.confirmations.toLocaleString('en')} conf.</span>
        ) : (
          <span className="text-amber-700 dark:text-amber-400">not accepted</span>
        )}
      </td>
      <td
        data-label="Net change"
        className={`py-2 pr-3 text-right ${change < 0n ? 'text-red-700 dark:text-red-400' : 'text-emerald-700 dark:text-emerald-400'}`}
      >
        <Kas sompi={change} signed />
      </td>
      <td data-label="Fee paid" className="py-2 text-right text-slate-600 dark:text-slate-400">
        {transaction.feePaid === null ? '—' : <Kas sompi={transaction.feePaid} digits={8} />}
      </td>
    </tr>
  );
}

/** The wallet's merged history, newest first, each transaction once; older pages load as the reader scrolls. */
export function WalletHistory({ request }: { request: WalletRequest }) {
  const history = useCursorPages(
    resources.walletHistory,
    { body: { ...request, limit: WALLET_HISTORY_PAGE_SIZE } },
    nextCursor,
    { cursorIn: 'body', cursorParameter: 'startingAfter', staleTime: Number.POSITIVE_INFINITY },
  );
  const rows = useMemo(
    () => loadedItems(history.data?.pages, (page) => page.transactions, (transaction) => transaction.transactionId),
    [history.data],
  );

  if (history.isPending) return <LoadingRows label="Loading the wallet’s transactions" />;
  if (history.isError) return <ErrorState error={history.error} onRetry={() => void history.refetch()} />;
  if (rows.length === 0) return <EmptyState>No transactions of this wallet yet.</EmptyState>;
  return (
    <div>
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
        {rows.length.toLocaleString('en')} shown{history.hasNextPage ? ', more below' : ''}
      </p>
      <StackedTable
        label="Transactions of the wallet"
        caption="Transactions of the wallet, newest first, with the wallet’s net change and fee"
        columns={HISTORY_COLUMNS}
        density="list"
        testId="wallet-history"
      >
        {rows.map((transaction) => (
          <HistoryRow key={transaction.transactionId} transaction={transaction} />
        ))}
      </StackedTable>
      <LoadMore pages={history} loadingLabel="Loading older transactions" buttonLabel="Load older transactions" />
    </div>
  );
}
