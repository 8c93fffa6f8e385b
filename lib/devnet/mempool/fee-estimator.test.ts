import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFeerateEstimator, FeerateEstimator, feerateStats, type FeerateEstimations } from './fee-estimator';
import { feerateKey, Frontier, INITIAL_AVG_MASS } from '../consensus/frontier';
import { FakeVirtualState, KAS, newMempool, transfer, wallet } from '../test-support/mempool-fixtures';

const ARGS = { networkBlocksPerSecond: 10, maximumMassPerBlock: 500_000n };

function ordered(estimations: FeerateEstimations) {
  return [estimations.priorityBucket, ...estimations.normalBuckets, ...estimations.lowBuckets];
}

/** The feerate f with ∫_lower^f t = fraction · ∫_lower^upper t for t(f) ∝ 1/f³: 1/f² = fraction/upper² + (1 − fraction)/lower². */
function closedFormQuantile(lower: number, upper: number, fraction: number): number {
  return 1 / Math.sqrt(fraction / upper ** 2 + (1 - fraction) / lower ** 2);
}

describe('FeerateEstimator', () => {
  it('collapses every bucket to the minimum feerate when the mempool is empty (kaspad test_zero_values)', () => {
    const cases: [number, number, number][] = [
      [0, 0, 0],
      [0, 0.1, 0.1],
      [0.1, 0, 0],
    ];
    for (const [totalWeight, inclusionInterval, seconds] of cases) {
      for (const bucket of ordered(new FeerateEstimator(totalWeight, inclusionInterval, 1).calcEstimations(0.755))) {
        expect(bucket).toEqual({ feerate: 0.755, estimatedSeconds: seconds });
      }
    }
  });

  it('matches the closed forms: c1·c2/f³ + c1, its inverse, and the area quantile', () => {
    const c1 = 0.001;
    const c2 = 1_000_000;
    const estimator = new FeerateEstimator(c2, c1, 1);
    const timeToFeerate = (t: number) => Math.cbrt((c1 * c2) / t / (1 - c1 / t));
    const high = timeToFeerate(1);
    const low = Math.max(timeToFeerate(3600), closedFormQuantile(1, high, 0.25));
    const normal = Math.max(timeToFeerate(60), closedFormQuantile(low, high, 0.66));
    const mid = Math.max(timeToFeerate(1800), closedFormQuantile(1, high, 0.5));
    // (1000/0.999)^(1/3); the low and mid buckets come from the quantiles, the normal one from the 60 s target.
    expect(high).toBeCloseTo(10.003336, 6);
    expect(low).toBeCloseTo(1.152782, 6);
    expect(normal).toBeCloseTo(timeToFeerate(60), 12);
    expect(mid).toBeCloseTo(closedFormQuantile(1, high, 0.5), 12);

    const estimations = estimator.calcEstimations(1);
    const expected = [high, normal, mid, low];
    ordered(estimations).forEach((bucket, index) => {
      expect(bucket.feerate).toBeCloseTo(expected[index]!, 10);
      expect(bucket.estimatedSeconds).toBeCloseTo((c1 * c2) / expected[index]! ** 3 + c1, 10);
    });
    expect(estimator.timeToFeerate(estimator.feerateToTime(3.5))).toBeCloseTo(3.5, 10);
  });

  it('orders buckets by feerate down and by time up, never below the minimum (kaspad test_feerate_estimations)', () => {
    fc.assert(
      fc.property(
        // Weights small enough to underflow c1·c2 make kaspad's quantile divide 0 by 0 as well.
        fc.oneof(fc.constant(0), fc.double({ min: 1e-9, max: 1e12, noNaN: true })),
        fc.double({ min: 1e-6, max: 0.5, noNaN: true }),
        fc.double({ min: 0.01, max: 1000, noNaN: true }),
        (totalWeight, inclusionInterval, minimum) => {
          const buckets = ordered(new FeerateEstimator(totalWeight, inclusionInterval, 1).calcEstimations(minimum));
          for (let i = 1; i < buckets.length; i++) {
            expect(buckets[i]!.feerate).toBeLessThanOrEqual(buckets[i - 1]!.feerate * (1 + 1e-12));
            expect(buckets[i]!.estimatedSeconds).toBeGreaterThanOrEqual(buckets[i - 1]!.estimatedSeconds * (1 - 1e-12));
          }
          expect(buckets[buckets.length - 1]!.feerate).toBeGreaterThanOrEqual(minimum);
        },
      ),
    );
  });

  it('rejects an inclusion interval outside [0, 1)', () => {
    expect(() => new FeerateEstimator(1, 1, 1)).toThrow(RangeError);
  });

  it('aims the priority bucket at the next block: 0.1 s at 10 blocks per second', () => {
    const c1 = 0.001;
    const c2 = 1_000_000;
    const priority = new FeerateEstimator(c2, c1, 0.1).calcEstimations(1).priorityBucket;
    expect(priority.feerate).toBeCloseTo(Math.cbrt((c1 * c2) / 0.1 / (1 - c1 / 0.1)), 10);
    expect(priority.estimatedSeconds).toBeCloseTo(0.1, 12);
  });

  it('answers a collapsed quantile interval with its bound (2.0.1 avoids the formula’s roundoff there)', () => {
    const estimator = new FeerateEstimator(1e6, 0.001, 1);
    expect(estimator.quantile(123.456, 123.456, 0.25)).toBe(123.456);
  });
});

