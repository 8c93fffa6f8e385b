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
 * 2. consensus validation against the virtual state (transaction-validator.ts): isolation, header context, remaining
 *    inputs from the virtual UTXO set (missing ones make an orphan), storage mass, maturity, amounts, sequence locks,
 *    the RBF feerate floor, scripts;
 * 3. duplicate/accepted re-check, orphan handling, storage mass within the block limit, standard in context (relay
 *    fee floor), RBF removal, size limits, insert;
 * 4. orphans whose inputs the new transaction completes are validated and inserted in turn.
 *
 * Feerates are fee over normalized mass (mempool-policy.ts `mempoolNormalizedMass`): a frontier key uses the mass
 * limits in force when its transaction entered the pool, replace-by-fee and eviction those at the virtual DAA score.
 *
 * What the node must feed in: `handleNewBlockTransactions` for every block added to the DAG (kaspad's
 * `on_new_block`), and periodically `expireLowPriorityTransactions` and `revalidateHighPriorityTransactions`.
 * `returnTransactions` is a devnet addition (kaspad has no equivalent): transactions the virtual no longer accepts
 * after a reorg are forgotten as accepted and re-submitted; those that fail are dropped.
 */
import { bytesToHex, equalBytes, hexToBytes } from '../../kaspa/bytes';
import { transactionEstimatedSerializedSize, transactionStorageMass, transientMass } from '../../kaspa/mass';
import type { Secp256k1Backend } from '../../kaspa/signing';
import { isCoinbase } from '../../kaspa/transaction';
import { txComputeMassOf, txIdOf } from '../consensus/transaction-facts';
import type { Hash, Outpoint, ScriptPublicKey, Transaction, TransactionOutput, UtxoEntry } from '../../kaspa/types';
import { buildFeerateEstimator, type FeerateEstimations } from './fee-estimator';
import { feerateKey, Frontier, type FeerateKey, type RandomSource, type TemplatePolicy } from '../consensus/frontier';
import { MempoolRuleError, mempoolErrorFromTxRule, ruleErrors } from './mempool-errors';
import {
  defaultMempoolConfig,
  isToccataActive,
  limitErrorInContext,
  limitErrorInIsolation,
  mempoolNormalizedMass,
  minimumFeerate,
  nonStandardReasonInContext,
  nonStandardReasonInIsolation,
  TEMPLATE_MASS_BUDGET,
  type MempoolConfig,
  type MempoolParams,
  type Priority,
} from './mempool-policy';
import {
  outpointKey,
  transactionLimits,
  TxRuleError,
  UNACCEPTED_DAA_SCORE,
  validatePopulatedTransaction,
  validateTransactionInHeaderContext,
  validateTransactionInIsolation,
} from '../consensus/transaction-validator';

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

export interface MempoolClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export type { Priority } from './mempool-policy';

/**
 * - `forbidden` (submitTransaction): any double spend with the pool is rejected;
 * - `allowed` (peer relay): every conflicting transaction is replaced if the new feerate beats them all;
 * - `mandatory` (submitTransactionReplacement): exactly one conflicting transaction, with a lower feerate, is replaced.
 */
export type RbfPolicy = 'forbidden' | 'allowed' | 'mandatory';

export type TransactionQuery = 'transactions' | 'orphans' | 'all';

export class MempoolQueryError extends Error {
  override name = 'MempoolQueryError';
}

/** rpc/service/src/service.rs `extract_tx_query`: how the RPC flags of the getMempoolEntr* calls combine. */
export function transactionQuery(filterTransactionPool: boolean, includeOrphanPool: boolean): TransactionQuery {
  if (filterTransactionPool && includeOrphanPool) return 'orphans';
  if (filterTransactionPool) throw new MempoolQueryError('transaction query must either not filter transactions or include orphans');
  return includeOrphanPool ? 'all' : 'transactions';
}

