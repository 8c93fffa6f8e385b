/**
 * The orphan pool (kaspad's model/orphan_pool.rs): transactions with inputs neither the virtual UTXO set nor the
 * transaction pool has yet, kept until a transaction supplying them arrives, they expire, or room is needed.
 *
 * Invariants: no two orphans spend the same outpoint, so an arriving output completes at most one orphan input; an
 * orphan's mass is bounded without storage mass (consensus has not computed it), and a full pool only ever makes room
 * by evicting a low-priority orphan, never a high-priority (RPC-submitted) one.
 */
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import type { Outpoint } from '../../kaspa/types';
import { outpointKey } from '../consensus/transaction-validator';
import { ruleErrors, type MempoolRuleError } from './mempool-errors';
import { mempoolNormalizedMass, type MempoolConfig, type Priority } from './mempool-policy';
import type { MutableTransaction, PoolTransaction } from './mempool-transaction';
import { Pool } from './pool';

export class OrphanPool extends Pool {
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
