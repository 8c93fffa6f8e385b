'use client';

import Link from 'next/link';
import { useEffect, useMemo, useState } from 'react';
import { useCursorPages } from '@/lib/web/queries';
import { resources, TOKEN_LIST_PAGE_SIZE, type TokenListItem, type TokenListPage } from '@/lib/web/resources';
import { pages } from '@/lib/web/urls';
import { LoadMore } from '../load-more';
import { EmptyState, ErrorState, LoadingRows, ScrollArea } from '../ui';
import { changeText, kasText, percentText, usdText } from './token-format';
import { TokenIcon } from './token-icon';

const REFRESH_MS = 10_000;

type SortKey = 'deployed' | 'ticker' | 'price' | 'change' | 'volume' | 'holders' | 'minted';

const COLUMNS: { key: SortKey; label: string; numeric: boolean; value: (token: TokenListItem) => number | string }[] = [
  { key: 'ticker', label: 'Token', numeric: false, value: (token) => token.ticker },
  { key: 'price', label: 'Price', numeric: true, value: (token) => token.price?.kas ?? -1 },
  { key: 'change', label: '24 h', numeric: true, value: (token) => token.change24h ?? Number.NEGATIVE_INFINITY },
  { key: 'volume', label: 'Volume 24 h', numeric: true, value: (token) => token.volume24h.kas },
  { key: 'holders', label: 'Holders', numeric: true, value: (token) => token.holderTotal },
  { key: 'minted', label: 'Minted', numeric: true, value: (token) => token.mintedPercent ?? -1 },
];

function nextCursor(page: TokenListPage): string | undefined {
  return page.metadata.hasMore ? page.tokens.at(-1)?.ticker : undefined;
}

function Change({ percent }: { percent: number | null }) {
  if (percent === null) {
    return (
      <span className="text-slate-500 dark:text-slate-400" title="No fill before the last 24 hours to compare with">
        —
      </span>
    );
  }
  const tone =
    percent > 0 ? 'text-emerald-700 dark:text-emerald-400' : percent < 0 ? 'text-red-700 dark:text-red-400' : '';
  return <span className={`tabular-nums ${tone}`}>{changeText(percent)}</span>;
}

function TokenRow({ token }: { token: TokenListItem }) {
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800" data-testid="token-row" data-ticker={token.ticker}>
      <td className="py-2 pr-3">
        <span className="flex items-center gap-2">
          <TokenIcon ticker={token.ticker} url={token.iconUrl} size={24} />
          <Link href={pages.token(token.ticker)} className="font-mono font-semibold text-teal-700 hover:underline dark:text-teal-400">
            {token.ticker}
          </Link>
          {token.status === 'finished' && (
            <span className="rounded bg-slate-200 px-1 text-xs whitespace-nowrap text-slate-700 dark:bg-slate-800 dark:text-slate-300">minted out</span>
          )}
        </span>
      </td>
      <td className="py-2 pr-3 text-right tabular-nums">
        {token.price === null ? (
          <span className="text-slate-500 dark:text-slate-400" title="No trade filled yet">
            —
          </span>
        ) : (
          <>
            {token.price.usd !== null && <span className="block">{usdText(token.price.usd)}</span>}
            <span className="block text-xs text-slate-600 dark:text-slate-400">{kasText(token.price.kas)}</span>
          </>
        )}
      </td>
      <td className="py-2 pr-3 text-right">
        <Change percent={token.change24h} />
      </td>
      <td className="py-2 pr-3 text-right tabular-nums">
        {token.volume24h.usd !== null && <span className="block">{usdText(token.volume24h.usd)}</span>}
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          {kasText(token.volume24h.kas)} · {token.volume24h.trades.toLocaleString('en')} trades
        </span>
      </td>
      <td className="py-2 pr-3 text-right tabular-nums">{token.holderTotal.toLocaleString('en')}</td>
      <td className="py-2 text-right tabular-nums">
        {token.mintedPercent === null ? (
          <span title="No maximum supply">unlimited</span>
        ) : (
          <span className="inline-flex flex-col items-end gap-1">
            {percentText(token.mintedPercent)}
            <span className="block h-1 w-16 overflow-hidden rounded bg-slate-200 dark:bg-slate-800" aria-hidden="true">
              <span className="block h-full bg-teal-600" style={{ width: `${Math.min(100, token.mintedPercent)}%` }} />
            </span>
          </span>
        )}
      </td>
    </tr>
  );
}

