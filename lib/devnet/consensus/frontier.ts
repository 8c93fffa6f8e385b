/**
 * The mempool frontier: transactions with no parent in the mempool, ready for the next block template, ordered by
 * feerate. Written from rusty-kaspa v2.0.1 mining/src/mempool/model/frontier.rs and frontier/feerate_key.rs; the
 * selectors are in frontier-selectors.ts.
 *
 * Each key weighs (fee / mass)^3 (`ALPHA`); mass is the transaction's normalized mass (every dimension scaled to the
 * compute limit, `Mass::normalized_max`), so one budget, the compute limit, stands for the whole block. Gas stays out
 * of the weight: lanes and gas are limits the selectors enforce. Chained transactions never reach the frontier, so a
 * template built from it has no parent/child pair inside it.
 */
import { bytesToHex } from '../../kaspa/bytes';
import { SUBNETWORK_ID_NATIVE } from '../../kaspa/types';
import {
  MAX_NULL_ATTEMPTS,
  selectFromMutatingTree,
  takeAll,
  takeSequence,
  type RandomSource,
  type TemplatePolicy,
} from './frontier-selectors';

export type { RandomSource, TemplatePolicy } from './frontier-selectors';

export const ALPHA = 3;
/** The average transaction mass a fresh frontier assumes. */
export const INITIAL_AVG_MASS = 2036;
const AVG_MASS_DECAY_FACTOR = 0.99999;
/** Above this many block masses of ready transactions, templates are sampled in place. */
const COLLISION_FACTOR = 4n;
/** In-place sampling gathers 20% more mass than the block takes, so consensus rejections can be compensated. */
const MASS_LIMIT_FACTOR = 1.2;
/** Past that target, sampling goes on while the greedy pack leaves more than 5% of the block empty (within 8 tries). */
const TARGET_GAP_FACTOR = 0.05;

/** The lane of native transactions (subnetwork id as lowercase hex). */
export const NATIVE_LANE = bytesToHex(SUBNETWORK_ID_NATIVE);

export interface FeerateKey {
  /** Lowercase hex transaction id. */
  readonly id: string;
  readonly fee: bigint;
  /** Normalized mass. */
  readonly mass: bigint;
  readonly weight: number;
  /** Subnetwork id, lowercase hex. */
  readonly lane: string;
  readonly gas: bigint;
}

export function feerateKey(id: string, fee: bigint, mass: bigint, lane = NATIVE_LANE, gas = 0n): FeerateKey {
  return { id, fee, mass, weight: (Number(fee) / Number(mass)) ** ALPHA, lane, gas };
}

export function feerateOf(key: FeerateKey): number {
  return Number(key.fee) / Number(key.mass);
}

/** kaspad's key order: weight (i.e. feerate), then the larger absolute fee, then the transaction id. */
export function compareFeerateKeys(a: FeerateKey, b: FeerateKey): number {
  if (a.weight !== b.weight) return a.weight < b.weight ? -1 : 1;
  if (a.fee !== b.fee) return a.fee < b.fee ? -1 : 1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}

export class Frontier {
  private readonly keys: FeerateKey[] = [];
  private readonly byId = new Map<string, FeerateKey>();
  private prefixWeights: Float64Array | null = null;
  private massTotal = 0n;
  private averageMass = INITIAL_AVG_MASS;

  get size(): number {
    return this.keys.length;
  }

  /** Σ mass of the ready transactions. */
  get totalMass(): bigint {
    return this.massTotal;
  }

