/**
 * Soak of the embedded default: the app with default settings (embedded devnet, its traffic, the indexer, PGlite on
 * disk in a scratch DATA_DIR) under a steady API load, sampled over time; stops by itself.
 *
 * Usage: npx next build && npx tsx bench/soak.ts [--minutes 30] [--rate 20] [--sample-seconds 30] [--port 3291]
 *
 * Load: `--rate` requests a second, spread evenly, cycling through a mix of metered reads (DAG info, fee estimate,
 * mempool, a DAA range, a recent block, transaction and address history as the chain offers them).
 * Figures, printed per sample and summarised at the end:
 *   RSS            the app process's resident set (VmRSS from /proc; the devnet runs on a worker thread in it).
 *   heap           the main thread's V8 heap in use after its latest major GC, from GET /metrics
 *                  (`dagboard_heap_after_major_gc_bytes{thread="main"}`): what it retains, without the swing of
 *                  garbage not yet collected.
 *   devnet heap    the same for the embedded devnet's thread (`{thread="devnet"}`), which it reports every 10 s.
 *   loop lag p99   `nodejs_eventloop_lag_p99_seconds` from GET /metrics: the main thread's event loop, p99 over the
 *                  interval since the previous scrape (prom-client resets its histogram at each scrape).
 *   slope          least-squares slope of RSS and the heaps over the run in MB per hour, beside the first-half slope
 *                  (the baseline: warm-up growth that should flatten) and the second half's; the goal is flat within
 *                  noise.
 *   errors by kind every answer that is not a 2xx, by status, and every failed request, by error code.
 * The first sample is taken once the app is ready; the warm-up minute that follows is not skipped.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { assertPortFree, percentile, sleep, startApp, stopApp, waitForHealth } from './support/app-server';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '20' },
    'sample-seconds': { type: 'string', default: '30' },
    port: { type: 'string', default: '3291' },
  },
});

const minutes = Number(values.minutes);
const rate = Number(values.rate);
const sampleSeconds = Number(values['sample-seconds']);
if (!(minutes > 0 && rate > 0 && sampleSeconds > 0)) throw new Error('--minutes, --rate and --sample-seconds must be positive');

const API_KEY = 'dgb_soak_bench_key';
const METRICS_TOKEN = 'soak-bench-metrics-token';

interface Sample {
  atMinutes: number;
  rssMb: number;
  heapMb: number | null;
  devnetHeapMb: number | null;
  loopLagP99Ms: number | null;
  requests: number;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith('VmRSS:'));
  if (line === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** The sum of a metric family's samples (with `labels` in their label set) in Prometheus text, or null when absent. */
function metricSum(text: string, name: string, labels = ''): number | null {
  const samples = text
    .split('\n')
    .filter((line) => line.startsWith(`${name} `) || (line.startsWith(`${name}{`) && line.includes(labels)))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
  return samples.length === 0 ? null : samples.reduce((sum, value) => sum + value, 0);
}

async function scrape(base: string): Promise<string> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  return response.ok ? response.text() : '';
}

function slopePerHour(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return Number.NaN;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / points.length;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / points.length;
  const covariance = points.reduce((sum, point) => sum + (point.x - meanX) * (point.y - meanY), 0);
  const variance = points.reduce((sum, point) => sum + (point.x - meanX) ** 2, 0);
  return (covariance / variance) * 60;
}

interface ChainRefs {
  blockHash?: string;
  transactionId?: string;
  address?: string;
  daaScore?: bigint;
}

async function refreshRefs(base: string, refs: ChainRefs): Promise<void> {
  const headers = { 'x-api-key': API_KEY };
  const info = (await (await fetch(`${base}/v1/rpc/getBlockDagInfo`, { headers })).json()) as {
    sink?: string;
    virtualDaaScore?: string;
  };
  if (info.sink === undefined || info.virtualDaaScore === undefined) return;
  refs.blockHash = info.sink;
  refs.daaScore = BigInt(info.virtualDaaScore);
  const block = (await (
    await fetch(`${base}/v1/rpc/getBlock`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ hash: info.sink, includeTransactions: true }),
    })
  ).json()) as {
    block?: { transactions?: { verboseData?: { transactionId: string }; outputs?: { verboseData?: { scriptPublicKeyAddress?: string } }[] }[] };
  };
  const paying = block.block?.transactions?.at(-1);
  refs.transactionId = paying?.verboseData?.transactionId ?? refs.transactionId;
  refs.address = paying?.outputs?.[0]?.verboseData?.scriptPublicKeyAddress ?? refs.address;
}

interface LoadRequest {
  path: string;
  body?: unknown;
}

function requestMix(refs: ChainRefs): LoadRequest[] {
  const mix: LoadRequest[] = [
    { path: '/v1/rpc/getBlockDagInfo' },
    { path: '/v1/rpc/getFeeEstimate' },
    { path: '/v1/rpc/getMempoolEntries?includeOrphanPool=false' },
  ];
  if (refs.blockHash !== undefined) mix.push({ path: '/v1/rpc/getBlock', body: { hash: refs.blockHash, includeTransactions: true } });
  if (refs.daaScore !== undefined && refs.daaScore > 200n) {
    mix.push({ path: `/v1/blocks/daa-score/${refs.daaScore - 200n}/${refs.daaScore - 190n}` });
  }
  if (refs.transactionId !== undefined) mix.push({ path: `/v1/transactions/${refs.transactionId}` });
  if (refs.address !== undefined) mix.push({ path: `/v1/addresses/${refs.address}/transactions?limit=25` });
  return mix;
}

