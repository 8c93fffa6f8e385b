/**
 * Walking a transaction history endpoint (an address history, a covenant lineage: both newest first by block time,
 * then transaction id, paged with starting_after / ending_before) on the live devnet while blocks keep arriving.
 * Each page is checked as it comes: count, limit, full pages while hasMore, order. 429s are honoured (Retry-After)
 * like any client would; a connection reset is retried (the calls are GETs).
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { HASH, json, keyed } from './support';

export interface Item {
  id: string;
  time: number;
}

export interface Page {
  items: Item[];
  hasMore: boolean;
}

export type Cursor = { starting_after: string } | { ending_before: string } | undefined;

/** Twice the longest miner partition of the devnet: history older than this below the head is settled. */
export const SETTLE_MS = 60_000;

/** Newest first: later block time, then larger transaction id (lower-case hex orders as the bytes do). */
export function newer(a: Item, b: Item): boolean {
  return a.time !== b.time ? a.time > b.time : a.id > b.id;
}

export function expectNewestFirst(items: readonly Item[]): void {
  for (let i = 1; i < items.length; i++) {
    expect(newer(items[i - 1]!, items[i]!), `item ${i} (${items[i]!.id}) is out of order`).toBe(true);
  }
}

/** Page sizes 1..100 in a fixed scrambled order, so small and large pages alternate. */
export function limits(seed: number): number[] {
  const order = Array.from({ length: 100 }, (_, i) => i + 1);
  let state = seed;
  for (let i = order.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export async function page(request: APIRequestContext, path: string, limit: number, cursor: Cursor): Promise<Page> {
  const query = new URLSearchParams({ limit: String(limit), ...cursor });
  for (let resets = 0; ; ) {
    let response;
    try {
      response = await request.get(`${path}?${query}`, { headers: keyed });
    } catch (error) {
      // A kept-alive connection the loaded server closed as the request went out; a GET may be sent again.
      if (!String(error).includes('ECONNRESET') || ++resets > 3) throw error;
      continue;
    }
    if (response.status() === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers()['retry-after']) * 1000));
      continue;
    }
    const body = await json<{ transactions: { transactionId: string; blockTime: number }[]; metadata: { hasMore: boolean; count: number } }>(
      response,
    );
    const items = body.transactions.map((tx) => ({ id: tx.transactionId, time: tx.blockTime }));
    expect(body.metadata.count).toBe(items.length);
    expect(items.length).toBeLessThanOrEqual(limit);
    if (body.metadata.hasMore) expect(items.length).toBe(limit);
    for (const item of items) expect(item.id).toMatch(HASH);
    expectNewestFirst(items);
    return { items, hasMore: body.metadata.hasMore };
  }
}

/** From the head (or after `after`) toward older items, for at most `maxPages` pages; newest first. */
export async function walkForward(
  request: APIRequestContext,
  path: string,
  sizes: readonly number[],
  maxPages: number,
  after?: Item,
): Promise<{ items: Item[]; reachedEnd: boolean }> {
  const items: Item[] = [];
  for (let n = 0; n < maxPages; n++) {
    const last = items.at(-1) ?? after;
    const next = await page(request, path, sizes[n % sizes.length]!, last && { starting_after: last.id });
    if (last !== undefined && next.items[0] !== undefined) expect(newer(last, next.items[0])).toBe(true);
    items.push(...next.items);
    if (!next.hasMore) return { items, reachedEnd: true };
  }
  return { items, reachedEnd: false };
}

/** From just before `from` toward newer items until the head, or until a page reaches `until`; newest first. */
export async function walkBackward(
  request: APIRequestContext,
  path: string,
  sizes: readonly number[],
  from: Item,
  until?: Item,
): Promise<Item[]> {
  const pages: Item[][] = [];
  let cursor = from;
  for (let n = 0; ; n++) {
    const next = await page(request, path, sizes[n % sizes.length]!, { ending_before: cursor.id });
    const oldest = next.items.at(-1);
    if (oldest !== undefined) expect(newer(oldest, cursor)).toBe(true);
    pages.unshift(next.items);
    if (!next.hasMore || (until !== undefined && next.items.some((item) => !newer(until, item)))) return pages.flat();
    cursor = next.items[0]!;
  }
}

/**
 * Forward then backward over the same stretch: each item exactly once, in order; every item the forward walk saw is
 * seen again, and items it did not see occur only where late arrivals can land (block time after `settledBefore`).
 */
export function expectSameStretch(forward: readonly Item[], backward: readonly Item[], settledBefore: number): void {
  expectNewestFirst(forward);
  expectNewestFirst(backward);
  expect(new Set(forward.map((item) => item.id)).size).toBe(forward.length);
  expect(new Set(backward.map((item) => item.id)).size).toBe(backward.length);
  const seen = new Set(forward.map((item) => item.id));
  const again = new Set(backward.map((item) => item.id));
  for (const item of forward.slice(0, -1)) expect(again.has(item.id), `${item.id} was not seen going back`).toBe(true);
  const late = backward.filter((item) => !seen.has(item.id));
  for (const item of late) expect(item.time, `${item.id} appeared in settled history`).toBeGreaterThan(settledBefore);
}

export async function head(request: APIRequestContext, path: string): Promise<Item> {
  return (await page(request, path, 1, undefined)).items[0]!;
}

/** The first item at least SETTLE_MS of block time older than the head, if the history reaches that far. */
export async function settledItem(request: APIRequestContext, path: string): Promise<Item | undefined> {
  const { items } = await walkForward(request, path, [100], 20);
  const head = items[0];
  return head && items.find((item) => item.time <= head.time - SETTLE_MS);
}
