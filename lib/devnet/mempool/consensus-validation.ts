/**
 * Step 2 of the submission pipeline: consensus's judgement of a transaction against the virtual state (kaspad's
 * `validate_mempool_transaction`, over transaction-validator.ts): isolation, header context, the inputs the pool did
 * not fill taken from the virtual UTXO set, storage mass, maturity, amounts, sequence locks, the replace-by-fee
 * feerate floor and the scripts.
 *
 * Invariants: a rule violation is returned, not thrown, because the pipeline checks duplicates and acceptance again
 * before acting on it and turns a missing outpoint into an orphan; `fee` is set only when every check passed, which is
 * what makes a transaction count as validated; inputs resolved from the virtual stay filled either way, so an orphan
 * keeps them.
 */
import { transactionStorageMass } from '../../kaspa/mass';
import type { Secp256k1Backend } from '../../kaspa/signing';
import type { Outpoint, UtxoEntry } from '../../kaspa/types';
import {
  transactionLimits,
  TxRuleError,
  validatePopulatedTransaction,
  validateTransactionInHeaderContext,
  validateTransactionInIsolation,
} from '../consensus/transaction-validator';
import { mempoolErrorFromTxRule, type MempoolRuleError } from './mempool-errors';
import { isToccataActive, type MempoolConfig } from './mempool-policy';
import { massAt, type MutableTransaction } from './mempool-transaction';

/**
 * The virtual state the mempool validates against. The consensus core implements it; tests use an in-memory fake.
 */
export interface VirtualUtxoView {
  /** The entry of an output unspent in the virtual UTXO set, or undefined. */
  getUtxo(outpoint: Outpoint): UtxoEntry | undefined;
  virtualDaaScore(): bigint;
  /** Milliseconds; the reference for time-based lock times. */
  virtualPastMedianTime(): bigint;
}

export interface ConsensusValidationOptions {
  utxoView: VirtualUtxoView;
  config: MempoolConfig;
  coinbaseMaturity: bigint;
  secp256k1: Secp256k1Backend | undefined;
}

/** `validate_mempool_transaction`: null on success (fee and storage mass are then set), else the rejection. */
export type ConsensusValidation = (mtx: MutableTransaction, feerateThreshold: number | undefined) => MempoolRuleError | null;

export function createConsensusValidation(options: ConsensusValidationOptions): ConsensusValidation {
  const { utxoView, config, coinbaseMaturity, secp256k1 } = options;
  return (mtx, feerateThreshold) => {
    try {
      const toccata = isToccataActive(config, utxoView.virtualDaaScore());
      validateTransactionInIsolation(mtx.tx, transactionLimits(toccata), { toccata });
      validateTransactionInHeaderContext(mtx.tx, utxoView.virtualDaaScore(), utxoView.virtualPastMedianTime());
      let missing = false;
      mtx.tx.inputs.forEach((input, index) => {
        if (mtx.entries[index]) return;
        const entry = utxoView.getUtxo(input.previousOutpoint);
        if (entry) mtx.entries[index] = entry;
        else missing = true;
      });
      if (missing) {
        throw new TxRuleError('MissingTxOutpoints', 'outpoints corresponding to some transaction inputs are missing from current utxo context');
      }
      const entries = mtx.entries as UtxoEntry[];
      const storageMass = transactionStorageMass(mtx.tx, entries);
      if (storageMass === null) throw new TxRuleError('MassIncomputable', 'contextual mass (including storage mass) is incomputable');
      mtx.tx = { ...mtx.tx, storageMass };
      mtx.fee = validatePopulatedTransaction(mtx.tx, entries, {
        povDaaScore: utxoView.virtualDaaScore(),
        coinbaseMaturity,
        secp256k1,
        toccata,
        ...(feerateThreshold === undefined
          ? {}
          : { feerateThreshold: { mass: massAt(mtx, config, utxoView.virtualDaaScore()), threshold: feerateThreshold } }),
      });
      return null;
    } catch (error) {
      if (error instanceof TxRuleError) return mempoolErrorFromTxRule(error, mtx.id);
      throw error;
    }
  };
}