export interface MempoolEntry {
  transactionId: Hash;
  /** For pool transactions, `storageMass` holds the storage mass consensus computed. */
  transaction: Transaction;
  /** 0 for orphans, as kaspad reports them. */
  fee: bigint;
  isOrphan: boolean;
  computeMass: bigint;
  transientMass: bigint;
  storageMass: bigint;
  /**
   * The normalized mass under the mempool block limits of the DAA score the transaction entered at: the mass its
   * frontier key, the fee estimate and templates use.
   */
  mass: bigint;
  priority: Priority;
  addedAtDaaScore: bigint;
  /** The spent entries by input; an orphan lacks some. Entries from pool parents carry the unaccepted DAA score. */
  spentEntries: readonly (UtxoEntry | undefined)[];
}

export interface MempoolEntriesByScriptPublicKey {
  scriptPublicKey: ScriptPublicKey;
  /** Transactions spending an output paying to the script. */
  sending: MempoolEntry[];
  /** Transactions with an output paying to the script. */
  receiving: MempoolEntry[];
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

interface MutableTransaction {
  tx: Transaction;
  readonly id: string;
  readonly entries: (UtxoEntry | undefined)[];
  readonly computeMass: bigint;
  readonly transientMass: bigint;
  fee?: bigint;
}

interface PoolTransaction {
  mtx: MutableTransaction;
  readonly priority: Priority;
  readonly addedAtDaaScore: bigint;
  /** Normalized under the mempool block limits at `addedAtDaaScore`. */
  readonly mass: bigint;
}

interface DoubleSpend {
  outpoint: Outpoint;
  ownerId: string;
}

function newMutableTransaction(tx: Transaction): MutableTransaction {
  return {
    tx,
    id: bytesToHex(txIdOf(tx)),
    entries: tx.inputs.map(() => undefined),
    computeMass: txComputeMassOf(tx),
    transientMass: transientMass(tx),
  };
}

/** The normalized mass under the mempool block limits at `daaScore` (storage counts once consensus has set it). */
function massAt(mtx: MutableTransaction, config: MempoolConfig, daaScore: bigint): bigint {
  return mempoolNormalizedMass(config, daaScore, { compute: mtx.computeMass, transient: mtx.transientMass, storage: mtx.tx.storageMass });
}

/** `MutableTransaction::calculated_feerate`: fee over the normalized mass at `daaScore`, once validated. */
function feerateAt(mtx: MutableTransaction, config: MempoolConfig, daaScore: bigint): number | undefined {
  return mtx.fee === undefined ? undefined : Number(mtx.fee) / Number(massAt(mtx, config, daaScore));
}

function isVerifiable(mtx: MutableTransaction): boolean {
  return mtx.entries.every((entry) => entry !== undefined);
}

function frontierKeyOf(entry: PoolTransaction): FeerateKey {
  const { mtx } = entry;
  return feerateKey(mtx.id, mtx.fee ?? 0n, entry.mass, bytesToHex(mtx.tx.subnetworkId), mtx.tx.gas);
}

function estimatedTransactionBytes(mtx: MutableTransaction): number {
  return Number(transactionEstimatedSerializedSize(mtx.tx));
}

/** utxo_set.rs: a pool output as an entry, carrying the covenant it is bound to. */
function unacceptedEntry(output: TransactionOutput): UtxoEntry {
  return {
    amount: output.value,
    scriptPublicKey: output.scriptPublicKey,
    blockDaaScore: UNACCEPTED_DAA_SCORE,
    isCoinbase: false,
    ...(output.covenant ? { covenantId: output.covenant.covenantId } : {}),
  };
}

function sameScript(a: ScriptPublicKey, b: ScriptPublicKey): boolean {
  return a.version === b.version && equalBytes(a.script, b.script);
}

/** Edges between transactions of one pool, in both directions, by id. */
class Edges {
  private readonly edges = new Map<string, Set<string>>();

  get(id: string): ReadonlySet<string> | undefined {
    return this.edges.get(id);
  }

