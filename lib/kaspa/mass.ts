/**
 * Transaction mass (consensus/core/src/mass/mod.rs) and the mempool's minimum relay fee
 * (mining/src/mempool/check_transaction_standard.rs). Masses are grams, as u64 bigints.
 *
 * - compute mass: estimated serialized size, script-public-key bytes and the script budget (sig ops for v0, compute
 *   budget for v1);
 * - transient mass (KIP-13): estimated size × 4;
 * - storage mass (KIP-9, needs the spent UTXO entries): C · (|O|/H(O) − |I|/A(I)), generalised with UTXO plurality.
 * Coinbase transactions have zero mass in every dimension. Also the script units an input may spend in the script
 * engine (mass/units.rs), and the per-block mass and lane limits.
 */
import { MAX_SOMPI } from './amount';
import { HASH_SIZE } from './hashing';
import { committedComputeBudget, committedSigOpCount, computeCommitOf, isCoinbase } from './transaction';
import {
  SUBNETWORK_ID_SIZE,
  type ScriptPublicKey,
  type Transaction,
  type TransactionInput,
  type TransactionOutput,
  type UtxoEntry,
} from './types';

export const MASS_PER_TX_BYTE = 1n;
export const MASS_PER_SCRIPT_PUB_KEY_BYTE = 10n;
/** Grams per unit of a v0 input's sig-op count. */
export const MASS_PER_SIG_OP = 1000n;
/** Grams per unit of a v1 input's compute budget. */
export const MASS_PER_COMPUTE_BUDGET_UNIT = 100n;
export const TRANSIENT_BYTE_TO_MASS_FACTOR = 4n;
/** KIP-9's C: SOMPI_PER_KASPA × 10,000. */
export const STORAGE_MASS_PARAMETER = 1_000_000_000_000n;

export interface BlockMassLimits {
  compute: bigint;
  storage: bigint;
  transient: bigint;
}

/** Per-dimension block limits since Toccata (all networks; params.rs `new_transient_mass_limit`). */
export const TOCCATA_BLOCK_MASS_LIMITS: Readonly<BlockMassLimits> = Object.freeze({
  compute: 500_000n,
  storage: 500_000n,
  transient: 1_000_000n,
});

/** The limits of the current network rules: Toccata's. */
export const BLOCK_MASS_LIMITS = TOCCATA_BLOCK_MASS_LIMITS;

/** Per-dimension block limits from Crescendo until Toccata. */
export const CRESCENDO_BLOCK_MASS_LIMITS: Readonly<BlockMassLimits> = Object.freeze({
  compute: 500_000n,
  storage: 500_000n,
  transient: 500_000n,
});

/** The block mass limits in force at a block, given whether Toccata is active at its DAA score. */
export function blockMassLimits(toccataActive: boolean): Readonly<BlockMassLimits> {
  return toccataActive ? TOCCATA_BLOCK_MASS_LIMITS : CRESCENDO_BLOCK_MASS_LIMITS;
}

/** KIP-21 per-block lane limits (mass/mod.rs `BlockLaneLimits`); enforced on block bodies since Toccata. */
export interface BlockLaneLimits {
  /** Distinct non-coinbase subnetworks (lanes) one block may carry transactions of. */
  lanesPerBlock: number;
  /** Summed gas of one block's transactions per lane. */
  gasPerLane: bigint;
}

/** config/constants.rs `DEFAULT_LANES_PER_BLOCK_LIMIT` and `DEFAULT_GAS_PER_LANE_LIMIT` (every network's params.rs). */
export const DEFAULT_LANES_PER_BLOCK_LIMIT = 50;
export const DEFAULT_GAS_PER_LANE_LIMIT = 1_000_000_000n;
export const DEFAULT_BLOCK_LANE_LIMITS: Readonly<BlockLaneLimits> = Object.freeze({
  lanesPerBlock: DEFAULT_LANES_PER_BLOCK_LIMIT,
  gasPerLane: DEFAULT_GAS_PER_LANE_LIMIT,
});

