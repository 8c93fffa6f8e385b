/**
 * lib/runtime: the composition root. It reads the validated configuration once, starts or connects to the Kaspa
 * node (the embedded devnet when KASPA_RPC_URL is unset), and wires the stages together. The single instance lives
 * on globalThis because Next loads instrumentation and route handlers as separate module copies.
 */
import { join } from 'node:path';
import { listenStreamEvents, migrate, openDb, type Db } from '../db';
import { env, type Env } from '../env';
import { forkActivationOf } from '../devnet/consensus/params';
import { createRpcClient, type RpcClient } from '../rpc';
import { redactSecrets } from '../api';
import { createApiServices, type ApiServices } from './api-services';
import type { DevnetRestoreReport } from '../devnet/node';
import { startEmbeddedDevnet, type DevnetReorgReport, type EmbeddedDevnet } from './embedded-devnet';
import { nodeFeeHistory, type FeeHistory } from '../live/fee-history';
import { startRuntimeIndexer, type RuntimeIndexer } from './indexer';
import { createLiveHub, logBlockFeed, nodeBlockFeed, type LiveHub } from '../live/hub';
import { createRuntimeMetrics, type RuntimeMetrics } from './metrics';
import { kasUsdSourceOf, startRuntimeTokens, type RuntimeTokens } from './tokens';
import { createStreamHub } from '../stream/hub';
import { createStreamService, type StreamService } from '../stream/service';
import { startWebhookWorker } from './webhooks';

export type NodeKind = 'embedded-devnet' | 'external';

export interface Runtime {
  readonly env: Env;
  readonly nodeKind: NodeKind;
  /** The embedded devnet's restore from its block log; null with an external node or without persistence. */
  readonly devnetRestored: DevnetRestoreReport | null;
  /** The embedded devnet's controls: only with DEVNET_CONTROLS=true on the embedded devnet, else null. */
  readonly devnetControls: { forceReorg(depth: number): Promise<DevnetReorgReport> } | null;
  readonly rpc: RpcClient;
  readonly db: Db;
  readonly indexer: RuntimeIndexer;
  readonly tokens: RuntimeTokens;
  readonly api: ApiServices;
  readonly metrics: RuntimeMetrics;
  /** The fee estimate sampled since the app started (the /fees page's history). */
  readonly feeHistory: FeeHistory;
  /** The live event hub behind the SSE stream, created on first use. */
  live(): LiveHub;
  /** The /v1 streams (SSE and WebSocket) over the event log, created on first use. */
  stream(): StreamService;
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
      bootstrap: config.DEVNET_BOOTSTRAP,
      pruningDepth: config.DEVNET_PRUNING_DEPTH,
      toccataActivation: forkActivationOf(config.DEVNET_TOCCATA_ACTIVATION),
      persistenceDir: config.DEVNET_PERSIST ? join(config.DATA_DIR, 'devnet') : null,
      port: config.DEVNET_RPC_PORT,
      log: (line) => log(`devnet: ${line}`),
    });
    nodeUrl = devnet.url;
  }
  const rpc = createRpcClient({ url: nodeUrl, onError: (error) => log(`node connection: ${error.message}`) });
  // /fees shows the estimate's history from the app's start, not from the page's first visit.
  const feeHistory = nodeFeeHistory(rpc);
  const metrics = createRuntimeMetrics({ token: config.METRICS_TOKEN });
  const kasUsd = kasUsdSourceOf(config, log);
  const api = await createApiServices({
    kasUsd,
    env: config,
    db,
    rpc,
    embeddedDevnet: devnet !== undefined,
    log,
    observe: (outcome) => metrics.observeRequest(outcome),
    onStreamEvents: () => wakeStreamReaders(),
  });
  let stream: StreamService | undefined;
  const webhooks = startWebhookWorker({ db, keys: api.context.keys, meter: api.context.meter, config, log });
  const wakeStreamReaders = () => {
    stream?.hub.wake();
    webhooks.wake();
  };
  // Other processes (app instances, `npm run indexer`) write the log too when it lives in PostgreSQL.
  const streamListener = await listenStreamEvents(db, wakeStreamReaders, (error) =>
    log(`stream notifications: ${redactSecrets(error.message)}`),
  );
  const indexer = await startRuntimeIndexer({
    config,
    db,
    rpc,
    log,
    onBlocksStored: (count) => metrics.countIngestedBlocks(count),
    onStreamEvents: wakeStreamReaders,
  });
  const tokens = await startRuntimeTokens({
    config,
    db,
    embeddedDevnet: devnet !== undefined,
    indexes: indexer.role === 'embedded',
    addressPrefix: api.context.addressPrefix,
    log,
    kasUsd,
    onStreamEvents: wakeStreamReaders,
  });
  let live: LiveHub | undefined;
  metrics.watch({
    rpc,
    db,
    indexer,
    liveSubscribers: () => live?.clientCount ?? 0,
    devnetHeap: devnet === undefined ? undefined : () => devnet.heap(),
  });
  const streamService = (): StreamService => {
    stream ??= createStreamService({
      hub: createStreamHub({ db, onError: (error) => log(`stream: ${error.message}`) }),
      api: api.context,
      db,
      limits: { maxConnectionsPerKey: config.STREAM_MAX_CONNECTIONS_PER_KEY, maxAddresses: config.STREAM_MAX_ADDRESSES },
    });
    return stream;
  };
  return {
    env: config,
    nodeKind: devnet ? 'embedded-devnet' : 'external',
    devnetRestored: devnet?.restored ?? null,
    devnetControls: devnet !== undefined && config.DEVNET_CONTROLS ? { forceReorg: (depth) => devnet.forceReorg(depth) } : null,
    rpc,
    db,
    indexer,
    tokens,
    api,
    metrics,
    feeHistory,
    live() {
      // The explorer rides the event log the /v1 streams serve, unless nothing indexes (then the log stays empty).
      live ??= createLiveHub({
        rpc,
        feed: indexer.role === 'off' ? nodeBlockFeed(rpc) : logBlockFeed(streamService().hub),
        onError: (error) => log(`live: ${error.message}`),
      });
      return live;
    },
    stream: streamService,
    async stop() {
      await streamListener.close();
      stream?.hub.close();
      await webhooks.stop();
      feeHistory.stop();
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
