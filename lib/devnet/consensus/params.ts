/**
 * Consensus parameters of the Crescendo era (10 blocks per second), as rusty-kaspa's mainnet carries them:
 * consensus/core/src/config/params.rs (`MAINNET_PARAMS`, `BlockrateParams::new::<10>()`), bps.rs (`Bps<10>`) and
 * constants.rs; the same values as `CRESCENDO` at tag v1.0.1. A devnet spreads this object and overrides fields
 * (rusty-kaspa's devnet differs from mainnet only in its genesis, which is not a parameter here).
 */
import { MAX_DIFFICULTY_TARGET } from '../../kaspa/pow';
import { MIN_DEVNET_PRUNING_DEPTH } from './pruning-defaults';

export interface ConsensusParams {
  ghostdagK: number;
  /** Milliseconds. */
  targetTimePerBlock: number;
  maxBlockParents: number;
  mergesetSizeLimit: number;
  mergeDepth: number;
  finalityDepth: number;
  pruningDepth: number;
  /** In DAA-score units. */
  coinbaseMaturity: number;
  /** Samples in the difficulty window. */
  difficultyWindowSize: number;
  /** Below this many samples the difficulty stays that of the selected parent. */
  minDifficultyWindowSize: number;
  /** One difficulty sample per this many DAA blocks. */
  difficultySampleRate: number;
  /** Samples in the past-median-time window. */
  pastMedianTimeWindowSize: number;
  pastMedianTimeSampleRate: number;
  /** Seconds a header timestamp may run ahead of the local clock. */
  timestampDeviationTolerance: number;
  maxDifficultyTarget: bigint;
  /** DAA score from which Toccata's rules apply (KIP-16/17/20/21); `FORK_NEVER` keeps the Crescendo rules. */
  toccataActivation: bigint;
}

/**
 * A hard fork's activation as consensus/core/src/config/params.rs ForkActivation: the rules apply to a block or
 * transaction whose DAA score is at least the activation score. `FORK_ALWAYS` is active from genesis.
 */
export const FORK_ALWAYS = 0n;
export const FORK_NEVER = (1n << 64n) - 1n;

export function isForkActive(activation: bigint, daaScore: bigint): boolean {
  return activation !== FORK_NEVER && daaScore >= activation;
}

/** The activation a setting names: a DAA score, or `never`. */
export function forkActivationOf(setting: bigint | 'never'): bigint {
  return setting === 'never' ? FORK_NEVER : setting;
}

const BPS = 10;

/**
 * kaspad carries the target time per block as whole milliseconds (u64), and every window and duration multiplies it
 * in integers; a rate that does not divide a second (3 blocks/s) rounds to the nearest millisecond.
 */
export function targetTimePerBlockFor(blocksPerSecond: number): number {
  return Math.max(1, Math.round(1000 / blocksPerSecond));
}

export const CRESCENDO_PARAMS: Readonly<ConsensusParams> = Object.freeze({
  ghostdagK: 124,
  targetTimePerBlock: 1000 / BPS,
  maxBlockParents: 16,
  mergesetSizeLimit: 248,
  mergeDepth: BPS * 3600,
  finalityDepth: BPS * 43_200,
  pruningDepth: BPS * 108_000,
  coinbaseMaturity: BPS * 100,
  difficultyWindowSize: 661,
  minDifficultyWindowSize: 150,
  difficultySampleRate: BPS * 4,
  pastMedianTimeWindowSize: 27,
  pastMedianTimeSampleRate: BPS * 10,
  timestampDeviationTolerance: 132,
  maxDifficultyTarget: MAX_DIFFICULTY_TARGET,
  toccataActivation: FORK_NEVER,
});

export { DEFAULT_DEVNET_PRUNING_DEPTH, MIN_DEVNET_PRUNING_DEPTH } from './pruning-defaults';

/**
 * The devnet's own depths for a pruning depth in blue score: finality 2/5 of it (mainnet's proportion) and merge depth
 * equal to finality (mainnet's 1/12 would be shallower than the miners' partitions, whose withheld blocks could then
 * never merge as reds). kaspad derives its pruning depth from finality, k and the mergeset limit (over 1,000,000 at
 * 10 blocks/s); a devnet that must restart in seconds cannot keep that much, so, like kaspad's devnet and simnet
 * parameter sets, these are the network's own values. Every header rule (expected pruning point, finality, bounded
 * merge depth) runs unchanged on them.
 */
export function devnetPruningParams(pruningDepth: number): Pick<ConsensusParams, 'pruningDepth' | 'finalityDepth' | 'mergeDepth'> {
  if (!Number.isInteger(pruningDepth) || pruningDepth < MIN_DEVNET_PRUNING_DEPTH) {
    throw new RangeError(`the devnet pruning depth must be an integer of at least ${MIN_DEVNET_PRUNING_DEPTH}, got ${pruningDepth}`);
  }
  const finalityDepth = Math.ceil((pruningDepth * 2) / 5);
  return { pruningDepth, finalityDepth, mergeDepth: finalityDepth };
}