/** Default minimum relay fee in sompi per 1000 grams since Toccata (100 sompi per gram). */
export const MINIMUM_RELAY_FEE_SOMPI_PER_KG = 100_000n;
/** The default before Toccata (Crescendo-era nodes, v1.0.x): 1 sompi per gram, charged on compute mass only. */
export const CRESCENDO_MINIMUM_RELAY_FEE_SOMPI_PER_KG = 1000n;

const U64_MAX = (1n << 64n) - 1n;

function inputEstimatedSize(input: TransactionInput, version: number): bigint {
  const outpoint = HASH_SIZE + 4;
  const computeBudget = version >= 1 ? 2 : 0;
  return BigInt(outpoint + 8 + input.signatureScript.length + 8 + computeBudget);
}

function outputEstimatedSize(output: TransactionOutput): bigint {
  const covenant = output.covenant ? 2 + HASH_SIZE : 0;
  return BigInt(8 + 2 + 8 + output.scriptPublicKey.script.length + covenant);
}

/**
 * The deterministic size estimate behind compute and transient mass. Not an actual serialization: it always counts a
 * 32-byte payload hash and never the mass commitment or the v1 covenant flag byte.
 */
export function transactionEstimatedSerializedSize(tx: Transaction): bigint {
  let size = 2n + 8n;
  for (const input of tx.inputs) size += inputEstimatedSize(input, tx.version);
  size += 8n;
  for (const output of tx.outputs) size += outputEstimatedSize(output);
  size += 8n + BigInt(SUBNETWORK_ID_SIZE) + 8n + BigInt(HASH_SIZE) + 8n + BigInt(tx.payload.length);
  return size;
}

function scriptMass(tx: Transaction): bigint {
  if (tx.version >= 1) {
    return MASS_PER_COMPUTE_BUDGET_UNIT * tx.inputs.reduce((sum, input) => sum + BigInt(committedComputeBudget(input)), 0n);
  }
  return MASS_PER_SIG_OP * tx.inputs.reduce((sum, input) => sum + BigInt(committedSigOpCount(input)), 0n);
}

export function computeMass(tx: Transaction): bigint {
  if (isCoinbase(tx)) return 0n;
  const scriptPublicKeyBytes = tx.outputs.reduce(
    (sum, output) => sum + 2n + BigInt(output.scriptPublicKey.script.length),
    0n,
  );
  return (
    transactionEstimatedSerializedSize(tx) * MASS_PER_TX_BYTE +
    scriptPublicKeyBytes * MASS_PER_SCRIPT_PUB_KEY_BYTE +
    scriptMass(tx)
  );
}

/**
 * Script units (mass/units.rs): the currency the script engine charges execution in. One gram buys 100 units, so a
 * compute-budget unit (100 g) buys 10,000 and a v0 sig-op count unit (pegged to 1000 g) 100,000.
 */
export const SCRIPT_UNITS_PER_GRAM = 100n;
export const SCRIPT_UNITS_PER_COMPUTE_BUDGET_UNIT = MASS_PER_COMPUTE_BUDGET_UNIT * SCRIPT_UNITS_PER_GRAM;
export const SCRIPT_UNITS_PER_SIG_OP_COUNT_UNIT = MASS_PER_SIG_OP * SCRIPT_UNITS_PER_GRAM;
/** What one executed signature check costs the engine: `mass_per_sig_op` (1000 g) in script units. */
export const SCRIPT_UNITS_PER_SIG_OP = MASS_PER_SIG_OP * SCRIPT_UNITS_PER_GRAM;
/** Every input may run this many units for free: one unit less than a compute-budget unit. */
export const FREE_SCRIPT_UNITS_PER_INPUT = SCRIPT_UNITS_PER_COMPUTE_BUDGET_UNIT - 1n;
export const MAX_COMPUTE_BUDGET = 0xffff;

