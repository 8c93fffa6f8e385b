import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Reachability } from './reachability';
import { MemoryDag, idFromCounter } from '../test-support/memory-dag';
import { dagShapeArbitrary, pastSets, type DagShape } from '../test-support/random-dag';

function buildDag(shape: DagShape, k: number): MemoryDag {
  const memory = new MemoryDag({ genesis: shape.genesis, k, work: 'unit' });
  for (const { id, parents } of shape.blocks) memory.addBlock(id, parents);
  return memory;
}

function selectedChain(memory: MemoryDag, block: string): Set<string> {
  const chain = new Set<string>();
  for (let current = block; current !== memory.genesis; current = memory.ghostdagData(current).selectedParent) {
    chain.add(current);
  }
  chain.add(memory.genesis);
  return chain;
}

describe('Reachability', () => {
  it('agrees with a brute-force walk on every pair of blocks of random DAGs', () => {
    fc.assert(
      fc.property(dagShapeArbitrary({ maxBlocks: 40, maxReach: 6 }), fc.integer({ min: 0, max: 3 }), (shape, k) => {
        const memory = buildDag(shape, k);
        const pasts = pastSets(shape);
        const actual: string[] = [];
        const expected: string[] = [];
        for (const block of memory.blocks) {
          const chain = selectedChain(memory, block);
          for (const ancestor of memory.blocks) {
            const isDagAncestor = ancestor === block || pasts.get(block)!.has(ancestor);
            expected.push(`${ancestor}→${block} dag:${isDagAncestor} chain:${chain.has(ancestor)}`);
            actual.push(
              `${ancestor}→${block} dag:${memory.reachability.isDagAncestorOf(ancestor, block)} ` +
                `chain:${memory.reachability.isChainAncestorOf(ancestor, block)}`,
            );
          }
        }
        expect(actual).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('answers chain queries across long selected chains', () => {
    // Long chains exercise the jump pointers far beyond the small random DAGs.
    const genesis = idFromCounter(0);
    const reachability = new Reachability(genesis);
    const chains: string[][] = [[genesis]];
    let counter = 1;
    for (let height = 1; height <= 3000; height++) {
      const block = idFromCounter(counter++);
      reachability.addBlock(block, chains[0]!.at(-1)!, []);
      chains[0]!.push(block);
      if (height % 500 === 0 && height < 3000) chains.push([block]);
    }
    for (const chain of chains.slice(1)) {
      for (let length = 1; length <= 700; length++) {
        const block = idFromCounter(counter++);
        reachability.addBlock(block, chain.at(-1)!, []);
        chain.push(block);
      }
    }
    const main = chains[0]!;
    for (let index = 0; index < main.length; index += 37) {
      expect(reachability.isChainAncestorOf(main[index]!, main.at(-1)!)).toBe(true);
      expect(reachability.isChainAncestorOf(main.at(-1)!, main[index]!)).toBe(index === main.length - 1);
    }
    for (const [branchIndex, branch] of chains.slice(1).entries()) {
      const forkHeight = (branchIndex + 1) * 500;
      const tip = branch.at(-1)!;
      expect(reachability.isChainAncestorOf(main[forkHeight]!, tip)).toBe(true);
      expect(reachability.isChainAncestorOf(main[forkHeight + 1]!, tip)).toBe(false);
      expect(reachability.isDagAncestorOf(main[forkHeight - 1]!, tip)).toBe(true);
      expect(reachability.isDagAncestorOf(main.at(-1)!, tip)).toBe(false);
    }
  });

  it('rejects unknown and duplicate blocks', () => {
    const genesis = idFromCounter(0);
    const reachability = new Reachability(genesis);
    reachability.addBlock(idFromCounter(1), genesis, []);
    expect(reachability.size).toBe(2);
    expect(reachability.has(idFromCounter(1))).toBe(true);
    expect(() => reachability.addBlock(idFromCounter(1), genesis, [])).toThrow(/already/);
    expect(() => reachability.addBlock(idFromCounter(2), idFromCounter(9), [])).toThrow(/not in the reachability index/);
    expect(() => reachability.addBlock(idFromCounter(2), genesis, [idFromCounter(9)])).toThrow(
      /not in the reachability index/,
    );
    expect(reachability.has(idFromCounter(2))).toBe(false);
    expect(() => reachability.isDagAncestorOf(idFromCounter(9), genesis)).toThrow(/not in the reachability index/);
  });
});
