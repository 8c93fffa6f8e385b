/**
 * Throughput and latency of the /v1 API under `npm start` (server.mjs: Next with /v1 ahead of its router), each
 * endpoint beside a bare node:http server that makes
 * the same database read or node call (lib/db, lib/rpc) on the same database and node, in the same run, so the ratio
 * is the cost of everything around the read: the HTTP front, the key check, RU metering, validation, formatting,
 * ETag and headers. Run with `npx tsx bench/api.ts` after `npx next build` in the same working tree; it stops by
 * itself and stops everything it started.
 *
 * It starts, on loopback: a devnet node (lib/devnet/main.ts, on --port + 2), a scratch PostgreSQL database (made and
 * dropped through --postgres), a key with room for the load (the real `npm run keys` entry), the indexer as its own
 * process (`npm run indexer`'s entry, so neither server shares its event loop with indexing), server.mjs on --port
 * with INDEXER_MODE=off, and the bare server (this file with --bare, on --port + 1, its own process like the app). Once the index holds the sink's coinbase and the miner's history has a full page, each endpoint is measured
 * for --duration seconds at --connections after a 2 s warm-up, app and bare alternating, for --rounds rounds:
 *   GET /v1/transactions/{id}                 (getTransaction)
 *   GET /v1/addresses/{address}/transactions  (getAddressTransactions, 20 items)
 *   GET /v1/rpc/getBlockDagInfo               (the node's getBlockDagInfo)
 * Goal: app ≥ 0.5 of the bare server's req/s, app p99 ≤ 20 ms. The machine's other load shows up in both columns;
 * compare ratios, and the spread over rounds.
 *
 * Options: --port 3300, --duration 10, --rounds 2, --connections 50, --postgres postgres://postgres@127.0.0.1:5432.
 */
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { getAddressTransactions, getTransaction, openDb } from '../lib/db';
import { hexToBytes } from '../lib/kaspa/bytes';
import { createRpcClient } from '../lib/rpc';
import { stringifyJson } from '../lib/rpc/json';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3300' },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
    bare: { type: 'boolean', default: false },
    database: { type: 'string' },
    node: { type: 'string' },
  },
});

function positiveInteger(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return value;
}

const WARMUP_SECONDS = 2;
const START_TIMEOUT_MS = 180_000;
const ADDRESS_PAGE = 20;
const REQUEST_TIMEOUT_SECONDS = 30;

/** The bare server: the same reads as the endpoints, with nothing around them but JSON. */
async function serveBare(port: number, databaseUrl: string, nodeUrl: string): Promise<void> {
  const db = await openDb({ url: databaseUrl });
  const rpc = createRpcClient({ url: nodeUrl });
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(stringifyJson(body));
    };
    const path = (request.url ?? '/').split('?')[0]!;
    const parts = path.split('/');
    let work: Promise<unknown>;
    if (parts[2] === 'transactions' && parts.length === 4) {
      work = getTransaction(db, hexToBytes(parts[3]!), { includePayload: false }).then((transaction) => ({ transaction }));
    } else if (parts[2] === 'addresses' && parts[4] === 'transactions') {
      work = getAddressTransactions(db, {
        address: decodeURIComponent(parts[3]!),
        limit: ADDRESS_PAGE,
        acceptedOnly: false,
        includePayload: false,
      });
    } else if (path === '/v1/rpc/getBlockDagInfo') {
      work = rpc.call('getBlockDagInfo', {});
    } else {
      send(404, { error: 'not found' });
      return;
    }
    work.then(
      (body) => send(200, body),
      (error: unknown) => send(500, { error: String(error) }),
    );
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1');
  const shutdown = () => {
    server.close();
    server.closeAllConnections();
    void rpc.close().then(() => db.close()).then(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

const children: ChildProcess[] = [];

function start(name: string, command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4_000);
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null) console.error(`${name} exited with ${code}: ${errors}`);
  });
  children.push(child);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${what}: not ready within ${START_TIMEOUT_MS / 1000} s`);
}

function portOpen(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(undefined));
  });
}

interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Requests that failed at the connection or took longer than REQUEST_TIMEOUT_SECONDS (a loaded machine). */
  failed: number;
}

async function measure(url: string, key: string, connections: number, seconds: number): Promise<Measurement> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    timeout: REQUEST_TIMEOUT_SECONDS,
    headers: { 'x-api-key': key },
  });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} responses were not 2xx`);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.errors + result.timeouts,
  };
}

function range(numbers: readonly number[], digits: number): string {
  const low = Math.min(...numbers).toFixed(digits);
  const high = Math.max(...numbers).toFixed(digits);
  return low === high ? low : `${low}–${high}`;
}

