/**
 * `npm run indexer`: the indexer alone, following KASPA_RPC_URL into DATABASE_URL (or the PGlite under DATA_DIR).
 * On PostgreSQL it first takes the indexer lock, so exactly one indexer writes while app instances sharing the
 * database serve (they skip indexing when they cannot take the lock; INDEXER_MODE=off makes that explicit). A
 * second `npm run indexer` waits for the lock and takes over when the holder exits.
 */
import { join } from 'node:path';
import { acquireIndexerLock, migrate, openDb, type IndexerLock } from '../db';
import { env } from '../env';
import { createRpcClient } from '../rpc';
import { createTokenIndexer } from './token-indexer';
import { tokenProfileFor } from '../tokens/profile';
import { addressPrefixOf } from './convert';
import { createHistoryPruner, retentionPolicyFor } from './history-pruner';
import { createIndexer } from './indexer';

const LOCK_RETRY_MS = 5_000;
const STATUS_LOG_INTERVAL_MS = 10_000;

function log(line: string): void {
  console.log(`[dagboard indexer] ${line}`);
}

async function main(): Promise<void> {
  const nodeUrl = env.KASPA_RPC_URL;
  if (nodeUrl === undefined) {
    throw new Error('KASPA_RPC_URL must name the node to index (a kaspad wRPC JSON URL, or `npm run devnet`)');
  }
  const databaseUrl = env.DATABASE_URL ?? join(env.DATA_DIR, 'pglite');
  let lock: IndexerLock | null = null;
  if (databaseUrl.startsWith('postgres')) {
    lock = await acquireIndexerLock(databaseUrl);
    while (lock === null) {
      log('another process holds the indexer lock; waiting');
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
      lock = await acquireIndexerLock(databaseUrl);
    }
  }
  const db = await openDb({ url: databaseUrl });
  await migrate(db);
  const rpc = createRpcClient({ url: nodeUrl, onError: (error) => log(`node connection: ${error.message}`) });
  const indexer = createIndexer({ rpc, db, log });
  await indexer.start();
  const pruner = createHistoryPruner({
    db,
    policy: retentionPolicyFor({
      days: env.HISTORY_RETENTION_DAYS,
      gigabytes: env.HISTORY_RETENTION_GB,
      embeddedDevnet: false,
    }),
    log,
  });
  pruner.start();
  const { network } = await rpc.call('getBlockDagInfo', {});
  const tokens = createTokenIndexer({ db, profile: tokenProfileFor(addressPrefixOf(network)), log });
  tokens.start();
  log(`following ${nodeUrl}`);
  const statusTimer = setInterval(() => {
    const status = indexer.status();
    log(
      `${status.phase}: indexed DAA score ${status.indexedDaaScore ?? '?'} of ${status.nodeVirtualDaaScore ?? '?'}, ` +
        `lag ${status.lagSeconds ?? '?'} s${status.lastError ? `, last error: ${status.lastError}` : ''}`,
    );
  }, STATUS_LOG_INTERVAL_MS);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(statusTimer);
    await tokens.stop();
    await pruner.stop();
    await indexer.stop();
    await rpc.close();
    await db.close();
    await lock?.release();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void shutdown().then(() => process.exit(0));
    });
  }
}

main().catch((error: unknown) => {
  console.error('[dagboard indexer] failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
