/**
 * Stream fan-out (issue 19): block → subscriber delivery latency with many concurrent subscribers, server memory per
 * subscriber, and an exact resume. The server is this file with --server in its own process (loopback, an in-memory
 * PGlite log, the real hub, SSE and WebSocket transports, keys and metering); it appends a `block` event every 100 ms
 * (10 blocks/s) and an `address` event for one address every 500 ms. This process opens --subscribers clients (half
 * SSE, half WebSocket; a fifth of each filtered on that address, the rest on blocks) and measures the latency from
 * the append to each client's receipt. Baseline, same run: one subscription in the server's own process, read
 * straight from the hub (no transport). Resume: one WebSocket client is cut for --gap seconds and resumes with
 * `since`; the events it holds must be exactly the log's, in order. Stops by itself after --duration seconds.
 *
 * The subscribers are spread over --client-processes processes (default one per 2,500), so the clients' own parsing
 * does not bound what the server shows; each reports its latencies as a 1 ms histogram.
 *
 * Options: --subscribers 1000, --duration 20, --gap 5, --port 3320, --client-processes, --ramp 60 (seconds the
 * subscribers get to connect and receive a first event before the measurement starts).
 * `npm run bench:stream -- --subscribers 10000 --gap 60 --duration 90`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { request as httpRequest, createServer } from 'node:http';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { createApiKey, createMemoryKeyStore, createMemoryMeter } from '../lib/api';
import type { NodeApiContext } from '../lib/api/endpoints/node-endpoints';
import { appendStreamEvents, migrate, openDb } from '../lib/db';
import { wireKey } from '../lib/devnet/test-support/wire-devnet';
import { createStreamHub } from '../lib/stream/hub';
import { createStreamService } from '../lib/stream/service';
import { sseResponse } from '../lib/stream/sse';
import { createWsUpgradeHandler } from '../lib/stream/ws';

const { values } = parseArgs({
  options: {
    server: { type: 'boolean', default: false },
    clients: { type: 'string' },
    key: { type: 'string' },
    'client-processes': { type: 'string' },
    ramp: { type: 'string', default: '60' },
    subscribers: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '20' },
    gap: { type: 'string', default: '5' },
    port: { type: 'string', default: '3320' },
  },
});
const port = Number(values.port);
const watched = wireKey(77).address;
const now = () => performance.timeOrigin + performance.now();

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Latencies in 1 ms buckets; the last bucket holds everything at or above HISTOGRAM_MS. */
const HISTOGRAM_MS = 10_000;

function histogramOf(latencies: readonly number[], into = new Array<number>(HISTOGRAM_MS + 1).fill(0)): number[] {
  for (const latency of latencies) into[Math.min(HISTOGRAM_MS, Math.max(0, Math.floor(latency)))]! += 1;
  return into;
}

function histogramPercentile(histogram: readonly number[], p: number): number {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  let seen = 0;
  for (let bucket = 0; bucket < histogram.length; bucket++) {
    seen += histogram[bucket]!;
    if (seen > total * p) return bucket;
  }
  return Number.NaN;
}

async function server(): Promise<void> {
  const db = await openDb({ url: 'memory://' });
  await migrate(db);
  const keys = createMemoryKeyStore();
  const { key } = await createApiKey(keys, { name: 'bench', now: new Date(), limits: { milliRuPerSecond: 1e12, milliRuPerMonth: 1e14 } });
  const hub = createStreamHub({ db });
  const api = {
    keys,
    meter: createMemoryMeter(),
    clock: Date.now,
    logger: { error: (message: string) => console.error(message) },
    addressPrefix: async () => 'kaspadev' as const,
  } as unknown as NodeApiContext;
  const service = createStreamService({ hub, api, db, limits: { maxConnectionsPerKey: 1_000_000, heartbeatMs: 15_000 } });
  const http = createServer((request, response) => {
    void (async () => {
      const web = await sseResponse(
        service,
        new Request(`http://127.0.0.1${request.url}`, { headers: request.headers as Record<string, string> }),
      );
      response.writeHead(web.status, Object.fromEntries(web.headers));
      if (web.body === null) return response.end();
      const body = Readable.fromWeb(web.body as import('node:stream/web').ReadableStream);
      body.pipe(response);
      response.on('close', () => body.destroy());
    })();
  });
  http.on('upgrade', createWsUpgradeHandler(async () => service));
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));

  const baseline: number[] = [];
  const direct = hub.subscribe(null, { topics: new Set(['block']), addresses: null });
  void (async () => {
    for (;;) {
      const batch = await direct.next(60_000);
      if (batch.kind === 'closed') return;
      if (batch.kind !== 'events') continue;
      const at = now();
      for (const event of batch.events) baseline.push(at - (JSON.parse(event.data) as { t: number }).t);
    }
  })();

  let n = 0;
  const producer = setInterval(() => {
    n += 1;
    const events: Parameters<typeof appendStreamEvents>[1][number][] = [{ topic: 'block', address: null, data: { n, t: now() } }];
    if (n % 5 === 0) events.push({ topic: 'address', address: watched, data: { address: watched, n, t: now() } });
    void db.transaction((tx) => appendStreamEvents(tx, events, Date.now())).then(() => hub.wake());
  }, 100);
  process.on('message', (message: { kind: string }) => {
    if (message.kind === 'memory') {
      const sorted = [...baseline].sort((a, b) => a - b);
      process.send!({
        kind: 'memory',
        rss: process.memoryUsage().rss,
        heap: process.memoryUsage().heapUsed,
        cpu: process.cpuUsage(),
        baseline: { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) },
      });
    }
    if (message.kind === 'stop') {
      clearInterval(producer);
      direct.close();
      hub.close();
      // Upgraded sockets are not the HTTP server's to close: the process ends with them.
      void db.close().finally(() => process.exit(0));
    }
  });
  process.send!({ kind: 'ready', key });
}

