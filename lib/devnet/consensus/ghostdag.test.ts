import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVectors } from '../../kaspa/test-support/vectors';
import {
  ORIGIN_ID,
  compareSortableBlocks,
  consensusOrderedMergeset,
  descendingMergesetWithoutSelectedParent,
  type BlockId,
  type GhostdagData,
} from './ghostdag';
import { MemoryDag, idFromLabel } from '../test-support/memory-dag';
import { dagShapeArbitrary, pastSets, type DagShape } from '../test-support/random-dag';

/** The JSON format of rusty-kaspa's testing/integration/testdata/dags/*.json. */
interface TestDag {
  K: number;
  GenesisID: string;
  Blocks: {
    ID: string;
    Parents: string[];
    ExpectedSelectedParent: string;
    ExpectedScore: number;
    ExpectedBlues: string[];
    ExpectedReds: string[];
  }[];
}

/**
 * Replays a test DAG like consensus_integration_tests.rs::ghostdag_test: ids become hashes by `string_to_hash`, and
 * every block carries the genesis bits (the difficulty window never fills), so all blocks have the same work.
 */
function checkTestDag(dag: TestDag): void {
  const memory = new MemoryDag({ genesis: idFromLabel(dag.GenesisID), k: dag.K, work: 'unit' });
  for (const block of dag.Blocks) memory.addBlock(idFromLabel(block.ID), block.Parents.map(idFromLabel));
  for (const block of dag.Blocks) {
    const data = memory.ghostdagData(idFromLabel(block.ID));
    expect({
      id: block.ID,
      selectedParent: data.selectedParent,
      blues: data.mergesetBlues,
      reds: data.mergesetReds,
      score: data.blueScore,
    }).toEqual({
      id: block.ID,
      selectedParent: idFromLabel(block.ExpectedSelectedParent),
      blues: block.ExpectedBlues.map(idFromLabel),
      reds: block.ExpectedReds.map(idFromLabel),
      score: BigInt(block.ExpectedScore),
    });
  }
}

describe('GHOSTDAG on rusty-kaspa test DAGs', () => {
  it.each(['dag0.json', 'dag1.json', 'dag2.json', 'dag3.json', 'dag4.json', 'dag5.json'])('%s', (file) => {
    checkTestDag(readVectors<TestDag>(`ghostdag-dags/${file}`));
  });

  it('kaspa-vectors.json ghostdag.inlineDag5', () => {
    checkTestDag(readVectors<{ ghostdag: { inlineDag5: TestDag } }>('kaspa-vectors.json').ghostdag.inlineDag5);
  });

  it('gives genesis score 0, work 0 and ORIGIN as selected parent', () => {
    const memory = new MemoryDag({ genesis: idFromLabel('G'), k: 3, work: 'unit' });
    expect(memory.ghostdagData(memory.genesis)).toMatchObject({
      blueScore: 0n,
      blueWork: 0n,
      selectedParent: ORIGIN_ID,
      mergesetBlues: [],
      mergesetReds: [],
    });
  });

  it('sums the work of all mergeset blues into the blue work', () => {
    // With work 1 per block, blue work counts blues exactly like blue score.
    const memory = new MemoryDag({ genesis: idFromLabel('G'), k: 3, work: 'unit' });
    memory.addBlock(idFromLabel('a'), [memory.genesis]);
    memory.addBlock(idFromLabel('b'), [memory.genesis]);
    const data = memory.addBlock(idFromLabel('c'), [idFromLabel('a'), idFromLabel('b')]);
    expect(data.selectedParent).toBe(idFromLabel('b'));
    expect(data.mergesetBlues).toEqual([idFromLabel('b'), idFromLabel('a')]);
    expect(data.blueWork).toBe(1n + 2n);
    expect(data.blueScore).toBe(3n);
  });

  it('rejects a block without parents', () => {
    const memory = new MemoryDag({ genesis: idFromLabel('G'), k: 3, work: 'unit' });
    expect(() => memory.ghostdagManager.ghostdag([])).toThrow(/at least one parent/);
  });
});

interface ReferenceData {
  selectedParent: BlockId;
  mergesetBlues: BlockId[];
  mergesetReds: BlockId[];
  blueScore: bigint;
  blueWork: bigint;
  /** Blue blocks in the past of the block. */
  blueSet: Set<BlockId>;
}

/**
 * GHOSTDAG from its definition, with brute-force past sets: the mergeset is past(B) \ past(SP) minus SP, ranked by
 * (blue work, hash); a candidate is blue iff fewer than k + 1 blues were taken, at most k of the blues so far lie
 * in its anticone, and none of those already has k blues in its own anticone.
 */