/** The script units the engine may consume for an input: its committed units plus the free allowance. */
export function allowedScriptUnits(input: TransactionInput): bigint {
  const commit = computeCommitOf(input);
  const committed =
    commit.kind === 'ComputeBudget'
      ? BigInt(commit.computeBudget) * SCRIPT_UNITS_PER_COMPUTE_BUDGET_UNIT
      : BigInt(commit.sigOpCount) * SCRIPT_UNITS_PER_SIG_OP_COUNT_UNIT;
  return committed + FREE_SCRIPT_UNITS_PER_INPUT;
}

/**
 * The smallest compute budget whose allowed script units cover `scriptUnits` (`ComputeBudget::checked_covering_script_units`),
 * or null when no u16 budget does.
 */
export function coveringComputeBudget(scriptUnits: bigint): number | null {
  const charged = scriptUnits > FREE_SCRIPT_UNITS_PER_INPUT ? scriptUnits - FREE_SCRIPT_UNITS_PER_INPUT : 0n;
  const budget = (charged + SCRIPT_UNITS_PER_COMPUTE_BUDGET_UNIT - 1n) / SCRIPT_UNITS_PER_COMPUTE_BUDGET_UNIT;
  return budget > BigInt(MAX_COMPUTE_BUDGET) ? null : Number(budget);
}

export function transientMass(tx: Transaction): bigint {
  if (isCoinbase(tx)) return 0n;
  return transactionEstimatedSerializedSize(tx) * TRANSIENT_BYTE_TO_MASS_FACTOR;
}

/**
 * How many 100-byte storage units a UTXO occupies: ceil((63 fixed bytes + script length [+ 32 for a covenant]) / 100).
 * Every standard script public key has plurality 1.
 */
export function utxoPlurality(scriptPublicKey: ScriptPublicKey, hasCovenant: boolean): bigint {
  const bytes = 63 + scriptPublicKey.script.length + (hasCovenant ? HASH_SIZE : 0);
  return BigInt(Math.ceil(bytes / 100));
}

/** A UTXO as storage mass sees it: `plurality` storage units holding `amount` sompi between them. */
export interface UtxoCell {
  plurality: bigint;
  amount: bigint;
}

function checkedU64(value: bigint): bigint | null {
  return value > U64_MAX ? null : value;
}

const saturate = (value: bigint) => (value > U64_MAX ? U64_MAX : value);
const saturatingSub = (a: bigint, b: bigint) => (a > b ? a - b : 0n);

/**
 * KIP-9 storage mass with u64 semantics: null when the output harmonic sum overflows u64 (consensus treats that as
 * too heavy). Uses the relaxed harmonic form for inputs when |O| = 1, |I| = 1 or |O| = |I| = 2 (pluralities), and
 * the arithmetic mean of inputs otherwise. Amounts must be positive and there must be at least one input.
 */
export function storageMass(
  inputs: readonly UtxoCell[],
  outputs: readonly UtxoCell[],
  storageMassParameter: bigint = STORAGE_MASS_PARAMETER,
): bigint | null {
  if (inputs.length === 0) throw new RangeError('storage mass needs at least one input');
  for (const cell of [...inputs, ...outputs]) {
    if (cell.amount <= 0n) throw new RangeError(`storage mass needs positive amounts, got ${cell.amount}`);
    if (cell.plurality <= 0n) throw new RangeError(`plurality must be positive, got ${cell.plurality}`);
  }

  let outputsPlurality = 0n;
  let harmonicOutputs = 0n;
  for (const { plurality, amount } of outputs) {
    outputsPlurality += plurality;
    const weight = checkedU64(storageMassParameter * plurality * plurality);
    if (weight === null) return null;
    const sum = checkedU64(harmonicOutputs + weight / amount);
    if (sum === null) return null;
    harmonicOutputs = sum;
  }

  const inputsPlurality = inputs.reduce((sum, cell) => sum + cell.plurality, 0n);
  const relaxed =
    outputsPlurality === 1n || inputsPlurality === 1n || (outputsPlurality === 2n && inputsPlurality === 2n);
  if (relaxed) {
    const harmonicInputs = inputs.reduce(
      (sum, { plurality, amount }) => saturate(sum + (storageMassParameter * plurality * plurality) / amount),
      0n,
    );
    return saturatingSub(harmonicOutputs, harmonicInputs);
  }

  const inputsSum = inputs.reduce((sum, cell) => sum + cell.amount, 0n);
  const meanInput = inputsSum / inputsPlurality > 1n ? inputsSum / inputsPlurality : 1n;
  const arithmeticInputs = saturate(inputsPlurality * (storageMassParameter / meanInput));
  return saturatingSub(harmonicOutputs, arithmeticInputs);
}

