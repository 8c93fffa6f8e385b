/**
 * The mempool's `address` events for transactions that did not come through this API (those that did are announced
 * as they are submitted, lib/db/mempool-watch.ts): polls the node's mempool every interval (kaspad notifies nothing
 * about it), announces `mempool` for each transaction new since the last poll, and settles those that left. One
 * that left is `dropped` once `dropGraceMs` passed and the index holds every block the node had when it left, with
 * no block holding it. A transaction that enters and leaves between two polls is never seen here: it is announced
 * `included` and `accepted` only.
 */
import { announceMempoolEntries, markMempoolPresence, mempoolAddresses, settleMempoolWatch, type Db } from '../db';
import type { AddressPrefix } from '../kaspa/address';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { transactionId } from '../kaspa/transaction';
import type { Transaction } from '../kaspa/types';
import type { RpcClient } from '../rpc';
import { transactionFromRpc } from '../rpc/convert-transaction';
import { createPeriodicJob } from './periodic-job';

export interface IndexPosition {
  /** The node's virtual DAA score as last heard. */
  nodeDaaScore: bigint | null;
  /** The DAA score of the last chain block whose acceptance the index stored. */
  indexedDaaScore: bigint | null;
}

export interface MempoolAnnouncerOptions {
  db: Db;
  rpc: Pick<RpcClient, 'call'>;
  addressPrefix: () => Promise<AddressPrefix>;
  position: () => IndexPosition;
  /** Milliseconds since the Unix epoch. */
  clock?: () => number;
  intervalMs?: number;
  dropGraceMs?: number;
  log?: (line: string) => void;
  onStreamEvents?: () => void;
}

export interface MempoolAnnouncer {
  start(): void;
  stop(): Promise<void>;
  /** One poll: announces what entered, then settles what left. */
  runOnce(): Promise<{ entered: number; mined: number; dropped: number }>;
}

export function createMempoolAnnouncer(options: MempoolAnnouncerOptions): MempoolAnnouncer {
  const { db, rpc } = options;
  const clock = options.clock ?? Date.now;
  const dropGraceMs = options.dropGraceMs ?? 10_000;
  let previous = new Set<string>();
  let prefix: AddressPrefix | undefined;

  async function runOnce() {
    const polledAt = clock();
    const { nodeDaaScore, indexedDaaScore } = options.position();
    const { mempoolEntries } = await rpc.call('getMempoolEntries', { includeOrphanPool: false, filterTransactionPool: false });
    const present = new Map<string, Transaction>();
    for (const entry of mempoolEntries) {
      const transaction = transactionFromRpc(entry.transaction);
      const id = entry.transaction.verboseData?.transactionId ?? bytesToHex(transactionId(transaction));
      present.set(id, transaction);
    }
    const fresh = [...present].filter(([id]) => !previous.has(id));
    let entered = 0;
    if (fresh.length > 0) {
      prefix ??= await options.addressPrefix();
      const addresses = await mempoolAddresses(
        db,
        fresh.map(([, transaction]) => transaction),
        prefix,
        present,
      );
      entered = await announceMempoolEntries(
        db,
        fresh.map(([id], position) => ({ transactionId: hexToBytes(id), addresses: addresses[position]! })),
        polledAt,
      );
    }
    previous = new Set(present.keys());
    let settlement = { mined: 0, dropped: 0 };
    if (nodeDaaScore !== null) {
      await markMempoolPresence(
        db,
        [...present.keys()].map(hexToBytes),
        polledAt,
        nodeDaaScore,
      );
      if (indexedDaaScore !== null) {
        settlement = await settleMempoolWatch(db, { now: clock(), dropBefore: polledAt - dropGraceMs, indexedDaaScore });
      }
    }
    if (entered + settlement.dropped > 0) options.onStreamEvents?.();
    return { entered, ...settlement };
  }

  const job = createPeriodicJob(async () => void (await runOnce()), {
    intervalMs: options.intervalMs ?? 1_000,
    onError: (error) => options.log?.(`mempool events: ${error instanceof Error ? error.message : String(error)}`),
  });

  return { start: () => job.start(), stop: () => job.stop(), runOnce };
}
