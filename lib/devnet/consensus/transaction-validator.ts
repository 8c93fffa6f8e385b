/**
 * Consensus transaction rules under Crescendo (rusty-kaspa v1.0.1, consensus/src/processes/transaction_validator/:
 * tx_validation_in_isolation.rs, tx_validation_in_header_context.rs, tx_validation_in_utxo_context.rs) and, for the
 * isolation checks, Toccata (v2.0.1), with the `TxRuleError` Display strings of consensus/core/src/errors/tx.rs. The mempool runs them the way
 * `VirtualStateProcessor::validate_mempool_transaction` does (isolation → header context at the virtual DAA score and
 * past median time → UTXO context); block validation can reuse them.
 *
 * Scripts: P2PK, P2PK-ECDSA and P2SH-wrapped P2PK go through lib/kaspa/signing.ts; any other P2SH redeem script (the
 * Kasplex envelope `<key> OP_CHECKSIG OP_FALSE OP_IF … OP_ENDIF` among them) runs on lib/kaspa/script-engine.ts. A
 * spend the engine cannot run (a non-P2SH non-standard script, or an opcode it does not implement) is reported as
 * `UnsupportedScript`, which the mempool turns into its non-standard-input rejection: kaspad would run the script and
 * then reject the input as non-standard anyway.
 */
import { MAX_SOMPI } from '../../kaspa/amount';
import { isPayToScriptHashScript, scriptClassOf } from '../../kaspa/address';
import { bytesToHex, equalBytes } from '../../kaspa/bytes';
import { CovenantError, CovenantsContext } from '../../kaspa/covenant';
import { allowedScriptUnits, SCRIPT_UNITS_PER_SIG_OP } from '../../kaspa/mass';
import { executeInputScripts, type ScriptInputContext } from '../../kaspa/script-engine';
import { SigHashReusedValues } from '../../kaspa/sighash';
import { verifyP2pkInput, type InputVerification, type Secp256k1Backend } from '../../kaspa/signing';
import { isGasAllowed, isSubnetworkAllowed } from '../../kaspa/subnetwork';
import { computeCommitOf, isCoinbase, TX_VERSION, TX_VERSION_TOCCATA } from '../../kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Outpoint, type Transaction, type TransactionInput, type UtxoEntry } from '../../kaspa/types';

export { TX_VERSION } from '../../kaspa/transaction';
/** Lock times below this are DAA scores, at or above it milliseconds (constants.rs LOCK_TIME_THRESHOLD). */
export const LOCK_TIME_THRESHOLD = 500_000_000_000n;
export const SEQUENCE_LOCK_TIME_MASK = 0xffff_ffffn;
export const SEQUENCE_LOCK_TIME_DISABLED = 1n << 63n;
export const MAX_TX_IN_SEQUENCE_NUM = (1n << 64n) - 1n;
/** The DAA score given to UTXO entries created by transactions not accepted yet (constants.rs). */
export const UNACCEPTED_DAA_SCORE = (1n << 64n) - 1n;

const U64_MAX = (1n << 64n) - 1n;

/** Crescendo's size limits (params.rs `CrescendoParams`) and `coinbase_payload_script_public_key_max_len`. */
export interface TransactionLimits {
  maxTxInputs: number;
  maxTxOutputs: number;
  maxSignatureScriptLength: number;
  maxScriptPublicKeyLength: number;
  coinbaseScriptPublicKeyMaxLength: number;
}

export const CRESCENDO_TRANSACTION_LIMITS: Readonly<TransactionLimits> = Object.freeze({
  maxTxInputs: 1000,
  maxTxOutputs: 1000,
  maxSignatureScriptLength: 10_000,
  maxScriptPublicKeyLength: 10_000,
  coinbaseScriptPublicKeyMaxLength: 150,
});

/** Toccata raises the signature script limit to 250,000 bytes (params.rs NEW_MAX_SIGNATURE_SCRIPT_LEN, for STARK proofs). */
export const TOCCATA_TRANSACTION_LIMITS: Readonly<TransactionLimits> = Object.freeze({
  ...CRESCENDO_TRANSACTION_LIMITS,
  maxSignatureScriptLength: 250_000,
});