  /** A decayed average over every insertion so far: recent transactions count most. */
  get averageTransactionMass(): number {
    return this.averageMass;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  insert(key: FeerateKey): boolean {
    if (this.byId.has(key.id)) return false;
    this.keys.splice(this.insertionIndex(key), 0, key);
    this.byId.set(key.id, key);
    this.prefixWeights = null;
    this.massTotal += key.mass;
    this.averageMass = this.averageMass * AVG_MASS_DECAY_FACTOR + Number(key.mass) * (1 - AVG_MASS_DECAY_FACTOR);
    return true;
  }

  remove(id: string): boolean {
    const key = this.byId.get(id);
    if (!key) return false;
    this.keys.splice(this.insertionIndex(key), 1);
    this.byId.delete(id);
    this.prefixWeights = null;
    this.massTotal -= key.mass;
    return true;
  }

  /** Ascending key order: lowest feerate first. */
  ascending(): readonly FeerateKey[] {
    return this.keys;
  }

  totalWeight(): number {
    return this.keys.length === 0 ? 0 : this.prefixWeight(this.keys.length - 1);
  }

  /** Σ weight of the keys up to and including ascending position `index`. */
  prefixWeight(index: number): number {
    if (!this.prefixWeights) {
      const sums = new Float64Array(this.keys.length);
      let sum = 0;
      this.keys.forEach((key, i) => {
        sum += key.weight;
        sums[i] = sum;
      });
      this.prefixWeights = sums;
    }
    return this.prefixWeights[index] ?? 0;
  }

  /**
   * The keys for the next block template, as kaspad's `Frontier::build_selector` chooses them (then selects once):
   * everything, best first, if it fits the block mass; in-place weighted sampling when the frontier holds over four
   * blocks' worth; otherwise the mutating-tree selector. Both sampled paths draw keys with probability ∝ weight.
   */
  select(policy: TemplatePolicy, random: RandomSource): FeerateKey[] {
    if (this.massTotal <= policy.maxBlockMass) return takeAll([...this.keys].reverse(), policy);
    if (this.massTotal > policy.maxBlockMass * COLLISION_FACTOR) return takeSequence(this.sampleInPlace(policy, random), policy);
    return selectFromMutatingTree(this.keys, policy, random);
  }

  private insertionIndex(key: FeerateKey): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareFeerateKeys(this.keys[middle]!, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The ascending position whose weight range holds `query` (clamped to the last key). */
  private search(query: number): number {
    let low = 0;
    let high = this.keys.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.prefixWeight(middle) > query) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /**
   * `sample_inplace`: weighted sampling without replacement until 1.2× the block mass is gathered (and, past that, while
   * the greedy pack still leaves over 5% of the block empty, within 8 samples that do not shrink it). After a collision
   * on the heaviest unsampled key, the sampling space shrinks to the prefix below it, which keeps highly skewed weights
   * converging. Once the sample would spill into a lane beyond `lanesPerBlock`, the lanes freeze and the rest is
   * filled best first from the lanes already taken.
   */
  private sampleInPlace(policy: TemplatePolicy, random: RandomSource): FeerateKey[] {
    const tracker = new SampleMassTracker(policy.maxBlockMass);
    const lanes = new Set<string>();
    let range = this.totalWeight();
    let top = this.keys.length - 1;
    const sampled = new Set<number>();
    const sequence: FeerateKey[] = [];
    let frozen = false;
    sampling: while (sampled.size < this.keys.length && tracker.shouldContinue()) {
      let index = this.search(random() * range);
      while (sampled.has(index)) {
        if (sampled.has(top)) {
          do {
            top -= 1;
            if (top < 0) break sampling;
          } while (sampled.has(top));
          range = this.prefixWeight(top);
        }
        index = this.search(random() * range);
      }
      sampled.add(index);
      const key = this.keys[index]!;
      if (lanes.size < policy.lanesPerBlock) {
        lanes.add(key.lane);
      } else if (!lanes.has(key.lane)) {
        frozen = true;
        break;
      }
      sequence.push(key);
      tracker.record(key.mass);
    }
    if (frozen) this.fillWithinLanes(sequence, sampled, lanes, tracker);
    return sequence;
  }

  /** `finish_intra_lane_selection`: the best unsampled keys of the occupied lanes, best first across lanes. */
  private fillWithinLanes(sequence: FeerateKey[], sampled: ReadonlySet<number>, lanes: ReadonlySet<string>, tracker: SampleMassTracker): void {
    const heads = new Map<string, number>();
    const nextBelow = (lane: string, from: number) => {
      let index = from;
      while (index >= 0 && (sampled.has(index) || this.keys[index]!.lane !== lane)) index -= 1;
      return index;
    };
    for (const lane of lanes) heads.set(lane, nextBelow(lane, this.keys.length - 1));
    while (tracker.shouldContinue()) {
      let best: string | undefined;
      for (const [lane, index] of heads) {
        if (index >= 0 && (best === undefined || index > heads.get(best)!)) best = lane;
      }
      if (best === undefined) break;
      const index = heads.get(best)!;
      sequence.push(this.keys[index]!);
      tracker.record(this.keys[index]!.mass);
      heads.set(best, nextBelow(best, index - 1));
    }
  }
}

/** frontier.rs `SampleMassTracker`. */
class SampleMassTracker {
  private sampled = 0n;
  private gap: bigint;
  private nullAttempts = 0;
  private readonly desired: bigint;
  private readonly targetGap: bigint;

  constructor(maxBlockMass: bigint) {
    this.gap = maxBlockMass;
    this.desired = BigInt(Math.floor(Number(maxBlockMass) * MASS_LIMIT_FACTOR));
    this.targetGap = BigInt(Math.floor(Number(maxBlockMass) * TARGET_GAP_FACTOR));
  }

  shouldContinue(): boolean {
    return this.sampled <= this.desired || (this.nullAttempts < MAX_NULL_ATTEMPTS && this.gap > this.targetGap);
  }

  record(mass: bigint): void {
    this.sampled += mass;
    if (mass <= this.gap) this.gap -= mass;
    else this.nullAttempts += 1;
  }
}
