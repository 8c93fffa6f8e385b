/**
 * The relay policy of kaspad 2.0.1 (rusty-kaspa v2.0.1 mining/src/mempool/{config.rs, check_transaction_standard.rs,
 * check_transaction_limits.rs}, consensus/core/src/config/params.rs `mempool_block_mass_limits`). What depends on
 * Toccata is decided by `MempoolConfig.toccataActivation` (ConsensusParams.toccataActivation):
 *
 * - relay fee floor: 100 sompi per gram of max(compute mass, transient mass normalized to the compute limit, i.e.
 *   2 × estimated bytes), at least 100,000 sompi, for every RPC (high-priority) transaction whatever the activation;
 *   only low-priority (peer-relayed) transactions before activation keep the legacy 1 sompi per gram of compute mass;
 * - standard mass cap: 100,000 per dimension until 30 minutes of DAA score before activation (never lifted when
 *   Toccata never activates, never applied when it is active from genesis);
 * - block-fit limits (not standardness, applied even with `acceptNonStandard`): gas at most 1e9 per lane, each mass
 *   dimension within the mempool block mass limits, which take Toccata's larger transient limit (1,000,000) only
 *   24 hours of DAA score after activation, lagging consensus;
 * - standard scripts: outputs and spent entries P2PK, P2PK-ECDSA or P2SH of script version 0; P2SH inputs at most 15
 *   sig ops by the post-Toccata static scan. Versions, signature-script sizes and dust are no longer mempool rules.
 *
 * Every interval in seconds becomes DAA score as seconds × 1000 / target ms per block (`Config::build_default`).
 */
import { scriptClassOf, STANDARD_SCRIPT_VERSION } from '../../kaspa/address';
import {
  BLOCK_MASS_LIMITS,
  CRESCENDO_BLOCK_MASS_LIMITS,
  CRESCENDO_MINIMUM_RELAY_FEE_SOMPI_PER_KG,
  MINIMUM_RELAY_FEE_SOMPI_PER_KG,
  minimumRelayTransactionFee,
  normalizedMass,
  relayFeeMass,
  type BlockMassLimits,
} from '../../kaspa/mass';
import { MAX_STANDARD_P2SH_SIG_OPS } from '../../kaspa/script-engine';
import type { Transaction, UtxoEntry } from '../../kaspa/types';
import { nonStandardReasons, ruleErrors, type MempoolRuleError } from './mempool-errors';
import { FORK_ALWAYS, FORK_NEVER, isForkActive, type ConsensusParams } from '../consensus/params';
import { p2shSigOpCount } from '../consensus/p2sh-sig-ops';

/** check_transaction_standard.rs MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA. */
export const MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA = 100_000n;
/** check_transaction_standard.rs STANDARD_MASS_RELAXATION_WINDOW_SECONDS. */
export const STANDARD_MASS_RELAXATION_WINDOW_SECONDS = 30 * 60;
/** consensus/core/src/config/params.rs MEMPOOL_BLOCK_MASS_ACTIVATION_DELAY_SECONDS. */
export const MEMPOOL_BLOCK_MASS_ACTIVATION_DELAY_SECONDS = 24 * 60 * 60;

/** Lanes (subnetworks) per block and gas per lane (consensus/core/src/config/constants.rs DEFAULT_*_LIMIT). */
export interface BlockLaneLimits {
  lanesPerBlock: number;
  gasPerLane: bigint;
}

export const DEFAULT_BLOCK_LANE_LIMITS: Readonly<BlockLaneLimits> = Object.freeze({ lanesPerBlock: 50, gasPerLane: 1_000_000_000n });

/** RPC submissions are high priority (never expire); peer-relayed ones would be low. */
export type Priority = 'high' | 'low';

