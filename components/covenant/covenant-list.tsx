'use client';

import { useMemo } from 'react';
import { loadedItems, useCursorPages } from '@/lib/web/queries';
import { COVENANT_LIST_PAGE_SIZE, resources, type CovenantListPage, type CovenantSummary } from '@/lib/web/resources';
import { formatInteger } from '@/lib/web/format';
import { LoadMore } from '../load-more';
import { StackedTable, type StackedColumn } from '../stacked-table';
import { CovenantLink, EmptyState, ErrorState, TimeAgo, TransactionLink } from '../ui';
import { CovenantStateBadge } from './covenant-view';

const COVENANT_COLUMNS: readonly StackedColumn[] = [
  { label: 'Covenant' },
  { label: 'State' },
  { label: 'Last activity' },
  { label: 'Latest transaction' },
  { label: 'Created' },
  { label: 'UTXOs', alignRight: true },
];

function nextCursor(page: CovenantListPage): string | undefined {
  return page.metadata.hasMore ? page.covenants.at(-1)?.covenantId : undefined;
}

function CovenantRow({ covenant }: { covenant: CovenantSummary }) {
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800" data-testid="covenant-row" data-covenant={covenant.covenantId}>
      <td data-label="Covenant" className="py-2 pr-3">
        <CovenantLink id={covenant.covenantId} />
      </td>
      <td data-label="State" className="py-2 pr-3">
        <CovenantStateBadge state={covenant.state} />
      </td>
      <td data-label="Last activity" className="py-2 pr-3 text-slate-600 dark:text-slate-400">
        <TimeAgo time={covenant.lastActivityAt} />
      </td>
      <td data-label="Latest transaction" className="py-2 pr-3">
        <TransactionLink id={covenant.lastTransactionId} />
      </td>
      <td data-label="Created" className="py-2 pr-3 text-slate-600 dark:text-slate-400">
        <TimeAgo time={covenant.createdAt} />
      </td>
      <td data-label="UTXOs" className="py-2 text-right tabular-nums">{formatInteger(covenant.utxoCount)}</td>
    </tr>
  );
}

/** Covenants with the most recent activity first; older ones load as the reader scrolls. */
export function CovenantList({ initialPage }: { initialPage: CovenantListPage | null }) {
  const list = useCursorPages(resources.covenants, { query: { limit: COVENANT_LIST_PAGE_SIZE } }, nextCursor, {
    initialPage: initialPage ?? undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const rows = useMemo(
    () => loadedItems(list.data?.pages, (page) => page.covenants, (covenant) => covenant.covenantId),
    [list.data],
  );

  return (
    <div>
      {list.isError && <ErrorState error={list.error} onRetry={() => void list.refetch()} />}
      {list.isSuccess && rows.length === 0 && (
        <EmptyState>No covenant yet. A covenant appears here once a transaction binding an output to a new covenant id is accepted.</EmptyState>
      )}
      {rows.length > 0 && (
        <StackedTable
          label="Covenants"
          caption="Covenants, most recent activity first"
          columns={COVENANT_COLUMNS}
          density="list"
          testId="covenant-list"
        >
          {rows.map((covenant) => (
            <CovenantRow key={covenant.covenantId} covenant={covenant} />
          ))}
        </StackedTable>
      )}
      <LoadMore pages={list} loadingLabel="Loading more covenants" buttonLabel="Load more covenants" />
    </div>
  );
}
