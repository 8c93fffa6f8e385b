/**
 * Walking a miner's address history on the live devnet (blocks, and so new history items, keep arriving): forward
 * with starting_after, then backward with ending_before to the head, with page sizes from 1 to 100. Each walk must
 * return items in the history's order (newest first by block time, then transaction id) with no repeats, and the
 * backward walk must return every item the forward walk saw.
 * Near the tip the history is not settled: a block indexed now may carry an older timestamp than blocks indexed
 * before it (parallel blocks; the devnet's miner partitions release blocks held for 20–30 s), so its items land
 * behind the head. The backward walk may therefore hold items the forward walk could not have seen, but only in the
 * last SETTLE_MS of block time; below that the two walks must agree item for item. The walk over the whole history
 * goes back to the head; the short walks for single page sizes stay in settled history (going back to the head each
 * time would take minutes) while blocks keep arriving.
 * 429s are honoured (Retry-After) like any client would: the e2e key admits 100 of these calls per second; a
 * connection reset is retried (the calls are GETs).
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEVNET_ADDRESS, HASH, json, keyed, post } from './support';

interface Item {
  id: string;
  time: number;
}

interface Page {
  items: Item[];
  hasMore: boolean;
}

type Cursor = { starting_after: string } | { ending_before: string } | undefined;

const MIN_HISTORY = 150;
/** Twice the longest miner partition of the devnet. */
const SETTLE_MS = 60_000;
const MAX_FORWARD_PAGES = 1_000;

/** Newest first: later block time, then larger transaction id (lower-case hex orders as the bytes do). */
function newer(a: Item, b: Item): boolean {
  return a.time !== b.time ? a.time > b.time : a.id > b.id;
}

function expectNewestFirst(items: readonly Item[]): void {
  for (let i = 1; i < items.length; i++) {
    expect(newer(items[i - 1]!, items[i]!), `item ${i} (${items[i]!.id}) is out of order`).toBe(true);
  }
}