export interface MempoolConfig {
  maximumTransactionCount: number;
  /** Bytes, estimated per transaction by `estimatedTransactionBytes`. */
  mempoolSizeLimit: number;
  transactionExpireIntervalDaaScore: bigint;
  transactionExpireScanIntervalDaaScore: bigint;
  transactionExpireScanIntervalMilliseconds: number;
  acceptedTransactionExpireIntervalDaaScore: bigint;
  acceptedTransactionExpireScanIntervalDaaScore: bigint;
  acceptedTransactionExpireScanIntervalMilliseconds: number;
  orphanExpireIntervalDaaScore: bigint;
  orphanExpireScanIntervalDaaScore: bigint;
  /** Orphans above this normalized non-contextual mass are refused. */
  maximumOrphanTransactionNormalizedMass: bigint;
  maximumOrphanTransactionCount: number;
  /** `--relaynonstd`: skip the standardness checks (never the block-fit limits). */
  acceptNonStandard: boolean;
  /** Sompi per 1000 grams, since Toccata's policy. */
  minimumRelayTransactionFee: bigint;
  blockLaneLimits: BlockLaneLimits;
  networkBlocksPerSecond: number;
  /** DAA score from which Toccata applies; `FORK_NEVER` keeps it off, `FORK_ALWAYS` on from genesis. */
  toccataActivation: bigint;
}

export type MempoolParams = Pick<ConsensusParams, 'targetTimePerBlock' | 'toccataActivation'>;

/** `Config::build_default` for a network with `params.targetTimePerBlock` milliseconds per block. */
export function defaultMempoolConfig(params: MempoolParams, overrides: Partial<MempoolConfig> = {}): MempoolConfig {
  const toDaaScore = (seconds: number) => BigInt(Math.floor((seconds * 1000) / params.targetTimePerBlock));
  return {
    maximumTransactionCount: 1_000_000,
    mempoolSizeLimit: 1_000_000_000,
    transactionExpireIntervalDaaScore: toDaaScore(24 * 60 * 60),
    transactionExpireScanIntervalDaaScore: toDaaScore(60),
    transactionExpireScanIntervalMilliseconds: 60_000,
    acceptedTransactionExpireIntervalDaaScore: toDaaScore(120),
    acceptedTransactionExpireScanIntervalDaaScore: toDaaScore(10),
    acceptedTransactionExpireScanIntervalMilliseconds: 10_000,
    orphanExpireIntervalDaaScore: toDaaScore(60),
    orphanExpireScanIntervalDaaScore: toDaaScore(10),
    maximumOrphanTransactionNormalizedMass: 500_000n,
    maximumOrphanTransactionCount: 500,
    acceptNonStandard: false,
    minimumRelayTransactionFee: MINIMUM_RELAY_FEE_SOMPI_PER_KG,
    blockLaneLimits: DEFAULT_BLOCK_LANE_LIMITS,
    networkBlocksPerSecond: Math.floor(1000 / params.targetTimePerBlock),
    toccataActivation: params.toccataActivation,
    ...overrides,
  };
}

/** Sompi per gram: the floor of every fee-estimate bucket (`Config::minimum_feerate`). */
export function minimumFeerate(config: MempoolConfig): number {
  return Number(config.minimumRelayTransactionFee) / 1000;
}

/** `ForkActivation::early_by` / `delayed_by`: `FORK_ALWAYS` and `FORK_NEVER` do not move. */
function shiftActivation(activation: bigint, delta: bigint): bigint {
  if (activation === FORK_ALWAYS || activation === FORK_NEVER) return activation;
  const shifted = activation + delta;
  if (shifted < 0n) return 0n;
  return shifted > FORK_NEVER ? FORK_NEVER : shifted;
}

function secondsAsDaaScore(config: MempoolConfig, seconds: number): bigint {
  return BigInt(seconds) * BigInt(config.networkBlocksPerSecond);
}

export function isToccataActive(config: MempoolConfig, daaScore: bigint): boolean {
  return isForkActive(config.toccataActivation, daaScore);
}

/**
 * `Params::mempool_block_mass_limits` at `daaScore`: Crescendo's limits (500,000 in every dimension) until 24 hours
 * of DAA score after activation, then Toccata's (transient 1,000,000).
 */
