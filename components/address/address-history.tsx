'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState, type FormEvent } from 'react';
import type { AddressTransactionView } from '@/lib/api/endpoints/indexed-format';
import { useCursorPages, useResource } from '@/lib/web/queries';
import { ADDRESS_HISTORY_PAGE_SIZE, resources, type AddressHistoryPage } from '@/lib/web/resources';
import type { HistoryDate } from '@/lib/web/history-date';
import { pages } from '@/lib/web/urls';
import { LoadMore } from '../load-more';
import { StackedTable, type StackedColumn } from '../stacked-table';
import { EmptyState, ErrorState, Kas, TimeAgo, TransactionLink } from '../ui';
import { useKasUsdAt, useKasUsdNow, usdOf } from '../kas-usd';

const HISTORY_COLUMNS: readonly StackedColumn[] = [
  { label: 'Transaction' },
  { label: 'Time' },
  { label: 'Status' },
  { label: 'Balance change', alignRight: true },
  { label: 'Fee', alignRight: true },
];

const NEWER_POLL_MS = 4_000;
const NEWER_BATCH = 100;

function nextCursor(page: AddressHistoryPage): string | undefined {
  return page.metadata.hasMore ? page.transactions.at(-1)?.transactionId : undefined;
}

function Status({ transaction }: { transaction: AddressTransactionView }) {
  if (!transaction.isAccepted) {
    return (
      <span className="text-amber-700 dark:text-amber-400" title="No chain block has accepted this transaction yet">
        not accepted
      </span>
    );
  }
  return (
    <span className="text-emerald-700 dark:text-emerald-400" title="Accepted by a chain block">
      {transaction.confirmations.toLocaleString('en')} conf.
    </span>
  );
}

/** `usdPerKas`: the KAS/USD rate at the transaction's time (undefined while loading, null without a rate). */
function HistoryRow({ transaction, usdPerKas }: { transaction: AddressTransactionView; usdPerKas: number | null | undefined }) {
  const change = BigInt(transaction.balanceChange);
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800" data-testid="history-row" data-txid={transaction.transactionId}>
      <td data-label="Transaction" className="py-2 pr-3">
        <TransactionLink id={transaction.transactionId} />
      </td>
      <td data-label="Time" className="py-2 pr-3 text-slate-600 dark:text-slate-400">
        <TimeAgo time={transaction.blockTime} />
      </td>
      <td data-label="Status" className="py-2 pr-3">
        <Status transaction={transaction} />
      </td>
      <td
        data-label="Balance change"
        className={`py-2 pr-3 text-right ${change < 0n ? 'text-red-700 dark:text-red-400' : 'text-emerald-700 dark:text-emerald-400'}`}
      >
        <Kas sompi={change} signed />
        {/* The line is kept while its rate loads, so rows never change height under the reader (or a restored scroll). */}
        {usdPerKas !== null && (
          <span className="block text-xs text-slate-500 dark:text-slate-400" data-testid={usdPerKas === undefined ? undefined : 'history-row-usd'}>
            {usdPerKas === undefined ? '\u00a0' : usdOf(change, usdPerKas)}
          </span>
        )}
      </td>
      <td data-label="Fee" className="py-2 text-right text-slate-600 dark:text-slate-400">
        {transaction.fee === null ? '—' : <Kas sompi={transaction.fee} digits={8} />}
      </td>
    </tr>
  );
}

/**
 * Newest first. Older pages load as the reader scrolls (keyset paging on starting_after) and, once loaded, never
 * change under the reader. Newer transactions are polled with ending_before the newest one shown and wait behind a
 * "n new" banner, so live updates never move what the reader is looking at.
 */
