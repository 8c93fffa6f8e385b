/**
 * The app's indexer: with INDEXER_MODE=embedded (the default) this process follows the node into the database,
 * unless the database is PostgreSQL and another process (`npm run indexer` or another app instance) holds the
 * indexer lock, in which case this instance only serves. INDEXER_MODE=off never indexes.
 */
import type { Db } from '../db';
import type { Env } from '../env';
import { acquireIndexerLock, createIndexer, type IndexerLock, type IndexerStatus } from '../indexer';
import type { RpcClient } from '../rpc';

export interface RuntimeIndexer {
  /** embedded: this process indexes; off: INDEXER_MODE=off; elsewhere: another process holds the indexer lock. */
  readonly role: 'embedded' | 'off' | 'elsewhere';
  /** Null unless this process indexes. */
  status(): IndexerStatus | null;
  stop(): Promise<void>;
}

export interface RuntimeIndexerOptions {
  config: Env;
  db: Db;
  rpc: RpcClient;
  log: (line: string) => void;
  /** Wait between start attempts while the node is unreachable. */
  startRetryMs?: number;
}

const idle = (role: RuntimeIndexer['role']): RuntimeIndexer => ({ role, status: () => null, stop: async () => {} });

export async function startRuntimeIndexer(options: RuntimeIndexerOptions): Promise<RuntimeIndexer> {
  const { config, db, rpc, log } = options;
  if (config.INDEXER_MODE === 'off') return idle('off');
  let lock: IndexerLock | null = null;
  if (db.kind === 'postgres' && config.DATABASE_URL !== undefined) {
    lock = await acquireIndexerLock(config.DATABASE_URL);
    if (lock === null) {
      log('indexer: another process holds the indexer lock; this instance serves without indexing');
      return idle('elsewhere');
    }
  }
  const indexer = createIndexer({ rpc, db, log: (line) => log(line) });
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
  return {
    role: 'embedded',
    status: () => indexer.status(),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await indexer.stop();
      await lock?.release();
    },
  };
}