/** The limits in force at a block, given whether Toccata is active at its DAA score. */
export function transactionLimits(toccataActive: boolean): Readonly<TransactionLimits> {
  return toccataActive ? TOCCATA_TRANSACTION_LIMITS : CRESCENDO_TRANSACTION_LIMITS;
}

export type TxRuleErrorKind =
  | 'NoTxInputs'
  | 'TxDuplicateInputs'
  | 'TxHasGas'
  | 'UnknownTxVersion'
  | 'TooManyInputs'
  | 'TooManyOutputs'
  | 'TooBigSignatureScript'
  | 'TooBigScriptPublicKey'
  | 'NotFinalized'
  | 'CoinbaseHasInputs'
  | 'CoinbaseTooManyOutputs'
  | 'CoinbaseNonZeroMassCommitment'
  | 'CoinbaseScriptPublicKeyTooLong'
  | 'ImmatureCoinbaseSpend'
  | 'InputAmountOverflow'
  | 'InputAmountTooHigh'
  | 'TxOutZero'
  | 'TxOutTooHigh'
  | 'OutputsValueOverflow'
  | 'TotalTxOutTooHigh'
  | 'SpendTooHigh'
  | 'SequenceLockConditionsAreNotMet'
  | 'MissingTxOutpoints'
  | 'SignatureInvalid'
  | 'SignatureEmpty'
  | 'MassIncomputable'
  | 'SubnetworksDisabled'
  | 'FeerateTooLow'
  | 'UnsupportedScript'
  | 'CovenantBindingInV0'
  | 'SigopCountInV1'
  | 'ComputeBudgetInV0'
  | 'CovenantsError';

/** A consensus rule violation; `message` is kaspad's Display text. */
export class TxRuleError extends Error {
  override name = 'TxRuleError';

  constructor(
    readonly kind: TxRuleErrorKind,
    message: string,
    /** For `UnsupportedScript`: the input whose spent script cannot be executed here. */
    readonly inputIndex?: number,
  ) {
    super(message);
  }
}

/** kaspad's `TransactionOutpoint` Display: `(<txid>, <index>)`. */
export function formatOutpoint(outpoint: Outpoint): string {
  return `(${bytesToHex(outpoint.transactionId)}, ${outpoint.index})`;
}

export interface IsolationOptions {
  /**
   * Apply Toccata's rules (rusty-kaspa v2.0.1 tx_validation_in_isolation.rs plus the activation-dependent version
   * check of tx_validation_in_header_context.rs): versions 0 and 1, user lanes and gas for version 1, the coinbase
   * mass commitment. False (the default) keeps Crescendo's (v1.0.1): version 0 only, native and coinbase only, no gas.
   */
  toccata?: boolean;
  /** Under Toccata a coinbase may carry at most GHOSTDAG K + 2 outputs (CoinbaseTooManyOutputs); unchecked when absent. */
  ghostdagK?: number;
}

/**
 * The context-free checks. Inputs that carry the other compute commit than their version expects and version 0
 * covenant bindings are rejected in both modes (ComputeBudgetInV0, SigopCountInV1, CovenantBindingInV0): a Crescendo
 * node cannot represent them, and a v2.0.1 node rejects them before activation too.
 */
export function validateTransactionInIsolation(
  tx: Transaction,
  limits: TransactionLimits = CRESCENDO_TRANSACTION_LIMITS,
  options: IsolationOptions = {},
): void {
  const toccata = options.toccata ?? false;
  const coinbase = isCoinbase(tx);
  if (!coinbase && tx.inputs.length === 0) throw new TxRuleError('NoTxInputs', 'transaction has no inputs');
  if (coinbase) checkCoinbaseInIsolation(tx, limits, toccata ? options.ghostdagK : undefined, toccata);
  checkOutputValueRanges(tx);
  const spent = new Set<string>();
  for (const input of tx.inputs) {
    const key = outpointKey(input.previousOutpoint);
    if (spent.has(key)) throw new TxRuleError('TxDuplicateInputs', 'transaction has duplicate inputs');
    spent.add(key);
  }
  if (toccata) {
    checkToccataGasSubnetworkAndVersion(tx);
  } else {
    checkCrescendoGasSubnetworkAndVersion(tx, coinbase);
  }
  checkVersionSpecificFields(tx);
}

