/**
 * The relay policy of a Crescendo-era node (rusty-kaspa v1.0.1): the devnet runs Crescendo consensus, so it takes
 * the mempool policy of the nodes that validated mainnet under those rules, not the later Toccata policy (100×
 * relay fee, normalized masses, no 100 000 standard-mass cap).
 *
 * Values and sources (all at tag v1.0.1):
 * - minimum relay fee 1000 sompi per 1000 g of *compute* mass, at least 1000 sompi
 *   (mining/src/mempool/config.rs DEFAULT_MINIMUM_RELAY_TRANSACTION_FEE; check_transaction_standard.rs
 *   `minimum_required_transaction_relay_fee`); minimum feerate 1.0 sompi/g (`Config::minimum_feerate`);
 * - standard mass cap 100 000 for each of compute, transient and storage mass
 *   (check_transaction_standard.rs MAXIMUM_STANDARD_TRANSACTION_MASS);
 * - standard signature script ≤ 1650 bytes (MAXIMUM_STANDARD_SIGNATURE_SCRIPT_SIZE); script public key version 0;
 *   outputs P2PK, P2PK-ECDSA or P2SH; dust when value·1000 / (3·(output size + 148)) < relay fee, i.e. a P2PK
 *   output under 600 sompi (`is_transaction_output_dust`);
 * - standard transaction version 0..0 (config.rs DEFAULT_MINIMUM/MAXIMUM_STANDARD_TRANSACTION_VERSION);
 * - orphans: at most 500 (DEFAULT_MAXIMUM_ORPHAN_TRANSACTION_COUNT), max(compute, transient) mass at most 100 000
 *   (DEFAULT_MAXIMUM_ORPHAN_TRANSACTION_MASS); low-priority orphans expire after 60 s, scanned every 10 s;
 * - transaction pool: 1 000 000 transactions, 1 GB (DEFAULT_MAXIMUM_TRANSACTION_COUNT, DEFAULT_MEMPOOL_SIZE_LIMIT);
 *   low-priority transactions expire after 24 h, scanned every 60 s; accepted ids are remembered for 120 s, scanned
 *   every 10 s. Every interval in seconds becomes DAA score as seconds × 1000 / target ms per block
 *   (`Config::build_default`).
 * - block mass 500 000 (consensus params `max_block_mass`), the mass the fee estimator and templates use.
 */
import { scriptClassOf, STANDARD_SCRIPT_VERSION } from '../kaspa/address';
import { CRESCENDO_MINIMUM_RELAY_FEE_SOMPI_PER_KG, minimumRelayTransactionFee } from '../kaspa/mass';
import { MAX_STANDARD_P2SH_SIG_OPS, sigOpCountUpperBound } from '../kaspa/script-engine';
import type { Transaction, TransactionOutput, UtxoEntry } from '../kaspa/types';
import { nonStandardReasons } from './mempool-errors';
import { TX_VERSION } from './transaction-validator';

export const MAXIMUM_STANDARD_TRANSACTION_MASS = 100_000n;
export const MAXIMUM_STANDARD_SIGNATURE_SCRIPT_SIZE = 1650;
/** Crescendo's block mass limit (one value for all three dimensions until Toccata). */
export const CRESCENDO_MAXIMUM_MASS_PER_BLOCK = 500_000n;

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
  maximumOrphanTransactionMass: bigint;
  maximumOrphanTransactionCount: number;
  /** `--relaynonstd`: skip the standardness checks. */
  acceptNonStandard: boolean;
  maximumMassPerBlock: bigint;
  /** Sompi per 1000 grams. */
  minimumRelayTransactionFee: bigint;
  minimumStandardTransactionVersion: number;
  maximumStandardTransactionVersion: number;
  networkBlocksPerSecond: number;
}

/** `Config::build_default` for a network with `targetTimePerBlock` milliseconds per block. */
export function defaultMempoolConfig(targetTimePerBlock: number, overrides: Partial<MempoolConfig> = {}): MempoolConfig {
  const toDaaScore = (seconds: number) => BigInt(Math.floor((seconds * 1000) / targetTimePerBlock));
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
    maximumOrphanTransactionMass: 100_000n,
    maximumOrphanTransactionCount: 500,
    acceptNonStandard: false,
    maximumMassPerBlock: CRESCENDO_MAXIMUM_MASS_PER_BLOCK,
    minimumRelayTransactionFee: CRESCENDO_MINIMUM_RELAY_FEE_SOMPI_PER_KG,
    minimumStandardTransactionVersion: TX_VERSION,
    maximumStandardTransactionVersion: TX_VERSION,
    networkBlocksPerSecond: Math.floor(1000 / targetTimePerBlock),
    ...overrides,
  };
}

