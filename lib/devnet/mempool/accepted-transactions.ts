/**
 * kaspad's model/accepted_transactions.rs: the ids of transactions seen in blocks, each with its block's DAA score.
 *
 * Invariant: an id stays at least `acceptedTransactionExpireIntervalDaaScore` after its block, so a transaction relayed
 * again just after its block arrived is refused as already accepted instead of re-entering the pool; the scan that
 * forgets older ids runs only when both its DAA-score and its time interval have passed.
 */
import type { MempoolConfig } from './mempool-policy';

export class AcceptedTransactions {
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