function checkCoinbaseInIsolation(tx: Transaction, limits: TransactionLimits, ghostdagK: number | undefined, toccata: boolean): void {
  if (tx.inputs.length > 0) {
    throw new TxRuleError('CoinbaseHasInputs', `coinbase transaction has ${tx.inputs.length} inputs while none are expected`);
  }
  if (toccata && tx.storageMass > 0n) {
    throw new TxRuleError('CoinbaseNonZeroMassCommitment', 'coinbase mass commitment field is not zero');
  }
  if (ghostdagK !== undefined && tx.outputs.length > ghostdagK + 2) {
    throw new TxRuleError(
      'CoinbaseTooManyOutputs',
      `coinbase transaction has ${tx.outputs.length} outputs while at most ${ghostdagK + 2} are expected`,
    );
  }
  tx.outputs.forEach((output, index) => {
    if (output.scriptPublicKey.script.length > limits.coinbaseScriptPublicKeyMaxLength) {
      throw new TxRuleError('CoinbaseScriptPublicKeyTooLong', `script public key of coinbase output #${index} is too long`);
    }
  });
}

function subnetworksDisabled(tx: Transaction): TxRuleError {
  return new TxRuleError('SubnetworksDisabled', `transaction subnetwork id ${bytesToHex(tx.subnetworkId)} is neither native nor coinbase`);
}

function unknownVersion(tx: Transaction): TxRuleError {
  return new TxRuleError('UnknownTxVersion', `transaction version ${tx.version} is unknown`);
}

function checkCrescendoGasSubnetworkAndVersion(tx: Transaction, coinbase: boolean): void {
  if (tx.gas > 0n) throw new TxRuleError('TxHasGas', 'transaction has non zero gas value');
  if (!coinbase && !equalBytes(tx.subnetworkId, SUBNETWORK_ID_NATIVE)) throw subnetworksDisabled(tx);
  if (tx.version !== TX_VERSION) throw unknownVersion(tx);
}

function checkToccataGasSubnetworkAndVersion(tx: Transaction): void {
  if (tx.gas > 0n && !isGasAllowed(tx.subnetworkId, tx.version)) {
    const reason =
      tx.version < TX_VERSION_TOCCATA ? 'gas is only allowed for Toccata-or-newer tx versions' : 'native / system subnetworks must use zero gas';
    throw new TxRuleError('TxHasGas', `transaction has non-zero gas: ${reason}`);
  }
  if (!isSubnetworkAllowed(tx.subnetworkId, tx.version)) throw subnetworksDisabled(tx);
  if (tx.version > TX_VERSION_TOCCATA) throw unknownVersion(tx);
}

function checkVersionSpecificFields(tx: Transaction): void {
  tx.inputs.forEach((input, index) => {
    const commit = computeCommitOf(input);
    if (tx.version > 0 && commit.kind === 'SigopCount') {
      throw new TxRuleError(
        'SigopCountInV1',
        `transaction input #${index} has a sig op count field with value ${commit.sigOpCount} in version 1 transaction`,
      );
    }
    if (tx.version === 0 && commit.kind === 'ComputeBudget') {
      throw new TxRuleError(
        'ComputeBudgetInV0',
        `transaction input #${index} has a compute budget field with value ${commit.computeBudget} in version 0 transaction`,
      );
    }
  });
  if (tx.version > 0) return;
  const bound = tx.outputs.findIndex((output) => output.covenant);
  if (bound >= 0) {
    throw new TxRuleError('CovenantBindingInV0', `transaction output #${bound} has covenant field but transaction version is 0`);
  }
}

function checkOutputValueRanges(tx: Transaction): void {
  let total = 0n;
  tx.outputs.forEach((output, index) => {
    if (output.value === 0n) throw new TxRuleError('TxOutZero', `transaction output ${index} has zero value`);
    if (output.value > MAX_SOMPI) {
      throw new TxRuleError('TxOutTooHigh', `transaction output ${index} value is higher than the max allowed of ${MAX_SOMPI}`);
    }
    total += output.value;
    if (total > U64_MAX) throw new TxRuleError('OutputsValueOverflow', 'transaction total outputs value overflowed u64');
    if (total > MAX_SOMPI) {
      throw new TxRuleError('TotalTxOutTooHigh', `transaction total outputs value is higher than the max allowed of ${MAX_SOMPI}`);
    }
  });
}

