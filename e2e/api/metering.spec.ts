/**
 * RU metering under real concurrency, against real `npm start` servers (server.mjs) this spec starts itself (the
 * shared app of playwright.config.ts runs on memory:// with API_KEYS only, so it cannot hold keys with small limits):
 *   - one devnet node (`npm run devnet`'s entry) on loopback, a scratch PostgreSQL database, keys made with the real
 *     `npm run keys` entry;
 *   - first one instance with the in-process meter, then two instances with REDIS_URL on the same database and node.
 * Every run makes new keys, so its Redis buckets ("dagboard:ru:{<key id>}:…") are a fresh namespace; the spec deletes
 * them, the database, the data directories and every process it started.
 *
 * Exactness is checked without trusting any one counter: charges are atomic and every cost is positive, so the
 * x-ru-remaining values of the charged responses, sorted, must step down by exactly each response's own cost from
 * the allowance left before the burst, and GET /v1/usage must show the sum.
 */
import { expect, test } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { connect, createServer } from 'node:net';
import { rm } from 'node:fs/promises';
import Redis from 'ioredis';
import pg from 'pg';
import { parseRu } from '../../lib/api/keys/costs';

const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = 'redis://127.0.0.1:6379';
const METER_PREFIX = 'dagboard:ru:';
const CONNECTIONS = 50;
const BURST = 1_000;
const START_TIMEOUT_MS = 120_000;

const run = randomBytes(4).toString('hex');
const database = `dagboard_metering_${run}`;
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** What the call costs when charged (the cost table, §4.1), in milli-RU. */
  cost: number;
  status: number;
}

interface Reply {
  call: Call;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  socket: number;
}

const BAD_ADDRESS = 'kaspadev:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq';
/** Charged calls of both costs and of success and client-error outcomes, none of them changing chain state. */
const MIX: readonly Call[] = [
  { method: 'GET', path: '/v1/rpc/getBlockDagInfo', cost: 100, status: 200 },
  { method: 'GET', path: '/v1/rpc/getFeeEstimate', cost: 100, status: 200 },
  { method: 'GET', path: `/v1/transactions/${'0'.repeat(64)}`, cost: 100, status: 404 },
  { method: 'POST', path: '/v1/rpc/getUtxosByAddresses', body: { addresses: [BAD_ADDRESS] }, cost: 500, status: 400 },
  { method: 'GET', path: `/v1/addresses/${BAD_ADDRESS}/transactions`, cost: 500, status: 400 },
];
const DAG_INFO = MIX[0]!;

const children: ChildProcess[] = [];
let devnetPort = 0;

function start(name: string, command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null) console.error(`${name} exited with ${code}:\n${output.join('')}`);
  });
  children.push(child);
  return child;
}