  add(from: string, to: string): void {
    let set = this.edges.get(from);
    if (!set) this.edges.set(from, (set = new Set()));
    set.add(to);
  }

  delete(from: string, to: string): void {
    const set = this.edges.get(from);
    if (!set) return;
    set.delete(to);
    if (set.size === 0) this.edges.delete(from);
  }

  deleteAll(from: string): void {
    this.edges.delete(from);
  }
}

/** What the transaction and orphan pools share (model/pool.rs `Pool`). */
abstract class Pool {
  readonly all = new Map<string, PoolTransaction>();
  protected readonly chained = new Edges();

  has(id: string): boolean {
    return this.all.has(id);
  }

  get size(): number {
    return this.all.size;
  }

  parentIdsInPool(mtx: MutableTransaction): Set<string> {
    const parents = new Set<string>();
    for (const input of mtx.tx.inputs) {
      const parentId = bytesToHex(input.previousOutpoint.transactionId);
      if (this.all.has(parentId)) parents.add(parentId);
    }
    return parents;
  }

  /** Every in-pool descendant of `id`, breadth first; empty if `id` is not in this pool. */
  redeemerIds(id: string): string[] {
    if (!this.all.has(id)) return [];
    const visited = new Set<string>();
    const queue = [id];
    for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
      for (const redeemer of this.chained.get(current) ?? []) {
        if (this.all.has(redeemer) && !visited.has(redeemer)) {
          visited.add(redeemer);
          queue.push(redeemer);
        }
      }
    }
    return [...visited];
  }
}

class TransactionsPool extends Pool {
  private readonly parents = new Map<string, Set<string>>();
  readonly ready = new Frontier();
  private readonly spenders = new Map<string, string>();
  estimatedSize = 0;
  lastExpireScanDaaScore = 0n;

  constructor(
    private readonly config: MempoolConfig,
    public lastExpireScanTime: number,
  ) {
    super();
  }

  add(mtx: MutableTransaction, priority: Priority, daaScore: bigint): PoolTransaction {
    const entry: PoolTransaction = { mtx, priority, addedAtDaaScore: daaScore, mass: massAt(mtx, this.config, daaScore) };
    const parents = this.parentIdsInPool(mtx);
    this.parents.set(mtx.id, parents);
    if (parents.size === 0) this.ready.insert(frontierKeyOf(entry));
    for (const parent of parents) this.chained.add(parent, mtx.id);
    for (const input of mtx.tx.inputs) this.spenders.set(outpointKey(input.previousOutpoint), mtx.id);
    this.estimatedSize += estimatedTransactionBytes(mtx);
    this.all.set(mtx.id, entry);
    return entry;
  }

  remove(id: string): PoolTransaction {
    for (const parent of this.parents.get(id) ?? []) this.chained.delete(parent, id);
    for (const child of this.chained.get(id) ?? []) {
      const childParents = this.parents.get(child);
      if (!childParents) continue;
      childParents.delete(id);
      if (childParents.size === 0) this.ready.insert(frontierKeyOf(this.all.get(child)!));
    }
    this.parents.delete(id);
    this.chained.deleteAll(id);
    const removed = this.all.get(id);
    if (!removed) throw ruleErrors.missingTransaction(id);
    this.all.delete(id);
    this.ready.remove(id);
    for (const input of removed.mtx.tx.inputs) this.spenders.delete(outpointKey(input.previousOutpoint));
    this.estimatedSize -= estimatedTransactionBytes(removed.mtx);
    return removed;
  }

  spenderOf(outpoint: Outpoint): string | undefined {
    return this.spenders.get(outpointKey(outpoint));
  }

  firstDoubleSpend(mtx: MutableTransaction): DoubleSpend | undefined {
    for (const input of mtx.tx.inputs) {
      const ownerId = this.spenderOf(input.previousOutpoint);
      if (ownerId !== undefined && ownerId !== mtx.id) return { outpoint: input.previousOutpoint, ownerId };
    }
    return undefined;
  }