/** Page sizes 1..100 in a fixed scrambled order, so small and large pages alternate. */
function limits(seed: number): number[] {
  const order = Array.from({ length: 100 }, (_, i) => i + 1);
  let state = seed;
  for (let i = order.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

async function page(request: APIRequestContext, address: string, limit: number, cursor: Cursor): Promise<Page> {
  const query = new URLSearchParams({ limit: String(limit), ...cursor });
  for (let resets = 0; ; ) {
    let response;
    try {
      response = await request.get(`/v1/addresses/${address}/transactions?${query}`, { headers: keyed });
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
async function walkForward(
  request: APIRequestContext,
  address: string,
  sizes: readonly number[],
  maxPages: number,
  after?: Item,
): Promise<{ items: Item[]; reachedEnd: boolean }> {
  const items: Item[] = [];
  for (let n = 0; n < maxPages; n++) {
    const last = items.at(-1) ?? after;
    const next = await page(request, address, sizes[n % sizes.length]!, last && { starting_after: last.id });
    if (last !== undefined && next.items[0] !== undefined) expect(newer(last, next.items[0])).toBe(true);
    items.push(...next.items);
    if (!next.hasMore) return { items, reachedEnd: true };
  }
  return { items, reachedEnd: false };
}

/** From just before `from` toward newer items until the head, or until a page reaches `until`; newest first. */
async function walkBackward(
  request: APIRequestContext,
  address: string,
  sizes: readonly number[],
  from: Item,
  until?: Item,
): Promise<Item[]> {
  const pages: Item[][] = [];
  let cursor = from;
  for (let n = 0; ; n++) {
    const next = await page(request, address, sizes[n % sizes.length]!, { ending_before: cursor.id });
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
function expectSameStretch(forward: readonly Item[], backward: readonly Item[], settledBefore: number): void {
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

async function head(request: APIRequestContext, address: string): Promise<Item> {
  return (await page(request, address, 1, undefined)).items[0]!;
}

/** The first item at least SETTLE_MS of block time older than the head, if the history reaches that far. */
async function settledItem(request: APIRequestContext, address: string): Promise<Item | undefined> {
  const { items } = await walkForward(request, address, [100], 20);
  const head = items[0];
  return head && items.find((item) => item.time <= head.time - SETTLE_MS);
}

async function virtualDaaScore(request: APIRequestContext): Promise<bigint> {
  const info = await json<{ virtualDaaScore: string }>(await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed }));
  return BigInt(info.virtualDaaScore);
}

/** The address the sink's coinbase pays first: a miner, paid in most blocks, so its history grows all the time. */
async function minerAddress(request: APIRequestContext): Promise<string> {
  const dag = await json<{ sink: string }>(await request.get('/v1/rpc/getBlockDagInfo', { headers: keyed }));
  const { block } = await json<{ block: { transactions: { outputs: { verboseData?: { scriptPublicKeyAddress: string } }[] }[] } }>(
    await post(request, '/v1/rpc/getBlock', { hash: dag.sink, includeTransactions: true }),
  );
  const address = block.transactions[0]?.outputs.find((output) => output.verboseData)?.verboseData?.scriptPublicKeyAddress;
  expect(address).toMatch(DEVNET_ADDRESS);
  return address!;
}

test.describe('address history walks on the live devnet', () => {
  let address: string;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(360_000);
    await expect
      .poll(async () => ((await (await request.get('/api/status')).json()) as { indexer: { ready: boolean } | null }).indexer?.ready, {
        timeout: 120_000,
      })
      .toBe(true);
    address = await minerAddress(request);
    await expect
      .poll(async () => (await walkForward(request, address, [100], 2)).items.length, { timeout: 120_000 })
      .toBeGreaterThanOrEqual(MIN_HISTORY);
    await expect.poll(async () => (await settledItem(request, address)) !== undefined, { timeout: 120_000 }).toBe(true);
  });

  test('the whole history forward, then back to the head, page sizes cycling through 1..100', async ({ request }) => {
    test.setTimeout(300_000);
    const scoreBefore = await virtualDaaScore(request);
    const headBefore = await head(request, address);
    const forward = await walkForward(request, address, limits(7), MAX_FORWARD_PAGES);
    expect(forward.reachedEnd).toBe(true);
    expect(forward.items.length).toBeGreaterThanOrEqual(MIN_HISTORY);
    const backward = await walkBackward(request, address, limits(11), forward.items.at(-1)!);
    expectSameStretch(forward.items, backward, forward.items[0]!.time - SETTLE_MS);
    // New blocks arrived meanwhile, and the miner was paid in them: the walk back ended at a newer head.
    expect(await virtualDaaScore(request)).toBeGreaterThan(scoreBefore);
    expect(newer(backward[0]!, headBefore)).toBe(true);
    // The oldest item is the end in both directions.
    const beyond = await page(request, address, 1, { starting_after: forward.items.at(-1)!.id });
    expect(beyond).toEqual({ items: [], hasMore: false });
  });

  test('page sizes across 1..100: two pages forward from settled history, then back again', async ({ request }) => {
    test.setTimeout(600_000);
    const scoreBefore = await virtualDaaScore(request);
    const headBefore = await head(request, address);
    const start = (await settledItem(request, address))!;
    // The whole-history walk above already cycles through every size; here 1, 100 and a seeded spread between.
    for (const limit of [1, 100, ...limits(23).slice(0, 18)]) {
      const forward = await walkForward(request, address, [limit], 2, start);
      expect(forward.items.length).toBeGreaterThan(0);
      const backward = await walkBackward(request, address, [limit], forward.items.at(-1)!, start);
      const index = backward.findIndex((item) => item.id === start.id);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(backward.slice(index + 1).map((item) => item.id)).toEqual(forward.items.slice(0, -1).map((item) => item.id));
      expectSameStretch([start, ...forward.items], backward.slice(index), start.time);
    }
    // New blocks arrived meanwhile, and the miner was paid in them.
    expect(await virtualDaaScore(request)).toBeGreaterThan(scoreBefore);
    expect(newer(await head(request, address), headBefore)).toBe(true);
  });
});