/**
 * The header-context checks at a block (or the virtual) with DAA score `daaScore` and past median time
 * `pastMedianTime` (ms). Under Crescendo payloads are allowed on every transaction.
 */
export function validateTransactionInHeaderContext(
  tx: Transaction,
  daaScore: bigint,
  pastMedianTime: bigint,
  limits: TransactionLimits = CRESCENDO_TRANSACTION_LIMITS,
): void {
  const coinbase = isCoinbase(tx);
  if (!coinbase && tx.inputs.length === 0) throw new TxRuleError('NoTxInputs', 'transaction has no inputs');
  if (tx.inputs.length > limits.maxTxInputs) {
    throw new TxRuleError('TooManyInputs', `transaction has ${tx.inputs.length} inputs where the max allowed is ${limits.maxTxInputs}`);
  }
  // kaspad reports the input limit here (TooManyOutputs(len, max_tx_inputs)); under Crescendo both limits are 1000.
  if (!coinbase && tx.outputs.length > limits.maxTxOutputs) {
    throw new TxRuleError('TooManyOutputs', `transaction has ${tx.outputs.length} outputs where the max allowed is ${limits.maxTxInputs}`);
  }
  const longSignatureScript = tx.inputs.findIndex((input) => input.signatureScript.length > limits.maxSignatureScriptLength);
  if (longSignatureScript >= 0) {
    throw new TxRuleError(
      'TooBigSignatureScript',
      `transaction input #${longSignatureScript} signature script is above ${limits.maxSignatureScriptLength} bytes`,
    );
  }
  // The Display string of TooBigScriptPublicKey really does say "input #… signature script".
  const longScriptPublicKey = tx.outputs.findIndex((output) => output.scriptPublicKey.script.length > limits.maxScriptPublicKeyLength);
  if (longScriptPublicKey >= 0) {
    throw new TxRuleError(
      'TooBigScriptPublicKey',
      `transaction input #${longScriptPublicKey} signature script is above ${limits.maxScriptPublicKeyLength} bytes`,
    );
  }
  checkFinalized(tx, daaScore, pastMedianTime);
}

function checkFinalized(tx: Transaction, daaScore: bigint, pastMedianTime: bigint): void {
  if (tx.lockTime === 0n) return;
  const reference = tx.lockTime < LOCK_TIME_THRESHOLD ? daaScore : pastMedianTime;
  if (tx.lockTime < reference) return;
  const open = tx.inputs.findIndex((input) => input.sequence !== MAX_TX_IN_SEQUENCE_NUM);
  if (open >= 0) throw new TxRuleError('NotFinalized', `transaction input #${open} is not finalized`);
}

export interface PopulatedValidationContext {
  /** The DAA score the transaction is validated at (the virtual's for the mempool). */
  povDaaScore: bigint;
  coinbaseMaturity: bigint;
  /**
   * The mempool's replace-by-fee floor: the fee divided by `mass` must exceed `threshold` (`check_feerate_threshold`,
   * which kaspad runs inside consensus validation, before the scripts).
   */
  feerateThreshold?: { mass: bigint; threshold: number };
  /** Verifies the signatures; lib/kaspa's reference implementation when omitted. */
  secp256k1?: Secp256k1Backend;
  /** Toccata is active at the including block's DAA score: covenant checks and script-unit metering apply. */
  toccata?: boolean;
}

/**
 * UTXO-context validation of a transaction whose every input is populated: coinbase maturity, input and output
 * amounts, sequence locks, the optional RBF feerate floor and the scripts. Returns the fee.
 */
