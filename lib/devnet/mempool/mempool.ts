/**
 * The devnet node's mempool, written from rusty-kaspa v2.0.1 mining/src/mempool/* and mining/src/manager.rs
 * (validate_and_insert_transaction.rs, check_transaction_limits.rs, populate_entries_and_try_validate.rs,
 * replace_by_fee.rs, remove_transaction.rs, handle_new_block_transactions.rs, model/{transactions_pool,orphan_pool,
 * pool,utxo_set,accepted_transactions}.rs). Policy values and their sources are in mempool-policy.ts.
 *
 * Submission pipeline (`validate_and_insert_transaction`):
 * 1. already accepted (seen in a block during the last 120 s)? duplicate in the pool? gas and non-contextual masses
 *    within the mempool block limits? standard in isolation? replace-by-fee pre-check; inputs spending pool
 *    transactions are filled from them (so chains are not orphans; a missing output index of a pool parent is
 *    refused as impossible);
 * 2. consensus validation against the virtual state (consensus-validation.ts): isolation, header context, remaining
 *    inputs from the virtual UTXO set (missing ones make an orphan), storage mass, maturity, amounts, sequence locks,
 *    the RBF feerate floor, scripts;
 * 3. duplicate/accepted re-check, orphan handling, storage mass within the block limit, standard in context (relay
 *    fee floor), RBF removal, size limits, insert;
 * 4. orphans whose inputs the new transaction completes are validated and inserted in turn.
 *
 * The state and the rules the pipeline runs over are their own units: transactions-pool.ts (validated transactions,
 * the ready frontier, eviction to make room), orphan-pool.ts and accepted-transactions.ts, over pool.ts and
 * mempool-transaction.ts; replace-by-fee.ts (conflicts and replacement); mempool-entries.ts (what RPC sees). This
 * class runs the pipeline and keeps the units consistent with one another: a block's transactions leave both pools
 * and are remembered as accepted, and a pool transaction that leaves without its descendants empties the orphan
 * inputs it supplied.
 *
 * Feerates are fee over normalized mass (mempool-policy.ts `mempoolNormalizedMass`): a frontier key uses the mass
 * limits in force when its transaction entered the pool, replace-by-fee and eviction those at the virtual DAA score.
 *
 * What the node must feed in: `handleNewBlockTransactions` for every block added to the DAG (kaspad's
 * `on_new_block`), and periodically `expireLowPriorityTransactions` and `revalidateHighPriorityTransactions`.
 * `returnTransactions` is a devnet addition (kaspad has no equivalent): transactions the virtual no longer accepts
 * after a reorg are forgotten as accepted and re-submitted; those that fail are dropped.
 */
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import type { Secp256k1Backend } from '../../kaspa/signing';
import { isCoinbase } from '../../kaspa/transaction';
import type { Hash, ScriptPublicKey, Transaction, UtxoEntry } from '../../kaspa/types';
import type { RandomSource, TemplatePolicy } from '../consensus/frontier';
import { txIdOf } from '../consensus/transaction-facts';
import { outpointKey } from '../consensus/transaction-validator';
import { AcceptedTransactions } from './accepted-transactions';
import { createConsensusValidation, type ConsensusValidation, type VirtualUtxoView } from './consensus-validation';
import { buildFeerateEstimator, type FeerateEstimations } from './fee-estimator';
import {
  entriesByScriptPublicKeys,
  mempoolEntryOf,
  type MempoolEntriesByScriptPublicKey,
  type MempoolEntry,
  type TransactionQuery,
} from './mempool-entries';
import { MempoolRuleError, ruleErrors } from './mempool-errors';
import {
  defaultMempoolConfig,
  limitErrorInContext,
  limitErrorInIsolation,
  minimumFeerate,
  nonStandardReasonInContext,
  nonStandardReasonInIsolation,
  TEMPLATE_MASS_BUDGET,
  type MempoolConfig,
  type MempoolParams,
  type Priority,
} from './mempool-policy';
import {
  estimatedTransactionBytes,
  isVerifiable,
  newMutableTransaction,
  topologicalOrder,
  unacceptedEntry,
  type MutableTransaction,
  type PoolTransaction,
} from './mempool-transaction';
import { OrphanPool } from './orphan-pool';
import { ReplaceByFee, type RbfPolicy } from './replace-by-fee';
import { TransactionsPool } from './transactions-pool';

export type { VirtualUtxoView } from './consensus-validation';
export {
  MempoolQueryError,
  transactionQuery,
  type MempoolEntriesByScriptPublicKey,
  type MempoolEntry,
  type TransactionQuery,
} from './mempool-entries';
export type { Priority } from './mempool-policy';
export type { RbfPolicy } from './replace-by-fee';

