/**
 * Block template selectors over frontier keys, written from rusty-kaspa v2.0.1
 * mining/src/mempool/model/frontier/selectors.rs: every selector keeps a template within the block mass, at most
 * `lanesPerBlock` distinct lanes (subnetworks) and `gasPerLane` gas in each lane. The devnet's consensus reports the
 * transactions it rejects instead of asking the selector again, so only the first selection round is kept here.
 */
import type { FeerateKey } from './frontier';

/** block_template/policy.rs `Policy`. */
export interface TemplatePolicy {
  /** Normalized mass (compute-limit units). */
  maxBlockMass: bigint;
  lanesPerBlock: number;
  gasPerLane: bigint;
}

/** A uniform draw from [0, 1). */
export type RandomSource = () => number;

/** Sampled candidates that did not fit the mass gap end the mutating-tree selection after this many. */
export const MAX_NULL_ATTEMPTS = 8;

/** `LaneSelectionState`: lanes and gas a selection occupies. */
export class LaneUsage {
  private readonly gasByLane = new Map<string, bigint>();

  constructor(private readonly policy: TemplatePolicy) {}

  get laneCount(): number {
    return this.gasByLane.size;
  }

  /** Takes the lane and gas of a transaction if the policy allows, reporting whether it did. */
  trySelect(lane: string, gas: bigint): boolean {
    const used = this.gasByLane.get(lane);
    if (used === undefined) {
      if (this.gasByLane.size >= this.policy.lanesPerBlock || gas > this.policy.gasPerLane) return false;
      this.gasByLane.set(lane, gas);
      return true;
    }
    if (used + gas > this.policy.gasPerLane) return false;
    this.gasByLane.set(lane, used + gas);
    return true;
  }
}

/** `TakeAllSelector`: the whole frontier fits the block mass, so only lanes and gas can leave keys out. */
export function takeAll(bestFirst: readonly FeerateKey[], policy: TemplatePolicy): FeerateKey[] {
  const lanes = new LaneUsage(policy);
  return bestFirst.filter((key) => lanes.trySelect(key.lane, key.gas));
}

/** `SequenceSelector`: the sampled keys in order, skipping any that no longer fit the mass, lanes or gas. */
export function takeSequence(sequence: readonly FeerateKey[], policy: TemplatePolicy): FeerateKey[] {
  const lanes = new LaneUsage(policy);
  const taken: FeerateKey[] = [];
  let mass = 0n;
  for (const key of sequence) {
    if (mass + key.mass > policy.maxBlockMass) continue;
    if (!lanes.trySelect(key.lane, key.gas)) continue;
    mass += key.mass;
    taken.push(key);
  }
  return taken;
}

/**
 * A weight space over fixed positions (search_tree.rs's role for the mutating selector): subtree sums are recomputed
 * from their children on every change, never subtracted, so removed keys leave no rounding residue behind.
 */
class WeightTree {
  private readonly size: number;
  private readonly sums: Float64Array;
  private readonly counts: Uint32Array;

  constructor(weights: readonly number[]) {
    let size = 1;
    while (size < weights.length) size *= 2;
    this.size = size;
    this.sums = new Float64Array(2 * size);
    this.counts = new Uint32Array(2 * size);
    weights.forEach((weight, index) => {
      this.sums[size + index] = weight;
      this.counts[size + index] = 1;
    });
    for (let node = size - 1; node >= 1; node--) this.pull(node);
  }

  get count(): number {
    return this.counts[1]!;
  }

  get totalWeight(): number {
    return this.sums[1]!;
  }

  /** Removes and returns the position whose weight interval holds `query` ∈ [0, total weight). */
  removeByQuery(query: number): number {
    let node = 1;
    let rest = query;
    while (node < this.size) {
      const left = 2 * node;
      const goLeft = this.counts[left + 1] === 0 || (this.counts[left] !== 0 && rest < this.sums[left]!);
      if (!goLeft) rest -= this.sums[left]!;
      node = goLeft ? left : left + 1;
    }
    const position = node - this.size;
    this.sums[node] = 0;
    this.counts[node] = 0;
    for (node >>= 1; node >= 1; node >>= 1) this.pull(node);
    return position;
  }

  private pull(node: number): void {
    this.sums[node] = this.sums[2 * node]! + this.sums[2 * node + 1]!;
    this.counts[node] = this.counts[2 * node]! + this.counts[2 * node + 1]!;
  }
}

/**
 * `MutatingTreeSelector`: draw keys with probability ∝ weight, each draw leaving the candidate set; a draw too heavy
 * for the remaining mass gap counts as a null attempt, and the eighth ends the selection. Keys skipped for lanes or
 * gas are not retried.
 */
export function selectFromMutatingTree(ascending: readonly FeerateKey[], policy: TemplatePolicy, random: RandomSource): FeerateKey[] {
  const tree = new WeightTree(ascending.map((key) => key.weight));
  const lanes = new LaneUsage(policy);
  const selected: FeerateKey[] = [];
  let gap = policy.maxBlockMass;
  let nullAttempts = 0;
  while (tree.count > 0 && nullAttempts < MAX_NULL_ATTEMPTS) {
    const candidate = ascending[tree.removeByQuery(random() * tree.totalWeight)]!;
    if (candidate.mass > gap) {
      nullAttempts += 1;
      continue;
    }
    if (!lanes.trySelect(candidate.lane, candidate.gas)) continue;
    gap -= candidate.mass;
    selected.push(candidate);
  }
  return selected;
}
