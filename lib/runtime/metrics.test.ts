import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as metricsRoute } from '@/app/metrics/route';
import { createApiKey, endpointDefiner, type RouteHandler } from '../api';
import { getBlockDagInfoEndpoint } from '../api/endpoints/node-endpoints';
import { insertBlocks, migrate, openDb, writeCheckpoint, type Db } from '../db';
import { syntheticBlock } from '../db/test-support/fixtures';
import { testBackends } from '../db/test-support/test-databases';
import { parseEnv } from '../env';
import type { RpcClient, RpcStateChange } from '../rpc';
import { createApiServices, type ApiServices } from './api-services';
import { startRuntimeIndexer, type RuntimeIndexer } from './indexer';
import { createRuntimeMetrics, type RuntimeMetrics } from './metrics';
import { UNKNOWN_SHARED_LAG } from './shared-index';

setFlagsFromString('--expose-gc');
const forceMajorGc = runInNewContext('gc') as () => void;

const TEST_KEY = 'dgb_metrics_test_key_5f1c9a';
const TOKEN = 'metrics-test-token-0123456789';
const SINK = 'b'.repeat(64);
const H = (digit: string) => digit.repeat(64);
const RUNTIME_KEY = Symbol.for('dagboard.runtime');
/** The test's clock moves only when told: the 402 and 429 below do not depend on when the test runs. */
const START = Date.UTC(2026, 10, 25, 12, 0, 0, 100);
let now = START;