export interface MempoolClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export interface SubmitOptions {
  allowOrphan?: boolean;
  rbfPolicy?: RbfPolicy;
  priority?: Priority;
}

export interface SubmitResult {
  transactionId: Hash;
  /** True if the transaction went to the orphan pool. */
  orphaned: boolean;
  /** Transactions that entered the pool: the submitted one first, then any orphans it completed. */
  accepted: Transaction[];
  /** The transaction a replacement evicted (with its descendants). */
  replaced?: Transaction;
}

export interface CreateMempoolOptions {
  params: MempoolParams & { coinbaseMaturity: number };
  utxoView: VirtualUtxoView;
  clock?: MempoolClock;
  config?: Partial<MempoolConfig>;
  /** Uniform [0, 1) draws for template sampling; Math.random by default. */
  random?: RandomSource;
  /** Verifies transaction signatures; lib/kaspa's reference implementation when omitted. */
  secp256k1?: Secp256k1Backend;
}

interface PostValidation {
  accepted?: PoolTransaction;
  removed?: Transaction;
}

export class Mempool {
  readonly config: MempoolConfig;
  private readonly utxoView: VirtualUtxoView;
  private readonly clock: MempoolClock;
  private readonly random: RandomSource;
  private readonly pool: TransactionsPool;
  private readonly orphans: OrphanPool;
  private readonly acceptedTransactions: AcceptedTransactions;
  private readonly validateInConsensus: ConsensusValidation;
  private readonly replaceByFee: ReplaceByFee;

  constructor(options: CreateMempoolOptions) {
    this.config = defaultMempoolConfig(options.params, options.config);
    this.utxoView = options.utxoView;
    this.clock = options.clock ?? { now: () => Date.now() };
    this.random = options.random ?? Math.random;
    this.pool = new TransactionsPool(this.config, this.clock.now());
    this.orphans = new OrphanPool(this.config);
    this.acceptedTransactions = new AcceptedTransactions(this.config, this.clock.now());
    this.validateInConsensus = createConsensusValidation({
      utxoView: this.utxoView,
      config: this.config,
      coinbaseMaturity: BigInt(options.params.coinbaseMaturity),
      secp256k1: options.secp256k1,
    });
    this.replaceByFee = new ReplaceByFee(
      this.pool,
      this.config,
      () => this.utxoView.virtualDaaScore(),
      (id, removeRedeemers) => this.removeTransaction(id, removeRedeemers),
    );
  }

  /** Validates `tx` and adds it to the pool (or, with `allowOrphan`, the orphan pool); throws MempoolRuleError. */
  submitTransaction(tx: Transaction, options: SubmitOptions = {}): SubmitResult {
    const { allowOrphan = false, rbfPolicy = 'forbidden', priority = 'high' } = options;
    const mtx = this.preValidate(tx);
    const feerateThreshold = this.replaceByFee.constraint(mtx, rbfPolicy);
    this.populateFromPool(mtx);
    const validationError = this.validateInConsensus(mtx, feerateThreshold);
    const post = this.postValidateAndInsert(mtx, validationError, priority, allowOrphan, rbfPolicy);
    const result: SubmitResult = { transactionId: hexToBytes(mtx.id), orphaned: !post.accepted, accepted: [] };
    if (post.removed) result.replaced = post.removed;
    if (post.accepted) {
      const { tx: acceptedTx } = post.accepted.mtx;
      result.accepted = [acceptedTx, ...this.insertUnorphaned(this.unorphanAfterAccepted(acceptedTx))];
    }
    return result;
  }

  /** submitTransactionReplacement: mandatory RBF, high priority, no orphans. */
  submitTransactionReplacement(tx: Transaction): { transactionId: Hash; replacedTransaction: Transaction; accepted: Transaction[] } {
    const result = this.submitTransaction(tx, { rbfPolicy: 'mandatory', allowOrphan: false, priority: 'high' });
    if (!result.replaced) throw new Error('Replacement transaction was actually accepted but the *replaced* transaction was not returned from the mempool');
    return { transactionId: result.transactionId, replacedTransaction: result.replaced, accepted: result.accepted };
  }