export function validatePopulatedTransaction(tx: Transaction, entries: readonly UtxoEntry[], context: PopulatedValidationContext): bigint {
  checkCoinbaseMaturity(tx, entries, context.povDaaScore, context.coinbaseMaturity);
  const totalIn = checkInputAmounts(entries);
  const totalOut = tx.outputs.reduce((sum, output) => sum + output.value, 0n);
  if (totalIn < totalOut) {
    throw new TxRuleError('SpendTooHigh', `transaction tries to spend ${totalOut} while its total inputs amount is ${totalIn}`);
  }
  const fee = totalIn - totalOut;
  checkSequenceLocks(tx, entries, context.povDaaScore);
  const { feerateThreshold } = context;
  if (feerateThreshold && Number(fee) / Number(feerateThreshold.mass) <= feerateThreshold.threshold) {
    throw new TxRuleError('FeerateTooLow', 'fee rate per contextual mass gram is not greater than the fee rate of the replaced transaction');
  }
  const toccata = context.toccata ?? false;
  const covenants = checkCovenants(tx, entries, toccata);
  checkScripts(tx, entries, context.secp256k1, { toccata, covenants });
  return fee;
}

/**
 * `check_covenant_info`: under Toccata the covenant bindings of the outputs must continue a spent entry's covenant or
 * carry the id their genesis hashes to; before it there is no covenant context.
 */
export function checkCovenants(tx: Transaction, entries: readonly UtxoEntry[], toccata: boolean): CovenantsContext {
  if (!toccata) return CovenantsContext.EMPTY;
  try {
    return CovenantsContext.fromTransaction(tx, entries);
  } catch (error) {
    if (error instanceof CovenantError) throw new TxRuleError('CovenantsError', `covenants error: ${error.message}`);
    throw error;
  }
}

export interface ScriptCheckOptions {
  /** Toccata's engine flags: inputs are metered in script units (allowed_script_units) instead of sig-op counts. */
  toccata?: boolean;
  /** The transaction's covenants context (checkCovenants), which the covenant opcodes query; built when omitted. */
  covenants?: CovenantsContext;
}

function checkCoinbaseMaturity(tx: Transaction, entries: readonly UtxoEntry[], povDaaScore: bigint, maturity: bigint): void {
  const index = entries.findIndex((entry) => entry.isCoinbase && entry.blockDaaScore + maturity > povDaaScore);
  if (index < 0) return;
  const entry = entries[index]!;
  const outpoint = formatOutpoint(tx.inputs[index]!.previousOutpoint);
  // The line break and indentation are part of kaspad's multi-line #[error] literal.
  throw new TxRuleError(
    'ImmatureCoinbaseSpend',
    `transaction input #${index} tried to spend coinbase outpoint ${outpoint} with daa score of ${entry.blockDaaScore} \n` +
      `    while the merging block daa score is ${povDaaScore} and the coinbase maturity period of ${maturity} hasn't passed yet`,
  );
}

function checkInputAmounts(entries: readonly UtxoEntry[]): bigint {
  let total = 0n;
  for (const entry of entries) {
    total += entry.amount;
    if (total > U64_MAX) throw new TxRuleError('InputAmountOverflow', 'transaction total inputs spending amount overflowed u64');
    if (total > MAX_SOMPI) {
      throw new TxRuleError('InputAmountTooHigh', `transaction total inputs spending amount is higher than the max allowed of ${MAX_SOMPI}`);
    }
  }
  return total;
}

/** Relative DAA-score locks; DAA scores are reinterpreted as i64 exactly as kaspad does (u64::MAX becomes −1). */
function checkSequenceLocks(tx: Transaction, entries: readonly UtxoEntry[], povDaaScore: bigint): void {
  const pov = BigInt.asIntN(64, povDaaScore);
  const locked = tx.inputs.some((input, index) => {
    if ((input.sequence & SEQUENCE_LOCK_TIME_DISABLED) === SEQUENCE_LOCK_TIME_DISABLED) return false;
    const relativeLock = input.sequence & SEQUENCE_LOCK_TIME_MASK;
    return BigInt.asIntN(64, entries[index]!.blockDaaScore) + relativeLock - 1n >= pov;
  });
  if (locked) throw new TxRuleError('SequenceLockConditionsAreNotMet', 'one of the transaction sequence locks conditions was not met');
}

/**
 * Runs every input's script. Crescendo counts sig ops at run time: each signature check consumes one unit of the
 * input's committed sig-op count, so a count of 0 fails before the signature is looked at.
 */
