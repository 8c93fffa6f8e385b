import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../kaspa/bytes';
import { createDevnetNode } from './node';
import { FakeTimers } from './test-support/fake-timers';

/** Blocks within which the defaults must have shown both: the first partition starts within 90 s (about 900 blocks). */
const BLOCK_BOUND = 1_500;
const SEED = 'seeded-reorgs';

/** The node at its defaults (4 miners, network delay, partitions) on a manual clock, advanced a second at a time. */
async function run(seed: string, until: (seen: { blocks: string[]; removals: number; reds: number }) => boolean) {
  const timers = new FakeTimers();
  const node = createDevnetNode({ seed, persistence: null, clock: () => Math.floor(timers.now()), minerTimers: timers });
  const seen = { blocks: [] as string[], removals: 0, reds: 0, firstRemovalAt: -1, firstRedAt: -1 };
  node.consensus.events.on('virtualChainChanged', ({ removedChainBlockHashes }) => {
    if (removedChainBlockHashes.length === 0) return;
    seen.removals++;
    if (seen.firstRemovalAt < 0) seen.firstRemovalAt = seen.blocks.length;
  });
  node.consensus.events.on('blockAdded', ({ hash }) => {
    seen.blocks.push(bytesToHex(hash));
    const reds = node.consensus.getBlock(hash)!.ghostdag.mergesetReds.length;
    seen.reds += reds;
    if (reds > 0 && seen.firstRedAt < 0) seen.firstRedAt = seen.blocks.length;
  });
  await node.start();
  while (!until(seen)) await timers.advance(1_000);
  await node.stop();
  return seen;
}

describe('a live devnet at the default settings', () => {
  it('reorganises its selected chain and merges red blocks within a bounded number of blocks', async () => {
    const seen = await run(SEED, ({ blocks, removals, reds }) => blocks.length >= BLOCK_BOUND || (removals > 0 && reds > 0));
    expect(seen.removals).toBeGreaterThan(0);
    expect(seen.reds).toBeGreaterThan(0);
    expect(seen.firstRemovalAt).toBeLessThanOrEqual(BLOCK_BOUND);
    expect(seen.firstRedAt).toBeLessThanOrEqual(BLOCK_BOUND);

    const again = await run(SEED, ({ blocks }) => blocks.length >= 100);
    expect(again.blocks.slice(0, 100)).toEqual(seen.blocks.slice(0, 100));
  }, 120_000);
});