/** A node that answers what the metrics and getBlockDagInfo ask, adding 10 blocks a second of the test's clock. */
function fakeNode(sinkTimestamp: bigint) {
  const listeners = new Set<(change: RpcStateChange) => void>();
  const rpc = {
    state: 'open',
    onStateChange(listener: (change: RpcStateChange) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async call(method: string) {
      switch (method) {
        case 'getBlockDagInfo': {
          const blockCount = 1_000n + BigInt(Math.floor((now - START) / 100));
          return {
            network: 'devnet',
            blockCount,
            headerCount: blockCount,
            tipHashes: [SINK],
            difficulty: 1,
            pastMedianTime: sinkTimestamp,
            virtualParentHashes: [SINK],
            pruningPointHash: H('a'),
            virtualDaaScore: 5_000n,
            sink: SINK,
          };
        }
        case 'getInfo':
          return { mempoolSize: 7n, isSynced: true, serverVersion: 'test' };
        case 'getBlock':
          return { block: { header: { timestamp: sinkTimestamp } } };
        case 'getCurrentNetwork':
          return { network: 'devnet' };
        default:
          throw new Error(`unexpected ${method}`);
      }
    },
  };
  const reconnect = () => {
    for (const listener of listeners) listener({ state: 'disconnected', previous: 'open' });
    for (const listener of listeners) listener({ state: 'open', previous: 'disconnected' });
  };
  return { rpc: rpc as unknown as RpcClient, reconnect };
}

function family(families: PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((each) => each.name === name);
  if (found === undefined) throw new Error(`no metric family ${name}`);
  return found;
}

const valueOf = (families: PrometheusFamily[], name: string, labels: Record<string, string> = {}) =>
  Number(
    family(families, name).metrics.find((sample) =>
      Object.entries(labels).every(([label, value]) => sample.labels?.[label] === value),
    )?.value,
  );

describe('GET /metrics', () => {
  let db: Db;
  let services: ApiServices;
  let indexer: RuntimeIndexer;
  let metrics: RuntimeMetrics;
  let node: ReturnType<typeof fakeNode>;
  let getBlockDagInfo: RouteHandler;
  const checkpointBlock = syntheticBlock({ label: 'checkpoint', daaScore: 4_990n, parents: [], transactionIds: [], isChainBlock: true });

  beforeAll(async () => {
    metrics = createRuntimeMetrics({ token: TOKEN, now: () => now });
    db = await openDb({ url: 'memory://' });
    await migrate(db);
    await insertBlocks(db, [checkpointBlock]);
    await writeCheckpoint(db, { name: 'virtual-chain', blockHash: checkpointBlock.hash, blueScore: 4_990n, daaScore: 4_990n });
    node = fakeNode(checkpointBlock.header.timestamp + 4_500n);
    const config = parseEnv({ DATA_DIR: '/nonexistent-unused', API_KEYS: TEST_KEY, SERVER_API_KEY: 'server-key-unused', INDEXER_MODE: 'off', METRICS_TOKEN: TOKEN });
    services = await createApiServices({
      env: config,
      db,
      rpc: node.rpc,
      embeddedDevnet: false,
      log: () => undefined,
      clock: () => now,
      observe: (outcome) => metrics.observeRequest(outcome),
    });
    indexer = await startRuntimeIndexer({ config, db, rpc: node.rpc, log: () => undefined });
    metrics.watch({ rpc: node.rpc, db, indexer, liveSubscribers: () => 3, devnetHeap: () => ({ used: 12_345, total: 67_890, retained: 9_876 }) });
    (globalThis as Record<symbol, unknown>)[RUNTIME_KEY] = Promise.resolve({ metrics });
    getBlockDagInfo = endpointDefiner(() => services.context)(getBlockDagInfoEndpoint);
  }, 60_000);

  afterAll(async () => {
    delete (globalThis as Record<symbol, unknown>)[RUNTIME_KEY];
    await indexer.stop();
    await services.close();
    await db.close();
  });

  const call = (key?: string) =>
    getBlockDagInfo(
      new Request('http://localhost/v1/rpc/getBlockDagInfo', { headers: key === undefined ? {} : { 'x-api-key': key } }),
      { params: Promise.resolve({}) },
    );
  const scrape = async (authorization: string | null = `Bearer ${TOKEN}`) =>
    metricsRoute(new Request('http://localhost/metrics', { headers: authorization === null ? {} : { authorization } }));

  it('refuses a scrape without the token, or with a wrong one, with the problem shape', async () => {
    for (const authorization of [null, 'Bearer wrong-token-0123456789', TOKEN, `Basic ${TOKEN}`]) {
      const response = await scrape(authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toMatchObject({ status: 401, code: 'invalid_metrics_token' });
    }
  });

  it('counts /v1 traffic by route and status, RU by key id, refusals, and reports index, node, live and process', async () => {
    const limited = (name: string, milliRuPerSecond: number, milliRuPerMonth: number) =>
      createApiKey(services.context.keys, { name, limits: { milliRuPerSecond, milliRuPerMonth }, now: new Date(START) });
    const monthly = await limited('monthly', 1_000, 1_000);
    const perSecond = await limited('per second', 1_000, 1_000_000);
    expect((await call(TEST_KEY)).status).toBe(200);
    expect((await call(TEST_KEY)).status).toBe(200);
    expect((await call()).status).toBe(401);
    expect((await call('dgb_not_a_known_key')).status).toBe(401);
    // 0.1 RU a call: ten calls a second, or ten in all, then the refusal.
    for (let second = 0; second < 10; second += 1) {
      expect((await call(monthly.key)).status).toBe(200);
      now += 1_000;
    }
    expect((await call(monthly.key)).status).toBe(402);
    for (let n = 0; n < 10; n += 1) expect((await call(perSecond.key)).status).toBe(200);
    expect((await call(perSecond.key)).status).toBe(429);
    node.reconnect();

    const first = await scrape();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    now += 15_000;
    await scrape();
    // Two seconds on, the rate keeps its 15 s window rather than measuring over two seconds.
    now += 2_000;
    forceMajorGc();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = await (await scrape()).text();
    const families = parsePrometheusTextFormat(text);

    const route = 'GET /v1/rpc/getBlockDagInfo';
    expect(valueOf(families, 'dagboard_http_requests_total', { route, status: '200' })).toBe(22);
    expect(valueOf(families, 'dagboard_http_requests_total', { route, status: '401' })).toBe(2);
    expect(valueOf(families, 'dagboard_http_requests_total', { route, status: '402' })).toBe(1);
    expect(valueOf(families, 'dagboard_http_requests_total', { route, status: '429' })).toBe(1);
    const latency = family(families, 'dagboard_http_request_duration_seconds');
    expect(latency.type).toBe('HISTOGRAM');
    // The parser folds a labelled histogram's samples into one bucket map, so the count is read off the text.
    expect(Object.keys(latency.metrics[0]?.buckets ?? {})).toContain('+Inf');
    expect(text).toContain(`dagboard_http_request_duration_seconds_count{route="${route}"} 26`);
    for (const [status, count] of [['401', 2], ['402', 1], ['429', 1]] as const) {
      expect(valueOf(families, 'dagboard_api_refused_total', { status })).toBe(count);
    }
    const seededId = `seed_${createHash('sha256').update(TEST_KEY).digest('hex').slice(0, 16)}`;
    expect(valueOf(families, 'dagboard_api_ru_charged_total', { key_id: seededId })).toBeCloseTo(0.2, 9);
    for (const { record } of [monthly, perSecond]) {
      expect(valueOf(families, 'dagboard_api_ru_charged_total', { key_id: record.id })).toBeCloseTo(1, 9);
    }

    expect(valueOf(families, 'dagboard_indexer_lag_seconds', { source: 'database' })).toBe(4.5);
    expect(valueOf(families, 'dagboard_indexer_lag_daa_score', { source: 'database' })).toBe(10);
    expect(valueOf(families, 'dagboard_indexer_indexing')).toBe(0);
    expect(family(families, 'dagboard_indexer_blocks_ingested_total').type).toBe('COUNTER');
    expect(valueOf(families, 'dagboard_node_connection_state', { state: 'open' })).toBe(1);
    expect(valueOf(families, 'dagboard_node_connection_state', { state: 'disconnected' })).toBe(0);
    expect(valueOf(families, 'dagboard_node_reconnects_total')).toBe(1);
    expect(valueOf(families, 'dagboard_node_mempool_size')).toBe(7);
    expect(valueOf(families, 'dagboard_node_block_count')).toBe(1_000 + (now - START) / 100);
    expect(valueOf(families, 'dagboard_node_block_rate')).toBe(10);
    expect(family(families, 'dagboard_db_pool_connections').metrics).toEqual([]);
    expect(valueOf(families, 'dagboard_live_subscribers')).toBe(3);
    expect(valueOf(families, 'dagboard_devnet_heap_bytes', { state: 'used' })).toBe(12_345);
    expect(valueOf(families, 'dagboard_devnet_heap_bytes', { state: 'total' })).toBe(67_890);
    expect(valueOf(families, 'dagboard_heap_after_major_gc_bytes', { thread: 'devnet' })).toBe(9_876);
    expect(valueOf(families, 'dagboard_heap_after_major_gc_bytes', { thread: 'main' })).toBeGreaterThan(0);
    for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(Number.isFinite(valueOf(families, name)), name).toBe(true);
    }

    for (const key of [TEST_KEY, monthly.key, perSecond.key]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(createHash('sha256').update(key).digest('hex'));
      expect(text).not.toContain(createHash('sha256').update(key).digest('base64'));
    }
    expect(text).not.toContain(TOKEN);
  });
});

describe.each(testBackends())('GET /metrics without METRICS_TOKEN, on $name', (backend) => {
  it('is open, and shows the PostgreSQL pool (PGlite has none)', async () => {
    const database = await backend.open();
    try {
      await database.db.query('SELECT 1');
      const { rpc } = fakeNode(0n);
      const metrics = createRuntimeMetrics({ token: undefined });
      const idle = { role: 'off' as const, lag: () => UNKNOWN_SHARED_LAG };
      metrics.watch({ rpc, db: database.db, indexer: idle, liveSubscribers: () => 0 });
      const response = await metrics.respond(new Request('http://localhost/metrics'));
      expect(response.status).toBe(200);
      const families = parsePrometheusTextFormat(await response.text());
      const pool = family(families, 'dagboard_db_pool_connections').metrics;
      if (backend.name === 'pglite') {
        expect(pool).toEqual([]);
      } else {
        const state = (name: string) => Number(pool.find((sample) => sample.labels?.state === name)?.value);
        expect(state('max')).toBe(4);
        expect(state('total')).toBeGreaterThanOrEqual(1);
        expect(state('idle')).toBeLessThanOrEqual(state('total'));
        expect(state('waiting')).toBe(0);
      }
      expect(family(families, 'dagboard_indexer_lag_seconds').metrics).toEqual([]);
    } finally {
      await database.dispose();
    }
  });
});