function referenceGhostdag(shape: DagShape, k: number, workOf: (block: BlockId) => bigint): Map<BlockId, ReferenceData> {
  const pasts = pastSets(shape);
  const inAnticone = (a: BlockId, b: BlockId): boolean => a !== b && !pasts.get(a)!.has(b) && !pasts.get(b)!.has(a);
  const reference = new Map<BlockId, ReferenceData>([
    [
      shape.genesis,
      { selectedParent: ORIGIN_ID, mergesetBlues: [], mergesetReds: [], blueScore: 0n, blueWork: 0n, blueSet: new Set() },
    ],
  ]);
  const sortable = (id: BlockId) => ({ id, blueWork: reference.get(id)!.blueWork });
  for (const { id, parents } of shape.blocks) {
    const selectedParent = parents.map(sortable).sort(compareSortableBlocks).at(-1)!.id;
    const selectedParentData = reference.get(selectedParent)!;
    const selectedParentPast = pasts.get(selectedParent)!;
    const mergeset = [...pasts.get(id)!]
      .filter((block) => block !== selectedParent && !selectedParentPast.has(block))
      .map(sortable)
      .sort(compareSortableBlocks)
      .map((block) => block.id);

    const blueSet = new Set([...selectedParentData.blueSet, selectedParent]);
    const mergesetBlues = [selectedParent];
    const mergesetReds: BlockId[] = [];
    for (const candidate of mergeset) {
      const blueAnticone = [...blueSet].filter((blue) => inAnticone(blue, candidate));
      const isBlue =
        mergesetBlues.length < k + 1 &&
        blueAnticone.length <= k &&
        blueAnticone.every((blue) => [...blueSet].filter((other) => inAnticone(other, blue)).length < k);
      if (isBlue) {
        mergesetBlues.push(candidate);
        blueSet.add(candidate);
      } else {
        mergesetReds.push(candidate);
      }
    }
    reference.set(id, {
      selectedParent,
      mergesetBlues,
      mergesetReds,
      blueScore: selectedParentData.blueScore + BigInt(mergesetBlues.length),
      blueWork: mergesetBlues.reduce((sum, blue) => sum + workOf(blue), selectedParentData.blueWork),
      blueSet,
    });
  }
  return reference;
}

const workArbitrary = fc.oneof(
  fc.constant<'unit'>('unit'),
  fc.array(fc.bigInt({ min: 1n, max: 5n }), { minLength: 1, maxLength: 8 }),
);

describe('GHOSTDAG properties on random DAGs', () => {
  it('matches the definition, keeps every blue set a k-cluster, and records true blue anticone sizes', () => {
    fc.assert(
      fc.property(
        dagShapeArbitrary({ maxBlocks: 40, maxReach: 7 }),
        fc.integer({ min: 0, max: 4 }),
        workArbitrary,
        (shape, k, work) => {
          const ids = [shape.genesis, ...shape.blocks.map((block) => block.id)];
          const workById = new Map(ids.map((id, index) => [id, work === 'unit' ? 1n : work[index % work.length]!]));
          const workOf = (block: BlockId) => workById.get(block)!;
          const memory = new MemoryDag({ genesis: shape.genesis, k, work: workOf });
          for (const { id, parents } of shape.blocks) memory.addBlock(id, parents);

          const pasts = pastSets(shape);
          const blueAnticoneSize = (block: BlockId, blueSet: Set<BlockId>) =>
            [...blueSet].filter((blue) => blue !== block && !pasts.get(blue)!.has(block) && !pasts.get(block)!.has(blue))
              .length;
          const reference = referenceGhostdag(shape, k, workOf);
          const actual = [];
          const expected = [];
          for (const { id } of shape.blocks) {
            const data = memory.ghostdagData(id);
            const definition = reference.get(id)!;
            const selectedParentPast = pasts.get(data.selectedParent)!;
            actual.push({
              ...pick(data),
              mergeset: new Set([...data.mergesetBlues, ...data.mergesetReds]),
              bluesAnticoneSizes: new Map(data.bluesAnticoneSizes),
            });
            expected.push({
              ...pick(definition),
              mergeset: new Set([...pasts.get(id)!].filter((block) => !selectedParentPast.has(block))),
              bluesAnticoneSizes: new Map(
                [...data.bluesAnticoneSizes.keys()].map((blue) => [blue, blueAnticoneSize(blue, definition.blueSet)]),
              ),
            });
            const blueAnticoneSizes = [...definition.blueSet].map((blue) => blueAnticoneSize(blue, definition.blueSet));
            expect(Math.max(0, ...blueAnticoneSizes)).toBeLessThanOrEqual(k);
          }
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('orders mergesets for acceptance and windows', () => {
    fc.assert(
      fc.property(dagShapeArbitrary({ maxBlocks: 25, maxReach: 6 }), (shape) => {
        const memory = new MemoryDag({ genesis: shape.genesis, k: 2, work: 'unit' });
        for (const { id, parents } of shape.blocks) memory.addBlock(id, parents);
        for (const { id } of shape.blocks) {
          const data = memory.ghostdagData(id);
          const rest = [...data.mergesetBlues.slice(1), ...data.mergesetReds]
            .map((block) => ({ id: block, blueWork: memory.ghostdagData(block).blueWork }))
            .sort(compareSortableBlocks);
          expect(consensusOrderedMergeset(data, memory)).toEqual([data.selectedParent, ...rest.map((block) => block.id)]);
          expect(descendingMergesetWithoutSelectedParent(data, memory)).toEqual([...rest].reverse());
        }
      }),
      { numRuns: 50 },
    );
  });
});

function pick(data: GhostdagData | ReferenceData) {
  const { selectedParent, mergesetBlues, mergesetReds, blueScore, blueWork } = data;
  return { selectedParent, mergesetBlues, mergesetReds, blueScore, blueWork };
}
