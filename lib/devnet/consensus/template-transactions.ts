/**
 * The transaction selection of a block template (mining/src/block_template/builder.rs with consensus's
 * `validate_block_template_transaction`): candidates in priority order, each kept when it is valid in isolation, in
 * the template's header context and in its UTXO context, spends nothing an earlier one spends, and fits the block
 * mass limits; the others are reported with the rule they broke.
 */
import { transientMass } from '../../kaspa/mass';
import { isCoinbase } from '../../kaspa/transaction';
import type { Hash, Transaction } from '../../kaspa/types';
import { ruleError, type ForkRules } from './body-validation';
import { txComputeMassOf, txHashOf, txIdOf } from './transaction-facts';
import { validateTransactionInHeaderContext, validateTransactionInIsolation } from './transaction-validator';
import { validateTransactionInUtxoContext, type UtxoContextOptions } from './tx-validation';
import { outpointKey, type OutpointKey, type UtxoView } from './utxo-diff';

export interface TemplateContext {
  daaScore: bigint;
  pastMedianTime: bigint;
  /** The template's UTXO state (its selected parent's plus its own acceptance). */
  view: UtxoView;
  rules: ForkRules;
  utxoOptions: Omit<UtxoContextOptions, 'checkScripts' | 'transactionHash' | 'toccata'>;
}

export interface TemplateSelection {
  selected: Transaction[];
  selectedHashes: Hash[];
  rejectedTransactions: { transactionId: Hash; message: string }[];
}

export function selectTemplateTransactions(candidates: readonly Transaction[], context: TemplateContext): TemplateSelection {
  const { rules } = context;
  const selection: TemplateSelection = { selected: [], selectedHashes: [], rejectedTransactions: [] };
  const spent = new Set<OutpointKey>();
  const mass = { compute: 0n, transient: 0n, storage: 0n };
  for (const tx of candidates) {
    const id = txIdOf(tx);
    const hash = txHashOf(tx);
    const reject = (message: string) => selection.rejectedTransactions.push({ transactionId: id, message });
    const contextError =
      (isCoinbase(tx) ? 'a coinbase transaction cannot be included' : undefined) ??
      ruleError(() => validateTransactionInIsolation(tx, rules.transactionLimits, rules.isolation)) ??
      ruleError(() => validateTransactionInHeaderContext(tx, context.daaScore, context.pastMedianTime, rules.transactionLimits));
    if (contextError !== undefined) {
      reject(contextError);
      continue;
    }
    const keys = tx.inputs.map((input) => outpointKey(input.previousOutpoint));
    if (keys.some((key) => spent.has(key))) {
      reject('double spends a transaction already in the template');
      continue;
    }
    const result = validateTransactionInUtxoContext(tx, context.view, context.daaScore, {
      ...context.utxoOptions,
      checkScripts: true,
      transactionHash: hash,
      toccata: rules.toccata,
    });
    if (!result.ok) {
      reject(result.message);
      continue;
    }
    const next = {
      compute: mass.compute + txComputeMassOf(tx),
      transient: mass.transient + transientMass(tx),
      storage: mass.storage + tx.storageMass,
    };
    const limits = rules.massLimits;
    if (next.compute > limits.compute || next.transient > limits.transient || next.storage > limits.storage) {
      reject('does not fit in the block mass limits');
      continue;
    }
    Object.assign(mass, next);
    for (const key of keys) spent.add(key);
    selection.selected.push(tx);
    selection.selectedHashes.push(hash);
  }
  return selection;
}