export function AddressHistory({
  address,
  acceptedOnly,
  jump,
  initialPage,
}: {
  address: string;
  acceptedOnly: boolean;
  /** The day the reader jumped to: the history starts with that day's last transaction. */
  jump: HistoryDate | null;
  initialPage: AddressHistoryPage;
}) {
  const router = useRouter();
  const baseQuery = { limit: ADDRESS_HISTORY_PAGE_SIZE, accepted_only: acceptedOnly || undefined, before_time: jump?.beforeTime };
  const history = useCursorPages(resources.addressHistory, { params: { address }, query: baseQuery }, nextCursor, {
    initialPage,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [prepended, setPrepended] = useState<AddressTransactionView[]>([]);

  const loaded = useMemo(() => {
    const seen = new Set<string>();
    const rows: AddressTransactionView[] = [];
    for (const transaction of [...prepended, ...(history.data?.pages.flatMap((page) => page.transactions) ?? [])]) {
      if (seen.has(transaction.transactionId)) continue;
      seen.add(transaction.transactionId);
      rows.push(transaction);
    }
    return rows;
  }, [prepended, history.data]);

  const newestId = loaded[0]?.transactionId;
  const newer = useResource(
    resources.addressHistory,
    {
      params: { address },
      query: { limit: NEWER_BATCH, accepted_only: acceptedOnly || undefined, ending_before: newestId },
    },
    { refetchInterval: NEWER_POLL_MS, enabled: history.isSuccess && jump === null },
  );
  const waiting = (newer.data?.transactions ?? []).filter(
    (transaction) => !loaded.some((row) => row.transactionId === transaction.transactionId),
  );

  const times = useMemo(() => loaded.map((transaction) => transaction.blockTime), [loaded]);
  const usd = useKasUsdAt(times);
  // The label follows the one shared rate query, not the row batches, which reload as rows come and go.
  const usdSource = useKasUsdNow().source;

  function handleJump(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const day = new FormData(event.currentTarget).get('before');
    router.push(pages.address(address, acceptedOnly, typeof day === 'string' && day !== '' ? day : undefined));
  }

  function handleShowNewer() {
    setPrepended((current) => [...waiting, ...current]);
  }

  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <Link
            href={pages.address(address, !acceptedOnly, jump?.day)}
            className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            aria-pressed={acceptedOnly}
            role="button"
            scroll={false}
          >
            {acceptedOnly ? '✓ Accepted only' : 'Accepted only'}
          </Link>
          <a
            href={pages.addressCsv(address)}
            className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            download
          >
            Export CSV
          </a>
          <a
            href={pages.addressCsv(address, { layout: 'koinly' })}
            className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            download
          >
            Koinly CSV
          </a>
          <form action={pages.address(address)} method="get" onSubmit={handleJump} className="flex items-center gap-1" data-testid="history-jump">
            {acceptedOnly && <input type="hidden" name="accepted_only" value="true" />}
            <label htmlFor="history-date" className="text-slate-600 dark:text-slate-400">
              Jump to
            </label>
            <input
              id="history-date"
              type="date"
              name="before"
              defaultValue={jump?.day}
              required
              className="rounded-md border border-slate-300 bg-white px-1.5 py-0.5 dark:border-slate-700 dark:bg-slate-900"
            />
            <button
              type="submit"
              className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              Go
            </button>
          </form>
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {loaded.length.toLocaleString('en')} shown{history.hasNextPage ? ', more below' : ''}
          {usdSource !== undefined && usdSource !== 'unavailable' && (
            <span data-testid="history-usd-source">
              {' '}
              · USD at each transaction&apos;s time{usdSource === 'simulated' ? ' (simulated KAS/USD)' : ''}
            </span>
          )}
        </p>
      </div>

      {jump !== null && (
        <p className="mb-2 text-sm" data-testid="history-jumped">
          From the end of {jump.day} (UTC) back ·{' '}
          <Link href={pages.address(address, acceptedOnly)} className="text-teal-700 hover:underline dark:text-teal-400">
            Newest transactions
          </Link>
        </p>
      )}

      {jump === null && waiting.length > 0 && (
        <button
          type="button"
          onClick={handleShowNewer}
          className="mb-2 w-full rounded-md bg-teal-700 px-3 py-2 text-sm font-medium text-white hover:bg-teal-800"
          data-testid="new-transactions-banner"
        >
          {waiting.length}
          {newer.data?.metadata.hasMore ? '+' : ''} new transaction{waiting.length === 1 ? '' : 's'}: show
        </button>
      )}

      {history.isError && <ErrorState error={history.error} onRetry={() => void history.refetch()} />}
      {history.isSuccess && loaded.length === 0 && (
        <EmptyState>No transactions{acceptedOnly ? ' accepted' : ''} for this address yet. New ones appear here live.</EmptyState>
      )}
      {loaded.length > 0 && (
        <StackedTable
          label={`Transactions of ${address}`}
          caption={`Transactions of ${address}, newest first`}
          columns={HISTORY_COLUMNS}
          density="list"
          testId="address-history"
        >
          {loaded.map((transaction) => (
            <HistoryRow key={transaction.transactionId} transaction={transaction} usdPerKas={usd.rateAt(transaction.blockTime)} />
          ))}
        </StackedTable>
      )}
      <LoadMore pages={history} loadingLabel="Loading older transactions" buttonLabel="Load older transactions" />
    </div>
  );
}