async function main(): Promise<void> {
  const port = positiveInteger('port', values.port);
  const duration = positiveInteger('duration', values.duration);
  const rounds = positiveInteger('rounds', values.rounds);
  const connections = positiveInteger('connections', values.connections);
  if (values.bare) {
    if (values.database === undefined || values.node === undefined) throw new Error('--bare needs --database and --node');
    await serveBare(port, values.database, values.node);
    return;
  }

  for (const taken of [port, port + 1, port + 2]) {
    if (await portOpen(taken)) throw new Error(`port ${taken} is taken; choose another --port`);
  }
  const run = randomBytes(4).toString('hex');
  const database = `dagboard_bench_${run}`;
  const databaseUrl = `${values.postgres}/${database}`;
  const nodeUrl = `ws://127.0.0.1:${port + 2}`;
  const dataDir = `./data/bench-api-${run}`;
  const admin = new pg.Client({ connectionString: `${values.postgres}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();

  const cleanUp = async () => {
    await Promise.all(children.map(stop));
    const dropper = new pg.Client({ connectionString: `${values.postgres}/postgres` });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await dropper.end();
    await rm(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

  try {
    console.log(`starting devnet, app on :${port}, bare server on :${port + 1} (database ${database})`);
    start('devnet', 'npx', ['tsx', 'lib/devnet/main.ts'], {
      DEVNET_RPC_PORT: String(port + 2),
      DEVNET_PERSIST: 'false',
      DEVNET_SEED: `bench-${run}`,
      DEVNET_BLOCKS_PER_SECOND: '2',
      DEVNET_TX_PER_SECOND: '5',
    });
    await until('devnet', () => portOpen(port + 2));
    const created = spawnSync(
      'npx',
      ['tsx', 'lib/runtime/keys-main.ts', 'create', '--name', 'bench', '--ru-per-second', '1000000', '--ru-per-month', '1000000000'],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' },
    );
    const key = /^key \(shown once, store it now\): (\S+)$/m.exec(created.stdout)?.[1];
    if (key === undefined) throw new Error(`npm run keys failed: ${created.stderr}`);
    start('indexer', 'npx', ['tsx', 'lib/indexer/main.ts'], { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, KASPA_RPC_URL: nodeUrl });
    start('app', 'node', ['server.mjs', '-p', String(port), '-H', '127.0.0.1'], {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      KASPA_RPC_URL: nodeUrl,
      INDEXER_MODE: 'off',
    });
    start('bare server', 'npx', ['tsx', 'bench/api.ts', '--bare', '--port', String(port + 1), '--database', databaseUrl, '--node', nodeUrl], {});
    await until('bare server', () => portOpen(port + 1));

    const app = `http://127.0.0.1:${port}`;
    const get = async <T>(path: string): Promise<T | undefined> => {
      const response = await fetch(`${app}${path}`, { headers: { 'x-api-key': key } });
      return response.ok ? ((await response.json()) as T) : undefined;
    };
    type Block = { transactions: { outputs: { verboseData?: { scriptPublicKeyAddress: string } }[] }[]; verboseData: { transactionIds: string[] } };
    const sample = await until('an indexed coinbase', async () => {
      const dag = await get<{ sink: string }>('/v1/rpc/getBlockDagInfo');
      if (dag === undefined) return undefined;
      const response = await fetch(`${app}/v1/rpc/getBlock`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ hash: dag.sink, includeTransactions: true }),
      });
      if (!response.ok) return undefined;
      const { block } = (await response.json()) as { block: Block };
      const transactionId = block.verboseData.transactionIds[0];
      const address = block.transactions[0]?.outputs.find((output) => output.verboseData)?.verboseData?.scriptPublicKeyAddress;
      if (transactionId === undefined || address === undefined) return undefined;
      return (await get(`/v1/transactions/${transactionId}`)) === undefined ? undefined : { transactionId, address };
    });
    await until('a full page of address history', async () => {
      const page = await get<{ metadata: { count: number } }>(`/v1/addresses/${sample.address}/transactions`);
      return page !== undefined && page.metadata.count >= ADDRESS_PAGE ? true : undefined;
    });

    const endpoints = [
      { name: 'GET /v1/transactions/{id}', path: `/v1/transactions/${sample.transactionId}` },
      { name: 'GET /v1/addresses/{address}/transactions', path: `/v1/addresses/${sample.address}/transactions` },
      { name: 'GET /v1/rpc/getBlockDagInfo', path: '/v1/rpc/getBlockDagInfo' },
    ];
    const results = new Map(endpoints.map((endpoint) => [endpoint.name, [] as { app: Measurement; bare: Measurement }[]]));
    for (let round = 0; round < rounds; round++) {
      for (const endpoint of endpoints) {
        const servers = round % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
        const measured: Partial<Record<'app' | 'bare', Measurement>> = {};
        for (const server of servers) {
          const url = `http://127.0.0.1:${server === 'app' ? port : port + 1}${endpoint.path}`;
          await measure(url, key, connections, WARMUP_SECONDS);
          measured[server] = await measure(url, key, connections, duration);
        }
        const pair = { app: measured.app!, bare: measured.bare! };
        results.get(endpoint.name)!.push(pair);
        console.log(
          `round ${round + 1} ${endpoint.name}: app ${pair.app.requestsPerSecond.toFixed(0)} req/s p50 ${pair.app.p50} ms ` +
            `p99 ${pair.app.p99} ms · bare ${pair.bare.requestsPerSecond.toFixed(0)} req/s p50 ${pair.bare.p50} ms ` +
            `p99 ${pair.bare.p99} ms · ratio ${(pair.app.requestsPerSecond / pair.bare.requestsPerSecond).toFixed(2)}` +
            (pair.app.failed + pair.bare.failed > 0 ? ` · failed/timed out: app ${pair.app.failed}, bare ${pair.bare.failed}` : ''),
        );
      }
    }

    console.log(`\n${connections} connections, ${duration} s per measurement, ${rounds} rounds (ranges over rounds)`);
    console.log('endpoint | app req/s | bare req/s | ratio (goal ≥ 0.5) | app p50 / p99 ms (goal p99 ≤ 20) | bare p50 / p99 ms');
    for (const [name, pairs] of results) {
      const app = pairs.map((pair) => pair.app);
      const bare = pairs.map((pair) => pair.bare);
      console.log(
        [
          name,
          range(app.map((m) => m.requestsPerSecond), 0),
          range(bare.map((m) => m.requestsPerSecond), 0),
          range(pairs.map((pair) => pair.app.requestsPerSecond / pair.bare.requestsPerSecond), 2),
          `${range(app.map((m) => m.p50), 0)} / ${range(app.map((m) => m.p99), 0)}`,
          `${range(bare.map((m) => m.p50), 0)} / ${range(bare.map((m) => m.p99), 0)}`,
        ].join(' | '),
      );
    }
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
