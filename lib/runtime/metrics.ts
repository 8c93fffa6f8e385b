/**
 * GET /metrics: what an operator watches, in Prometheus text format (prom-client), one registry per runtime.
 *   /v1 traffic   requests by route and status, latency histogram by route, RU charged by key id (the key's id,
 *                 never the key or its digest), refusals (401/402/429) by status; counted in the endpoint wrapper,
 *                 which serves both the route files and the /v1 fast path.
 *   index         lag in DAA score and seconds (this process's indexer or the shared checkpoint), blocks ingested.
 *   node          connection state and reconnects; block count, block rate between scrapes, mempool size and virtual
 *                 DAA score, read from the node at scrape time (the embedded devnet or an external kaspad).
 *   database      PostgreSQL pool use.
 *   live          SSE subscribers.
 *   devnet        the embedded devnet thread's V8 heap (used and total), which the process figures below leave out.
 *   retained      each thread's V8 heap right after its latest major GC: what it holds, without uncollected garbage.
 *   process       prom-client's defaults: memory, heap, event-loop lag (p99 over the interval since the last scrape).
 * With METRICS_TOKEN set a scrape must send `Authorization: Bearer <token>`; unset, /metrics is open (README).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ApiError, MILLI_RU_PER_RU, problemResponse, requestIdOf } from '../api';
import type { RequestOutcome } from '../api/wrapper/endpoint';
import type { Db } from '../db';
import type { RpcClient } from '../rpc';
import { watchHeapAfterMajorGc } from '../devnet/heap-after-gc';
import type { DevnetHeap } from './embedded-devnet';
import type { RuntimeIndexer } from './indexer';

export interface RuntimeMetrics {
  observeRequest(outcome: RequestOutcome): void;
  countIngestedBlocks(count: number): void;
  /** Hands over the parts read at scrape time, once the composition root has them; until then those read empty. */
  watch(sources: RuntimeMetricsSources): void;
  /** The /metrics answer: 401 without the token when METRICS_TOKEN is set. */
  respond(request: Request): Promise<Response>;
}

export interface RuntimeMetricsOptions {
  /** METRICS_TOKEN. */
  token: string | undefined;
  /** Node calls made at scrape time give up after this long. */
  nodeTimeoutMs?: number;
  now?: () => number;
}

export interface RuntimeMetricsSources {
  rpc: Pick<RpcClient, 'call' | 'state' | 'onStateChange'>;
  db: Pick<Db, 'poolStats'>;
  indexer: Pick<RuntimeIndexer, 'role' | 'lag'>;
  liveSubscribers(): number;
  /** The embedded devnet thread's V8 heap in bytes; absent against an external node. */
  devnetHeap?(): DevnetHeap | null;
}

const REFUSED_STATUSES = ['401', '402', '429'] as const;
const CONNECTION_STATES = ['connecting', 'open', 'disconnected', 'closed'] as const;
/** Scrapes closer together than this (several scrapers) keep the previous block rate instead of a noisy one. */
const BLOCK_RATE_MIN_WINDOW_MS = 10_000;
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