/** Stops a process group this spec started and waits for it to exit. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not come up in ${timeoutMs} ms`);
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Loopback ports nothing listens on now (fixed ports collide with other runs on a shared machine). */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            if (typeof address === 'object' && address !== null) resolve(address.port);
            else reject(new Error('no port'));
          });
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** A key made through the real `npm run keys` entry; its text is only held in memory. */
function createKey(name: string, ruPerSecond: string, ruPerMonth: string): { id: string; key: string } {
  const result = spawnSync(
    'npx',
    ['tsx', 'lib/runtime/keys-main.ts', 'create', '--name', name, '--ru-per-second', ruPerSecond, '--ru-per-month', ruPerMonth],
    { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' },
  );
  expect(result.status, result.stderr).toBe(0);
  const id = /^created (\S+) /m.exec(result.stdout)?.[1];
  const key = /^key \(shown once, store it now\): (\S+)$/m.exec(result.stdout)?.[1];
  if (id === undefined || key === undefined) throw new Error('npm run keys printed no key');
  return { id, key };
}

async function startApp(port: number, redis: boolean): Promise<ChildProcess> {
  expect(await portOpen(port), `port ${port} is taken`).toBe(false);
  const child = start(`app on ${port}`, 'node', ['server.mjs', '-p', String(port), '-H', '127.0.0.1'], {
    DATA_DIR: `./data/e2e-metering-${run}-${port}`,
    DATABASE_URL: databaseUrl,
    KASPA_RPC_URL: `ws://127.0.0.1:${devnetPort}`,
    INDEXER_MODE: 'off',
    ...(redis ? { REDIS_URL } : {}),
  });
  await until(`the app on ${port}`, () => portOpen(port));
  return child;
}

/** One keep-alive pool of at most CONNECTIONS sockets over all ports. */
function pool(ports: readonly number[]) {
  return new Agent({ keepAlive: true, maxSockets: CONNECTIONS / ports.length, maxFreeSockets: CONNECTIONS });
}

let socketIds = new WeakMap<object, number>();
let nextSocketId = 0;

function send(agent: Agent, port: number, key: string, call: Call): Promise<Reply> {
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: call.method,
        path: call.path,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({ call, status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString(), socket });
        });
        res.on('error', reject);
      },
    );
    let socket = -1;
    req.on('socket', (used) => {
      socket = socketIds.get(used) ?? nextSocketId++;
      socketIds.set(used, socket);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every call at once, spread round-robin over the ports, through one pool of CONNECTIONS sockets. */
async function burst(ports: readonly number[], key: string, calls: readonly Call[]): Promise<Reply[]> {
  const agent = pool(ports);
  socketIds = new WeakMap();
  nextSocketId = 0;
  try {
    return await Promise.all(calls.map((call, index) => send(agent, ports[index % ports.length]!, key, call)));
  } finally {
    agent.destroy();
  }
}

function header(reply: Reply, name: string): string {
  const value = reply.headers[name];
  if (typeof value !== 'string') throw new Error(`${reply.call.path} (${reply.status}) has no ${name} header`);
  return value;
}

interface Usage {
  keyId: string;
  limits: { ruPerSecond: string; ruPerMonth: string };
  month: { ruUsed: string; ruRemaining: string };
}

/** On a connection of its own: an idle keep-alive socket the server has just closed would fail the call. */
async function usage(port: number, key: string): Promise<Usage> {
  const reply = await send(new Agent({ keepAlive: false }), port, key, { method: 'GET', path: '/v1/usage', cost: 0, status: 200 });
  expect(reply.status, reply.body).toBe(200);
  return JSON.parse(reply.body) as Usage;
}

/**
 * The charged replies' x-ru-remaining values, sorted, step down from `before` by exactly each reply's cost: the
 * charges happened one at a time, none was lost or counted twice. Returns the total charged (milli-RU).
 */
function expectLinearCharges(charged: readonly Reply[], before: number): number {
  const steps = charged
    .map((reply) => ({ remaining: parseRu(header(reply, 'x-ru-remaining')), cost: parseRu(header(reply, 'x-request-cost-ru')) }))
    .sort((a, b) => b.remaining - a.remaining);
  let expected = before;
  for (const step of steps) {
    expected -= step.cost;
    expect(step.remaining).toBe(expected);
  }
  return before - expected;
}

function mixOf(count: number): Call[] {
  return Array.from({ length: count }, (_, index) => MIX[index % MIX.length]!);
}

async function expectExactSum(ports: readonly number[], key: string): Promise<void> {
  const before = await usage(ports[0]!, key);
  const calls = mixOf(BURST);
  const replies = await burst(ports, key, calls);
  expect(new Set(replies.map((reply) => reply.socket)).size).toBeLessThanOrEqual(CONNECTIONS);
  expect(new Set(replies.map((reply) => reply.socket)).size).toBeGreaterThan(CONNECTIONS / 2);
  for (const reply of replies) {
    expect(reply.status, reply.body).toBe(reply.call.status);
    expect(parseRu(header(reply, 'x-request-cost-ru'))).toBe(reply.call.cost);
  }
  const sum = calls.reduce((total, call) => total + call.cost, 0);
  expect(expectLinearCharges(replies, parseRu(before.month.ruRemaining))).toBe(sum);
  for (const port of ports) {
    const after = await usage(port, key);
    expect(parseRu(after.month.ruUsed) - parseRu(before.month.ruUsed)).toBe(sum);
  }
}

/**
 * A key admitting 10 dag-info calls per second gets a burst of 200: each one-second window charges at most 10, every
 * refusal is a 429 with Retry-After that comes only once its window is full, and the month is charged exactly.
 */
async function expectRateLimit(ports: readonly number[], key: { id: string; key: string }): Promise<number> {
  const perSecond = 1_000;
  const replies = await burst(ports, key.key, Array.from({ length: 200 }, () => DAG_INFO));
  const charged = replies.filter((reply) => reply.status === 200);
  const refused = replies.filter((reply) => reply.status === 429);
  expect(charged.length + refused.length).toBe(replies.length);
  expect(refused.length).toBeGreaterThan(0);
  for (const reply of refused) {
    const problem = JSON.parse(reply.body) as { code: string; status: number };
    expect(problem).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(header(reply, 'content-type')).toContain('application/problem+json');
    const retryAfter = header(reply, 'retry-after');
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(header(reply, 'ratelimit-reset')).toBe(retryAfter);
    expect(header(reply, 'x-request-cost-ru')).toBe('0');
    expect(parseRu(header(reply, 'ratelimit-remaining'))).toBeLessThan(DAG_INFO.cost);
  }
  // The n-th charge of a window leaves limit − n·cost; a count per step that never grows means no window took more.
  const perStep = new Map<number, number>();
  for (const reply of charged) {
    expect(header(reply, 'ratelimit-limit')).toBe('1');
    const remaining = parseRu(header(reply, 'ratelimit-remaining'));
    expect(remaining).toBeGreaterThanOrEqual(0);
    expect((perSecond - remaining) % DAG_INFO.cost).toBe(0);
    perStep.set(remaining, (perStep.get(remaining) ?? 0) + 1);
  }
  const counts = Array.from({ length: perSecond / DAG_INFO.cost }, (_, n) => perStep.get(perSecond - (n + 1) * DAG_INFO.cost) ?? 0);
  for (let n = 1; n < counts.length; n++) expect(counts[n]!).toBeLessThanOrEqual(counts[n - 1]!);
  expect(counts.at(-1)!).toBeGreaterThan(0);
  const after = await usage(ports[0]!, key.key);
  expect(parseRu(after.month.ruUsed)).toBe(charged.length * DAG_INFO.cost);
  expect(expectLinearCharges(charged, parseRu(after.limits.ruPerMonth))).toBe(charged.length * DAG_INFO.cost);
  return charged.length;
}

/** A key with 1 RU for the month gets 100 calls of 0.1 RU at once: exactly 10 are served, 90 get 402. */
async function expectAllowance(ports: readonly number[], key: string): Promise<void> {
  const replies = await burst(ports, key, Array.from({ length: 100 }, () => DAG_INFO));
  const served = replies.filter((reply) => reply.status === 200);
  const refused = replies.filter((reply) => reply.status === 402);
  expect(served.length).toBe(10);
  expect(refused.length).toBe(90);
  expect(expectLinearCharges(served, 1_000)).toBe(1_000);
  for (const reply of refused) {
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'allowance_exhausted', status: 402 });
    expect(header(reply, 'x-ru-remaining')).toBe('0');
    expect(header(reply, 'x-request-cost-ru')).toBe('0');
    expect(reply.headers['retry-after']).toBeUndefined();
  }
  // Waiting for a new second does not help: the month is spent, on every instance.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  for (const port of ports) {
    expect((await send(new Agent({ keepAlive: false }), port, key, DAG_INFO)).status).toBe(402);
    const after = await usage(port, key);
    expect(after.month).toMatchObject({ ruUsed: '1', ruRemaining: '0' });
  }
}