export function mempoolBlockMassLimits(config: MempoolConfig, daaScore: bigint): BlockMassLimits {
  const delay = secondsAsDaaScore(config, MEMPOOL_BLOCK_MASS_ACTIVATION_DELAY_SECONDS);
  return isForkActive(shiftActivation(config.toccataActivation, delay), daaScore) ? BLOCK_MASS_LIMITS : CRESCENDO_BLOCK_MASS_LIMITS;
}

/**
 * The normalized mass (`Mass::normalized_max`) the mempool measures feerates and block space in at `daaScore`: every
 * dimension scaled to the compute limit, so it compares against the template budget `TEMPLATE_MASS_BUDGET`.
 */
export function mempoolNormalizedMass(
  config: MempoolConfig,
  daaScore: bigint,
  masses: { compute: bigint; transient: bigint; storage: bigint },
): bigint {
  return normalizedMass(masses, mempoolBlockMassLimits(config, daaScore));
}

/** The normalized block mass a template may fill (`mempool_mass_cofactors.after().reference`: the compute limit). */
export const TEMPLATE_MASS_BUDGET = BLOCK_MASS_LIMITS.compute;

/** `standard_transaction_mass_cap`: the per-dimension standard mass cap at `daaScore`, or null once relaxed. */
export function standardMassCap(config: MempoolConfig, daaScore: bigint): bigint | null {
  const window = secondsAsDaaScore(config, STANDARD_MASS_RELAXATION_WINDOW_SECONDS);
  return isForkActive(shiftActivation(config.toccataActivation, -window), daaScore) ? null : MAXIMUM_STANDARD_TRANSACTION_MASS_PRE_TOCCATA;
}

export interface NonContextualMasses {
  compute: bigint;
  transient: bigint;
}

/**
 * - `toccata`: `sompiPerKg` over max(compute, transient normalized by Toccata's limits), what RPC submissions always
 *   pay and every transaction pays once Toccata is active;
 * - `legacy`: 1000 sompi per kg of compute mass, the prior P2P rule for low-priority transactions before activation.
 */
export type RelayFeeRule = 'toccata' | 'legacy';

export function relayFeeRule(config: MempoolConfig, priority: Priority, daaScore: bigint): RelayFeeRule {
  return priority === 'low' && !isToccataActive(config, daaScore) ? 'legacy' : 'toccata';
}

export interface RelayFeeFloor {
  /** Sompi. */
  minimumFee: bigint;
  /** The mass charged. */
  mass: bigint;
  /** Which dimension set the floor; a tie counts as compute. */
  dimension: 'compute' | 'transient';
}

/**
 * The minimum fee for relay (check_transaction_standard.rs `check_transaction_standard_in_context` and
 * `minimum_required_transaction_relay_fee`): mass × rate / 1000, the rate itself if that is 0, at most MAX_SOMPI.
 * The transient mass is normalized with Toccata's limits (`raw_post`) in every mode, so the floor does not move with
 * activation. Storage mass carries no relay fee.
 */
export function relayFeeFloor(
  masses: NonContextualMasses,
  rule: RelayFeeRule = 'toccata',
  sompiPerKg: bigint = MINIMUM_RELAY_FEE_SOMPI_PER_KG,
): RelayFeeFloor {
  if (rule === 'legacy') {
    return {
      minimumFee: minimumRelayTransactionFee(masses.compute, CRESCENDO_MINIMUM_RELAY_FEE_SOMPI_PER_KG),
      mass: masses.compute,
      dimension: 'compute',
    };
  }
  const normalizedTransient = relayFeeMass({ compute: 0n, transient: masses.transient }, BLOCK_MASS_LIMITS);
  const computeSets = masses.compute >= normalizedTransient;
  const mass = computeSets ? masses.compute : normalizedTransient;
  return { minimumFee: minimumRelayTransactionFee(mass, sompiPerKg), mass, dimension: computeSets ? 'compute' : 'transient' };
}