  /** The first conflicting outpoint of every pool transaction `mtx` double spends. */
  doubleSpends(mtx: MutableTransaction): DoubleSpend[] {
    const owners = new Set<string>();
    const doubleSpends: DoubleSpend[] = [];
    for (const input of mtx.tx.inputs) {
      const ownerId = this.spenderOf(input.previousOutpoint);
      if (ownerId !== undefined && ownerId !== mtx.id && !owners.has(ownerId)) {
        owners.add(ownerId);
        doubleSpends.push({ outpoint: input.previousOutpoint, ownerId });
      }
    }
    return doubleSpends;
  }

  private hasRoomFor(transactionSize: number, removedCount = 0, removedSize = 0): boolean {
    return (
      this.size - removedCount < this.config.maximumTransactionCount &&
      this.estimatedSize - removedSize + transactionSize <= this.config.mempoolSizeLimit
    );
  }

  /**
   * The low-priority ready transactions, lowest feerate first, to evict so `mtx` fits; never an ancestor of `mtx`.
   * Throws when the pool is full of transactions that cannot or should not make way. `mtx`'s feerate is taken at
   * the virtual DAA score, each candidate's at the score it entered at.
   */
  limitTransactionCount(mtx: MutableTransaction, transactionSize: number, virtualDaaScore: bigint): string[] {
    if (this.hasRoomFor(transactionSize)) return [];
    const threshold = feerateAt(mtx, this.config, virtualDaaScore) ?? 0;
    const toRemove: string[] = [];
    let removedSize = 0;
    for (const key of this.ready.ascending()) {
      const candidate = this.all.get(key.id)!;
      if (candidate.priority !== 'low') continue;
      const family = new Set([...this.redeemerIds(key.id), key.id]);
      if (mtx.tx.inputs.some((input) => family.has(bytesToHex(input.previousOutpoint.transactionId)))) continue;
      if ((feerateAt(candidate.mtx, this.config, candidate.addedAtDaaScore) ?? 0) > threshold) throw ruleErrors.mempoolIsFull();
      toRemove.push(key.id);
      removedSize += estimatedTransactionBytes(candidate.mtx);
      if (this.hasRoomFor(transactionSize, toRemove.length, removedSize)) return toRemove;
    }
    throw ruleErrors.mempoolIsFull();
  }
}

class OrphanPool extends Pool {
  private readonly spenders = new Map<string, string>();
  private lastExpireScan = 0n;

  constructor(private readonly config: MempoolConfig) {
    super();
  }

  /** The orphan spending `outpoint`. */
  spenderOf(outpoint: Outpoint): PoolTransaction | undefined {
    const id = this.spenders.get(outpointKey(outpoint));
    return id === undefined ? undefined : this.all.get(id);
  }

  tryAdd(daaScore: bigint, mtx: MutableTransaction, priority: Priority): void {
    if (this.config.maximumOrphanTransactionCount === 0) return;
    if (this.all.has(mtx.id)) throw ruleErrors.duplicateOrphan(mtx.id);
    const mass = mempoolNormalizedMass(this.config, daaScore, { compute: mtx.computeMass, transient: mtx.transientMass, storage: 0n });
    const maximum = this.config.maximumOrphanTransactionNormalizedMass;
    if (mass > maximum) throw ruleErrors.badOrphanMass(mass, maximum);
    for (const input of mtx.tx.inputs) {
      const other = this.spenderOf(input.previousOutpoint);
      if (other && other.mtx.id !== mtx.id) throw ruleErrors.doubleSpendOrphan(mtx.id, other.mtx.id);
    }
    while (this.all.size + 1 > this.config.maximumOrphanTransactionCount) {
      // kaspad evicts the first low-priority orphan its hash map yields, not the oldest.
      const victim = [...this.all.values()].find((orphan) => orphan.priority === 'low');
      if (!victim) throw ruleErrors.orphanPoolIsFull(this.all.size, this.config.maximumOrphanTransactionCount);
      this.remove(victim.mtx.id, false);
    }
    this.add(daaScore, mtx, priority, mass);
  }