test.describe('RU metering under concurrency', () => {
  test.describe.configure({ mode: 'serial' });
  let ports: readonly [number, number];
  const keyIds: string[] = [];

  test.beforeAll(async () => {
    test.setTimeout(START_TIMEOUT_MS * 2);
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const [first, second, node] = await freePorts(3);
    ports = [first!, second!];
    devnetPort = node!;
    start('devnet', 'npx', ['tsx', 'lib/devnet/main.ts'], {
      DEVNET_RPC_PORT: String(devnetPort),
      DEVNET_PERSIST: 'false',
      DEVNET_SEED: `metering-${run}`,
      DEVNET_BLOCKS_PER_SECOND: '2',
      DEVNET_TX_PER_SECOND: '1',
      DEVNET_MINERS: '1',
    });
    await until('the devnet', () => portOpen(devnetPort));
  });

  test.afterAll(async () => {
    test.setTimeout(60_000);
    await Promise.all(children.map(stop));
    const redis = new Redis(REDIS_URL);
    for (const id of keyIds) {
      const stale = await redis.keys(`${METER_PREFIX}{${id}}:*`);
      if (stale.length > 0) await redis.del(...stale);
    }
    await redis.quit();
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    for (const port of ports) await rm(`./data/e2e-metering-${run}-${port}`, { recursive: true, force: true });
  });

  test('in-process meter: a 1,000-call burst over 50 connections charges exactly its sum; 429 and 402 where due', async () => {
    test.setTimeout(240_000);
    const exact = createKey(`exact-${run}`, '10000', '1000000');
    const limited = createKey(`per-second-${run}`, '1', '1000');
    const allowance = createKey(`month-${run}`, '1', '1');
    keyIds.push(exact.id, limited.id, allowance.id);
    const app = await startApp(ports[0], false);
    await expectExactSum([ports[0]], exact.key);
    await expectRateLimit([ports[0]], limited);
    await expectAllowance([ports[0]], allowance.key);
    await stop(app);
  });

  test('Redis meter: two instances on one database share one budget exactly', async () => {
    test.setTimeout(300_000);
    const exact = createKey(`exact-shared-${run}`, '10000', '1000000');
    const limited = createKey(`per-second-shared-${run}`, '1', '1000');
    const allowance = createKey(`month-shared-${run}`, '1', '1');
    keyIds.push(exact.id, limited.id, allowance.id);
    await Promise.all(ports.map((port) => startApp(port, true)));
    await expectExactSum(ports, exact.key);
    // The buckets themselves, watched while the burst runs (a one-second bucket expires 5 s after its window): no
    // window ever held more than the limit, and the month holds exactly what the replies say was charged.
    const redis = new Redis(REDIS_URL);
    const peaks = new Map<string, number>();
    let bursting = true;
    const watch = (async () => {
      while (bursting) {
        const seconds = await redis.keys(`${METER_PREFIX}{${limited.id}}:s:*`);
        const values = seconds.length === 0 ? [] : await redis.mget(...seconds);
        seconds.forEach((name, i) => peaks.set(name, Math.max(peaks.get(name) ?? 0, Number(values[i] ?? 0))));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      const charged = await expectRateLimit(ports, limited);
      bursting = false;
      await watch;
      expect(peaks.size).toBeGreaterThan(0);
      for (const peak of peaks.values()) expect(peak).toBeLessThanOrEqual(1_000);
      const month = await redis.keys(`${METER_PREFIX}{${limited.id}}:m:*`);
      expect(month.length).toBe(1);
      expect(Number(await redis.get(month[0]!))).toBe(charged * DAG_INFO.cost);
    } finally {
      bursting = false;
      await watch;
      await redis.quit();
    }
    await expectAllowance(ports, allowance.key);
  });
});
