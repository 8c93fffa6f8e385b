'use client';

import { useEffect, useMemo, type ReactNode } from 'react';
import { useCursorPages, useResource } from '@/lib/web/queries';
import {
  resources,
  TOKEN_ACTIVITY_PAGE_SIZE,
  type JsonInteger,
  type TokenFill,
  type TokenFillsPage,
  type TokenHoldersPage,
  type TokenMetadata,
  type TokenOperation,
  type TokenOperationsPage,
} from '@/lib/web/resources';
import { AddressLink, Card, EmptyState, ErrorState, Kas, LoadingRows, ScrollArea, TimeAgo, TransactionLink } from '../ui';
import { kasText, percentText, tokenAmount, usdText } from './token-format';

const REFRESH_MS = 10_000;
const METADATA_REFRESH_MS = 5_000;

type Holder = TokenHoldersPage['holders'][number];

/**
 * The first page refreshes every 10 s while it is the only one loaded; once the reader loads older rows the list holds
 * still, so rows do not shift under them.
 */
function useLivePages<T>(list: { data?: { pages: T[] }; refetch: () => unknown }): void {
  const { data, refetch } = list;
  const single = (data?.pages.length ?? 0) <= 1;
  useEffect(() => {
    if (!single) return;
    const timer = setInterval(() => void refetch(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [single, refetch]);
}

function unique<T>(rows: T[], keyOf: (row: T) => string): T[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = keyOf(row);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function Amount({ units, decimals }: { units: JsonInteger; decimals: number }) {
  return (
    <span className="tabular-nums" title={`${units.toString()} smallest units`}>
      {tokenAmount(units, decimals)}
    </span>
  );
}

interface SectionProps {
  title: string;
  testId: string;
  caption: string;
  headers: { label: string; numeric?: boolean }[];
  list: {
    isPending: boolean;
    isError: boolean;
    error: Error | null;
    refetch: () => unknown;
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => unknown;
  };
  count: number;
  empty: string;
  more: string;
  children: ReactNode;
}

function ActivitySection({ title, testId, caption, headers, list, count, empty, more, children }: SectionProps) {
  return (
    <Card title={title}>
      <div data-testid={testId}>
        {list.isError && <ErrorState error={list.error ?? undefined} onRetry={() => void list.refetch()} />}
        {list.isPending && <LoadingRows rows={3} label={`Loading ${title.toLowerCase()}`} />}
        {!list.isPending && !list.isError && count === 0 && <EmptyState>{empty}</EmptyState>}
        {count > 0 && (
          <ScrollArea label={caption}>
            <table className="stack-on-phone w-full text-sm sm:min-w-[36rem] sm:whitespace-nowrap">
              <caption className="sr-only">{caption}</caption>
              <thead>
                <tr className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                  {headers.map((header) => (
                    <th
                      key={header.label}
                      scope="col"
                      className={`py-2 pr-3 font-medium last:pr-0 ${header.numeric ? 'text-right' : 'text-left'}`}
                    >
                      {header.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>{children}</tbody>
            </table>
          </ScrollArea>
        )}
        {list.isFetchingNextPage && <LoadingRows rows={2} label={`Loading more ${title.toLowerCase()}`} />}
        {list.hasNextPage && !list.isFetchingNextPage && (
          <button
            type="button"
            onClick={() => void list.fetchNextPage()}
            className="mt-3 w-full rounded-md border border-slate-300 py-2 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            {more}
          </button>
        )}
      </div>
    </Card>
  );
}

const ROW = 'border-t border-slate-200 dark:border-slate-800';
const MUTED = 'text-slate-600 dark:text-slate-400';

/** Share of the minted supply, with four significant decimals; null before anything is minted. */
function supplyShare(holder: Holder, minted: bigint): number | null {
  if (minted <= 0n) return null;
  return Number(((BigInt(holder.balance) + BigInt(holder.locked)) * 1_000_000n) / minted) / 10_000;
}

function Holders({ ticker, token, initialPage }: { ticker: string; token: TokenMetadata; initialPage?: TokenHoldersPage }) {
  const list = useCursorPages(
    resources.tokenHolders,
    { params: { ticker }, query: { limit: TOKEN_ACTIVITY_PAGE_SIZE } },
    (page) => (page.metadata.hasMore ? page.holders.at(-1)?.address : undefined),
    { initialPage },
  );
  useLivePages(list);
  const rows = useMemo(
    () => unique(list.data?.pages.flatMap((page) => page.holders) ?? [], (holder) => holder.address),
    [list.data],
  );
  const minted = BigInt(token.totalMinted);
  return (
    <ActivitySection
      title="Holders"
      testId="token-holders-list"
      caption={`${token.ticker} holders, largest first, with their share of the minted supply`}
      headers={[{ label: 'Address' }, { label: 'Balance', numeric: true }, { label: 'Locked', numeric: true }, { label: 'Share', numeric: true }]}
      list={list}
      count={rows.length}
      empty="Nobody holds this token yet."
      more="Load more holders"
    >
      {rows.map((holder) => {
        const share = supplyShare(holder, minted);
        return (
          <tr key={holder.address} className={ROW} data-testid="token-holder-row">
            <td data-label="Address" className="py-2 pr-3">
              <AddressLink address={holder.address} />
            </td>
            <td data-label="Balance" className="py-2 pr-3 text-right">
              <Amount units={holder.balance} decimals={token.decimal} />
            </td>
            <td data-label="Locked" className={`py-2 pr-3 text-right ${MUTED}`}>
              <Amount units={holder.locked} decimals={token.decimal} />
            </td>
            <td data-label="Share" className="py-2 text-right tabular-nums">{share === null ? '—' : percentText(share)}</td>
          </tr>
        );
      })}
    </ActivitySection>
  );
}

function OperationStatus({ operation }: { operation: TokenOperation }) {
  if (operation.accepted) return <span className="text-emerald-700 dark:text-emerald-400">applied</span>;
  return (
    <span className="text-red-700 dark:text-red-400">
      failed{operation.opError === null ? '' : <span className="block max-w-64 min-w-48 text-xs break-words whitespace-normal">{operation.opError}</span>}
    </span>
  );
}

function Operations({ ticker, decimals, initialPage }: { ticker: string; decimals: number; initialPage?: TokenOperationsPage }) {
  const list = useCursorPages(
    resources.tokenOperations,
    { params: { ticker }, query: { limit: TOKEN_ACTIVITY_PAGE_SIZE } },
    (page: TokenOperationsPage) => (page.metadata.hasMore ? page.operations.at(-1)?.opScore.toString() : undefined),
    { initialPage },
  );
  useLivePages(list);
  const rows = useMemo(
    () => unique(list.data?.pages.flatMap((page) => page.operations) ?? [], (row) => row.opScore.toString()),
    [list.data],
  );
  return (
    <ActivitySection
      title="Recent operations"
      testId="token-operations-list"
      caption="The token's operations, newest first, with their transactions and status"
      headers={[
        { label: 'Transaction' },
        { label: 'Op' },
        { label: 'From' },
        { label: 'To' },
        { label: 'Amount', numeric: true },
        { label: 'Status' },
        { label: 'Time' },
      ]}
      list={list}
      count={rows.length}
      empty="No operation on this token yet."
      more="Load older operations"
    >
      {rows.map((operation) => (
        <tr key={operation.opScore.toString()} className={ROW} data-testid="token-operation-row">
          <td data-label="Transaction" className="py-2 pr-3">
            <TransactionLink id={operation.transactionId} />
          </td>
          <td data-label="Op" className="py-2 pr-3 font-medium">{operation.op}</td>
          <td data-label="From" className="py-2 pr-3">
            <AddressLink address={operation.from} />
          </td>
          <td data-label="To" className="py-2 pr-3">{operation.to === null ? <span className={MUTED}>—</span> : <AddressLink address={operation.to} />}</td>
          <td data-label="Amount" className="py-2 pr-3 text-right">
            {operation.amount === null ? <span className={MUTED}>—</span> : <Amount units={operation.amount} decimals={decimals} />}
          </td>
          <td data-label="Status" className="py-2 pr-3">
            <OperationStatus operation={operation} />
          </td>
          <td data-label="Time" className={`py-2 ${MUTED}`}>
            <TimeAgo time={operation.timestamp} />
          </td>
        </tr>
      ))}
    </ActivitySection>
  );
}

function Fills({ ticker, decimals, initialPage }: { ticker: string; decimals: number; initialPage?: TokenFillsPage }) {
  const list = useCursorPages(
    resources.tokenFills,
    { params: { ticker }, query: { limit: TOKEN_ACTIVITY_PAGE_SIZE } },
    (page: TokenFillsPage) => (page.metadata.hasMore ? page.fills.at(-1)?.opScore.toString() : undefined),
    { initialPage },
  );
  useLivePages(list);
  const rows = useMemo(
    () => unique(list.data?.pages.flatMap((page) => page.fills) ?? [], (fill: TokenFill) => fill.opScore.toString()),
    [list.data],
  );
  return (
    <ActivitySection
      title="Fills"
      testId="token-fills-list"
      caption="Filled trades, newest first, with the price per whole token in KAS and USD"
      headers={[
        { label: 'Transaction' },
        { label: 'Seller' },
        { label: 'Buyer' },
        { label: 'Amount', numeric: true },
        { label: 'Price', numeric: true },
        { label: 'Paid', numeric: true },
        { label: 'Time' },
      ]}
      list={list}
      count={rows.length}
      empty="No trade filled yet."
      more="Load older fills"
    >
      {rows.map((fill) => (
        <tr key={fill.opScore.toString()} className={ROW} data-testid="token-fill-row">
          <td data-label="Transaction" className="py-2 pr-3">
            <TransactionLink id={fill.transactionId} />
          </td>
          <td data-label="Seller" className="py-2 pr-3">
            <AddressLink address={fill.seller} />
          </td>
          <td data-label="Buyer" className="py-2 pr-3">
            <AddressLink address={fill.buyer} />
          </td>
          <td data-label="Amount" className="py-2 pr-3 text-right">
            <Amount units={fill.amount} decimals={decimals} />
          </td>
          <td data-label="Price" className="py-2 pr-3 text-right tabular-nums">
            <span className="block">{kasText(fill.priceKas)}</span>
            {fill.priceUsd !== null && <span className={`block text-xs ${MUTED}`}>{usdText(fill.priceUsd)}</span>}
          </td>
          <td data-label="Paid" className="py-2 pr-3 text-right">
            <Kas sompi={BigInt(fill.priceSompi)} />
          </td>
          <td data-label="Time" className={`py-2 ${MUTED}`}>
            <TimeAgo time={fill.timestamp} />
          </td>
        </tr>
      ))}
    </ActivitySection>
  );
}

/** The token's holders, recent operations and fills, each cursor-paged ("load more") and live on its first page. */
export interface TokenActivityProps {
  ticker: string;
  initial: TokenMetadata;
  /** First pages from the server (first paint); absent when the server call failed. */
  initialHolders?: TokenHoldersPage;
  initialOperations?: TokenOperationsPage;
  initialFills?: TokenFillsPage;
}

export function TokenActivity({ ticker, initial, initialHolders, initialOperations, initialFills }: TokenActivityProps) {
  const metadata = useResource(
    resources.tokenMetadata,
    { params: { ticker } },
    { initialData: { result: initial }, refetchInterval: METADATA_REFRESH_MS },
  );
  const token = metadata.data?.result ?? initial;
  return (
    <div className="space-y-6">
      <Holders ticker={ticker} token={token} initialPage={initialHolders} />
      <Operations ticker={ticker} decimals={token.decimal} initialPage={initialOperations} />
      <Fills ticker={ticker} decimals={token.decimal} initialPage={initialFills} />
    </div>
  );
}