  /**
   * A block joined the DAG: its transactions leave the pool (keeping their descendants), pool transactions spending
   * the same outputs go with their descendants, its transactions are remembered as accepted, and orphans they
   * complete are inserted. Returns the transactions that entered the pool that way.
   */
  handleNewBlockTransactions(blockDaaScore: bigint, transactions: readonly Transaction[]): Transaction[] {
    const unorphaned: PoolTransaction[] = [];
    for (const tx of transactions) {
      if (isCoinbase(tx)) continue;
      const id = bytesToHex(txIdOf(tx));
      if (!this.orphans.has(id)) this.removeTransaction(id, false);
      const doubleSpenders = new Set<string>();
      for (const input of tx.inputs) {
        const spender = this.pool.spenderOf(input.previousOutpoint);
        if (spender !== undefined) doubleSpenders.add(spender);
      }
      for (const spender of doubleSpenders) this.removeTransaction(spender, true);
      this.orphans.remove(id, false);
      this.acceptedTransactions.add(id, blockDaaScore);
      unorphaned.push(...this.unorphanAfterAccepted(tx));
    }
    return this.insertUnorphaned(unorphaned);
  }

  /**
   * Transactions the virtual stopped accepting (their blocks left the selected chain): forget them as accepted and
   * re-submit them, parents first, as high-priority RPC transactions. Returns those that entered the pool.
   */
  returnTransactions(transactions: readonly Transaction[]): Transaction[] {
    const candidates = transactions.filter((tx) => !isCoinbase(tx)).map((tx) => ({ mtx: newMutableTransaction(tx) }));
    for (const { mtx } of candidates) this.acceptedTransactions.remove(mtx.id);
    const accepted: Transaction[] = [];
    for (const { mtx } of topologicalOrder(candidates)) {
      if (this.pool.has(mtx.id) || this.orphans.has(mtx.id)) continue;
      try {
        accepted.push(...this.submitTransaction(mtx.tx).accepted);
      } catch (error) {
        if (!(error instanceof MempoolRuleError)) throw error;
      }
    }
    return accepted;
  }

  /**
   * kaspad's periodic `revalidate_high_priority_transactions`: re-resolve the inputs of high-priority pool
   * transactions against the pool and the virtual UTXO set. A transaction with an input that no longer exists
   * leaves the pool (its descendants stay). Returns the ids found valid.
   */
  revalidateHighPriorityTransactions(): string[] {
    const valid: string[] = [];
    const highPriority = [...this.pool.all.values()].filter((entry) => entry.priority === 'high');
    const toResolve: { id: string; entries: (UtxoEntry | undefined)[] }[] = [];
    for (const { mtx } of topologicalOrder(highPriority)) {
      if (this.acceptedTransactions.has(mtx.id) || !this.pool.has(mtx.id)) continue;
      // An impossible outpoint cannot occur for a transaction admitted to the pool; it would fall through as missing.
      const { entries } = this.pool.entriesFromPool(mtx.tx);
      if (entries.every((entry) => entry !== undefined)) valid.push(mtx.id);
      else toResolve.push({ id: mtx.id, entries });
    }
    for (const { id, entries } of toResolve) {
      const current = this.pool.all.get(id);
      if (!current) continue;
      current.mtx.tx.inputs.forEach((input, index) => {
        entries[index] ??= this.utxoView.getUtxo(input.previousOutpoint);
      });
      if (entries.every((entry) => entry !== undefined)) {
        current.mtx.entries.splice(0, entries.length, ...entries);
        valid.push(id);
      } else {
        this.removeTransaction(id, false);
      }
    }
    return valid;
  }

  /** The periodic expiry of low-priority orphans and transactions, and of remembered accepted ids. */
  expireLowPriorityTransactions(): void {
    const daaScore = this.utxoView.virtualDaaScore();
    const now = this.clock.now();
    this.orphans.expireLowPriority(daaScore);
    this.acceptedTransactions.expire(daaScore, now);
    if (
      daaScore < this.pool.lastExpireScanDaaScore + this.config.transactionExpireScanIntervalDaaScore ||
      now < this.pool.lastExpireScanTime + this.config.transactionExpireScanIntervalMilliseconds
    ) {
      return;
    }
    this.pool.lastExpireScanDaaScore = daaScore;
    this.pool.lastExpireScanTime = now;
    const expired = [...this.pool.all.values()].filter(
      (entry) => entry.priority === 'low' && daaScore > entry.addedAtDaaScore + this.config.transactionExpireIntervalDaaScore,
    );
    for (const entry of expired) this.removeTransaction(entry.mtx.id, true);
  }

  /**
   * Removes a transaction (an orphan always with its orphan descendants; a pool transaction with its descendants if
   * `removeRedeemers`), e.g. when block template validation found it invalid. Unknown ids are ignored.
   */
  removeTransaction(id: string, removeRedeemers: boolean): void {
    if (this.orphans.has(id)) {
      this.orphans.remove(id, true);
      return;
    }
    if (!this.pool.has(id)) return;
    const ids = [id, ...(removeRedeemers ? this.pool.redeemerIds(id) : [])];
    for (const removedId of ids) {
      const removed = this.pool.remove(removedId);
      this.orphans.updateAfterTransactionRemoved(removed, removeRedeemers);
    }
  }

