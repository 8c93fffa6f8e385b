/**
 * What the indexer's writes share: the database transaction a batch commits in (asynchronous commit on PostgreSQL when
 * set), the stream events it appends, and the progress it reports (the checkpoint and what recoveries found).
 * Invariant: the checkpoint in `progress` moves only after the transaction that wrote it has committed, and
 * `onStreamEvents` is told only after a transaction that appended events has committed.
 */
import {
  appendStreamEvents,
  commitAsynchronously,
  type Checkpoint,
  type Db,
  type IndexGap,
  type NewStreamEvent,
  type Queryable,
  type TransactionRecord,
} from '../db';
import type { ConvertedBlock } from './convert';
import { createStreamAnnouncer, type AnnouncedChainStep } from './stream-announcer';

/** The indexer's reported progress; written by the follower and the recovery, read by status(). */
export interface IndexerProgress {
  checkpoint: Checkpoint | null;
  /** The checkpoint block's timestamp (ms), for the lag. */
  checkpointTimestamp: bigint | null;
  /** Milliseconds since the Unix epoch. */
  lastBatchAt: number | null;
  recoveries: number;
  gaps: IndexGap[];
  notice: string | null;
}

export interface IndexWrites {
  readonly progress: IndexerProgress;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The events of a batch of blocks about to be stored in `tx`, when recent: call before inserting it (the announcer
   * checks what is stored already), and pass the result to `appendEvents` once the batch is inserted.
   */
  blockEvents(tx: Queryable, converted: readonly ConvertedBlock[], resolved: readonly TransactionRecord[]): Promise<NewStreamEvent[]>;
  /** Appends the events in `tx`; returns whether there were any (pass it to `announced` after the commit). */
  appendEvents(tx: Queryable, events: readonly NewStreamEvent[]): Promise<boolean>;
  /** A chain change made in `tx`, announced when its newest block is recent. */
  announceChain(tx: Queryable, steps: readonly AnnouncedChainStep[], timestamp: bigint): Promise<boolean>;
  /** After a commit: tells the stream subscribers when the transaction wrote events. */
  announced(wrote: boolean): void;
  /** After a commit: the checkpoint it wrote. */
  moveCheckpoint(next: Checkpoint, timestamp: bigint): void;
  /** After a commit of blocks. */
  markBatch(): void;
}

export interface IndexWritesOptions {
  db: Db;
  asynchronousCommit: boolean;
  clock: () => number;
  /** Changes to blocks younger than this many ms are announced; null announces nothing. */
  eventWindowMs: number | null;
  onStreamEvents?: () => void;
}

export function createIndexWrites(options: IndexWritesOptions): IndexWrites {
  const { db, clock } = options;
  const announcer = options.eventWindowMs === null ? null : createStreamAnnouncer({ windowMs: options.eventWindowMs, clock });
  const progress: IndexerProgress = { checkpoint: null, checkpointTimestamp: null, lastBatchAt: null, recoveries: 0, gaps: [], notice: null };

  const announce = async (tx: Queryable, events: readonly NewStreamEvent[]): Promise<boolean> => {
    await appendStreamEvents(tx, events, clock());
    return events.length > 0;
  };

  return {
    progress,
    blockEvents: async (tx, converted, resolved) => (announcer === null ? [] : announcer.blocks(tx, converted, resolved)),
    appendEvents: announce,
    transaction: (fn) =>
      db.transaction(async (tx) => {
        if (db.kind === 'postgres' && options.asynchronousCommit) await commitAsynchronously(tx);
        return fn(tx);
      }),
    announceChain: async (tx, steps, timestamp) => (announcer === null ? false : announce(tx, await announcer.chain(tx, steps, timestamp))),
    announced(wrote) {
      if (wrote) options.onStreamEvents?.();
    },
    moveCheckpoint(next, timestamp) {
      progress.checkpoint = next;
      progress.checkpointTimestamp = timestamp;
      progress.lastBatchAt = clock();
    },
    markBatch() {
      progress.lastBatchAt = clock();
    },
  };
}