export function checkScripts(
  tx: Transaction,
  entries: readonly UtxoEntry[],
  secp256k1?: Secp256k1Backend,
  options: ScriptCheckOptions = {},
): void {
  const toccata = options.toccata ?? false;
  const reusedValues = new SigHashReusedValues(tx);
  tx.inputs.forEach((input, index) => {
    const verification = verifyP2pkInput(tx, index, entries, reusedValues, secp256k1);
    if (verification.status === 'unsupported') {
      const entry = entries[index]!;
      if (verification.reason === 'nonstandard_script' && isPayToScriptHashScript(entry.scriptPublicKey.script)) {
        runScriptEngine({ tx, inputIndex: index, entries, reusedValues, backend: secp256k1, toccata, covenants: options.covenants });
        return;
      }
      throw new TxRuleError('UnsupportedScript', `input ${index} spends a script this node cannot execute`, index);
    }
    const scriptError = scriptErrorOf(verification, input, entries[index]!, toccata);
    if (scriptError === null) return;
    if (input.signatureScript.length === 0) {
      throw new TxRuleError('SignatureEmpty', `failed to verify empty signature script. Inner error: ${scriptError}`);
    }
    throw new TxRuleError('SignatureInvalid', `failed to verify the signature script: ${scriptError}`);
  });
}

/** A P2SH spend whose redeem script is not P2PK: run by the script engine, with kaspad's error texts. */
function runScriptEngine(context: ScriptInputContext): void {
  const { tx, inputIndex } = context;
  const execution = executeInputScripts(context);
  if (execution.status === 'valid') return;
  if (execution.status === 'unsupported') {
    throw new TxRuleError('UnsupportedScript', `input ${inputIndex} spends a script this node cannot execute`, inputIndex);
  }
  if (tx.inputs[inputIndex]!.signatureScript.length === 0) {
    throw new TxRuleError('SignatureEmpty', `failed to verify empty signature script. Inner error: ${execution.error}`);
  }
  throw new TxRuleError('SignatureInvalid', `failed to verify the signature script: ${execution.error}`);
}

const EVAL_FALSE = 'false stack entry at end of script execution';

function sigOpCountError(input: TransactionInput): string | null {
  return input.sigOpCount < 1 ? `sig op count exceeds passed limit of ${input.sigOpCount}` : null;
}

/**
 * A P2PK spend under Toccata's meter: nothing is charged before its one signature check (a standard script public key,
 * literal pushes), which costs SCRIPT_UNITS_PER_SIG_OP; the result push (1 byte) always fits, as allowed units are
 * 9,999 modulo 10,000.
 */
function scriptUnitsError(input: TransactionInput): string | null {
  const limit = allowedScriptUnits(input);
  return limit < SCRIPT_UNITS_PER_SIG_OP
    ? `script units exceeded the amount committed in the input: used=${SCRIPT_UNITS_PER_SIG_OP}, limit=${limit}`
    : null;
}

/**
 * The `TxScriptError` Display text kaspad's engine would stop with, or null if the input verifies. Malformed
 * signature scripts map to the engine's first error for the common shapes (empty, not push-only).
 */
function scriptErrorOf(
  verification: Exclude<InputVerification, { status: 'unsupported' }>,
  input: TransactionInput,
  entry: UtxoEntry,
  toccata: boolean,
): string | null {
  const reachedSignatureCheck = verification.status === 'valid' || verification.reason === 'invalid_signature';
  if (reachedSignatureCheck) {
    const meterError = toccata ? scriptUnitsError(input) : sigOpCountError(input);
    if (meterError !== null) return meterError;
  }
  if (verification.status === 'valid') return null;
  const { signatureScript } = input;
  if (signatureScript.length === 0) {
    return scriptClassOf(entry.scriptPublicKey) === 'scripthash'
      ? 'attempt to read from empty stack'
      : 'opcode requires at least 2 but stack has only 1';
  }
  switch (verification.reason) {
    case 'malformed_signature_script':
      return 'signature script is not push only';
    case 'invalid_sig_hash_type': {
      // The signature is the first push (OP_DATA_n), and its last byte is the hash type.
      const hashType = signatureScript[signatureScript[0] ?? 0] ?? 0;
      return `invalid hash type 0x${hashType.toString(16).padStart(2, '0')}`;
    }
    default:
      return EVAL_FALSE;
  }
}

export function outpointKey(outpoint: Outpoint): string {
  return `${bytesToHex(outpoint.transactionId)}:${outpoint.index}`;
}
