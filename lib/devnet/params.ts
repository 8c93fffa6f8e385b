/**
 * Consensus parameters of the Crescendo era (10 blocks per second), as rusty-kaspa's mainnet carries them:
 * consensus/core/src/config/params.rs (`MAINNET_PARAMS`, `BlockrateParams::new::<10>()`), bps.rs (`Bps<10>`) and
 * constants.rs; the same values as `CRESCENDO` at tag v1.0.1. A devnet spreads this object and overrides fields
 * (rusty-kaspa's devnet differs from mainnet only in its genesis, which is not a parameter here).
 */
import { MAX_DIFFICULTY_TARGET } from '../kaspa/pow';

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