async function main(): Promise<void> {
  const port = Number(values.port);
  await assertPortFree(port);
  const server = startApp(port, 'soak', { API_KEYS: API_KEY, METRICS_TOKEN, DEVNET_SEED: 'bench-soak' });
  const errors = new Map<string, number>();
  const count = (kind: string): void => {
    errors.set(kind, (errors.get(kind) ?? 0) + 1);
  };
  const samples: Sample[] = [];
  let requests = 0;
  try {
    await waitForHealth(server.base, server.process);
    const pid = server.process.pid!;
    const refs: ChainRefs = {};
    await refreshRefs(server.base, refs);
    const started = Date.now();
    const ends = started + minutes * 60_000;
    console.log(`soak of ${server.base} for ${minutes} min at ${rate} requests/s, a sample every ${sampleSeconds} s`);
    console.log(`${'min'.padStart(6)} ${'RSS MB'.padStart(8)} ${'heap MB'.padStart(8)} ${'devnet MB'.padStart(9)} ${'lag p99 ms'.padStart(11)} ${'requests'.padStart(9)}`);
    const takeSample = async () => {
      const metrics = await scrape(server.base);
      const heap = metricSum(metrics, 'dagboard_heap_after_major_gc_bytes', 'thread="main"');
      const devnetHeap = metricSum(metrics, 'dagboard_heap_after_major_gc_bytes', 'thread="devnet"');
      const lag = metricSum(metrics, 'nodejs_eventloop_lag_p99_seconds');
      const sample: Sample = {
        atMinutes: (Date.now() - started) / 60_000,
        rssMb: rssMb(pid),
        heapMb: heap === null ? null : heap / 2 ** 20,
        devnetHeapMb: devnetHeap === null ? null : devnetHeap / 2 ** 20,
        loopLagP99Ms: lag === null ? null : lag * 1000,
        requests,
      };
      samples.push(sample);
      const show = (value: number | null, digits: number) => (value === null ? 'n/a' : value.toFixed(digits));
      console.log(
        `${sample.atMinutes.toFixed(1).padStart(6)} ${sample.rssMb.toFixed(1).padStart(8)} ${show(sample.heapMb, 1).padStart(8)} ${show(sample.devnetHeapMb, 1).padStart(9)} ${show(sample.loopLagP99Ms, 1).padStart(11)} ${String(requests).padStart(9)}`,
      );
    };
    await takeSample();
    let nextSample = Date.now() + sampleSeconds * 1000;
    let nextRefs = Date.now() + 10_000;
    const interval = 1000 / rate;
    let due = Date.now();
    const inFlight = new Set<Promise<void>>();
    while (Date.now() < ends) {
      const mix = requestMix(refs);
      const { path, body } = mix[requests % mix.length]!;
      requests += 1;
      const request = fetch(`${server.base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-api-key': API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      })
        .then(async (response) => {
          await response.arrayBuffer();
          if (!response.ok) count(`HTTP ${response.status}`);
        })
        .catch((error: unknown) => count(error instanceof Error ? ((error.cause as { code?: string })?.code ?? error.name) : 'unknown'))
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
      if (Date.now() >= nextRefs) {
        nextRefs = Date.now() + 10_000;
        await refreshRefs(server.base, refs).catch(() => count('refresh failed'));
      }
      if (Date.now() >= nextSample) {
        // A loop that fell behind (a slow scrape on a loaded machine) takes one sample, not one per missed slot.
        while (nextSample <= Date.now()) nextSample += sampleSeconds * 1000;
        await takeSample();
      }
      due += interval;
      await sleep(Math.max(0, due - Date.now()));
    }
    await Promise.all(inFlight);
    await takeSample();
    summarise(samples, errors, requests);
  } finally {
    await stopApp(server);
  }
}

function summarise(samples: readonly Sample[], errors: ReadonlyMap<string, number>, requests: number): void {
  const series = (pick: (sample: Sample) => number | null, from: readonly Sample[]) =>
    from.flatMap((sample) => {
      const y = pick(sample);
      return y === null ? [] : [{ x: sample.atMinutes, y }];
    });
  const firstHalf = samples.slice(0, Math.ceil(samples.length / 2));
  const secondHalf = samples.slice(Math.floor(samples.length / 2));
  const slopes = (pick: (sample: Sample) => number | null) =>
    `slope ${slopePerHour(series(pick, samples)).toFixed(1)} MB/h (first half, the baseline: ` +
    `${slopePerHour(series(pick, firstHalf)).toFixed(1)} MB/h; second half: ${slopePerHour(series(pick, secondHalf)).toFixed(1)} MB/h)`;
  const lags = samples.flatMap((sample) => (sample.loopLagP99Ms === null ? [] : [sample.loopLagP99Ms])).sort((a, b) => a - b);
  const rss = samples.map((sample) => sample.rssMb);
  const minutesRun = samples.at(-1)?.atMinutes ?? Number.NaN;
  console.log(`\n${requests} requests over ${minutesRun.toFixed(1)} min (${(requests / (minutesRun * 60)).toFixed(1)} a second sent)`);
  console.log(`RSS         ${rss[0]?.toFixed(1)} → ${rss.at(-1)?.toFixed(1)} MB; ${slopes((s) => s.rssMb)}`);
  console.log(`heap        ${slopes((s) => s.heapMb)}`);
  console.log(`devnet heap ${slopes((s) => s.devnetHeapMb)}`);
  console.log(`event-loop lag p99 (per sample): median ${percentile(lags, 50).toFixed(1)} ms, worst ${(lags.at(-1) ?? Number.NaN).toFixed(1)} ms`);
  console.log(errors.size === 0 ? 'errors: none' : `errors: ${[...errors].map(([kind, n]) => `${kind} × ${n}`).join(', ')}`);
}

await main();
