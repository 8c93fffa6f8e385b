/** Random block DAGs for property tests, with brute-force past sets to check the real algorithms against. */
import fc from 'fast-check';
import { blockIdOf, type BlockId } from '../consensus/ghostdag';

export interface DagShape {
  genesis: BlockId;
  /** Topological order; every parent list is a non-empty antichain, as consensus requires. */
  blocks: { id: BlockId; parents: BlockId[] }[];
}

export interface DagShapeOptions {
  maxBlocks: number;
  /** How many of the most recent blocks a new block may pick parents from; a wider reach gives wider anticones. */
  maxReach: number;
}

export function dagShapeArbitrary({ maxBlocks, maxReach }: DagShapeOptions): fc.Arbitrary<DagShape> {
  return fc.integer({ min: 1, max: maxBlocks }).chain((count) =>
    fc
      .record({
        ids: fc.uniqueArray(fc.uint8Array({ minLength: 32, maxLength: 32 }).map(blockIdOf), {
          minLength: count + 1,
          maxLength: count + 1,
        }),
        picks: fc.array(
          fc.record({
            reach: fc.integer({ min: 1, max: maxReach }),
            parents: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
          }),
          { minLength: count, maxLength: count },
        ),
      })
      .map(({ ids, picks }) => buildShape(ids, picks)),
  );
}

function buildShape(ids: BlockId[], picks: { reach: number; parents: number[] }[]): DagShape {
  const pasts: Set<number>[] = [new Set()];
  const blocks: DagShape['blocks'] = [];
  picks.forEach((pick, offset) => {
    const index = offset + 1;
    const first = Math.max(0, index - pick.reach);
    const candidates = [...new Set(pick.parents.map((choice) => first + (choice % (index - first))))];
    const parents = candidates.filter((candidate) => !candidates.some((other) => pasts[other]!.has(candidate)));
    const past = new Set<number>();
    for (const parent of parents) {
      past.add(parent);
      for (const ancestor of pasts[parent]!) past.add(ancestor);
    }
    pasts.push(past);
    blocks.push({ id: ids[index]!, parents: parents.map((parent) => ids[parent]!) });
  });
  return { genesis: ids[0]!, blocks };
}

/** past(b) for every block b (b itself excluded), by brute force. */
export function pastSets(shape: DagShape): Map<BlockId, Set<BlockId>> {
  const pasts = new Map<BlockId, Set<BlockId>>([[shape.genesis, new Set()]]);
  for (const { id, parents } of shape.blocks) {
    const past = new Set<BlockId>();
    for (const parent of parents) {
      past.add(parent);
      for (const ancestor of pasts.get(parent)!) past.add(ancestor);
    }
    pasts.set(id, past);
  }
  return pasts;
}
