import { describe, expect, it } from 'vitest';
import type { LiveBlock } from '@/lib/web/live-types';
import { createBlockStore } from './block-store';

function block(hash: string, timestamp: number, change: Partial<LiveBlock> = {}): LiveBlock {
  return {
    hash,
    daaScore: String(timestamp),
    blueScore: String(timestamp),
    timestamp,
    txCount: 1,
    parents: [],
    selectedParent: null,
    isChainBlock: null,
    color: null,
    transactions: [],
    versionOneTransactions: 0,
    covenantTransactions: 0,
    receivedAt: timestamp,
    ...change,
  };
}

/** Flushes are batched on a timer outside the browser; wait for one. */
const flushed = (store: ReturnType<typeof createBlockStore>) =>
  new Promise<void>((resolve) => {
    const unsubscribe = store.subscribe(() => {
      unsubscribe();
      resolve();
    });
  });

describe('dashboard block store', () => {
  it('deduplicates replayed blocks and batches notifications', async () => {
    const store = createBlockStore([block('a', 1_000)]);
    let notifications = 0;
    store.subscribe(() => notifications++);
    const done = flushed(store);
    store.apply({ type: 'block', data: block('a', 1_000) });
    store.apply({ type: 'block', data: block('b', 1_100, { isChainBlock: true, color: 'blue' }) });
    await done;
    expect(notifications).toBe(1);
    expect(store.getSnapshot().blocks.map((item) => item.hash)).toEqual(['a', 'b']);
    expect(store.getSnapshot().received).toBe(2);
  });

  it('applies chain changes: membership and merge-set colours, as new objects', async () => {
    const store = createBlockStore([block('a', 1_000, { isChainBlock: true, color: 'blue' }), block('b', 1_050), block('c', 1_060)]);
    const before = store.getSnapshot().blocks;
    const done = flushed(store);
    store.apply({ type: 'chain', data: { removed: ['a'], added: ['c'], blues: ['b'], reds: [] } });
    await done;
    const [a, b, c] = store.getSnapshot().blocks;
    expect(a).toMatchObject({ isChainBlock: false, color: 'blue' });
    expect(b).toMatchObject({ color: 'blue' });
    expect(c).toMatchObject({ isChainBlock: true, color: 'blue' });
    expect(b).not.toBe(before[1]);
  });

  it('marks red merge-set blocks red and forgets blocks past the cap or the age limit', async () => {
    const store = createBlockStore([block('old', 0), block('x', 50_000), block('y', 60_000)], 2, 30_000);
    expect(store.getSnapshot().blocks.map((item) => item.hash)).toEqual(['x', 'y']);
    const done = flushed(store);
    store.apply({ type: 'block', data: block('z', 90_000) });
    store.apply({ type: 'chain', data: { removed: [], added: ['z'], blues: [], reds: ['y'] } });
    await done;
    expect(store.getSnapshot().blocks.map((item) => [item.hash, item.color])).toEqual([
      ['y', 'red'],
      ['z', 'blue'],
    ]);
  });
});
