import { resolvePreviousOutputs, type OutputRecord, type Queryable, type TransactionRecord } from '../db';
import { bytesToHex } from '../kaspa/bytes';
import type { Outpoint } from '../kaspa/types';

/**
 * Fills each input's spent output: from the transactions of the same batch first, then from the outputs of the
 * latest batches (kept in memory, so a batch still committing serves the next one), then from the index. kaspad keeps
 * no transaction index (there is no getTransaction, getBlock needs the containing block's hash, which only the
 * index itself could tell, and getUtxosByAddresses lists unspent outputs only), so an output the index does not hold
 * cannot be fetched from the node; its input stays null.
 *
 * An input may spend an output of a transaction the index stores only later (a block may carry a spender of a
 * transaction in a parallel block). Such spenders are remembered, up to `maxWaiting` of them, and written again
 * with the spent output once the transaction creating it arrives; lib/db's insertTransactions only ever upgrades a
 * null spent output and its address-history sums.
 */
export interface InputResolver {
  /** Resolves `batch` in place; returns it plus the earlier spenders this batch completed (write them too). */
  resolve(db: Queryable, batch: readonly TransactionRecord[]): Promise<TransactionRecord[]>;
  /** Spenders still waiting for the transaction that created an output they spend. */
  readonly waiting: number;
}

const outpointKey = (outpoint: Outpoint) => `${bytesToHex(outpoint.transactionId)}:${outpoint.index}`;

export function createInputResolver({
  maxWaiting = 20_000,
  maxRecentOutputs = 200_000,
  maxRecentBatches = 600,
}: { maxWaiting?: number; maxRecentOutputs?: number; maxRecentBatches?: number } = {}): InputResolver {
  /**
   * Outputs of the latest `maxRecentBatches` batches by outpoint key, oldest first in insertion order, at most
   * `maxRecentOutputs` of them: a catch-up's large batches meet the count, a live follow's block-sized ones the age, so
   * a long-running follow does not hold outputs spent long ago (those are read from the index).
   */
  const recent = new Map<string, OutputRecord>();
  /** How many outputs each remembered batch added, oldest first. */
  const recentBatchSizes: number[] = [];
  /** Creating transaction id (hex) → spenders waiting for it, oldest first in insertion order. */
  const waitingFor = new Map<string, TransactionRecord[]>();
  let waiting = 0;

  const remember = (creatorId: string, spender: TransactionRecord) => {
    const list = waitingFor.get(creatorId);
    if (list?.includes(spender)) return;
    if (list) list.push(spender);
    else waitingFor.set(creatorId, [spender]);
    waiting += 1;
    while (waiting > maxWaiting) {
      const oldest = waitingFor.keys().next();
      if (oldest.done) break;
      waiting -= waitingFor.get(oldest.value)?.length ?? 0;
      waitingFor.delete(oldest.value);
    }
  };

  return {
    get waiting() {
      return waiting;
    },
    async resolve(db, batch) {
      const created = new Map<string, OutputRecord>();
      for (const transaction of batch) {
        const id = bytesToHex(transaction.transactionId);
        transaction.outputs.forEach((output, index) => created.set(`${id}:${index}`, output));
      }
      const unresolved: { input: TransactionRecord['inputs'][number]; spender: TransactionRecord }[] = [];
      for (const spender of batch) {
        for (const input of spender.inputs) {
          if (input.previousOutput !== null) continue;
          const key = outpointKey(input.previousOutpoint);
          input.previousOutput = created.get(key) ?? recent.get(key) ?? null;
          if (input.previousOutput === null) unresolved.push({ input, spender });
        }
      }
      for (const [key, output] of created) {
        recent.delete(key);
        recent.set(key, output);
      }
      recentBatchSizes.push(created.size);
      let expired = 0;
      while (recentBatchSizes.length > maxRecentBatches) expired += recentBatchSizes.shift()!;
      for (const key of recent.keys()) {
        if (recent.size <= maxRecentOutputs && expired <= 0) break;
        recent.delete(key);
        expired -= 1;
      }
      const stored = await resolvePreviousOutputs(
        db,
        unresolved.map(({ input }) => input.previousOutpoint),
      );
      unresolved.forEach(({ input, spender }, position) => {
        input.previousOutput = stored[position] ?? null;
        if (input.previousOutput === null) remember(bytesToHex(input.previousOutpoint.transactionId), spender);
      });

      const completed: TransactionRecord[] = [];
      for (const transaction of batch) {
        const id = bytesToHex(transaction.transactionId);
        const spenders = waitingFor.get(id);
        if (spenders === undefined) continue;
        waitingFor.delete(id);
        waiting -= spenders.length;
        for (const spender of spenders) {
          for (const input of spender.inputs) {
            if (input.previousOutput === null) {
              input.previousOutput = created.get(outpointKey(input.previousOutpoint)) ?? null;
            }
          }
          if (!batch.includes(spender) && !completed.includes(spender)) completed.push(spender);
        }
      }
      return [...batch, ...completed];
    },
  };
}
