/**
 * The kaspa-rest-server interface (/kaspa-rest) against its /v1 equivalents, under the same load, in the same run:
 *   GET /kaspa-rest/transactions/{id}                         vs GET /v1/transactions/{id}
 *   GET /kaspa-rest/addresses/{a}/full-transactions-page (20) vs GET /v1/addresses/{a}/transactions (20)
 *   GET /kaspa-rest/info/blockdag                             vs GET /v1/rpc/getBlockDagInfo
 * It starts the built app (`npm run build` first) on loopback with its embedded devnet and an in-memory database, waits
 * until the index holds an accepted payment, then measures each pair for --duration seconds at --connections after a
 * 2 s warm-up, /v1 and /kaspa-rest alternating, for --rounds rounds, and prints req/s, p50 and p99 with the ratio
 * kaspa-rest / v1. Both sides run unthrottled: /v1 under a server key of 1,000 RU/s, /kaspa-rest keyless at
 * 1,000,000 RU/s per IP. It stops by itself and stops the app.
 *
 * Options: --port 3310, --duration 5, --rounds 2, --connections 20.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { assertPortFree, sleep, startApp, stopApp, waitForHealth } from './support/app-server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3310' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '20' },
  },
});

function positiveInteger(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return value;
}

const port = positiveInteger('port', values.port);
const seconds = positiveInteger('duration', values.duration);
const rounds = positiveInteger('rounds', values.rounds);
const connections = positiveInteger('connections', values.connections);
const WARMUP_SECONDS = 2;
const SAMPLE_TIMEOUT_MS = 180_000;

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<Figures> {
  const result = await autocannon({ url, connections, duration, timeout: 30, headers });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function sample(base: string, key: string): Promise<{ transactionId: string; address: string }> {
  const deadline = Date.now() + SAMPLE_TIMEOUT_MS;
  const headers = { 'x-api-key': key };
  while (Date.now() < deadline) {
    const dag = (await (await fetch(`${base}/v1/rpc/getBlockDagInfo`, { headers })).json()) as { sink: string };
    const reply = await fetch(`${base}/v1/rpc/getBlock`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ hash: dag.sink, includeTransactions: true }),
    });
    const { block } = (await reply.json()) as {
      block: { transactions: { inputs: unknown[]; verboseData: { transactionId: string }; outputs: { verboseData: { scriptPublicKeyAddress: string } }[] }[] };
    };
    const payment = block.transactions.find((transaction) => transaction.inputs.length > 0);
    if (payment !== undefined) {
      const id = payment.verboseData.transactionId;
      for (let attempt = 0; attempt < 20; attempt++) {
        const found = await fetch(`${base}/kaspa-rest/transactions/${id}`);
        if (found.ok && ((await found.json()) as { is_accepted: boolean }).is_accepted) {
          return { transactionId: id, address: payment.outputs[0]!.verboseData.scriptPublicKeyAddress };
        }
        await sleep(500);
      }
    }
    await sleep(1000);
  }
  throw new Error('no accepted payment was indexed in time');
}

function format(figures: Figures): string {
  return `${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${String(figures.p50).padStart(4)} ms  p99 ${String(figures.p99).padStart(4)} ms`;
}

async function main(): Promise<void> {
  await assertPortFree(port);
  const key = `dgb_bench_${randomBytes(18).toString('base64url')}`;
  const app = startApp(port, 'kaspa-rest', {
    DATABASE_URL: 'memory://',
    DEVNET_PERSIST: 'false',
    SERVER_API_KEY: key,
    KASPA_REST_RU_PER_SECOND_PER_IP: '1000000',
    DEVNET_COINBASE_MATURITY: '20',
  });
  try {
    await waitForHealth(app.base, app.process);
    const chain = await sample(app.base, key);
    const pairs = [
      { name: 'transaction', v1: `/v1/transactions/${chain.transactionId}`, rest: `/kaspa-rest/transactions/${chain.transactionId}` },
      {
        name: 'address history (20)',
        v1: `/v1/addresses/${chain.address}/transactions?limit=20`,
        rest: `/kaspa-rest/addresses/${chain.address}/full-transactions-page?limit=20`,
      },
      { name: 'blockdag info', v1: '/v1/rpc/getBlockDagInfo', rest: '/kaspa-rest/info/blockdag' },
    ];
    console.log(`kaspa-rest vs /v1: ${connections} connections, ${seconds} s per measurement, ${rounds} rounds`);
    for (const pair of pairs) {
      for (let round = 1; round <= rounds; round++) {
        await load(`${app.base}${pair.v1}`, { 'x-api-key': key }, WARMUP_SECONDS);
        const v1 = await load(`${app.base}${pair.v1}`, { 'x-api-key': key }, seconds);
        await load(`${app.base}${pair.rest}`, {}, WARMUP_SECONDS);
        const rest = await load(`${app.base}${pair.rest}`, {}, seconds);
        console.log(`${pair.name} (round ${round})`);
        console.log(`  /v1         ${format(v1)}`);
        console.log(`  /kaspa-rest ${format(rest)}   ratio ${(rest.requestsPerSecond / v1.requestsPerSecond).toFixed(2)}`);
      }
    }
  } finally {
    await stopApp(app);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
