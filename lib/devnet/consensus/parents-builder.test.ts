import { describe, expect, it } from 'vitest';
import type { BlockId } from './ghostdag';
import { calcBlockParents, type ParentsStore } from './parents-builder';
import { idFromCounter } from '../test-support/memory-dag';

interface VectorBlock {
  id: number;
  level: number;
  directParents: number[];
  expectedParents: number[][];
}

/**
 * rusty-kaspa v1.0.1 consensus/src/processes/parents_builder.rs `test_calc_block_parents`: genesis 3000, pruning point
 * 1, pruned high-level blocks 1001 / 1002 / 2001 (no reachability data), and 3001 → 3002 in the pruning point's
 * anticone. Each block's header carries its expected parents, so later blocks build on them.
 */
const GENESIS = 3000;
const PRUNING_POINT = 1;
const VECTOR: VectorBlock[] = [
  { id: 2, level: 0, directParents: [1], expectedParents: [[1], [1001], [1001], [1001], [1002]] },
  { id: 3, level: 1, directParents: [1], expectedParents: [[1], [1001], [1001], [1001], [1002]] },
  { id: 4, level: 0, directParents: [2, 3], expectedParents: [[2, 3], [3], [1001], [1001], [1002]] },
  { id: 5, level: 2, directParents: [4], expectedParents: [[4], [3], [1001], [1001], [1002]] },
  { id: 6, level: 2, directParents: [4], expectedParents: [[4], [3], [1001], [1001], [1002]] },
  { id: 7, level: 0, directParents: [5, 6], expectedParents: [[5, 6], [5, 6], [5, 6], [1001], [1002]] },
  { id: 8, level: 3, directParents: [5], expectedParents: [[5], [5], [5], [1001], [1002]] },
  { id: 9, level: 0, directParents: [7, 8], expectedParents: [[7, 8], [6, 8], [6, 8], [8], [1002]] },
  { id: 10, level: 0, directParents: [3001, 1], expectedParents: [[3001, 1], [1001], [1001], [1001], [1002]] },
  { id: 11, level: 0, directParents: [3002, 1], expectedParents: [[3002, 1], [1001], [1001], [1001], [1002]] },
];

class VectorStore implements ParentsStore {
  private readonly dagParents = new Map<BlockId, BlockId[]>();
  private readonly headers = new Map<BlockId, { parentsByLevel: BlockId[][]; level: number }>();

  addHeader(id: number, level: number, parentsByLevel: number[][], dagParents: number[]): void {
    this.headers.set(idFromCounter(id), { level, parentsByLevel: parentsByLevel.map((ids) => ids.map(idFromCounter)) });
    this.dagParents.set(idFromCounter(id), dagParents.map(idFromCounter));
  }

  parentsByLevel(block: BlockId): readonly (readonly BlockId[])[] {
    return this.headers.get(block)!.parentsByLevel;
  }

  blockLevel(block: BlockId): number {
    return this.headers.get(block)!.level;
  }

  hasReachabilityData(block: BlockId): boolean {
    return this.dagParents.has(block);
  }

  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean {
    if (!this.hasReachabilityData(ancestor) || !this.hasReachabilityData(block)) throw new Error('pruned block queried');
    const queue = [block];
    const seen = new Set(queue);
    for (let next = 0; next < queue.length; next++) {
      const current = queue[next]!;
      if (current === ancestor) return true;
      for (const parent of this.dagParents.get(current) ?? []) {
        if (!seen.has(parent)) {
          seen.add(parent);
          queue.push(parent);
        }
      }
    }
    return false;
  }
}

function vectorStore(): VectorStore {
  const store = new VectorStore();
  store.addHeader(PRUNING_POINT, 0, [[1001], [1001], [1001], [1001], [1002]], []);
  store.addHeader(3001, 0, [[2001], [2001], [2001], [2001], [2001]], []);
  store.addHeader(3002, 0, [[3001], [2001], [2001], [2001], [2001]], [3001]);
  for (const block of VECTOR) store.addHeader(block.id, block.level, block.expectedParents, block.directParents);
  return store;
}

const asSets = (levels: readonly (readonly BlockId[])[]) => levels.map((level) => new Set(level));

describe('calcBlockParents', () => {
  it.each(VECTOR)("matches rusty-kaspa's expected parents by level for block $id", (block) => {
    const parents = calcBlockParents(
      vectorStore(),
      idFromCounter(GENESIS),
      250,
      idFromCounter(PRUNING_POINT),
      block.directParents.map(idFromCounter),
    );
    expect(asSets(parents)).toEqual(asSets(block.expectedParents.map((level) => level.map(idFromCounter))));
  });

  it('stops before the first higher level that holds only genesis', () => {
    const store = new VectorStore();
    store.addHeader(GENESIS, 250, [], []);
    store.addHeader(20, 0, [[GENESIS]], [GENESIS]);
    store.addHeader(21, 1, [[GENESIS]], [GENESIS]);
    const genesis = idFromCounter(GENESIS);
    expect(calcBlockParents(store, genesis, 250, genesis, [idFromCounter(20)])).toEqual([[idFromCounter(20)]]);
    expect(calcBlockParents(store, genesis, 250, genesis, [idFromCounter(21)])).toEqual([[idFromCounter(21)], [idFromCounter(21)]]);
    expect(asSets(calcBlockParents(store, genesis, 250, genesis, [idFromCounter(20), idFromCounter(21)]))).toEqual(
      asSets([[idFromCounter(20), idFromCounter(21)], [idFromCounter(21)]]),
    );
  });
});
