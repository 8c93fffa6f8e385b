/**
 * lib/runtime: the composition root. It reads the validated configuration once, starts or connects to the Kaspa
 * node (the embedded devnet when KASPA_RPC_URL is unset), and wires the stages together. The single instance lives
 * on globalThis because Next loads instrumentation and route handlers as separate module copies.
 */
import { join } from 'node:path';
import { migrate, openDb, type Db } from '../db';
import { env, type Env } from '../env';
import { forkActivationOf } from '../devnet/params';
import { createRpcClient, type RpcClient } from '../rpc';
import { createApiServices, type ApiServices } from './api-services';
import { startEmbeddedDevnet, type EmbeddedDevnet } from './embedded-devnet';
import { feeHistoryFor, stopFeeHistory } from './fee-history';
import { startRuntimeIndexer, type RuntimeIndexer } from './indexer';
import { createLiveHub, type LiveHub } from './live';
import { startRuntimeTokens, type RuntimeTokens } from './tokens';

export type NodeKind = 'embedded-devnet' | 'external';

export interface Runtime {
  readonly env: Env;
  readonly nodeKind: NodeKind;
  readonly rpc: RpcClient;
  readonly db: Db;
  readonly indexer: RuntimeIndexer;
  readonly tokens: RuntimeTokens;
  readonly api: ApiServices;
  /** The live event hub behind the SSE stream, created on first use. */
  live(): LiveHub;
  stop(): Promise<void>;
}

const RUNTIME_KEY = Symbol.for('dagboard.runtime');
type RuntimeHolder = typeof globalThis & { [RUNTIME_KEY]?: Promise<Runtime> };

function log(line: string): void {
  console.log(`[dagboard] ${line}`);
}

async function openDatabase(config: Env): Promise<Db> {
  const db = await openDb({ url: config.DATABASE_URL ?? join(config.DATA_DIR, 'pglite') });
  const applied = await migrate(db);
  if (applied.length > 0) log(`database migrated to version ${applied.at(-1)}`);
  return db;
}

async function createRuntime(config: Env): Promise<Runtime> {
  const db = await openDatabase(config);
  let devnet: EmbeddedDevnet | undefined;
  let nodeUrl = config.KASPA_RPC_URL;
  if (nodeUrl === undefined) {
    devnet = await startEmbeddedDevnet({
      projectRoot: process.cwd(),
      seed: config.DEVNET_SEED,
      blocksPerSecond: config.DEVNET_BLOCKS_PER_SECOND,
      txPerSecond: config.DEVNET_TX_PER_SECOND,
      miners: config.DEVNET_MINERS,
      coinbaseMaturity: config.DEVNET_COINBASE_MATURITY,
      toccataActivation: forkActivationOf(config.DEVNET_TOCCATA_ACTIVATION),
      persistenceDir: config.DEVNET_PERSIST ? join(config.DATA_DIR, 'devnet') : null,
      port: config.DEVNET_RPC_PORT,
      log: (line) => log(`devnet: ${line}`),
    });
    nodeUrl = devnet.url;
  }
  const rpc = createRpcClient({ url: nodeUrl, onError: (error) => log(`node connection: ${error.message}`) });
  // /fees shows the estimate's history from the app's start, not from the page's first visit.
  feeHistoryFor(rpc);
  const api = await createApiServices({ env: config, db, rpc, embeddedDevnet: devnet !== undefined, log });
  const indexer = await startRuntimeIndexer({ config, db, rpc, log });
  const tokens = await startRuntimeTokens({
    config,
    db,
    embeddedDevnet: devnet !== undefined,
    indexes: indexer.role === 'embedded',
    addressPrefix: api.context.addressPrefix,
    log,
  });
  let live: LiveHub | undefined;
  return {
    env: config,
    nodeKind: devnet ? 'embedded-devnet' : 'external',
    rpc,
    db,
    indexer,
    tokens,
    api,
    live() {
      live ??= createLiveHub({ rpc, onError: (error) => log(`live: ${error.message}`) });
      return live;
    },
    async stop() {
      stopFeeHistory();
      await live?.close();
      await tokens.stop();
      await indexer.stop();
      await api.close();
      await rpc.close();
      await devnet?.stop();
      await db.close();
    },
  };
}

export function getRuntime(): Promise<Runtime> {
  const holder = globalThis as RuntimeHolder;
  holder[RUNTIME_KEY] ??= createRuntime(env).catch((error: unknown) => {
    delete holder[RUNTIME_KEY];
    throw error;
  });
  return holder[RUNTIME_KEY];
}
