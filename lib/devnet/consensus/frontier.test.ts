import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareFeerateKeys, feerateKey, feerateOf, Frontier, INITIAL_AVG_MASS, NATIVE_LANE, type FeerateKey } from './frontier';
import { seededRandom } from '../test-support/mempool-fixtures';

const id = (n: number) => n.toString(16).padStart(64, '0');

const policy = (maxBlockMass: bigint, lanesPerBlock = 50, gasPerLane = 1_000_000_000n) => ({ maxBlockMass, lanesPerBlock, gasPerLane });
const lane = (n: number) => n.toString(16).padStart(2, '0').padEnd(40, '0');

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
    expect([large.lane, large.gas]).toEqual([NATIVE_LANE, 0n]);
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

  it('selects everything, best first, when it fits', () => {
    const frontier = frontierOf(many);
    expect(frontier.select(policy(totalMass), seededRandom(1))).toEqual([...frontier.ascending()].reverse());
  });

  for (const [path, divisor] of [
    ['mutating-tree selector (1–4 blocks of mass)', 2n],
    ['in-place sampling (over 4 blocks of mass)', 10n],
  ] as const) {
    it(`keeps the ${path} within the limit with distinct keys`, () => {
      const frontier = frontierOf(many);
      const limit = totalMass / divisor;
      for (let seed = 0; seed < 20; seed++) {
        const chosen = frontier.select(policy(limit), seededRandom(seed));
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
      for (const key of frontier.select(policy(totalMass / 10n), seededRandom(seed))) {
        if (top.has(key.id)) topHits += 1;
        if (bottom.has(key.id)) bottomHits += 1;
      }
    }
    expect(topHits).toBeGreaterThan(2 * bottomHits);
  });

  it('ends the mutating-tree selection at the eighth draw too heavy for the remaining gap', () => {
    const withMedium = (count: number) =>
      frontierOf([
        feerateKey(id(100), 990n * 1_000_000n, 990n),
        ...Array.from({ length: count }, (_, n) => feerateKey(id(n), 11n * 1000n, 11n)),
        feerateKey(id(200), 1n, 1n),
      ]);
    // The heavy key fills 990 of 1000; each medium key (11) then misses the gap of 10; the light key (1) would fit.
    const lightId = id(200);
    expect(withMedium(7).select(policy(1000n), () => 0.5).map((key) => key.id)).toEqual([id(100), lightId]);
    expect(withMedium(8).select(policy(1000n), () => 0.5).map((key) => key.id)).toEqual([id(100)]);
  });
});

describe('lanes and gas (selectors.rs)', () => {
  const inLane = (n: number, laneNumber: number, gas: bigint, fee = BigInt(1000 + n)) => feerateKey(id(n), fee, 100n, lane(laneNumber), gas);

  it('take-all keeps a lane within its gas, preferring the higher feerate', () => {
    const frontier = frontierOf([inLane(1, 1, 6n), inLane(2, 1, 6n)]);
    expect(frontier.select(policy(1000n, 2, 10n), seededRandom(1)).map((key) => key.id)).toEqual([id(2)]);
  });

  it('take-all opens at most lanesPerBlock lanes, and refuses a key whose gas alone is over the limit', () => {
    const frontier = frontierOf([inLane(1, 1, 0n), inLane(2, 2, 0n), inLane(3, 3, 0n), inLane(4, 4, 11n)]);
    expect(frontier.select(policy(1000n, 2, 10n), seededRandom(1)).map((key) => key.id)).toEqual([id(3), id(2)]);
  });

  it('samples in place within the first lanesPerBlock lanes, filling the rest from them', () => {
    const keys = Array.from({ length: 300 }, (_, n) => inLane(n, n % 3, 0n));
    const frontier = frontierOf(keys);
    for (let seed = 0; seed < 10; seed++) {
      const chosen = frontier.select(policy(5000n, 1), seededRandom(seed));
      expect(new Set(chosen.map((key) => key.lane)).size).toBe(1);
      // A single lane holds 100 keys of mass 100, plenty to fill the block.
      expect(chosen.reduce((sum, key) => sum + key.mass, 0n)).toBe(5000n);
    }
  });

  it('keeps the mutating-tree selection within lanes and gas', () => {
    const keys = Array.from({ length: 30 }, (_, n) => inLane(n, n % 5, 3n));
    const frontier = frontierOf(keys);
    for (let seed = 0; seed < 10; seed++) {
      const chosen = frontier.select(policy(1500n, 3, 10n), seededRandom(seed));
      const gasByLane = new Map<string, bigint>();
      for (const key of chosen) gasByLane.set(key.lane, (gasByLane.get(key.lane) ?? 0n) + key.gas);
      expect(gasByLane.size).toBeLessThanOrEqual(3);
      for (const gas of gasByLane.values()) expect(gas).toBeLessThanOrEqual(10n);
      expect(chosen.length).toBe(9);
    }
  });
});
