/**
 * The transaction pool (kaspad's model/transactions_pool.rs): validated transactions with their in-pool parents, the
 * spender of every outpoint they spend (where replace-by-fee finds conflicts), the ready frontier templates and the
 * fee estimator read, and the estimated size the limits check.
 *
 * Invariants: a transaction is in `ready` exactly while none of its parents is in the pool, so a template never carries
 * a child without its parent; making room evicts only low-priority ready transactions that are not ancestors of the
 * newcomer and pay no higher feerate than it, and refuses the newcomer otherwise.
 */
import { bytesToHex } from '../../kaspa/bytes';
import type { Outpoint, Transaction, UtxoEntry } from '../../kaspa/types';
import { Frontier } from '../consensus/frontier';
import { outpointKey } from '../consensus/transaction-validator';
import { ruleErrors } from './mempool-errors';
import type { MempoolConfig, Priority } from './mempool-policy';
import {
  estimatedTransactionBytes,
  feerateAt,
  frontierKeyOf,
  massAt,
  unacceptedEntry,
  type MutableTransaction,
  type PoolTransaction,
} from './mempool-transaction';
import { Pool } from './pool';

export interface DoubleSpend {
  outpoint: Outpoint;
  ownerId: string;
}

export class TransactionsPool extends Pool {
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

  /** Entries of the inputs spending pool transactions; `impossible` names an output index its parent lacks. */
  entriesFromPool(tx: Transaction): { entries: (UtxoEntry | undefined)[]; impossible: boolean } {
    let impossible = false;
    const entries = tx.inputs.map((input) => {
      const parent = this.all.get(bytesToHex(input.previousOutpoint.transactionId));
      if (!parent) return undefined;
      const output = parent.mtx.tx.outputs[input.previousOutpoint.index];
      if (!output) impossible = true;
      return output && unacceptedEntry(output);
    });
    return { entries, impossible };
  }
}