  private add(daaScore: bigint, mtx: MutableTransaction, priority: Priority, mass: bigint): void {
    for (const input of mtx.tx.inputs) this.spenders.set(outpointKey(input.previousOutpoint), mtx.id);
    for (const parent of this.parentIdsInPool(mtx)) this.chained.add(parent, mtx.id);
    mtx.tx.outputs.forEach((_, index) => {
      const child = this.spenderOf({ transactionId: hexToBytes(mtx.id), index });
      if (child) this.chained.add(mtx.id, child.mtx.id);
    });
    this.all.set(mtx.id, { mtx, priority, addedAtDaaScore: daaScore, mass });
  }

  remove(id: string, removeRedeemers: boolean): PoolTransaction[] {
    if (!this.all.has(id)) return [];
    const ids = [id, ...(removeRedeemers ? this.redeemerIds(id) : [])];
    return ids.map((orphanId) => this.removeSingle(orphanId));
  }

  private removeSingle(id: string): PoolTransaction {
    const orphan = this.all.get(id);
    if (!orphan) throw ruleErrors.missingOrphanTransaction(id);
    this.all.delete(id);
    for (const parent of this.parentIdsInPool(orphan.mtx)) this.chained.delete(parent, id);
    this.chained.deleteAll(id);
    let error: MempoolRuleError | undefined;
    orphan.mtx.tx.inputs.forEach((input, index) => {
      if (!this.spenders.delete(outpointKey(input.previousOutpoint))) {
        error = ruleErrors.missingOrphanOutpoint(index, id, input.previousOutpoint);
      }
    });
    if (error) throw error;
    return orphan;
  }

  /**
   * After a pool transaction left without its redeemers, orphans spending its outputs lose those entries. With its
   * redeemers, kaspad (`update_orphans_after_transaction_removed`) looks the redeemers up among the orphans by the
   * removed transaction's id, which is never an orphan's, so no orphan changes.
   */
  updateAfterTransactionRemoved(removed: PoolTransaction, removeRedeemers: boolean): void {
    if (removeRedeemers) return;
    const removedId = removed.mtx.id;
    removed.mtx.tx.outputs.forEach((_, index) => {
      const orphan = this.spenderOf({ transactionId: hexToBytes(removedId), index });
      if (!orphan) return;
      orphan.mtx.tx.inputs.forEach((input, inputIndex) => {
        if (bytesToHex(input.previousOutpoint.transactionId) === removedId) orphan.mtx.entries[inputIndex] = undefined;
      });
    });
  }

  expireLowPriority(daaScore: bigint): void {
    if (daaScore < this.lastExpireScan + this.config.orphanExpireScanIntervalDaaScore) return;
    const expired = [...this.all.values()].filter(
      (orphan) => orphan.priority === 'low' && daaScore > orphan.addedAtDaaScore + this.config.orphanExpireIntervalDaaScore,
    );
    for (const orphan of expired) this.remove(orphan.mtx.id, false);
    this.lastExpireScan = daaScore;
  }
}

/** Ids of transactions seen in blocks, with the block's DAA score, forgotten after a while. */
class AcceptedTransactions {
  private readonly accepted = new Map<string, bigint>();
  private lastExpireScanDaaScore = 0n;

  constructor(
    private readonly config: MempoolConfig,
    private lastExpireScanTime: number,
  ) {}

  add(id: string, daaScore: bigint): void {
    this.accepted.set(id, daaScore);
  }

  has(id: string): boolean {
    return this.accepted.has(id);
  }

  remove(id: string): void {
    this.accepted.delete(id);
  }

