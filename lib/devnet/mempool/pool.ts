/**
 * What the transaction and orphan pools share (kaspad's model/pool.rs `Pool`): the transactions by id and the edges
 * from each to its in-pool children.
 *
 * Invariant: edges run only between transactions of the same pool; a parent in the other pool (an orphan's parent in
 * the transaction pool) is found through the inputs, never through an edge, so removing a transaction from one pool
 * never leaves a dangling edge in the other.
 */
import { bytesToHex } from '../../kaspa/bytes';
import type { MutableTransaction, PoolTransaction } from './mempool-transaction';

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
export abstract class Pool {
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
