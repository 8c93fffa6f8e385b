/**
 * Block body validation, rusty-kaspa v2.0.1 consensus/src/pipeline/body_processor: in isolation
 * (body_validation_in_isolation.rs: merkle root, one coinbase, transactions in isolation, the block mass limits and
 * Toccata's lane limits, duplicates, double spends, chained transactions) and in header context
 * (body_validation_in_context.rs and the coinbase payload checks), with kaspad's RuleError texts where it has them.
 * The fork decides the limits: `ForkRules` is what applies at the block's DAA score.
 */
import { bytesToHex, compareBytes } from '../../kaspa/bytes';
import { CoinbasePayloadError, decodeCoinbasePayload } from '../../kaspa/coinbase';
import { DEFAULT_BLOCK_LANE_LIMITS, transientMass, type BlockMassLimits } from '../../kaspa/mass';
import { merkleRoot } from '../../kaspa/merkle';
import { isCoinbase } from '../../kaspa/transaction';
import type { Hash, Transaction } from '../../kaspa/types';
import type { Block } from './genesis';
import {
  formatOutpoint,
  TxRuleError,
  validateTransactionInHeaderContext,
  validateTransactionInIsolation,
  type IsolationOptions,
  type TransactionLimits,
} from './transaction-validator';
import { txComputeMassOf, txHashOf, txIdOf } from './transaction-facts';
import { outpointKey, type OutpointKey } from './utxo-diff';

/** A block failing validation; `cacheAsInvalid` for failures no resubmission can fix (kaspad's known-invalid cache). */
export class BlockInvalid extends Error {
  constructor(
    message: string,
    readonly cacheAsInvalid: boolean,
  ) {
    super(message);
  }
}

/** The message of the TxRuleError `check` throws, if any. */
export function ruleError(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof TxRuleError) return error.message;
    throw error;
  }
}

export interface ForkRules {
  toccata: boolean;
  transactionLimits: Readonly<TransactionLimits>;
  massLimits: Readonly<BlockMassLimits>;
  isolation: IsolationOptions;
}

/** `validate_body_in_isolation`; returns the transaction ids. */
export function validateBodyInIsolation(block: Block, rules: ForkRules): Hash[] {
  const { transactions, header } = block;
  if (transactions.length === 0) throw new BlockInvalid('block has no transactions', true);
  const expectedMerkleRoot = merkleRoot(transactions.map(txHashOf));
  if (compareBytes(expectedMerkleRoot, header.hashMerkleRoot) !== 0) {
    throw new BlockInvalid(
      `invalid merkle root: header indicates ${bytesToHex(header.hashMerkleRoot)} but calculated value is ${bytesToHex(expectedMerkleRoot)}`,
      false,
    );
  }
  if (!isCoinbase(transactions[0]!)) throw new BlockInvalid('block first transaction is not coinbase', true);
  const extraCoinbase = transactions.slice(1).findIndex(isCoinbase);
  if (extraCoinbase >= 0) throw new BlockInvalid(`block has second coinbase transaction as index ${extraCoinbase + 1}`, true);
  const ids = transactions.map(txIdOf);
  transactions.forEach((tx, index) => {
    const error = ruleError(() => validateTransactionInIsolation(tx, rules.transactionLimits, rules.isolation));
    if (error !== undefined) {
      throw new BlockInvalid(`transaction in isolation validation failed for tx ${bytesToHex(ids[index]!)}: ${error}`, true);
    }
  });
  if (transactions[0]!.storageMass > 0n) throw new BlockInvalid('coinbase has a non-zero mass commitment', true);
  checkBlockMass(transactions, rules.massLimits);
  checkUniqueness(transactions, ids);
  return ids;
}