interface Client {
  latencies: number[];
  ids: bigint[];
  /** Told it was too slow (SSE `dropped`, WebSocket close 4008). */
  dropped: boolean;
  close(): void;
}

function sseClient(key: string, query: string, lastEventId?: bigint): Client {
  const client: Client = { latencies: [], ids: [], dropped: false, close: () => request.destroy() };
  const request = httpRequest({ host: '127.0.0.1', port, path: `/v1/stream?${query}`, headers: { 'x-api-key': key, ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }) } }, (response) => {
    let buffer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (message.includes('event: dropped')) client.dropped = true;
        const data = /\ndata: (.*)/.exec(message)?.[1];
        const id = /^id: (\d+)/.exec(message)?.[1];
        if (data === undefined || id === undefined || message.includes('event: resync')) continue;
        client.latencies.push(now() - (JSON.parse(data) as { t: number }).t);
        client.ids.push(BigInt(id));
      }
    });
    response.on('error', () => undefined);
  });
  request.on('error', () => undefined);
  request.end();
  return client;
}

function wsClient(key: string, topic: 'block' | 'address', since?: bigint): Client & { opened: Promise<void> } {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/v1/ws${since === undefined ? '' : `?since=${since}`}`, { headers: { 'x-api-key': key } });
  const client: Client & { opened: Promise<void> } = {
    latencies: [],
    ids: [],
    dropped: false,
    close: () => socket.terminate(),
    opened: new Promise((resolve) => socket.once('open', () => resolve())),
  };
  socket.on('open', () => socket.send(JSON.stringify({ op: 'subscribe', id: 's', topic, ...(topic === 'address' ? { addresses: [watched] } : {}) })));
  socket.on('message', (frame) => {
    const message = JSON.parse(String(frame)) as { type: string; id: string; data: { t: number } };
    if (message.type !== 'event') return;
    client.latencies.push(now() - message.data.t);
    client.ids.push(BigInt(message.id));
  });
  socket.on('close', (code) => {
    if (code === 4008) client.dropped = true;
  });
  socket.on('error', () => undefined);
  return client;
}

/** Opens `count` subscribers (every other one SSE, a fifth of each kind filtered on the watched address). */
async function openSubscribers(key: string, count: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let index = 0; index < count; index++) {
    const filtered = index % 5 === 0;
    if (index % 2 === 0) clients.push(sseClient(key, filtered ? `topics=address&addresses=${watched}` : 'topics=block'));
    else clients.push(wsClient(key, filtered ? 'address' : 'block'));
    if (index % 200 === 199) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return clients;
}

interface ClientReport {
  receiving: number;
  histogram: number[];
  dropped: number;
}

const reportOf = (clients: readonly Client[]): ClientReport => ({
  receiving: clients.filter((client) => client.ids.length > 0).length,
  histogram: histogramOf(clients.flatMap((client) => client.latencies)),
  dropped: clients.filter((client) => client.dropped).length,
});

/** A client process (--clients n): opens its subscribers, then answers `report` (with `reset` to restart the clock). */
async function clientProcess(): Promise<void> {
  const clients = await openSubscribers(values.key!, Number(values.clients));
  process.on('message', (message: { kind: string }) => {
    if (message.kind === 'report' || message.kind === 'reset') {
      process.send!({ kind: 'report', ...reportOf(clients) });
      if (message.kind === 'reset') for (const client of clients) client.latencies.length = 0;
    }
    if (message.kind === 'stop') {
      for (const client of clients) client.close();
      process.exit(0);
    }
  });
  process.send!({ kind: 'opened' });
}

/** A forked process of this file, answering one message per request. */
function forkSelf(args: string[]) {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), args, { execArgv: ['--import', 'tsx'] });
  const waiting: ((message: Record<string, unknown>) => void)[] = [];
  child.on('message', (message: Record<string, unknown>) => waiting.shift()?.(message));
  const ask = (kind: string | null) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.push(resolve);
      if (kind !== null) child.send({ kind });
    });
  return { child, ask };
}

async function main(): Promise<void> {
  if (values.server) return server();
  if (values.clients !== undefined) return clientProcess();
  const subscribers = Number(values.subscribers);
  const duration = Number(values.duration) * 1000;
  const gap = Number(values.gap) * 1000;
  const processes = Number(values['client-processes'] ?? Math.max(1, Math.ceil(subscribers / 2_500)));
  const { child, ask } = forkSelf(['--server', '--port', String(port)]);
  const { key } = (await ask(null)) as { key: string };
  const before = (await ask('memory')) as { rss: number; heap: number };
  // The resumer connects before the crowd, so the load the crowd brings cannot keep it from its first events.
  const resumer = wsClient(key, 'block');
  await resumer.opened;
  const groups = Array.from({ length: processes }, (_, index) =>
    forkSelf(['--clients', String(Math.floor(subscribers / processes) + (index < subscribers % processes ? 1 : 0)), '--key', key, '--port', String(port)]),
  );
  await Promise.all(groups.map((group) => group.ask(null)));
  const gather = async (kind: 'report' | 'reset'): Promise<ClientReport> => {
    const reports = (await Promise.all(groups.map((group) => group.ask(kind)))) as unknown as ClientReport[];
    const histogram = histogramOf([]);
    for (const report of reports) report.histogram.forEach((count, bucket) => (histogram[bucket]! += count));
    return {
      receiving: reports.reduce((sum, report) => sum + report.receiving, 0),
      histogram,
      dropped: reports.reduce((sum, report) => sum + report.dropped, 0),
    };
  };
  // Measured once every subscriber has had an event (or --ramp seconds passed: the count says how many had).
  const rampDeadline = Date.now() + Number(values.ramp) * 1000;
  let receiving = 0;
  while (Date.now() < rampDeadline && (resumer.ids.length === 0 || receiving < subscribers)) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    receiving = (await gather('report')).receiving;
  }
  receiving = (await gather('reset')).receiving;
  const started = (await ask('memory')) as { cpu: NodeJS.CpuUsage };
  const startedAt = Date.now();

  await new Promise((resolve) => setTimeout(resolve, Math.max(0, duration / 2 - gap / 2)));
  resumer.close();
  const cutAt = resumer.ids.at(-1)!;
  await new Promise((resolve) => setTimeout(resolve, gap));
  const resumed = wsClient(key, 'block', cutAt);
  await new Promise((resolve) => setTimeout(resolve, Math.max(1_000, duration / 2 - gap / 2)));
  const after = (await ask('memory')) as {
    rss: number;
    heap: number;
    cpu: NodeJS.CpuUsage;
    baseline: { count: number; p50: number; p99: number };
  };
  const elapsed = (Date.now() - startedAt) / 1000;

  const measured = await gather('report');
  const deliveries = measured.histogram.reduce((sum, count) => sum + count, 0);
  const upTo = resumed.ids.at(-1)!;
  const held = [...resumer.ids, ...resumed.ids].filter((id) => id <= upTo);
  // The reference reads the same range afterwards, alone, so no load of the run can make it miss anything.
  const reference = sseClient(key, 'topics=block', resumer.ids[0]! - 1n);
  const referenceDeadline = Date.now() + 30_000;
  while ((reference.ids.at(-1) ?? 0n) < upTo && Date.now() < referenceDeadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const expected = reference.ids.filter((id) => id <= upTo);
  const exact = held.length > 0 && held.length === expected.length && held.every((id, index) => id === expected[index]);
  const cpuSeconds = (after.cpu.user + after.cpu.system - started.cpu.user - started.cpu.system) / 1e6;

  console.log(
    `subscribers ${subscribers} (half SSE, half WebSocket; a fifth filtered on one address) in ${processes} client process${processes === 1 ? '' : 'es'}, ${receiving} receiving when measured (ramp up to ${values.ramp} s), ${elapsed.toFixed(1)} s at 10 blocks/s`,
  );
  console.log(`  baseline (in-process hub subscription): ${after.baseline.count} deliveries, p50 ${after.baseline.p50.toFixed(1)} ms, p99 ${after.baseline.p99.toFixed(1)} ms`);
  console.log(
    `  over the wire:                          ${deliveries} deliveries, p50 ${histogramPercentile(measured.histogram, 0.5)} ms, p99 ${histogramPercentile(measured.histogram, 0.99)} ms (goal p99 ≤ 1000 ms)`,
  );
  console.log(`  server memory: RSS ${(before.rss / 2 ** 20).toFixed(0)} MiB before the clients, ${(after.rss / 2 ** 20).toFixed(0)} MiB with them; JS heap ${((after.heap - before.heap) / subscribers / 1024).toFixed(1)} KiB per subscriber`);
  console.log(`  dropped as slow: ${measured.dropped} of ${subscribers}`);
  console.log(`  server CPU: ${((cpuSeconds / elapsed) * 100).toFixed(0)} % of one core`);
  console.log(`  resume after ${gap / 1000} s away: ${held.length} events held, ${expected.length} in the log: ${exact ? 'exact (none lost, none twice, in order)' : 'MISMATCH'}`);

  for (const client of [resumed, reference]) client.close();
  for (const { child: process } of [...groups, { child }]) {
    process.send({ kind: 'stop' });
    await new Promise((resolve) => process.once('exit', resolve));
  }
  if (!exact) process.exitCode = 1;
}

await main();
