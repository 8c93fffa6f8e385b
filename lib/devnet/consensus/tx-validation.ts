/**
 * Transaction validation in a UTXO context for block acceptance (rusty-kaspa v1.0.1
 * consensus/src/processes/transaction_validator/tx_validation_in_utxo_context.rs): inputs present, coinbase maturity,
 * amounts, the storage-mass commitment, sequence locks and scripts. The isolation and header-context rules and the
 * script checks are transaction-validator.ts's; this adds what block acceptance needs beyond the mempool's use:
 * the storage-mass commitment (the mempool skips it, kaspad's SkipMassCheck) and skipping scripts already verified.
 * Script validity depends only on the transaction and the outputs it spends, so a transaction whose scripts passed
 * once passes in every context (kaspad keeps a signature cache for the same reason).
 */
import { MAX_SOMPI } from '../../kaspa/amount';
import { bytesToHex } from '../../kaspa/bytes';
import { transactionStorageMass } from '../../kaspa/mass';
import { transactionHash } from '../../kaspa/transaction';
import type { Secp256k1Backend } from '../../kaspa/signing';
import type { Hash, Transaction, UtxoEntry } from '../../kaspa/types';
import { checkCovenants, checkScripts, formatOutpoint, TxRuleError } from './transaction-validator';
import type { CovenantsContext } from '../../kaspa/covenant';
import { outpointKey, type UtxoView } from './utxo-diff';

const SEQUENCE_LOCK_TIME_MASK = 0xffffffffn;
const SEQUENCE_LOCK_TIME_DISABLED = 1n << 63n;

/** Hashes (transactionHash, which covers signature scripts) of transactions whose scripts passed; oldest evicted first. */
export class ScriptVerificationCache {
  private readonly verified = new Set<string>();

  constructor(private readonly capacity = 100_000) {}

  has(txHash: string): boolean {
    return this.verified.has(txHash);
  }

  add(txHash: string): void {
    if (this.verified.size >= this.capacity) this.verified.delete(this.verified.values().next().value!);
    this.verified.add(txHash);
  }
}

export interface UtxoContextOptions {
  coinbaseMaturity: bigint;
  /** False for kaspad's SkipScriptChecks (the selected parent's transactions, verified in the same context). */
  checkScripts: boolean;
  scriptCache?: ScriptVerificationCache;
  /** Verifies the signatures; lib/kaspa's reference implementation when omitted. */
  secp256k1?: Secp256k1Backend;
  /** `transactionHash(tx)` when the caller already has it (the script cache key). */
  transactionHash?: Hash;
  /** Toccata is active at the including block's DAA score (covenant checks, script-unit metering). */
  toccata?: boolean;
}

export type UtxoValidation =
  | { ok: true; fee: bigint; entries: UtxoEntry[] }
  | { ok: false; message: string };

/** `validate_populated_transaction_and_get_fee` after populating the inputs from `view`. */
export function validateTransactionInUtxoContext(
  tx: Transaction,
  view: UtxoView,
  povDaaScore: bigint,
  options: UtxoContextOptions,
): UtxoValidation {
  const entries: UtxoEntry[] = [];
  for (const input of tx.inputs) {
    const entry = view.get(outpointKey(input.previousOutpoint));
    if (entry === undefined) return { ok: false, message: 'outpoints corresponding to some transaction inputs are missing from current utxo context' };
    entries.push(entry);
  }
  const immature = entries.findIndex((entry) => entry.isCoinbase && entry.blockDaaScore + options.coinbaseMaturity > povDaaScore);
  if (immature >= 0) {
    const message =
      `transaction input #${immature} tried to spend coinbase outpoint ${formatOutpoint(tx.inputs[immature]!.previousOutpoint)} ` +
      `with daa score of ${entries[immature]!.blockDaaScore} while the merging block daa score is ${povDaaScore} and the ` +
      `coinbase maturity period of ${options.coinbaseMaturity} hasn't passed yet`;
    return { ok: false, message };
  }
  let totalIn = 0n;
  for (const entry of entries) {
    totalIn += entry.amount;
    if (totalIn > MAX_SOMPI) return { ok: false, message: `transaction total inputs spending amount is higher than the max allowed of ${MAX_SOMPI}` };
  }
  const totalOut = tx.outputs.reduce((sum, output) => sum + output.value, 0n);
  if (totalIn < totalOut) return { ok: false, message: `transaction tries to spend ${totalOut} while its total inputs amount is ${totalIn}` };
  const storageMass = transactionStorageMass(tx, entries);
  if (storageMass === null) return { ok: false, message: 'contextual mass (including storage mass) is incomputable' };
  if (storageMass !== tx.storageMass) {
    return { ok: false, message: `calculated contextual mass (including storage mass) ${storageMass} is not equal to the committed mass field ${tx.storageMass}` };
  }
  for (const [index, input] of tx.inputs.entries()) {
    if ((input.sequence & SEQUENCE_LOCK_TIME_DISABLED) === SEQUENCE_LOCK_TIME_DISABLED) continue;
    const lockDaaScore = entries[index]!.blockDaaScore + (input.sequence & SEQUENCE_LOCK_TIME_MASK) - 1n;
    if (lockDaaScore >= povDaaScore) return { ok: false, message: 'one of the transaction sequence locks conditions was not met' };
  }
  const toccata = options.toccata ?? false;
  let covenants: CovenantsContext;
  try {
    covenants = checkCovenants(tx, entries, toccata);
  } catch (error) {
    if (error instanceof TxRuleError) return { ok: false, message: error.message };
    throw error;
  }
  if (options.checkScripts) {
    const key = options.scriptCache === undefined ? undefined : bytesToHex(options.transactionHash ?? transactionHash(tx));
    if (key === undefined || !options.scriptCache!.has(key)) {
      try {
        checkScripts(tx, entries, options.secp256k1, { toccata, covenants });
      } catch (error) {
        if (error instanceof TxRuleError) return { ok: false, message: error.message };
        throw error;
      }
      if (key !== undefined) options.scriptCache!.add(key);
    }
  }
  return { ok: true, fee: totalIn - totalOut, entries };
}
