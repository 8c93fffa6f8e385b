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
import {
  expectSameStretch,
  head,
  limits,
  newer,
  page,
  settledItem,
  SETTLE_MS,
  walkBackward,
  walkForward,
} from './history-walk';
import { DEVNET_ADDRESS, json, keyed, post } from './support';

const MIN_HISTORY = 150;
const MAX_FORWARD_PAGES = 1_000;

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
  let history: string;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(360_000);
    await expect
      .poll(async () => ((await (await request.get('/api/status')).json()) as { indexer: { ready: boolean } | null }).indexer?.ready, {
        timeout: 120_000,
      })
      .toBe(true);
    history = `/v1/addresses/${await minerAddress(request)}/transactions`;
    await expect
      .poll(async () => (await walkForward(request, history, [100], 2)).items.length, { timeout: 120_000 })
      .toBeGreaterThanOrEqual(MIN_HISTORY);
    await expect.poll(async () => (await settledItem(request, history)) !== undefined, { timeout: 120_000 }).toBe(true);
  });

  test('the whole history forward, then back to the head, page sizes cycling through 1..100', async ({ request }) => {
    test.setTimeout(300_000);
    const scoreBefore = await virtualDaaScore(request);
    const headBefore = await head(request, history);
    const forward = await walkForward(request, history, limits(7), MAX_FORWARD_PAGES);
    expect(forward.reachedEnd).toBe(true);
    expect(forward.items.length).toBeGreaterThanOrEqual(MIN_HISTORY);
    const backward = await walkBackward(request, history, limits(11), forward.items.at(-1)!);
    expectSameStretch(forward.items, backward, forward.items[0]!.time - SETTLE_MS);
    // New blocks arrived meanwhile, and the miner was paid in them: the walk back ended at a newer head.
    expect(await virtualDaaScore(request)).toBeGreaterThan(scoreBefore);
    expect(newer(backward[0]!, headBefore)).toBe(true);
    // The oldest item is the end in both directions.
    const beyond = await page(request, history, 1, { starting_after: forward.items.at(-1)!.id });
    expect(beyond).toEqual({ items: [], hasMore: false });
  });

  test('page sizes across 1..100: two pages forward from settled history, then back again', async ({ request }) => {
    test.setTimeout(600_000);
    const scoreBefore = await virtualDaaScore(request);
    const headBefore = await head(request, history);
    const start = (await settledItem(request, history))!;
    // The whole-history walk above already cycles through every size; here 1, 100 and a seeded spread between.
    for (const limit of [1, 100, ...limits(23).slice(0, 18)]) {
      const forward = await walkForward(request, history, [limit], 2, start);
      expect(forward.items.length).toBeGreaterThan(0);
      const backward = await walkBackward(request, history, [limit], forward.items.at(-1)!, start);
      const index = backward.findIndex((item) => item.id === start.id);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(backward.slice(index + 1).map((item) => item.id)).toEqual(forward.items.slice(0, -1).map((item) => item.id));
      expectSameStretch([start, ...forward.items], backward.slice(index), start.time);
    }
    // New blocks arrived meanwhile, and the miner was paid in them.
    expect(await virtualDaaScore(request)).toBeGreaterThan(scoreBefore);
    expect(newer(await head(request, history), headBefore)).toBe(true);
  });
});
