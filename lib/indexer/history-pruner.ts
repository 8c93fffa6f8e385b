/**
 * The history pruner: keeps the index within its retention policy (HISTORY_RETENTION_DAYS, HISTORY_RETENTION_GB) by
 * deleting the oldest indexed history in bounded batches (lib/db/history-retention.ts says what goes and what stays).
 *
 * The cutoff is the higher of the time bound (the checkpoint's block time minus the days) and the size bound, and
 * never passes the checkpoint block's pruning point (below it the chain cannot reorganise) nor the token indexer's
 * checkpoint (it still reads the transactions above it). It is always a stored chain block's DAA score, so the
 * recorded bound names a block time. Each batch is its own transaction with a pause after it, so the indexer's writes
 * wait for one batch at most; after a run that deleted anything, VACUUM hands the space to new rows.
 *
 * The size bound reads pg_database_size. Deleted space is reused rather than returned, so the file stays near its
 * high-water mark: when it is over the bound and has grown since the size bound last pruned, the retained span
 * shrinks to 3/4 of bound/size of itself, which frees a quarter of the bound for new rows to fill before it grows again.
 */
import {
  chainBlockAtOrBelow,
  daaScoreAtTime,
  databaseBytes,
  pruneHistoryBatch,
  pruneTokenUndo,
  readRetentionBound,
  readRetentionLimits,
  recordRetentionBound,
  vacuumPrunedTables,
  type Db,
  type RetentionPolicy,
  DEFAULT_CHECKPOINT_NAME,
} from '../db';
import { createPeriodicJob } from './periodic-job';

/** The embedded devnet's default: a week, and at most 4 GB of database (see the README's Operations section). */
export const DEVNET_RETENTION: RetentionPolicy = { days: 7, gigabytes: 4 };

/**
 * The policy in force: each bound as configured (null for `all`), or when unset the embedded devnet's default, and
 * against a real node none (keep everything).
 */
export function retentionPolicyFor(config: {
  days: number | null | undefined;
  gigabytes: number | null | undefined;
  embeddedDevnet: boolean;
}): RetentionPolicy {
  const fallback = config.embeddedDevnet ? DEVNET_RETENTION : { days: null, gigabytes: null };
  return {
    days: config.days === undefined ? fallback.days : config.days,
    gigabytes: config.gigabytes === undefined ? fallback.gigabytes : config.gigabytes,
  };
}

export const keepsEverything = (policy: RetentionPolicy) => policy.days === null && policy.gigabytes === null;

export interface HistoryPrunerOptions {
  db: Db;
  policy: RetentionPolicy;
  checkpointName?: string;
  log?: (line: string) => void;
  /** Between runs. */
  intervalMs?: number;
  /** Blocks deleted per batch (one transaction). */
  batchBlocks?: number;
  /** Pause after each batch, so queued index writes take their turn. */
  pauseMs?: number;
}

export interface PruneRun {
  /** The DAA score history below which was deleted; null when the policy asked for nothing. */
  cutoff: bigint | null;
  /** Which bound set the cutoff. */
  bound: 'time' | 'size' | null;
  batches: number;
  blocks: number;
  transactions: number;
}

export interface HistoryPruner {
  start(): void;
  stop(): Promise<void>;
  /** One run: choose the cutoff, delete below it batch by batch, vacuum. */
  runOnce(): Promise<PruneRun>;
}

const DAY_MS = 86_400_000;
const BYTES_PER_GIGABYTE = 1_000_000_000;
/** After a size-bound prune, the retained span is this fraction of what would fill the bound exactly. */
const SIZE_HEADROOM = 0.75;

const NOTHING: PruneRun = { cutoff: null, bound: null, batches: 0, blocks: 0, transactions: 0 };

const minOf = (values: readonly (bigint | null)[]): bigint | null =>
  values.reduce<bigint | null>((low, value) => (value === null ? low : low === null || value < low ? value : low), null);

