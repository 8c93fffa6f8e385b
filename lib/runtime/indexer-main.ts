/**
 * `npm run indexer`: the indexer alone, following KASPA_RPC_URL into DATABASE_URL (or the PGlite under DATA_DIR),
 * with the app's own wiring: the chain indexer as startRuntimeIndexer runs it (the indexer lock on PostgreSQL, history
 * retention, the stream event log and its pruning) and the token indexer as startRuntimeTokens runs it. App instances
 * sharing the database serve while it indexes (they cannot take the lock; INDEXER_MODE=off makes that explicit). A
 * second `npm run indexer` waits for the lock and takes over when the holder exits.
 */
import { join } from 'node:path';
import { migrate, openDb } from '../db';
import { env, type Env } from '../env';
import { addressPrefixOf } from '../indexer';
import { createRpcClient } from '../rpc';
import { startRuntimeIndexer } from './indexer';
import { startRuntimeTokens } from './tokens';

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
  // This process exists to index, whatever the app instances are told.
  const config: Env = { ...env, INDEXER_MODE: 'embedded' };
  const db = await openDb({ url: env.DATABASE_URL ?? join(env.DATA_DIR, 'pglite') });
  await migrate(db);
  const rpc = createRpcClient({ url: nodeUrl, onError: (error) => log(`node connection: ${error.message}`) });
  const indexer = await startRuntimeIndexer({ config, db, rpc, log, waitForLockMs: LOCK_RETRY_MS });
  const tokens = await startRuntimeTokens({
    config,
    db,
    embeddedDevnet: false,
    indexes: true,
    addressPrefix: async () => addressPrefixOf((await rpc.call('getBlockDagInfo', {})).network),
    log,
  });
  log(`following ${nodeUrl}`);
  const statusTimer = setInterval(() => {
    const status = indexer.status();
    if (status === null) return;
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
    await indexer.stop();
    await rpc.close();
    await db.close();
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