  expire(daaScore: bigint, now: number): void {
    if (
      daaScore < this.lastExpireScanDaaScore + this.config.acceptedTransactionExpireScanIntervalDaaScore ||
      now < this.lastExpireScanTime + this.config.acceptedTransactionExpireScanIntervalMilliseconds
    ) {
      return;
    }
    for (const [id, acceptedAt] of this.accepted) {
      if (daaScore > acceptedAt + this.config.acceptedTransactionExpireIntervalDaaScore) this.accepted.delete(id);
    }
    this.lastExpireScanDaaScore = daaScore;
    this.lastExpireScanTime = now;
  }
}

/** Orders transactions so that every in-set parent comes before its children. */
function topologicalOrder<T extends { mtx: MutableTransaction }>(items: readonly T[]): T[] {
  const byId = new Map(items.map((item) => [item.mtx.id, item]));
  const visited = new Set<string>();
  const ordered: T[] = [];
  for (const root of items) {
    if (visited.has(root.mtx.id)) continue;
    visited.add(root.mtx.id);
    const stack: { item: T; nextInput: number }[] = [{ item: root, nextInput: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const input = frame.item.mtx.tx.inputs[frame.nextInput++];
      if (!input) {
        ordered.push(frame.item);
        stack.pop();
        continue;
      }
      const parent = byId.get(bytesToHex(input.previousOutpoint.transactionId));
      if (parent && !visited.has(parent.mtx.id)) {
        visited.add(parent.mtx.id);
        stack.push({ item: parent, nextInput: 0 });
      }
    }
  }
  return ordered;
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
  private readonly coinbaseMaturity: bigint;
  private readonly secp256k1: Secp256k1Backend | undefined;
  private readonly pool: TransactionsPool;
  private readonly orphans: OrphanPool;
  private readonly acceptedTransactions: AcceptedTransactions;

  constructor(options: CreateMempoolOptions) {
    this.config = defaultMempoolConfig(options.params, options.config);
    this.utxoView = options.utxoView;
    this.clock = options.clock ?? { now: () => Date.now() };
    this.random = options.random ?? Math.random;
    this.coinbaseMaturity = BigInt(options.params.coinbaseMaturity);
    this.secp256k1 = options.secp256k1;
    this.pool = new TransactionsPool(this.config, this.clock.now());
    this.orphans = new OrphanPool(this.config);
    this.acceptedTransactions = new AcceptedTransactions(this.config, this.clock.now());
  }

  /** Validates `tx` and adds it to the pool (or, with `allowOrphan`, the orphan pool); throws MempoolRuleError. */
  submitTransaction(tx: Transaction, options: SubmitOptions = {}): SubmitResult {
    const { allowOrphan = false, rbfPolicy = 'forbidden', priority = 'high' } = options;
    const mtx = this.preValidate(tx);
    const feerateThreshold = this.replaceByFeeConstraint(mtx, rbfPolicy);
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
      const { entries } = this.entriesFromPool(mtx.tx);
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
    if (inPool) return this.entryOf(inPool, false);
    const orphan = query !== 'transactions' ? this.orphans.all.get(key) : undefined;
    return orphan ? this.entryOf(orphan, true) : undefined;
  }

  has(id: Hash | string, query: TransactionQuery = 'transactions'): boolean {
    return this.getEntry(id, query) !== undefined;
  }

  /** Pool transactions first, then orphans. */
  getEntries(query: TransactionQuery = 'transactions'): MempoolEntry[] {
    const entries: MempoolEntry[] = [];
    if (query !== 'orphans') for (const entry of this.pool.all.values()) entries.push(this.entryOf(entry, false));
    if (query !== 'transactions') for (const entry of this.orphans.all.values()) entries.push(this.entryOf(entry, true));
    return entries;
  }

  /**
   * One result per distinct script (in the order given), even when empty, as `getMempoolEntriesByAddresses` answers.
   */
  getEntriesByScriptPublicKeys(scriptPublicKeys: readonly ScriptPublicKey[], query: TransactionQuery = 'transactions'): MempoolEntriesByScriptPublicKey[] {
    const distinct = scriptPublicKeys.filter(
      (spk, index) => scriptPublicKeys.findIndex((other) => sameScript(other, spk)) === index,
    );
    const entries = this.getEntries(query);
    return distinct.map((scriptPublicKey) => ({
      scriptPublicKey,
      sending: entries.filter((entry) => entry.spentEntries.some((spent) => spent && sameScript(spent.scriptPublicKey, scriptPublicKey))),
      receiving: entries.filter((entry) => entry.transaction.outputs.some((output) => sameScript(output.scriptPublicKey, scriptPublicKey))),
    }));
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
    return this.pool.ready.select(policy, this.random).map((key) => this.entryOf(this.pool.all.get(key.id)!, false));
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

  private entryOf(entry: PoolTransaction, isOrphan: boolean): MempoolEntry {
    const { mtx } = entry;
    return {
      transactionId: hexToBytes(mtx.id),
      transaction: mtx.tx,
      fee: mtx.fee ?? 0n,
      isOrphan,
      computeMass: mtx.computeMass,
      transientMass: mtx.transientMass,
      storageMass: mtx.tx.storageMass,
      mass: entry.mass,
      priority: entry.priority,
      addedAtDaaScore: entry.addedAtDaaScore,
      spentEntries: [...mtx.entries],
    };
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

  /** Entries of the inputs spending pool transactions; `impossible` names an output index its parent lacks. */
  private entriesFromPool(tx: Transaction): { entries: (UtxoEntry | undefined)[]; impossible: boolean } {
    let impossible = false;
    const entries = tx.inputs.map((input) => {
      const parent = this.pool.all.get(bytesToHex(input.previousOutpoint.transactionId));
      if (!parent) return undefined;
      const output = parent.mtx.tx.outputs[input.previousOutpoint.index];
      if (!output) impossible = true;
      return output && unacceptedEntry(output);
    });
    return { entries, impossible };
  }

  /** `populate_mempool_entries`. */
  private populateFromPool(mtx: MutableTransaction): void {
    const { entries, impossible } = this.entriesFromPool(mtx.tx);
    if (impossible) throw ruleErrors.impossibleOutpoint();
    entries.forEach((entry, index) => {
      if (entry) mtx.entries[index] = entry;
    });
  }

  /** `validate_mempool_transaction`: null on success (fee and storage mass are then set), else the rejection. */
  private validateInConsensus(mtx: MutableTransaction, feerateThreshold: number | undefined): MempoolRuleError | null {
    try {
      const toccata = isToccataActive(this.config, this.utxoView.virtualDaaScore());
      validateTransactionInIsolation(mtx.tx, transactionLimits(toccata), { toccata });
      validateTransactionInHeaderContext(mtx.tx, this.utxoView.virtualDaaScore(), this.utxoView.virtualPastMedianTime());
      let missing = false;
      mtx.tx.inputs.forEach((input, index) => {
        if (mtx.entries[index]) return;
        const entry = this.utxoView.getUtxo(input.previousOutpoint);
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
        povDaaScore: this.utxoView.virtualDaaScore(),
        coinbaseMaturity: this.coinbaseMaturity,
        secp256k1: this.secp256k1,
        toccata,
        ...(feerateThreshold === undefined
          ? {}
          : { feerateThreshold: { mass: massAt(mtx, this.config, this.utxoView.virtualDaaScore()), threshold: feerateThreshold } }),
      });
      return null;
    } catch (error) {
      if (error instanceof TxRuleError) return mempoolErrorFromTxRule(error, mtx.id);
      throw error;
    }
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
      this.checkReplaceByFeePolicy(mtx, rbfPolicy);
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
    const removed = this.executeReplaceByFee(mtx, rbfPolicy);
    const size = estimatedTransactionBytes(mtx);
    for (const id of this.pool.limitTransactionCount(mtx, size, daaScore)) {
      this.removeTransaction(id, true);
      if (this.pool.size < this.config.maximumTransactionCount && this.pool.estimatedSize + size <= this.config.mempoolSizeLimit) break;
    }
    const accepted = this.pool.add(mtx, priority, daaScore);
    return removed ? { accepted, removed } : { accepted };
  }

  /**
   * The feerate of the pool transaction behind a double spend (a double-spend error if it has none), under the mass
   * limits at the virtual DAA score, the same measure the replacement gets.
   */
  private ownerFeerate(doubleSpend: DoubleSpend): number {
    const owner = this.pool.all.get(doubleSpend.ownerId);
    const feerate = owner && feerateAt(owner.mtx, this.config, this.utxoView.virtualDaaScore());
    if (feerate === undefined) throw ruleErrors.doubleSpendInMempool(doubleSpend.outpoint, doubleSpend.ownerId);
    return feerate;
  }

  /** The feerate a replacement must beat, checking every condition of the policy but the feerate itself. */
  private replaceByFeeConstraint(mtx: MutableTransaction, rbfPolicy: RbfPolicy): number | undefined {
    switch (rbfPolicy) {
      case 'forbidden': {
        const doubleSpend = this.pool.firstDoubleSpend(mtx);
        if (doubleSpend) throw ruleErrors.doubleSpendInMempool(doubleSpend.outpoint, doubleSpend.ownerId);
        return undefined;
      }
      case 'allowed': {
        const doubleSpends = this.pool.doubleSpends(mtx);
        if (doubleSpends.length === 0) return undefined;
        return Math.max(0, ...doubleSpends.map((doubleSpend) => this.ownerFeerate(doubleSpend)));
      }
      case 'mandatory': {
        const doubleSpends = this.pool.doubleSpends(mtx);
        if (doubleSpends.length === 0) throw ruleErrors.rbfNoDoubleSpend();
        if (doubleSpends.length > 1) throw ruleErrors.rbfTooManyDoubleSpendingTransactions();
        return this.ownerFeerate(doubleSpends[0]!);
      }
    }
  }

  /**
   * `validate_replace_by_fee_policy_constraints`, for orphans: the conditions of the policy without feerates, which an
   * orphan does not have yet.
   */
  private checkReplaceByFeePolicy(mtx: MutableTransaction, rbfPolicy: RbfPolicy): void {
    if (rbfPolicy === 'allowed') return;
    this.replaceByFeeConstraint(mtx, rbfPolicy);
  }

  /** Checks the replaced transactions' feerates, then removes them with their descendants. */
  private executeReplaceByFee(mtx: MutableTransaction, rbfPolicy: RbfPolicy): Transaction | undefined {
    if (rbfPolicy === 'forbidden') {
      const doubleSpend = this.pool.firstDoubleSpend(mtx);
      if (doubleSpend) throw ruleErrors.doubleSpendInMempool(doubleSpend.outpoint, doubleSpend.ownerId);
      return undefined;
    }
    const doubleSpends = this.pool.doubleSpends(mtx);
    if (rbfPolicy === 'mandatory') {
      if (doubleSpends.length === 0) throw ruleErrors.rbfNoDoubleSpend();
      if (doubleSpends.length > 1) throw ruleErrors.rbfTooManyDoubleSpendingTransactions();
    }
    if (doubleSpends.length === 0) return undefined;
    const feerate = feerateAt(mtx, this.config, this.utxoView.virtualDaaScore());
    for (const doubleSpend of doubleSpends) {
      if (feerate === undefined || !(feerate > this.ownerFeerate(doubleSpend))) {
        throw ruleErrors.doubleSpendInMempool(doubleSpend.outpoint, doubleSpend.ownerId);
      }
    }
    const replaced = this.pool.all.get(doubleSpends[0]!.ownerId)!.mtx.tx;
    for (const doubleSpend of doubleSpends) this.removeTransaction(doubleSpend.ownerId, true);
    return replaced;
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
        this.checkReplaceByFeePolicy(removed!.mtx, removed!.priority === 'high' ? 'forbidden' : 'allowed');
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