  getEntry(id: Hash | string, query: TransactionQuery = 'transactions'): MempoolEntry | undefined {
    const key = typeof id === 'string' ? id : bytesToHex(id);
    const inPool = query !== 'orphans' ? this.pool.all.get(key) : undefined;
    if (inPool) return mempoolEntryOf(inPool, false);
    const orphan = query !== 'transactions' ? this.orphans.all.get(key) : undefined;
    return orphan ? mempoolEntryOf(orphan, true) : undefined;
  }

  has(id: Hash | string, query: TransactionQuery = 'transactions'): boolean {
    return this.getEntry(id, query) !== undefined;
  }

  /** Pool transactions first, then orphans. */
  getEntries(query: TransactionQuery = 'transactions'): MempoolEntry[] {
    const entries: MempoolEntry[] = [];
    if (query !== 'orphans') for (const entry of this.pool.all.values()) entries.push(mempoolEntryOf(entry, false));
    if (query !== 'transactions') for (const entry of this.orphans.all.values()) entries.push(mempoolEntryOf(entry, true));
    return entries;
  }

  /**
   * One result per distinct script (in the order given), even when empty, as `getMempoolEntriesByAddresses` answers.
   */
  getEntriesByScriptPublicKeys(scriptPublicKeys: readonly ScriptPublicKey[], query: TransactionQuery = 'transactions'): MempoolEntriesByScriptPublicKey[] {
    return entriesByScriptPublicKeys(this.getEntries(query), scriptPublicKeys);
  }

  transactionCount(query: TransactionQuery = 'transactions'): number {
    return (query !== 'orphans' ? this.pool.size : 0) + (query !== 'transactions' ? this.orphans.size : 0);
  }

  readyTransactionCount(): number {
    return this.pool.ready.size;
  }

  readyTransactionTotalMass(): bigint {
    return this.pool.ready.totalMass;
  }

  hasAcceptedTransaction(id: Hash | string): boolean {
    return this.acceptedTransactions.has(typeof id === 'string' ? id : bytesToHex(id));
  }

  /** kaspad's template policy: the normalized block mass (the compute limit), lanes per block and gas per lane. */
  templatePolicy(): TemplatePolicy {
    return { maxBlockMass: TEMPLATE_MASS_BUDGET, ...this.config.blockLaneLimits };
  }

  /**
   * Ready transactions for the next block template, chosen as kaspad's frontier selectors choose them, in selection
   * order. Normalized masses keep every dimension within the mempool block mass limits, which never exceed
   * consensus's.
   */
  selectTransactionsForTemplate(policy: TemplatePolicy = this.templatePolicy()): MempoolEntry[] {
    return this.pool.ready.select(policy, this.random).map((key) => mempoolEntryOf(this.pool.all.get(key.id)!, false));
  }

  feeEstimate(): FeerateEstimations {
    const estimator = buildFeerateEstimator(this.pool.ready, {
      networkBlocksPerSecond: this.config.networkBlocksPerSecond,
      maximumMassPerBlock: TEMPLATE_MASS_BUDGET,
    });
    return estimator.calcEstimations(minimumFeerate(this.config));
  }

  /** Network block mass per second, as `getFeeEstimateExperimental` reports it. */
  networkMassPerSecond(): bigint {
    return BigInt(this.config.networkBlocksPerSecond) * TEMPLATE_MASS_BUDGET;
  }

  private checkUnaccepted(mtx: MutableTransaction): void {
    if (this.acceptedTransactions.has(mtx.id)) throw ruleErrors.alreadyAccepted(mtx.id);
  }

  private preValidate(tx: Transaction): MutableTransaction {
    const mtx = newMutableTransaction(tx);
    this.checkUnaccepted(mtx);
    if (this.pool.has(mtx.id)) throw ruleErrors.duplicate(mtx.id);
    const daaScore = this.utxoView.virtualDaaScore();
    const masses = { compute: mtx.computeMass, transient: mtx.transientMass };
    const limitError = limitErrorInIsolation(tx, masses, this.config, daaScore);
    if (limitError) throw limitError;
    if (!this.config.acceptNonStandard) {
      const reason = nonStandardReasonInIsolation(tx, masses, this.config, daaScore);
      if (reason !== null) throw ruleErrors.nonStandard(mtx.id, reason);
    }
    return mtx;
  }