/** Sompi per gram: the floor of every fee-estimate bucket. */
export function minimumFeerate(config: MempoolConfig): number {
  return Number(config.minimumRelayTransactionFee) / 1000;
}

/** kaspad's estimated size of an output (mass/mod.rs `transaction_output_estimated_serialized_size`, v0). */
function outputEstimatedSize(output: TransactionOutput): bigint {
  return BigInt(8 + 2 + 8 + output.scriptPublicKey.script.length);
}

/**
 * Dust: spending the output would cost more than a third of its value at the relay fee, counting the output plus a
 * typical 148-byte P2PK input. Unspendable scripts are dust too, but the standard classes checked first never are.
 */
export function isTransactionOutputDust(output: TransactionOutput, config: MempoolConfig): boolean {
  const totalSize = outputEstimatedSize(output) + 148n;
  return (output.value * 1000n) / (3n * totalSize) < config.minimumRelayTransactionFee;
}

export interface NonContextualMasses {
  compute: bigint;
  transient: bigint;
}

/** `check_transaction_standard_in_isolation`: the non-standard reason, or null. */
export function nonStandardReasonInIsolation(tx: Transaction, masses: NonContextualMasses, config: MempoolConfig): string | null {
  if (tx.version > config.maximumStandardTransactionVersion || tx.version < config.minimumStandardTransactionVersion) {
    return nonStandardReasons.version(tx.version, config.minimumStandardTransactionVersion, config.maximumStandardTransactionVersion);
  }
  if (masses.compute > MAXIMUM_STANDARD_TRANSACTION_MASS) {
    return nonStandardReasons.computeMass(masses.compute, MAXIMUM_STANDARD_TRANSACTION_MASS);
  }
  if (masses.transient > MAXIMUM_STANDARD_TRANSACTION_MASS) {
    return nonStandardReasons.transientMass(masses.transient, MAXIMUM_STANDARD_TRANSACTION_MASS);
  }
  for (const [index, input] of tx.inputs.entries()) {
    if (input.signatureScript.length > MAXIMUM_STANDARD_SIGNATURE_SCRIPT_SIZE) {
      return nonStandardReasons.signatureScriptSize(index, input.signatureScript.length, MAXIMUM_STANDARD_SIGNATURE_SCRIPT_SIZE);
    }
  }
  for (const [index, output] of tx.outputs.entries()) {
    if (output.scriptPublicKey.version > STANDARD_SCRIPT_VERSION) return nonStandardReasons.scriptPublicKeyVersion(index);
    if (scriptClassOf(output.scriptPublicKey) === 'nonstandard') return nonStandardReasons.outputScriptClass(index);
    if (isTransactionOutputDust(output, config)) return nonStandardReasons.dust(index, output.value);
  }
  return null;
}

/**
 * `check_transaction_standard_in_context` for a validated transaction: storage mass cap, standard spent scripts and
 * the relay fee on compute mass (checked per input, as kaspad does, so a transaction without inputs is not charged).
 * P2SH inputs are held to 15 sig ops by the static count of their redeem script.
 */
export function nonStandardReasonInContext(
  tx: Transaction,
  entries: readonly UtxoEntry[],
  masses: NonContextualMasses & { storage: bigint },
  fee: bigint,
  config: MempoolConfig,
): string | null {
  if (masses.storage > MAXIMUM_STANDARD_TRANSACTION_MASS) {
    return nonStandardReasons.storageMass(masses.storage, MAXIMUM_STANDARD_TRANSACTION_MASS);
  }
  for (const [index, entry] of entries.entries()) {
    const scriptClass = scriptClassOf(entry.scriptPublicKey);
    if (scriptClass === 'nonstandard') return nonStandardReasons.inputScriptClass(index);
    if (scriptClass === 'scripthash') {
      const sigOps = sigOpCountUpperBound(tx.inputs[index]!.signatureScript, entry.scriptPublicKey.script);
      if (sigOps > MAX_STANDARD_P2SH_SIG_OPS) return nonStandardReasons.signatureCount(index, sigOps, MAX_STANDARD_P2SH_SIG_OPS);
    }
    const minimumFee = minimumRelayTransactionFee(masses.compute, config.minimumRelayTransactionFee);
    if (fee < minimumFee) return nonStandardReasons.insufficientFee(fee, minimumFee);
  }
  return null;
}
