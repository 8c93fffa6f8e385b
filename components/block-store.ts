/**
 * The dashboard's recent blocks: filled from the live stream's `block` events (deduplicated by hash, so the replay
 * after a reconnect is harmless) and updated by `chain` events (chain membership, blue / red). Readers get an immutable
 * snapshot, rebuilt at most once per animation frame however many events arrived, so a burst (the replay) costs one
 * render. Blocks leave after `maxBlocks` or once older than `keepMs` before the newest header timestamp.
 */
import type { LiveBlock, LiveEvent } from '@/lib/web/live-types';

export interface BlockSnapshot {
  /** Oldest first, by arrival. */
  readonly blocks: readonly LiveBlock[];
  readonly newest: number;
  /** Distinct blocks received since the store was created. */
  readonly received: number;
}

export interface BlockStore {
  apply(event: LiveEvent): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): BlockSnapshot;
}

export function createBlockStore(initial: readonly LiveBlock[], maxBlocks = 800, keepMs = 90_000): BlockStore {
  const byHash = new Map<string, LiveBlock>();
  const listeners = new Set<() => void>();
  let snapshot: BlockSnapshot = { blocks: [], newest: 0, received: 0 };
  let scheduled = false;
  let newest = 0;
  let received = 0;

  const put = (block: LiveBlock) => {
    byHash.set(block.hash, block);
    received += 1;
    newest = Math.max(newest, block.timestamp);
  };
  const update = (hash: string, change: Partial<LiveBlock>) => {
    const block = byHash.get(hash);
    if (block !== undefined) byHash.set(hash, { ...block, ...change });
  };

  const rebuild = () => {
    for (const [hash, block] of byHash) {
      if (byHash.size <= maxBlocks && newest - block.timestamp <= keepMs) break;
      byHash.delete(hash);
    }
    snapshot = { blocks: [...byHash.values()], newest, received };
  };

  const flush = () => {
    scheduled = false;
    rebuild();
    for (const listener of listeners) listener();
  };

  for (const block of initial) put(block);
  rebuild();

  return {
    apply(event) {
      if (event.type === 'block') {
        const known = byHash.get(event.data.hash);
        if (known === undefined) put(event.data);
        else update(event.data.hash, { isChainBlock: event.data.isChainBlock ?? known.isChainBlock, color: event.data.color ?? known.color });
      } else if (event.type === 'chain') {
        for (const hash of event.data.removed) update(hash, { isChainBlock: false });
        for (const hash of event.data.blues) update(hash, { color: 'blue' });
        for (const hash of event.data.reds) update(hash, { color: 'red' });
        for (const hash of event.data.added) update(hash, { isChainBlock: true, color: 'blue' });
      } else {
        return;
      }
      if (scheduled) return;
      scheduled = true;
      if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(flush);
      else setTimeout(flush, 100);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
  };
}
