/**
 * The app's indexer: with INDEXER_MODE=embedded (the default) this process follows the node into the database,
 * unless the database is PostgreSQL and another process (`npm run indexer` or another app instance) holds the
 * indexer lock, in which case this instance only serves. INDEXER_MODE=off never indexes. An instance that does not
 * index still reports the index's lag: it reads the shared indexer's checkpoint from the database (shared-index.ts).
 */
import { pruneStreamEvents, type Db } from '../db';
import type { Env } from '../env';
import {
  acquireIndexerLock,
  addressPrefixOf,
  createFeeAnnouncer,
  createHistoryPruner,
  createIndexer,
  createMempoolAnnouncer,
  createStatisticsRefresher,
  retentionPolicyFor,
  type IndexerLock,
  type IndexerStatus,
} from '../indexer';
import type { RpcClient } from '../rpc';
import { watchSharedIndex, type IndexLag } from './shared-index';

export interface RuntimeIndexer {
  /** embedded: this process indexes; off: INDEXER_MODE=off; elsewhere: another process holds the indexer lock. */
  readonly role: 'embedded' | 'off' | 'elsewhere';
  /** Null unless this process indexes. */
  status(): IndexerStatus | null;
  /** The index's lag behind the node, whichever process indexes. */
  lag(): IndexLag;
  stop(): Promise<void>;
}

export interface RuntimeIndexerOptions {
  config: Env;
  db: Db;
  rpc: RpcClient;
  log: (line: string) => void;
  /** Wait between start attempts while the node is unreachable. */
  startRetryMs?: number;
  /** How often an instance that does not index reads the shared checkpoint. */
  sharedPollMs?: number;
  /** After each batch this process's indexer commits, with its number of blocks. */
  onBlocksStored?: (count: number) => void;
  /** After a transaction of this process's indexer that wrote stream events commits. */
  onStreamEvents?: () => void;
  /** How often the stream events older than the retention window are deleted. */
  streamPruneIntervalMs?: number;
  /**
   * On PostgreSQL, while another process holds the indexer lock: retry every this many ms until this process holds it
   * (`npm run indexer`); unset, serve without indexing (an app instance).
   */
  waitForLockMs?: number;
}

const STREAM_PRUNE_BATCH = 10_000;

/** Deletes the stream events past the retention window every `intervalMs`, in batches (a statement stays short). */
function pruneStreamEventsEvery(db: Db, retentionMs: number, intervalMs: number, log: (line: string) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void (async () => {
      while ((await pruneStreamEvents(db, Date.now() - retentionMs, STREAM_PRUNE_BATCH)) === STREAM_PRUNE_BATCH);
    })()
      .catch((error: unknown) => log(`stream events: pruning failed (${error instanceof Error ? error.message : String(error)})`))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function serving(role: 'off' | 'elsewhere', options: RuntimeIndexerOptions): RuntimeIndexer {
  const watch = watchSharedIndex({ db: options.db, rpc: options.rpc, intervalMs: options.sharedPollMs });
  return {
    role,
    status: () => null,
    lag: () => watch.lag(),
    stop: async () => watch.stop(),
  };
}

export async function startRuntimeIndexer(options: RuntimeIndexerOptions): Promise<RuntimeIndexer> {
  const { config, db, rpc, log } = options;
  if (config.INDEXER_MODE === 'off') return serving('off', options);
  let lock: IndexerLock | null = null;
  if (db.kind === 'postgres' && config.DATABASE_URL !== undefined) {
    lock = await acquireIndexerLock(config.DATABASE_URL);
    while (lock === null && options.waitForLockMs !== undefined) {
      log('indexer: another process holds the indexer lock; waiting for it');
      await new Promise((resolve) => setTimeout(resolve, options.waitForLockMs));
      lock = await acquireIndexerLock(config.DATABASE_URL);
    }
    if (lock === null) {
      log('indexer: another process holds the indexer lock; this instance serves without indexing');
      return serving('elsewhere', options);
    }
  }
  const indexer = createIndexer({
    rpc,
    db,
    log: (line) => log(line),
    onBlocksStored: (hashes) => options.onBlocksStored?.(hashes.length),
    streamEventWindowMs: config.STREAM_RETENTION_MINUTES * 60_000,
    onStreamEvents: options.onStreamEvents,
  });
  const stopStreamPruning = pruneStreamEventsEvery(
    db,
    config.STREAM_RETENTION_MINUTES * 60_000,
    options.streamPruneIntervalMs ?? 60_000,
    log,
  );
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const attempt = () => {
    indexer.start().catch((error: unknown) => {
      if (stopped) return;
      log(`indexer: could not start (${error instanceof Error ? error.message : String(error)}); retrying`);
      retry = setTimeout(attempt, options.startRetryMs ?? 5_000);
    });
  };
  attempt();
  const pruner = createHistoryPruner({
    db,
    policy: retentionPolicyFor({
      days: config.HISTORY_RETENTION_DAYS,
      gigabytes: config.HISTORY_RETENTION_GB,
      embeddedDevnet: config.KASPA_RPC_URL === undefined,
    }),
    log,
  });
  pruner.start();
  const statistics = createStatisticsRefresher({ db, log });
  statistics.start();
  const fees = createFeeAnnouncer({ db, rpc, log, onStreamEvents: options.onStreamEvents });
  fees.start();
  const mempool = createMempoolAnnouncer({
    db,
    rpc,
    addressPrefix: async () => addressPrefixOf((await rpc.call('getCurrentNetwork', {})).network),
    position: () => {
      const status = indexer.status();
      return { nodeDaaScore: status.nodeVirtualDaaScore, indexedDaaScore: status.indexedDaaScore };
    },
    log,
    onStreamEvents: options.onStreamEvents,
  });
  mempool.start();
  return {
    role: 'embedded',
    status: () => indexer.status(),
    lag() {
      const status = indexer.status();
      return {
        source: 'this-process',
        nodeVirtualDaaScore: status.nodeVirtualDaaScore,
        indexedDaaScore: status.indexedDaaScore,
        lagSeconds: status.lagSeconds,
        checkpointMovedAt: status.lastBatchAt,
        error: status.lastError,
        gaps: status.gaps,
      };
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      stopStreamPruning();
      await pruner.stop();
      await statistics.stop();
      await fees.stop();
      await mempool.stop();
      await indexer.stop();
      await lock?.release();
    },
  };
}
