/**
 * The mempool frontier: transactions with no parent in the mempool, ready for the next block template, ordered by
 * feerate. Written from rusty-kaspa v1.0.1 mining/src/mempool/model/frontier.rs, frontier/feerate_key.rs,
 * frontier/selectors.rs and block_template/selector.rs.
 *
 * Each key weighs (fee / mass)^3 (`ALPHA`); mass is the one-dimensional max(compute, transient, storage) kaspad
 * v1.0.x uses for fee rates and templates. Chained transactions never reach the frontier, so a template built from it
 * has no parent/child pair inside it.
 */
export const ALPHA = 3;
/** The average transaction mass a fresh frontier assumes. */
export const INITIAL_AVG_MASS = 2036;
const AVG_MASS_DECAY_FACTOR = 0.99999;
/** Above this many block masses of ready transactions, templates are sampled in place. */
const COLLISION_FACTOR = 4n;
/** In-place sampling gathers 20% more mass than the block takes, so consensus rejections can be compensated. */
const MASS_LIMIT_FACTOR = 1.2;
/** The rebalancing selector compacts its candidate list once this fraction of the weight has been drawn. */
const REBALANCE_THRESHOLD = 0.95;

export interface FeerateKey {
  /** Lowercase hex transaction id. */
  readonly id: string;
  readonly fee: bigint;
  readonly mass: bigint;
  readonly weight: number;
}

export function feerateKey(id: string, fee: bigint, mass: bigint): FeerateKey {
  return { id, fee, mass, weight: (Number(fee) / Number(mass)) ** ALPHA };
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

/** A uniform draw from [0, 1). */
export type RandomSource = () => number;

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
   * The keys for the next block template under a one-dimensional mass limit, as kaspad's `Frontier::build_selector`
   * chooses them: everything if it fits; in-place weighted sampling when the frontier holds over four blocks' worth;
   * otherwise the rebalancing weighted selector. The two sampled paths draw transactions with probability ∝ weight.
   */
  select(maxMass: bigint, random: RandomSource): FeerateKey[] {
    if (this.massTotal <= maxMass) return [...this.keys];
    if (this.massTotal > maxMass * COLLISION_FACTOR) return takeSequence(this.sampleInPlace(maxMass, random), maxMass);
    return this.selectRebalancing(maxMass, random);
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
   * Weighted sampling without replacement until 1.2× the mass limit is gathered. After a collision on the heaviest
   * unsampled key, the sampling space shrinks to the prefix below it, which keeps highly skewed weights converging.
   */
  private sampleInPlace(maxMass: bigint, random: RandomSource): FeerateKey[] {
    const desiredMass = BigInt(Math.floor(Number(maxMass) * MASS_LIMIT_FACTOR));
    let range = this.totalWeight();
    let top = this.keys.length - 1;
    const sampled = new Set<number>();
    const sequence: FeerateKey[] = [];
    let selectedMass = 0n;
    sampling: while (sampled.size < this.keys.length && selectedMass <= desiredMass) {
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
      sequence.push(key);
      selectedMass += key.mass;
    }
    return sequence;
  }

  /**
   * block_template/selector.rs: draw candidates with probability ∝ weight, marking drawn ones and compacting the list
   * once 95% of the weight is used; stop at the first draw that would overflow the block. The result keeps the
   * ascending key order.
   */
  private selectRebalancing(maxMass: bigint, random: RandomSource): FeerateKey[] {
    let candidates = this.keys.map((key, index) => ({ index, key }));
    let bounds = cumulativeWeights(candidates.map(({ key }) => key.weight));
    let totalWeight = bounds[bounds.length - 1] ?? 0;
    let usedWeight = 0;
    let usedCount = 0;
    const marked = new Set<number>();
    const selected: number[] = [];
    let selectedMass = 0n;
    while (candidates.length - usedCount > 0) {
      if (usedWeight >= REBALANCE_THRESHOLD * totalWeight) {
        candidates = candidates.filter(({ index }) => !marked.has(index));
        bounds = cumulativeWeights(candidates.map(({ key }) => key.weight));
        totalWeight = bounds[bounds.length - 1] ?? 0;
        usedWeight = 0;
        usedCount = 0;
        if (candidates.length === 0) break;
      }
      const candidate = candidates[findRange(bounds, random() * totalWeight)]!;
      if (marked.has(candidate.index)) continue;
      if (selectedMass + candidate.key.mass > maxMass) break;
      selected.push(candidate.index);
      selectedMass += candidate.key.mass;
      marked.add(candidate.index);
      usedCount += 1;
      usedWeight += candidate.key.weight;
    }
    return selected.sort((a, b) => a - b).map((index) => this.keys[index]!);
  }
}

/** selectors.rs `SequenceSelector`: take the sampled keys in order, skipping any that no longer fit. */
function takeSequence(sequence: readonly FeerateKey[], maxMass: bigint): FeerateKey[] {
  const taken: FeerateKey[] = [];
  let mass = 0n;
  for (const key of sequence) {
    if (mass + key.mass > maxMass) continue;
    mass += key.mass;
    taken.push(key);
  }
  return taken;
}

function cumulativeWeights(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((weight) => (sum += weight));
}

function findRange(bounds: readonly number[], query: number): number {
  let low = 0;
  let high = bounds.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (bounds[middle]! > query) high = middle;
    else low = middle + 1;
  }
  return low;
}
