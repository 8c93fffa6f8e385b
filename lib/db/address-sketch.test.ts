import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emptySketch, estimateDistinct, mergeSketches, REGISTERS, SKETCH_INDEX_BITS, SKETCH_RANK_BITS, sketchOf } from './address-sketch';

/** The registers the database would derive, from a 32-bit hash per item (here sha256's first four bytes). */
function sketchOfItems(items: readonly string[]): Uint8Array {
  return sketchOf(
    items.map((item) => {
      const hash = createHash('sha256').update(item).digest().readInt32BE(0);
      const rest = (hash >> SKETCH_INDEX_BITS) & ((1 << SKETCH_RANK_BITS) - 1);
      const rank = rest === 0 ? SKETCH_RANK_BITS + 1 : SKETCH_RANK_BITS - Math.floor(Math.log2(rest));
      return { register: hash & (REGISTERS - 1), rank };
    }),
  );
}

const items = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

describe('address sketch', () => {
  it('counts nothing in an empty sketch and small sets exactly or nearly', () => {
    expect(estimateDistinct(emptySketch())).toBe(0);
    expect(estimateDistinct(sketchOfItems(items('a', 1)))).toBe(1);
    expect(Math.abs(estimateDistinct(sketchOfItems(items('a', 50))) - 50)).toBeLessThanOrEqual(2);
  });

  it('estimates large sets within a few percent, and repeats do not count twice', () => {
    for (const count of [5_000, 100_000]) {
      const estimate = estimateDistinct(sketchOfItems([...items('b', count), ...items('b', count)]));
      expect(Math.abs(estimate - count) / count).toBeLessThan(0.1);
    }
  });

  it('merges to the sketch of the union, so overlapping windows count shared addresses once', () => {
    const left = items('c', 30_000);
    const right = items('c', 50_000).slice(20_000);
    const merged = mergeSketches([sketchOfItems(left), sketchOfItems(right)]);
    expect(merged).toEqual(sketchOfItems([...left, ...right]));
    expect(Math.abs(estimateDistinct(merged) - 50_000) / 50_000).toBeLessThan(0.1);
  });

  it('refuses a sketch of the wrong size', () => {
    expect(() => mergeSketches([new Uint8Array(3)])).toThrow(RangeError);
  });
});