/** Storage mass of a transaction given the entries its inputs spend (`entries[i]` for input i). */
export function transactionStorageMass(
  tx: Transaction,
  entries: readonly UtxoEntry[],
  storageMassParameter: bigint = STORAGE_MASS_PARAMETER,
): bigint | null {
  if (isCoinbase(tx)) return 0n;
  if (entries.length !== tx.inputs.length) {
    throw new RangeError(`expected ${tx.inputs.length} spent entries, got ${entries.length}`);
  }
  const inputs = entries.map((entry) => ({
    plurality: utxoPlurality(entry.scriptPublicKey, Boolean(entry.covenantId)),
    amount: entry.amount,
  }));
  const outputs = tx.outputs.map((output) => ({
    plurality: utxoPlurality(output.scriptPublicKey, Boolean(output.covenant)),
    amount: output.value,
  }));
  return storageMass(inputs, outputs, storageMassParameter);
}

export interface TransactionMasses {
  compute: bigint;
  transient: bigint;
  /** Null when incomputable (u64 overflow), which consensus rejects as too heavy. */
  storage: bigint | null;
}

/** All three mass dimensions of a transaction whose spent entries are known. */
export function transactionMass(tx: Transaction, entries: readonly UtxoEntry[]): TransactionMasses {
  return { compute: computeMass(tx), transient: transientMass(tx), storage: transactionStorageMass(tx, entries) };
}

/** ceil(mass × compute limit / dimension limit) in f64, exactly as the mempool's cofactor scaling rounds. */
function scaleToCompute(mass: bigint, limit: bigint, limits: BlockMassLimits): bigint {
  return BigInt(Math.ceil(Number(mass) * (Number(limits.compute) / Number(limit))));
}

/** The mass the relay fee is charged on: max(compute, transient scaled to the compute limit). */
export function relayFeeMass(
  masses: Pick<TransactionMasses, 'compute' | 'transient'>,
  limits: BlockMassLimits = BLOCK_MASS_LIMITS,
): bigint {
  const transient = scaleToCompute(masses.transient, limits.transient, limits);
  return masses.compute > transient ? masses.compute : transient;
}

/**
 * A transaction's bottleneck mass for block templates and fee rates: the largest dimension after scaling each to the
 * compute limit, so it compares against `limits.compute`.
 */
export function normalizedMass(
  masses: { compute: bigint; transient: bigint; storage: bigint },
  limits: BlockMassLimits = BLOCK_MASS_LIMITS,
): bigint {
  const storage = scaleToCompute(masses.storage, limits.storage, limits);
  const nonContextual = relayFeeMass(masses, limits);
  return storage > nonContextual ? storage : nonContextual;
}

/**
 * Minimum fee for the mempool to accept and relay a transaction: mass × rate / 1000, at least the rate itself, at most
 * MAX_SOMPI. Since Toccata pass `relayFeeMass(...)` (rate 100,000); Crescendo-era nodes charged compute mass at 1000.
 */
export function minimumRelayTransactionFee(mass: bigint, sompiPerKg: bigint = MINIMUM_RELAY_FEE_SOMPI_PER_KG): bigint {
  const fee = (mass * sompiPerKg) / 1000n;
  const floored = fee === 0n ? sompiPerKg : fee;
  return floored > MAX_SOMPI ? MAX_SOMPI : floored;
}
