import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareFeerateKeys, feerateKey, feerateOf, Frontier, INITIAL_AVG_MASS, type FeerateKey } from './frontier';
import { seededRandom } from './test-support/mempool-fixtures';

const id = (n: number) => n.toString(16).padStart(64, '0');

function frontierOf(keys: readonly FeerateKey[]): Frontier {
  const frontier = new Frontier();
  for (const key of keys) frontier.insert(key);
  return frontier;
}

describe('feerate keys', () => {
  it('order by feerate, then by the larger fee, then by id (feerate_key.rs)', () => {
    const cheap = feerateKey(id(9), 1000n, 1000n);
    const small = feerateKey(id(1), 2000n, 1000n);
    const large = feerateKey(id(0), 4000n, 2000n);
    const twin = feerateKey(id(2), 4000n, 2000n);
    expect([twin, large, small, cheap].sort(compareFeerateKeys)).toEqual([cheap, small, large, twin]);
    expect(feerateOf(large)).toBe(2);
    expect(large.weight).toBe(8);
  });
});

describe('Frontier', () => {
  it('keeps keys sorted and tracks mass and weight through inserts, duplicates and removals (test_total_mass_tracking)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ n: fc.integer({ min: 0, max: 40 }), fee: fc.bigInt({ min: 1n, max: 10_000_000n }), mass: fc.bigInt({ min: 1n, max: 100_000n }) })),
        fc.array(fc.integer({ min: 0, max: 40 })),
        (inserts, removals) => {
          const frontier = new Frontier();
          const expected = new Map<string, FeerateKey>();
          for (const { n, fee, mass } of inserts) {
            const key = feerateKey(id(n), fee, mass);
            expect(frontier.insert(key)).toBe(!expected.has(key.id));
            if (!expected.has(key.id)) expected.set(key.id, key);
          }
          for (const n of removals) expect(frontier.remove(id(n))).toBe(expected.delete(id(n)));
          const keys = frontier.ascending();
          expect([...keys]).toEqual([...expected.values()].sort(compareFeerateKeys));
          expect(frontier.totalMass).toBe([...expected.values()].reduce((sum, key) => sum + key.mass, 0n));
          const weight = keys.reduce((sum, key) => sum + key.weight, 0);
          expect(frontier.totalWeight()).toBeCloseTo(weight, 6);
          keys.forEach((_, index) => {
            expect(frontier.prefixWeight(index)).toBe(keys.slice(0, index + 1).reduce((sum, key) => sum + key.weight, 0));
          });
        },
      ),
      { numRuns: 50 },
    );
  });

  it('averages inserted masses with decay 0.99999, starting from 2036', () => {
    const frontier = frontierOf([feerateKey(id(1), 10n, 1000n)]);
    expect(frontier.averageTransactionMass).toBeCloseTo(INITIAL_AVG_MASS * 0.99999 + 1000 * 0.00001, 10);
    frontier.remove(id(1));
    expect(frontier.averageTransactionMass).toBeCloseTo(INITIAL_AVG_MASS * 0.99999 + 1000 * 0.00001, 10);
  });

  const many = Array.from({ length: 60 }, (_, n) => feerateKey(id(n), BigInt(1000 + n * 137), BigInt(1000 + ((n * 7919) % 900))));
  const totalMass = many.reduce((sum, key) => sum + key.mass, 0n);

  it('selects everything, in ascending order, when it fits', () => {
    const frontier = frontierOf(many);
    expect(frontier.select(totalMass, seededRandom(1))).toEqual(frontier.ascending());
  });

  for (const [path, divisor] of [
    ['rebalancing selector (1–4 blocks of mass)', 2n],
    ['in-place sampling (over 4 blocks of mass)', 10n],
  ] as const) {
    it(`keeps the ${path} within the limit with distinct keys`, () => {
      const frontier = frontierOf(many);
      const limit = totalMass / divisor;
      for (let seed = 0; seed < 20; seed++) {
        const chosen = frontier.select(limit, seededRandom(seed));
        expect(chosen.length).toBeGreaterThan(0);
        expect(chosen.reduce((sum, key) => sum + key.mass, 0n)).toBeLessThanOrEqual(limit);
        expect(new Set(chosen.map((key) => key.id)).size).toBe(chosen.length);
      }
    });
  }

  it('favours high feerates: the top fifth is drawn far more often than the bottom fifth', () => {
    const frontier = frontierOf(many);
    const ascending = frontier.ascending();
    const bottom = new Set(ascending.slice(0, 12).map((key) => key.id));
    const top = new Set(ascending.slice(-12).map((key) => key.id));
    let topHits = 0;
    let bottomHits = 0;
    for (let seed = 0; seed < 50; seed++) {
      for (const key of frontier.select(totalMass / 10n, seededRandom(seed))) {
        if (top.has(key.id)) topHits += 1;
        if (bottom.has(key.id)) bottomHits += 1;
      }
    }
    expect(topHits).toBeGreaterThan(2 * bottomHits);
  });

  it('returns the rebalancing selection in ascending key order', () => {
    const frontier = frontierOf(many);
    const chosen = frontier.select(totalMass / 2n, seededRandom(3));
    const positions = chosen.map((key) => frontier.ascending().indexOf(key));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