export function createHistoryPruner(options: HistoryPrunerOptions): HistoryPruner {
  const { db, policy } = options;
  const checkpointName = options.checkpointName ?? DEFAULT_CHECKPOINT_NAME;
  const log = options.log ?? (() => undefined);
  const intervalMs = options.intervalMs ?? 60_000;
  const batchBlocks = options.batchBlocks ?? 100;
  const pauseMs = options.pauseMs ?? 20;

  async function chooseCutoff(): Promise<{ cutoff: bigint; time: bigint; bound: 'time' | 'size'; bytes: bigint } | null> {
    const limits = await readRetentionLimits(db, checkpointName);
    if (limits === null || limits.pruningPointDaaScore === null) return null;
    const safe = minOf([limits.pruningPointDaaScore, limits.tokenCheckpointDaaScore]) as bigint;
    let target: bigint | null = null;
    let bound: 'time' | 'size' = 'time';
    if (policy.days !== null) {
      const time = limits.checkpointTime - BigInt(Math.round(policy.days * DAY_MS));
      target = await daaScoreAtTime(db, time, limits.lowestDaaScore, limits.checkpointDaaScore);
    }
    const bytes = await databaseBytes(db);
    if (policy.gigabytes !== null) {
      const limit = policy.gigabytes * BYTES_PER_GIGABYTE;
      const previous = (await readRetentionBound(db))?.databaseBytesAtSizePrune ?? 0n;
      if (Number(bytes) > limit && bytes > previous) {
        const span = limits.checkpointDaaScore - limits.lowestDaaScore;
        const keep = (span * BigInt(Math.floor((SIZE_HEADROOM * limit * 1e6) / Number(bytes)))) / 1_000_000n;
        const sizeTarget = limits.checkpointDaaScore - keep;
        if (target === null || sizeTarget > target) [target, bound] = [sizeTarget, 'size'];
      }
    }
    if (target === null) return null;
    const at = await chainBlockAtOrBelow(db, target < safe ? target : safe);
    if (at === null || at.daaScore <= limits.lowestDaaScore) return null;
    return { cutoff: at.daaScore, time: at.timestamp, bound, bytes };
  }

  async function runOnce(): Promise<PruneRun> {
    if (keepsEverything(policy)) return NOTHING;
    const chosen = await chooseCutoff();
    if (chosen === null) return NOTHING;
    const run: PruneRun = { cutoff: chosen.cutoff, bound: chosen.bound, batches: 0, blocks: 0, transactions: 0 };
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        const pruned = await pruneHistoryBatch(tx, chosen.cutoff, batchBlocks);
        if (pruned.blocks > 0) {
          await recordRetentionBound(tx, {
            fromDaaScore: chosen.cutoff,
            fromTime: chosen.time,
            policy,
            prunedBlocks: pruned.blocks,
            prunedTransactions: pruned.transactions,
          });
        }
        return pruned;
      });
      if (batch.blocks === 0) break;
      run.batches += 1;
      run.blocks += batch.blocks;
      run.transactions += batch.transactions;
      if (job.stopping) break;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    await pruneTokenUndo(db, chosen.cutoff);
    if (run.blocks === 0) return run;
    await vacuumPrunedTables(db);
    if (chosen.bound === 'size') {
      await recordRetentionBound(db, {
        fromDaaScore: chosen.cutoff,
        fromTime: chosen.time,
        policy,
        prunedBlocks: 0,
        prunedTransactions: 0,
        databaseBytesAtSizePrune: await databaseBytes(db),
      });
    }
    log(
      `retention: deleted ${run.blocks} blocks and ${run.transactions} transactions below DAA score ${run.cutoff} ` +
        `(${chosen.bound} bound, database was ${chosen.bytes} bytes)`,
    );
    return run;
  }

  const job = createPeriodicJob(async () => void (await runOnce()), {
    intervalMs,
    onError: (error) => log(`retention: ${error instanceof Error ? error.message : String(error)}`),
  });

  return {
    start() {
      if (!keepsEverything(policy)) job.start();
    },
    stop: () => job.stop(),
    runOnce,
  };
}