/**
 * Newest deploy first, as the API pages; older pages load as the reader scrolls. The API has no sort parameter, so
 * the column headers sort the tokens loaded so far (said next to the table). The loaded pages refresh every 10 s.
 */
export function TokenList({ initialPage }: { initialPage: TokenListPage | null }) {
  const list = useCursorPages(resources.tokens, { query: { limit: TOKEN_LIST_PAGE_SIZE } }, nextCursor, {
    initialPage: initialPage ?? undefined,
  });
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'deployed', descending: true });

  const { refetch } = list;
  useEffect(() => {
    const timer = setInterval(() => void refetch(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [refetch]);

  const loaded = useMemo(() => {
    const seen = new Set<string>();
    const rows: TokenListItem[] = [];
    for (const token of list.data?.pages.flatMap((page) => page.tokens) ?? []) {
      if (seen.has(token.ticker)) continue;
      seen.add(token.ticker);
      rows.push(token);
    }
    return rows;
  }, [list.data]);

  const sorted = useMemo(() => {
    const column = COLUMNS.find((candidate) => candidate.key === sort.key);
    if (column === undefined) return loaded;
    const direction = sort.descending ? -1 : 1;
    return [...loaded].sort((a, b) => {
      const left = column.value(a);
      const right = column.value(b);
      const order = typeof left === 'string' ? left.localeCompare(String(right)) : left - (right as number);
      return order * direction;
    });
  }, [loaded, sort]);

  const usdSource = list.data?.pages[0]?.usdSource;

  function handleSort(key: SortKey) {
    setSort((current) =>
      current.key === key ? { key, descending: !current.descending } : { key, descending: key !== 'ticker' },
    );
  }

  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600 dark:text-slate-400">
        <p aria-live="polite">
          {loaded.length.toLocaleString('en')} token{loaded.length === 1 ? '' : 's'}
          {list.hasNextPage ? ', more below' : ''}
          {sort.key !== 'deployed' && (
            <>
              {' · sorted among those loaded · '}
              <button
                type="button"
                onClick={() => setSort({ key: 'deployed', descending: true })}
                className="text-teal-700 underline hover:no-underline dark:text-teal-400"
              >
                newest deploy first
              </button>
            </>
          )}
        </p>
        {usdSource !== undefined && (
          <p data-testid="usd-source">
            USD at KAS/USD: <span className="font-medium">{usdSource}</span>
          </p>
        )}
      </div>

      {list.isError && <ErrorState error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && <LoadingRows rows={5} label="Loading tokens" />}
      {list.isSuccess && loaded.length === 0 && (
        <EmptyState>
          No KRC-20 token is deployed yet. On the devnet the traffic generator deploys its tokens a few minutes after
          the node starts (a deploy pays 1,000 KAS and mined coins need about 100 seconds to mature); this list updates
          by itself.
        </EmptyState>
      )}
      {loaded.length > 0 && (
        <ScrollArea label="KRC-20 tokens">
          <table className="w-full min-w-[40rem] text-sm whitespace-nowrap" data-testid="token-list">
            <caption className="sr-only">KRC-20 tokens with price, 24 hour change, volume, holders and minted share</caption>
            <thead>
              <tr className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                {COLUMNS.map((column) => {
                  const active = sort.key === column.key;
                  return (
                    <th
                      key={column.key}
                      scope="col"
                      className={`py-2 pr-3 font-medium last:pr-0 ${column.numeric ? 'text-right' : 'text-left'}`}
                      aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                    >
                      <button
                        type="button"
                        onClick={() => handleSort(column.key)}
                        className="rounded uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600 dark:hover:text-slate-100"
                      >
                        {column.label}
                        <span aria-hidden="true">{active ? (sort.descending ? ' ↓' : ' ↑') : ''}</span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {sorted.map((token) => (
                <TokenRow key={token.ticker} token={token} />
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
      <LoadMore pages={list} loadingLabel="Loading more tokens" buttonLabel="Load more tokens" />
    </div>
  );
}
