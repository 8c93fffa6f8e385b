/**
 * Replace by fee (kaspad's mining/src/mempool/replace_by_fee.rs): which pool transactions a newcomer double spends,
 * under which policy it may replace them, and the replacement itself.
 *
 * Invariants: both sides' feerates are taken under the mass limits at the virtual DAA score, so a change of limits at
 * a fork favours neither; a replacement removes nothing until every conflicting transaction was checked, so a refused
 * newcomer leaves the pool as it was.
 */
import type { Transaction } from '../../kaspa/types';
import { ruleErrors } from './mempool-errors';
import type { MempoolConfig } from './mempool-policy';
import { feerateAt, type MutableTransaction } from './mempool-transaction';
import type { DoubleSpend, TransactionsPool } from './transactions-pool';

/**
 * - `forbidden` (submitTransaction): any double spend with the pool is rejected;
 * - `allowed` (peer relay): every conflicting transaction is replaced if the new feerate beats them all;
 * - `mandatory` (submitTransactionReplacement): exactly one conflicting transaction, with a lower feerate, is replaced.
 */
export type RbfPolicy = 'forbidden' | 'allowed' | 'mandatory';

export class ReplaceByFee {
  constructor(
    private readonly pool: TransactionsPool,
    private readonly config: MempoolConfig,
    private readonly virtualDaaScore: () => bigint,
    /** Removes a pool transaction, with its descendants if `removeRedeemers`, and updates the orphans. */
    private readonly removeTransaction: (id: string, removeRedeemers: boolean) => void,
  ) {}

  /** The feerate a replacement must beat, checking every condition of the policy but the feerate itself. */
  constraint(mtx: MutableTransaction, rbfPolicy: RbfPolicy): number | undefined {
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
  checkPolicy(mtx: MutableTransaction, rbfPolicy: RbfPolicy): void {
    if (rbfPolicy === 'allowed') return;
    this.constraint(mtx, rbfPolicy);
  }

  /** Checks the replaced transactions' feerates, then removes them with their descendants. */
  execute(mtx: MutableTransaction, rbfPolicy: RbfPolicy): Transaction | undefined {
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
    const feerate = feerateAt(mtx, this.config, this.virtualDaaScore());
    for (const doubleSpend of doubleSpends) {
      if (feerate === undefined || !(feerate > this.ownerFeerate(doubleSpend))) {
        throw ruleErrors.doubleSpendInMempool(doubleSpend.outpoint, doubleSpend.ownerId);
      }
    }
    const replaced = this.pool.all.get(doubleSpends[0]!.ownerId)!.mtx.tx;
    for (const doubleSpend of doubleSpends) this.removeTransaction(doubleSpend.ownerId, true);
    return replaced;
  }

  /**
   * The feerate of the pool transaction behind a double spend (a double-spend error if it has none), under the mass
   * limits at the virtual DAA score, the same measure the replacement gets.
   */
  private ownerFeerate(doubleSpend: DoubleSpend): number {
    const owner = this.pool.all.get(doubleSpend.ownerId);
    const feerate = owner && feerateAt(owner.mtx, this.config, this.virtualDaaScore());
    if (feerate === undefined) throw ruleErrors.doubleSpendInMempool(doubleSpend.outpoint, doubleSpend.ownerId);
    return feerate;
  }
}
