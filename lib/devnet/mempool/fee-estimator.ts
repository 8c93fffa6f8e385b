/**
 * kaspad's fee estimate (`getFeeEstimate`) as rusty-kaspa v2.0.1 computes it: mining/src/feerate/mod.rs
 * (`FeerateEstimator`) over the ready-transaction frontier (mining/src/mempool/model/frontier.rs
 * `build_feerate_estimator`), and the template feerate statistics of mining/src/manager.rs (`feerate_stats`).
 *
 * Model: a ready transaction with feerate f (sompi per gram of normalized mass) is picked for a block with probability
 * ∝ f^α (α = 3), so the expected wait of a new transaction paying f is `c1·c2/f^α + c1`, where c1 is the inclusion
 * interval (seconds per average-mass transaction of block space) and c2 the frontier's total weight Σ fᵢ^α. The block
 * space is the normalized block mass (the compute limit, 500,000) in every mode, and the buckets never go below the
 * minimum feerate, 100 sompi per gram under kaspad 2.0.1's relay fee.
 */
import { ALPHA, type FeerateKey } from '../consensus/frontier';

export interface FeerateBucket {
  /** Sompi per gram of mass. */
  feerate: number;
  estimatedSeconds: number;
}

export interface FeerateEstimations {
  /** Sub-second inclusion. */
  priorityBucket: FeerateBucket;
  /** Sub-minute inclusion first, then a point between it and the low bucket. */
  normalBuckets: [FeerateBucket, FeerateBucket];
  /** Sub-hour inclusion. */
  lowBuckets: [FeerateBucket];
}

export class FeerateEstimator {
  constructor(
    /** Σ (fee/mass)^α over the ready transactions, possibly without extreme outliers. */
    readonly totalWeight: number,
    /** Seconds between transaction inclusions: average mass / (mass per block × blocks per second). */
    readonly inclusionInterval: number,
    /** What the priority bucket aims at: inclusion in the next block. */
    readonly targetTimePerBlockSeconds: number,
  ) {
    if (!(totalWeight >= 0)) throw new RangeError(`total weight must be non-negative, got ${totalWeight}`);
    if (!(inclusionInterval >= 0 && inclusionInterval < 1)) {
      throw new RangeError(`inclusion interval must be in [0, 1), got ${inclusionInterval}`);
    }
  }

  feerateToTime(feerate: number): number {
    const c1 = this.inclusionInterval;
    return (c1 * this.totalWeight) / feerate ** ALPHA + c1;
  }

  timeToFeerate(time: number): number {
    const c1 = this.inclusionInterval;
    if (!(c1 < time)) throw new RangeError(`time ${time} must exceed the inclusion interval ${c1}`);
    return ((c1 * this.totalWeight) / time / (1 - c1 / time)) ** (1 / ALPHA);
  }

  /** ∫ (feerateToTime − c1) d feerate, without the constant. */
  private feerateToTimeAntiderivative(feerate: number): number {
    return (this.inclusionInterval * this.totalWeight) / (-2 * feerate ** (ALPHA - 1));
  }

  /** The feerate splitting the area under `feerateToTime − c1` over [lower, upper] at fraction `fraction`. */
  quantile(lower: number, upper: number, fraction: number): number {
    if (!(fraction >= 0 && fraction <= 1)) throw new RangeError(`fraction must be in [0, 1], got ${fraction}`);
    if (lower === upper) return lower;
    if (!(lower > 0 && lower <= upper)) throw new RangeError(`need 0 < lower <= upper, got ${lower}, ${upper}`);
    const c1c2 = this.inclusionInterval * this.totalWeight;
    if (this.inclusionInterval === 0 || this.totalWeight === 0) return lower;
    const z1 = this.feerateToTimeAntiderivative(lower);
    const z2 = this.feerateToTimeAntiderivative(upper);
    const z = fraction * z2 + (1 - fraction) * z1;
    // Clamped against rounding: when lower ≈ upper the result can land a hair outside, and the next quantile taking
    // it as its lower bound would then see lower > upper (which kaspad asserts against).
    return Math.min(Math.max((c1c2 / (-2 * z)) ** (1 / (ALPHA - 1)), lower), upper);
  }

  calcEstimations(minimumFeerate: number): FeerateEstimations {
    const min = minimumFeerate;
    const high = Math.max(this.timeToFeerate(this.targetTimePerBlockSeconds), min);
    const low = Math.max(this.timeToFeerate(3600), this.quantile(min, high, 0.25));
    const normal = Math.max(this.timeToFeerate(60), this.quantile(low, high, 0.66));
    const mid = Math.max(this.timeToFeerate(1800), this.quantile(min, high, 0.5));
    const bucket = (feerate: number): FeerateBucket => ({ feerate, estimatedSeconds: this.feerateToTime(feerate) });
    return { priorityBucket: bucket(high), normalBuckets: [bucket(normal), bucket(mid)], lowBuckets: [bucket(low)] };
  }
}

/** What the estimator reads from the frontier. */
export interface FeerateFrontierView {
  readonly averageTransactionMass: number;
  totalWeight(): number;
  /** Keys in ascending feerate order. */
  ascending(): readonly FeerateKey[];
  /** Σ weight of ascending positions 0..index inclusive. */
  prefixWeight(index: number): number;
}

export interface FeerateEstimatorArgs {
  networkBlocksPerSecond: number;
  /** Normalized block mass. */
  maximumMassPerBlock: bigint;
}

/**
 * Starts from the whole frontier, then drops the highest-feerate transactions one at a time (each drop also takes
 * its mass out of the block) while that lowers the expected wait at feerate 1.
 */
export function buildFeerateEstimator(frontier: FeerateFrontierView, args: FeerateEstimatorArgs): FeerateEstimator {
  const averageMass = frontier.averageTransactionMass;
  const bps = args.networkBlocksPerSecond;
  const targetTimePerBlockSeconds = 1 / bps;
  let massPerBlock = Number(args.maximumMassPerBlock);
  let estimator = new FeerateEstimator(frontier.totalWeight(), averageMass / (massPerBlock * bps), targetTimePerBlockSeconds);
  const keys = frontier.ascending();
  for (let index = keys.length - 1; index >= 0; index--) {
    massPerBlock -= Number(keys[index]!.mass);
    if (massPerBlock <= averageMass) break;
    const remainingWeight = index > 0 ? frontier.prefixWeight(index - 1) : 0;
    const pending = new FeerateEstimator(remainingWeight, averageMass / (massPerBlock * bps), targetTimePerBlockSeconds);
    if (!(pending.feerateToTime(1) < estimator.feerateToTime(1))) break;
    estimator = pending;
  }
  return estimator;
}

export interface FeerateStats {
  min: number;
  median: number;
  max: number;
}

/**
 * Min, median (upper middle) and max of fee ÷ *storage* mass over a template's non-coinbase transactions, which is
 * what kaspad 2.0.1 reports as `nextBlockTemplateFeerate*` (a transaction with zero storage mass counts as infinite).
 * Null without transactions, or if the fees and masses do not pair up.
 */
export function feerateStats(fees: readonly bigint[], storageMasses: readonly bigint[]): FeerateStats | null {
  if (fees.length === 0 || fees.length !== storageMasses.length) return null;
  const feerates = fees.map((fee, index) => Number(fee) / Number(storageMasses[index]!)).sort((a, b) => a - b);
  return { min: feerates[0]!, median: feerates[feerates.length >> 1]!, max: feerates[feerates.length - 1]! };
}