/** `check_block_mass`: each mass dimension summed against its limit, and the lane limits (harmless before Toccata). */
function checkBlockMass(transactions: readonly Transaction[], limits: Readonly<BlockMassLimits>): void {
  let compute = 0n;
  let transient = 0n;
  let storage = 0n;
  const gasByLane = new Map<string, bigint>();
  for (const tx of transactions) {
    compute += txComputeMassOf(tx);
    transient += transientMass(tx);
    storage += tx.storageMass;
    if (compute > limits.compute) throw new BlockInvalid(`block compute mass ${compute} exceeds limit of ${limits.compute}`, true);
    if (transient > limits.transient) {
      throw new BlockInvalid(`block transient storage mass ${transient} exceeds limit of ${limits.transient}`, true);
    }
    if (storage > limits.storage) throw new BlockInvalid(`block persistent storage mass ${storage} exceeds limit of ${limits.storage}`, true);
    if (isCoinbase(tx)) continue;
    const lane = bytesToHex(tx.subnetworkId);
    const previous = gasByLane.get(lane);
    if (previous === undefined && gasByLane.size >= DEFAULT_BLOCK_LANE_LIMITS.lanesPerBlock) {
      throw new BlockInvalid(`block has ${gasByLane.size + 1} lanes, exceeding limit of ${DEFAULT_BLOCK_LANE_LIMITS.lanesPerBlock}`, true);
    }
    const gas = (previous ?? 0n) + tx.gas;
    gasByLane.set(lane, gas);
    if (gas > DEFAULT_BLOCK_LANE_LIMITS.gasPerLane) {
      throw new BlockInvalid(`block lane ${lane} gas ${gas} exceeds limit of ${DEFAULT_BLOCK_LANE_LIMITS.gasPerLane}`, true);
    }
  }
}

/** `check_duplicate_transactions`, `check_block_double_spends`, `check_no_chained_transactions`. */
function checkUniqueness(transactions: readonly Transaction[], ids: readonly Hash[]): void {
  const idKeys = ids.map(bytesToHex);
  const created = new Set<string>();
  idKeys.forEach((key) => {
    if (created.has(key)) throw new BlockInvalid(`transaction ${key} is found more than once in the block`, true);
    created.add(key);
  });
  const spent = new Set<OutpointKey>();
  for (const tx of transactions) {
    for (const input of tx.inputs) {
      const key = outpointKey(input.previousOutpoint);
      if (spent.has(key)) {
        throw new BlockInvalid(`outpoint ${formatOutpoint(input.previousOutpoint)} is spent more than once on the same block`, true);
      }
      spent.add(key);
    }
  }
  for (const tx of transactions) {
    for (const input of tx.inputs) {
      if (created.has(bytesToHex(input.previousOutpoint.transactionId))) {
        throw new BlockInvalid(`outpoint ${formatOutpoint(input.previousOutpoint)} is created and spent on the same block`, true);
      }
    }
  }
}

export interface BodyContext {
  ghostdagK: number;
  pastMedianTime: bigint;
  /** The subsidy at the block's DAA score. */
  subsidy: bigint;
  rules: ForkRules;
}

/** The coinbase's shape and payload against the header, and every transaction in the header's context. */
export function validateBodyInContext(block: Block, context: BodyContext): void {
  const coinbase = block.transactions[0]!;
  const outputsLimit = context.ghostdagK + 2;
  if (coinbase.outputs.length > outputsLimit) {
    throw new BlockInvalid(`coinbase has ${coinbase.outputs.length} outputs, above ${outputsLimit}`, true);
  }
  let payload;
  try {
    payload = decodeCoinbasePayload(coinbase.payload);
  } catch (error) {
    if (error instanceof CoinbasePayloadError) throw new BlockInvalid(`bad coinbase payload: ${error.message}`, true);
    throw error;
  }
  if (payload.blueScore !== block.header.blueScore) {
    throw new BlockInvalid(`coinbase payload blue score ${payload.blueScore} differs from the header's`, true);
  }
  if (payload.subsidy !== context.subsidy) throw new BlockInvalid(`wrong subsidy ${payload.subsidy}, expected ${context.subsidy}`, true);
  for (const tx of block.transactions) {
    const error = ruleError(() =>
      validateTransactionInHeaderContext(tx, block.header.daaScore, context.pastMedianTime, context.rules.transactionLimits),
    );
    if (error !== undefined) throw new BlockInvalid(`transaction ${bytesToHex(txIdOf(tx))}: ${error}`, true);
  }
}