describe('buildFeerateEstimator', () => {
  it('gives an empty mempool the 100 sompi/gram floor and an inclusion interval of 2036 / (500 000 × 10) s, in every mode', () => {
    for (const toccataActivation of [0n, 10n ** 9n, (1n << 64n) - 1n]) {
      const estimate = newMempool(new FakeVirtualState(), { toccataActivation }).feeEstimate();
      for (const bucket of ordered(estimate)) expect(bucket).toEqual({ feerate: 100, estimatedSeconds: 2036 / 5_000_000 });
    }
  });

  it('prices a busy mempool above the floor: buckets ordered, priority highest, none below 100 sompi/gram', () => {
    const state = new FakeVirtualState();
    const mempool = newMempool(state);
    // Eight 62,500-byte transactions (125,000 g normalized each): two blocks' worth, at 100 to 800 sompi per gram.
    for (let index = 0; index < 8; index++) {
      const fee = 12_500_000n * BigInt(1 + index);
      const payload = new Uint8Array(62_500 - 264);
      mempool.submitTransaction(transfer([state.fund(wallet(`estimate-${index}`), 5n * KAS)], wallet('payee'), fee, { payload }));
    }
    expect(mempool.readyTransactionTotalMass()).toBe(1_000_000n);
    expect(mempool.networkMassPerSecond()).toBe(5_000_000n);
    const buckets = ordered(mempool.feeEstimate());
    expect(buckets[0]!.feerate).toBeGreaterThan(100);
    for (let i = 1; i < buckets.length; i++) {
      expect(buckets[i]!.feerate).toBeLessThanOrEqual(buckets[i - 1]!.feerate);
      expect(buckets[i]!.estimatedSeconds).toBeGreaterThanOrEqual(buckets[i - 1]!.estimatedSeconds);
    }
    expect(buckets.at(-1)!.feerate).toBeGreaterThanOrEqual(100);
  });

  it('drops a lone ready transaction as an outlier, giving its mass back to the block', () => {
    const frontier = new Frontier();
    frontier.insert(feerateKey('aa', 20_000n, 2000n));
    const averageMass = INITIAL_AVG_MASS * 0.99999 + 2000 * 0.00001;
    expect(frontier.averageTransactionMass).toBeCloseTo(averageMass, 9);
    const estimator = buildFeerateEstimator(frontier, ARGS);
    // Keeping it: c1·(1000 + 1) at feerate 1; dropping it: c1' = avg / (498 000 × 10), far less.
    expect(estimator.totalWeight).toBe(0);
    expect(estimator.inclusionInterval).toBeCloseTo(averageMass / (498_000 * 10), 15);
  });

  it('keeps a transaction whose removal would not shorten the wait at feerate 1', () => {
    const frontier = new Frontier();
    frontier.insert(feerateKey('aa', 200n, 2000n));
    const estimator = buildFeerateEstimator(frontier, ARGS);
    // Weight 0.1³ = 0.001: keeping it costs c1·1.001, dropping it c1·500/498 ≈ c1·1.004.
    expect(estimator.totalWeight).toBeCloseTo(0.001, 15);
    expect(estimator.inclusionInterval).toBeCloseTo(frontier.averageTransactionMass / 5_000_000, 15);
  });

  it('is not biased by a few cheap-mass high-feerate transactions (kaspad test_feerate_estimator_with_low_mass_outliers)', () => {
    const frontier = new Frontier();
    for (let i = 0; i < 20_000; i++) {
      const [mass, feerate] = i < 200 ? [1650n, 1000n] : [90_000n, 10n];
      frontier.insert(feerateKey(i.toString(16).padStart(8, '0'), mass * feerate, mass));
    }
    const estimations = buildFeerateEstimator(frontier, { networkBlocksPerSecond: 1, maximumMassPerBlock: 500_000n }).calcEstimations(1);
    expect(estimations.priorityBucket.estimatedSeconds).toBeLessThanOrEqual(1 + 1e-9);
    expect(estimations.normalBuckets[0].feerate).toBeLessThan(1000 / 10);
    for (const bucket of ordered(estimations)) {
      expect(Number.isFinite(bucket.feerate) && bucket.feerate >= 1 - 1e-6).toBe(true);
      expect(Number.isFinite(bucket.estimatedSeconds) && bucket.estimatedSeconds > 0).toBe(true);
    }
  });
});

describe('feerateStats', () => {
  it('reports min, upper median and max of fee over storage mass (kaspad feerate_stats_test)', () => {
    expect(feerateStats([100n, 200n, 300n, 400n], [2n, 2n, 2n, 2n])).toEqual({ max: 200, median: 150, min: 50 });
  });

  it('has nothing to report without transactions or with unpaired inputs', () => {
    expect(feerateStats([], [])).toBeNull();
    expect(feerateStats([100n], [])).toBeNull();
  });
});