  /** `populate_mempool_entries`. */
  private populateFromPool(mtx: MutableTransaction): void {
    const { entries, impossible } = this.pool.entriesFromPool(mtx.tx);
    if (impossible) throw ruleErrors.impossibleOutpoint();
    entries.forEach((entry, index) => {
      if (entry) mtx.entries[index] = entry;
    });
  }

  private postValidateAndInsert(
    mtx: MutableTransaction,
    validationError: MempoolRuleError | null,
    priority: Priority,
    allowOrphan: boolean,
    rbfPolicy: RbfPolicy,
  ): PostValidation {
    if (this.pool.has(mtx.id)) throw ruleErrors.duplicate(mtx.id);
    this.checkUnaccepted(mtx);
    const daaScore = this.utxoView.virtualDaaScore();
    if (validationError?.kind === 'RejectMissingOutpoint') {
      if (!allowOrphan) throw ruleErrors.disallowedOrphan(mtx.id);
      this.replaceByFee.checkPolicy(mtx, rbfPolicy);
      this.orphans.tryAdd(daaScore, mtx, priority);
      return {};
    }
    if (validationError) throw validationError;
    const limitError = limitErrorInContext(mtx.tx.storageMass, this.config, daaScore);
    if (limitError) throw limitError;
    if (!this.config.acceptNonStandard) {
      const facts = {
        masses: { compute: mtx.computeMass, transient: mtx.transientMass, storage: mtx.tx.storageMass },
        fee: mtx.fee!,
        priority,
      };
      const reason = nonStandardReasonInContext(mtx.tx, mtx.entries as UtxoEntry[], facts, this.config, daaScore);
      if (reason !== null) throw ruleErrors.nonStandard(mtx.id, reason);
    }
    const removed = this.replaceByFee.execute(mtx, rbfPolicy);
    const size = estimatedTransactionBytes(mtx);
    for (const id of this.pool.limitTransactionCount(mtx, size, daaScore)) {
      this.removeTransaction(id, true);
      if (this.pool.size < this.config.maximumTransactionCount && this.pool.estimatedSize + size <= this.config.mempoolSizeLimit) break;
    }
    const accepted = this.pool.add(mtx, priority, daaScore);
    return removed ? { accepted, removed } : { accepted };
  }

  /** Fills the orphans' inputs that `tx` creates and takes out of the orphan pool those now complete. */
  private unorphanAfterAccepted(tx: Transaction): PoolTransaction[] {
    const id = txIdOf(tx);
    const unorphaned: PoolTransaction[] = [];
    tx.outputs.forEach((output, index) => {
      const outpoint = { transactionId: id, index };
      const orphan = this.orphans.spenderOf(outpoint);
      if (!orphan) return;
      const key = outpointKey(outpoint);
      const inputIndex = orphan.mtx.tx.inputs.findIndex((input) => outpointKey(input.previousOutpoint) === key);
      if (orphan.mtx.entries[inputIndex] !== undefined) return;
      orphan.mtx.entries[inputIndex] = unacceptedEntry(output);
      if (!isVerifiable(orphan.mtx)) return;
      try {
        const [removed] = this.orphans.remove(orphan.mtx.id, false);
        this.checkUnaccepted(removed!.mtx);
        this.replaceByFee.checkPolicy(removed!.mtx, removed!.priority === 'high' ? 'forbidden' : 'allowed');
        unorphaned.push(removed!);
      } catch (error) {
        if (!(error instanceof MempoolRuleError)) throw error;
      }
    });
    return unorphaned;
  }

  /** Validates and inserts unorphaned transactions round by round, dropping those that fail. */
  private insertUnorphaned(incoming: PoolTransaction[]): Transaction[] {
    const accepted: Transaction[] = [];
    let round = incoming;
    while (round.length > 0) {
      const results = round.map((entry) => this.validateInConsensus(entry.mtx, undefined));
      const next: PoolTransaction[] = [];
      round.forEach((entry, index) => {
        try {
          const rbfPolicy = entry.priority === 'high' ? 'forbidden' : 'allowed';
          const post = this.postValidateAndInsert(entry.mtx, results[index]!, entry.priority, false, rbfPolicy);
          if (!post.accepted) return;
          accepted.push(post.accepted.mtx.tx);
          next.push(...this.unorphanAfterAccepted(post.accepted.mtx.tx));
        } catch (error) {
          if (!(error instanceof MempoolRuleError)) throw error;
        }
      });
      round = next;
    }
    return accepted;
  }
}

export function createMempool(options: CreateMempoolOptions): Mempool {
  return new Mempool(options);
}