/**
 * check_transaction_limits.rs `validate_transaction_limits_in_isolation`: a transaction no template could take is
 * refused before consensus sees it, standard or not.
 */
export function limitErrorInIsolation(
  tx: Transaction,
  masses: NonContextualMasses,
  config: MempoolConfig,
  daaScore: bigint,
): MempoolRuleError | null {
  if (tx.gas > config.blockLaneLimits.gasPerLane) return ruleErrors.gas(tx.gas, config.blockLaneLimits.gasPerLane);
  const limits = mempoolBlockMassLimits(config, daaScore);
  if (masses.compute > limits.compute) return ruleErrors.computeMass(masses.compute, limits.compute);
  if (masses.transient > limits.transient) return ruleErrors.transientMass(masses.transient, limits.transient);
  return null;
}

/** `validate_transaction_limits_in_context`: the storage mass consensus computed must fit a block too. */
export function limitErrorInContext(storageMass: bigint, config: MempoolConfig, daaScore: bigint): MempoolRuleError | null {
  const limits = mempoolBlockMassLimits(config, daaScore);
  return storageMass > limits.storage ? ruleErrors.storageMass(storageMass, limits.storage) : null;
}

/** `check_transaction_standard_in_isolation`: the non-standard reason, or null. */
export function nonStandardReasonInIsolation(
  tx: Transaction,
  masses: NonContextualMasses,
  config: MempoolConfig,
  daaScore: bigint,
): string | null {
  const cap = standardMassCap(config, daaScore);
  if (cap !== null && masses.compute > cap) return nonStandardReasons.computeMass(masses.compute, cap);
  if (cap !== null && masses.transient > cap) return nonStandardReasons.transientMass(masses.transient, cap);
  for (const [index, output] of tx.outputs.entries()) {
    if (output.scriptPublicKey.version > STANDARD_SCRIPT_VERSION) return nonStandardReasons.scriptPublicKeyVersion(index);
    if (scriptClassOf(output.scriptPublicKey) === 'nonstandard') return nonStandardReasons.outputScriptClass(index);
  }
  return null;
}

export interface InContextFacts {
  masses: NonContextualMasses & { storage: bigint };
  fee: bigint;
  priority: Priority;
}

/**
 * `check_transaction_standard_in_context` for a validated transaction: the storage mass cap while it applies, standard
 * spent scripts, P2SH inputs within 15 sig ops, and the relay fee floor.
 */
export function nonStandardReasonInContext(
  tx: Transaction,
  entries: readonly UtxoEntry[],
  facts: InContextFacts,
  config: MempoolConfig,
  daaScore: bigint,
): string | null {
  const { masses, fee } = facts;
  const cap = standardMassCap(config, daaScore);
  if (cap !== null && masses.storage > cap) return nonStandardReasons.storageMass(masses.storage, cap);
  for (const [index, entry] of entries.entries()) {
    const scriptClass = scriptClassOf(entry.scriptPublicKey);
    if (scriptClass === 'nonstandard') return nonStandardReasons.inputScriptClass(index);
    if (scriptClass === 'scripthash') {
      const sigOps = p2shSigOpCount(tx.inputs[index]!.signatureScript, entry.scriptPublicKey.script);
      if (sigOps > MAX_STANDARD_P2SH_SIG_OPS) return nonStandardReasons.signatureCount(index, sigOps, MAX_STANDARD_P2SH_SIG_OPS);
    }
  }
  const floor = relayFeeFloor(masses, relayFeeRule(config, facts.priority, daaScore), config.minimumRelayTransactionFee);
  if (fee >= floor.minimumFee) return null;
  return floor.dimension === 'compute'
    ? nonStandardReasons.insufficientComputeFee(fee, floor.minimumFee, floor.mass)
    : nonStandardReasons.insufficientTransientFee(fee, floor.minimumFee, floor.mass);
}