function bearerMatches(header: string | null, expected: Buffer): boolean {
  const match = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

export function createRuntimeMetrics(options: RuntimeMetricsOptions): RuntimeMetrics {
  const now = options.now ?? Date.now;
  let sources: RuntimeMetricsSources | undefined;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'dagboard_http_requests_total',
    help: '/v1 requests answered, by route and status.',
    labelNames: ['route', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'dagboard_http_request_duration_seconds',
    help: '/v1 request latency from arrival to the answer, by route.',
    labelNames: ['route'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const charged = new Counter({
    name: 'dagboard_api_ru_charged_total',
    help: 'Request units charged, by API key id.',
    labelNames: ['key_id'],
    registers,
  });
  const refused = new Counter({
    name: 'dagboard_api_refused_total',
    help: '/v1 requests refused for their key: 401 (missing or unknown key), 402 (monthly allowance), 429 (rate).',
    labelNames: ['status'],
    registers,
  });
  for (const status of REFUSED_STATUSES) refused.inc({ status }, 0);
  const ingested = new Counter({
    name: 'dagboard_indexer_blocks_ingested_total',
    help: "Blocks this process's indexer has stored.",
    registers,
  });

  new Gauge({
    name: 'dagboard_indexer_lag_seconds',
    help: "Node sink's timestamp minus the index checkpoint block's timestamp.",
    labelNames: ['source'],
    registers,
    collect() {
      this.reset();
      const lag = sources?.indexer.lag();
      if (lag !== undefined && lag.lagSeconds !== null) this.set({ source: lag.source }, lag.lagSeconds);
    },
  });
  new Gauge({
    name: 'dagboard_indexer_lag_daa_score',
    help: "Node's virtual DAA score minus the index checkpoint's DAA score.",
    labelNames: ['source'],
    registers,
    collect() {
      this.reset();
      const lag = sources?.indexer.lag();
      if (lag !== undefined && lag.nodeVirtualDaaScore !== null && lag.indexedDaaScore !== null) {
        this.set({ source: lag.source }, Number(lag.nodeVirtualDaaScore - lag.indexedDaaScore));
      }
    },
  });
  new Gauge({
    name: 'dagboard_indexer_indexing',
    help: '1 when this process indexes, 0 when it serves the index another process (or none) writes.',
    registers,
    collect() {
      this.reset();
      if (sources !== undefined) this.set(sources.indexer.role === 'embedded' ? 1 : 0);
    },
  });

  let reconnectCount = 0;
  new Gauge({
    name: 'dagboard_node_connection_state',
    help: 'The node connection: 1 for its current state.',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      const current = sources?.rpc.state;
      if (current !== undefined) for (const state of CONNECTION_STATES) this.set({ state }, current === state ? 1 : 0);
    },
  });
  new Counter({
    name: 'dagboard_node_reconnects_total',
    help: 'Times the node connection opened again after it was lost.',
    registers,
    collect() {
      this.reset();
      this.inc(reconnectCount);
    },
  });

  const blockCount = new Gauge({ name: 'dagboard_node_block_count', help: "The node's block count.", registers });
  const blockRate = new Gauge({
    name: 'dagboard_node_block_rate',
    help: 'Blocks a second the node added between two scrapes at least 10 s apart.',
    registers,
  });
  const mempoolSize = new Gauge({ name: 'dagboard_node_mempool_size', help: "Transactions in the node's mempool.", registers });
  const virtualDaaScore = new Gauge({ name: 'dagboard_node_virtual_daa_score', help: "The node's virtual DAA score.", registers });
  let previousCount: { at: number; count: bigint } | undefined;
  const readNode = async () => {
    if (sources === undefined) return;
    const { rpc } = sources;
    const timeoutMs = options.nodeTimeoutMs ?? 1_000;
    try {
      const [dag, info] = await Promise.all([
        rpc.call('getBlockDagInfo', {}, { timeoutMs }),
        rpc.call('getInfo', {}, { timeoutMs }),
      ]);
      const at = now();
      blockCount.set(Number(dag.blockCount));
      virtualDaaScore.set(Number(dag.virtualDaaScore));
      mempoolSize.set(Number(info.mempoolSize));
      if (previousCount === undefined || at - previousCount.at >= BLOCK_RATE_MIN_WINDOW_MS) {
        if (previousCount !== undefined) {
          blockRate.set((Number(dag.blockCount - previousCount.count) * 1000) / (at - previousCount.at));
        }
        previousCount = { at, count: dag.blockCount };
      }
    } catch {
      // An unreachable node shows in dagboard_node_connection_state; the last figures stay.
    }
  };

  new Gauge({
    name: 'dagboard_db_pool_connections',
    help: 'PostgreSQL pool connections: max, total (open), idle, waiting (queries queued for one); none on PGlite.',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      const stats = sources?.db.poolStats?.();
      if (stats === undefined) return;
      for (const state of ['max', 'total', 'idle', 'waiting'] as const) this.set({ state }, stats[state]);
    },
  });
  new Gauge({
    name: 'dagboard_live_subscribers',
    help: 'Clients connected to the live event stream (/api/stream).',
    registers,
    collect() {
      this.set(sources?.liveSubscribers() ?? 0);
    },
  });

  new Gauge({
    name: 'dagboard_devnet_heap_bytes',
    help: "The embedded devnet thread's V8 heap: used and total (its own isolate; the process's heap figures are the main thread's).",
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      const heap = sources?.devnetHeap?.();
      if (heap === undefined || heap === null) return;
      this.set({ state: 'used' }, heap.used);
      this.set({ state: 'total' }, heap.total);
    },
  });

  const mainHeapAfterGc = watchHeapAfterMajorGc();
  new Gauge({
    name: 'dagboard_heap_after_major_gc_bytes',
    help: "A thread's V8 heap in use right after its latest major GC (the main thread; the embedded devnet's).",
    labelNames: ['thread'],
    registers,
    collect() {
      this.reset();
      const main = mainHeapAfterGc.current();
      if (main !== null) this.set({ thread: 'main' }, main);
      const devnet = sources?.devnetHeap?.()?.retained;
      if (devnet !== undefined && devnet !== null) this.set({ thread: 'devnet' }, devnet);
    },
  });

  const expected = options.token === undefined ? undefined : digest(options.token);
  return {
    observeRequest(outcome) {
      const status = String(outcome.status);
      requests.inc({ route: outcome.route, status });
      latency.observe({ route: outcome.route }, outcome.seconds);
      if (outcome.keyId !== null) charged.inc({ key_id: outcome.keyId }, outcome.chargedMilliRu / MILLI_RU_PER_RU);
      if ((REFUSED_STATUSES as readonly string[]).includes(status)) refused.inc({ status });
    },
    countIngestedBlocks(count) {
      ingested.inc(count);
    },
    watch(given) {
      sources = given;
      let everOpen = given.rpc.state === 'open';
      given.rpc.onStateChange((change) => {
        if (change.state !== 'open') return;
        if (everOpen) reconnectCount += 1;
        everOpen = true;
      });
    },
    async respond(request) {
      if (expected !== undefined && !bearerMatches(request.headers.get('authorization'), expected)) {
        return problemResponse(ApiError.invalidMetricsToken(), requestIdOf(request), { 'www-authenticate': 'Bearer' });
      }
      await readNode();
      return new Response(await registry.metrics(), {
        headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
      });
    },
  };
}
