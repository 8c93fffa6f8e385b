/**
 * The "must show" walk of issue 21: kaspa-explorer-ng itself, built against a running dagboard's /kaspa-rest and walked
 * in Chromium. Every request the explorer makes to /kaspa-rest is recorded and printed with its status; the walk fails
 * when one answers non-2xx (other than the 404 its search expects), fails in the network (CORS included), or answers
 * without the data the explorer reads, or a page does not show what it should within 30 s. The explorer's own script
 * errors are printed for information only: off Vercel, its analytics script URL answers HTML ("Unexpected token '<'"),
 * and its server and browser format times differently (React's hydration error #418).
 *
 * Usage: npm run build && npm run bench:explorer-ng-walk -- /path/to/kaspa-explorer-ng
 *   --port 3213          dagboard (built app, `node server.mjs`, embedded devnet, in-memory database, scratch DATA_DIR)
 *   --explorer-port 3214 the explorer's own Node server (react-router-serve) on loopback
 *   --minutes 15         the whole run's bound, builds included
 * The checkout is never modified: it is copied to a scratch directory (its node_modules reused through a symlink when
 * present, else `npm ci` there), its hard-coded `https://api.kaspa.org` rewritten to `http://127.0.0.1:<port>/kaspa-rest`
 * and its address check widened to `kaspadev:`, then built with its own `npm run build`. Not part of CI (the
 * explorer's source is not in this repository).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page, type Request, type Response } from '@playwright/test';
import { assertPortFree, sleep, startApp, stopApp, waitForHealth, type AppServer } from './support/app-server';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', default: '3213' },
    'explorer-port': { type: 'string', default: '3214' },
    minutes: { type: 'string', default: '15' },
  },
});

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
const PAGE_SETTLE_MS = 30_000;
/** Long enough for a page's first queries and one round of the explorer's 2 s and 5 s polls. */
const PAGE_DWELL_MS = 6_000;

type Json = Record<string, unknown>;

interface Recorded {
  page: string;
  method: string;
  path: string;
  status: number | 'failed' | 'cancelled';
  problem: string | undefined;
}

/** Runs a command to completion; resolves with its stderr, rejects (with the stderr) when it fails. */
function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolvePromise(stderr) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${stderr.slice(-2_000)}`))));
  });
}

/**
 * `npm ci` from the explorer's lock file. Its lock pins tarballs the registry has since removed (beautiful-qr-code
 * 1.0.5 at 92882b8); each such entry is dropped from the scratch lock and `npm install` resolves it within package.json's range.
 */
async function installDependencies(copy: string): Promise<void> {
  let command = 'ci';
  for (let attempt = 0; attempt < 6; attempt++) {
    try {
      await run('npm', [command, '--no-audit', '--no-fund'], copy);
      return;
    } catch (error) {
      const gone = /404 Not Found - GET (\S+\.tgz)/.exec((error as Error).message)?.[1];
      if (gone === undefined) throw error;
      const lockPath = join(copy, 'package-lock.json');
      const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { packages: Record<string, { resolved?: string }> };
      const entry = Object.keys(lock.packages).find((key) => lock.packages[key]!.resolved === gone);
      if (entry === undefined) throw error;
      console.log(`the lock's ${entry} (${gone}) is gone from the registry; resolving it anew`);
      delete lock.packages[entry];
      writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
      command = 'install';
    }
  }
  throw new Error('npm could not install the explorer');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|jsx)$/.test(name) ? [path] : [];
  });
}

/** The scratch copy with the API host and the address check rewritten; returns how many places were rewritten. */
function prepareCopy(checkout: string, scratch: string, apiBase: string): { hosts: number; addressChecks: number } {
  cpSync(checkout, scratch, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|build|\.git|\.react-router)$/.test(source),
  });
  if (existsSync(join(checkout, 'node_modules'))) symlinkSync(join(checkout, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  let hosts = 0;
  let addressChecks = 0;
  for (const file of sourceFiles(join(scratch, 'app'))) {
    const text = readFileSync(file, 'utf8');
    const rewritten = text
      .replace(/https:\/\/api\.kaspa\.org/g, () => {
        hosts++;
        return apiBase;
      })
      .replace(/kaspa\(test\)\?:/g, () => {
        addressChecks++;
        return 'kaspa(test|dev)?:';
      });
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
  return { hosts, addressChecks };
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

interface Sample {
  blockHash: string;
  transactionId: string;
  address: string;
  addressTransactions: number;
}

interface RestBlock {
  transactions: { inputs: unknown[]; outputs: { verboseData: { scriptPublicKeyAddress: string } }[]; verboseData: { transactionId: string } }[];
}

/** A recent indexed block holding an accepted payment, and the address among its outputs with the longest history. */
async function sampleChain(rest: string, deadline: number): Promise<Sample> {
  let best: Sample | undefined;
  while (Date.now() < deadline) {
    const dag = await getJson<{ virtualParentHashes: string[] }>(`${rest}/info/blockdag`);
    for (const hash of dag.virtualParentHashes) {
      const block = await fetch(`${rest}/blocks/${hash}?includeTransactions=true`);
      if (!block.ok) continue;
      const payment = ((await block.json()) as RestBlock).transactions.find((transaction) => transaction.inputs.length > 0);
      if (payment === undefined) continue;
      const transactionId = payment.verboseData.transactionId;
      const transaction = await fetch(`${rest}/transactions/${transactionId}`);
      if (!transaction.ok || ((await transaction.json()) as Json).is_accepted !== true) continue;
      for (const output of payment.outputs) {
        const address = output.verboseData.scriptPublicKeyAddress;
        const { total } = await getJson<{ total: number }>(`${rest}/addresses/${address}/transactions-count`);
        if (best === undefined || total > best.addressTransactions) best = { blockHash: hash, transactionId, address, addressTransactions: total };
      }
    }
    // Three pages of ten, so the walk can page forward twice and back.
    if (best !== undefined && best.addressTransactions > 20) return best;
    await sleep(2_000);
  }
  if (best !== undefined) return best;
  throw new Error('no accepted payment found in the sink blocks');
}

/** What the explorer reads from each answer without checking it; undefined when the answer carries it. */
function missingData(method: string, path: string, body: unknown): string | undefined {
  const route = path.split('?')[0]!;
  const nonEmptyList = Array.isArray(body) && body.length > 0;
  if (route.endsWith('/info/market-data')) {
    const usd = (body as { current_price?: { usd?: unknown } } | null)?.current_price?.usd;
    return typeof usd === 'number' ? undefined : 'no current_price.usd';
  }
  if (route.endsWith('/info/fee-estimate')) {
    const buckets = (body as { normalBuckets?: unknown[] } | null)?.normalBuckets;
    return Array.isArray(buckets) && buckets.length > 0 ? undefined : 'no normal bucket';
  }
  const lists = [/\/addresses\/top$/, /\/addresses\/distribution$/, /\/addresses\/names$/, /\/transactions\/count\/\d{4}-\d{2}-\d{2}$/, /\/full-transactions-page$/];
  if ((method === 'POST' && route.endsWith('/transactions/search')) || lists.some((pattern) => pattern.test(route))) {
    return nonEmptyList ? undefined : 'an empty list where the explorer needs entries';
  }
  if (Array.isArray(body)) return undefined;
  return body !== null && typeof body === 'object' && Object.keys(body).length > 0 ? undefined : 'an empty answer';
}

class Recorder {
  readonly requests: Recorded[] = [];
  private inFlight = 0;
  private lastActivity = Date.now();
  current = 'setup';
  private readonly startedOn = new Map<Request, string>();
  /** Paths whose 404 the explorer expects (its 64-hex search tries the block first). */
  expected404 = new Set<string>();

  constructor(
    page: Page,
    private readonly restPath: string,
  ) {
    page.on('request', (request) => {
      if (!request.url().includes(this.restPath)) return;
      this.inFlight++;
      this.lastActivity = Date.now();
    });
    page.on('request', (request) => {
      if (request.url().includes(this.restPath)) this.startedOn.set(request, this.current);
    });
    page.on('requestfailed', (request) => {
      if (!request.url().includes(this.restPath)) return;
      this.done();
      const error = request.failure()?.errorText ?? 'failed';
      // A poll still in flight when the walk navigates away is cancelled by the browser, not refused by the server.
      const cancelled = error === 'net::ERR_ABORTED' && this.startedOn.get(request) !== this.current;
      this.requests.push({
        page: this.startedOn.get(request) ?? this.current,
        method: request.method(),
        path: this.pathOf(request.url()),
        status: cancelled ? 'cancelled' : 'failed',
        problem: cancelled ? undefined : error,
      });
    });
    page.on('response', (response) => {
      if (!response.url().includes(this.restPath)) return;
      void this.record(response);
    });
  }

  private pathOf(url: string): string {
    const parsed = new URL(url);
    return parsed.pathname.slice(this.restPath.length) + parsed.search;
  }

  private done(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastActivity = Date.now();
  }

  private async record(response: Response): Promise<void> {
    const request = response.request();
    const path = this.pathOf(response.url());
    const page = this.startedOn.get(request) ?? this.current;
    const status = response.status();
    let problem: string | undefined;
    try {
      if (status === 404 && this.expected404.has(path.split('?')[0]!)) problem = undefined;
      else if (status < 200 || status > 299) problem = `status ${status}: ${(await response.text()).slice(0, 160)}`;
      else if (request.method() !== 'OPTIONS') problem = missingData(request.method(), path, await response.json());
    } catch (error) {
      problem = `unreadable answer: ${(error as Error).message}`;
    } finally {
      this.done();
    }
    this.requests.push({ page, method: request.method(), path, status, problem });
  }

  /** Waits at least PAGE_DWELL_MS, then until `ready` holds and no /kaspa-rest request has been in flight for 1.5 s, bounded. */
  async settle(page: Page, ready: () => Promise<boolean>): Promise<boolean> {
    const start = Date.now();
    const deadline = start + PAGE_SETTLE_MS;
    while (Date.now() < deadline) {
      const quiet = this.inFlight === 0 && Date.now() - this.lastActivity > 1_500 && Date.now() - start > PAGE_DWELL_MS;
      if (quiet && (await ready().catch(() => false))) return true;
      await page.waitForTimeout(250);
    }
    return false;
  }
}

function startExplorer(scratch: string, port: number): ChildProcess {
  return spawn('node', [join(scratch, 'node_modules/@react-router/serve/bin.js'), './build/server/index.js'], {
    cwd: scratch,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1' },
  });
}

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolvePromise) => child.once('exit', resolvePromise));
  process.kill(-child.pid, 'SIGTERM');
  await Promise.race([exited, sleep(5_000)]);
  if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
}

async function waitForUrl(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await sleep(500);
  }
  throw new Error(`${url} did not answer in time`);
}

async function main(): Promise<void> {
  const checkout = positionals[0];
  if (checkout === undefined || !existsSync(join(checkout, 'package.json'))) {
    throw new Error('usage: npm run bench:explorer-ng-walk -- /path/to/kaspa-explorer-ng [--port 3213] [--explorer-port 3214]');
  }
  const deadline = Date.now() + Number(values.minutes) * 60_000;
  const port = Number(values.port);
  const explorerPort = Number(values['explorer-port']);
  await assertPortFree(port);
  await assertPortFree(explorerPort);
  const base = `http://127.0.0.1:${port}`;
  const rest = `${base}/kaspa-rest`;
  const explorerBase = `http://127.0.0.1:${explorerPort}`;
  const scratch = mkdtempSync(join(tmpdir(), 'explorer-ng-walk-'));
  let app: AppServer | undefined;
  let explorer: ChildProcess | undefined;
  const timer = setTimeout(() => {
    console.error(`the walk exceeded ${values.minutes} min; stopping`);
    process.exitCode = 1;
    void Promise.all([app && stopApp(app), stopProcess(explorer)]).finally(() => process.exit(1));
  }, deadline - Date.now());
  try {
    const copy = join(scratch, 'explorer');
    const rewritten = prepareCopy(resolve(checkout), copy, rest);
    console.log(`scratch copy ${copy}: ${rewritten.hosts} api.kaspa.org references → ${rest}, ${rewritten.addressChecks} address check(s) widened to kaspadev:`);
    if (rewritten.hosts === 0 || rewritten.addressChecks === 0) throw new Error('nothing to rewrite: is this a kaspa-explorer-ng checkout?');
    if (!existsSync(join(copy, 'node_modules'))) await installDependencies(copy);
    await run('npm', ['run', 'build'], copy);
    console.log('explorer built');

    app = startApp(port, 'explorer-ng', { DATABASE_URL: 'memory://', DEVNET_PERSIST: 'false', DEVNET_SEED: 'explorer-ng-walk' });
    explorer = startExplorer(copy, explorerPort);
    await waitForHealth(base, app.process);
    await waitForUrl(`${explorerBase}/`, deadline);
    const sample = await sampleChain(rest, Math.min(deadline, Date.now() + 180_000));
    console.log(`sample: block ${sample.blockHash}, transaction ${sample.transactionId}, address ${sample.address} (${sample.addressTransactions} transactions)`);

    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const walked: { page: string; ok: boolean }[] = [];
    const pageErrors: string[] = [];
    const page = await browser.newPage();
    const recorder = new Recorder(page, '/kaspa-rest');
    page.on('pageerror', (error) => pageErrors.push(`${recorder.current}: ${error.message}`));
    try {
      const visit = async (name: string, act: () => Promise<unknown>, ready: () => Promise<boolean>) => {
        recorder.current = name;
        await act();
        walked.push({ page: name, ok: await recorder.settle(page, ready) });
      };
      const shows = (text: string) => () => page.getByText(text, { exact: false }).first().isVisible();
      const links = (href: string) => async () => (await page.locator(`a[href*="${href}"]`).count()) > 0;
      const pageLabel = (n: number) => () => page.getByText(new RegExp(`^${n} of \\d+$`)).first().isVisible();
      const pager = () => page.getByText(/^\d+ of \d+$/).first().locator('..');

      await visit('home', () => page.goto(`${explorerBase}/`), async () => (await page.locator('body').innerText()).includes('KAS'));
      await visit('blocks', () => page.goto(`${explorerBase}/blocks`), shows('Total transactions'));
      await visit('transactions', () => page.goto(`${explorerBase}/transactions`), shows('Average TPS'));
      await visit('addresses', () => page.goto(`${explorerBase}/addresses`), links('/addresses/kaspadev:'));
      await visit('block', () => page.goto(`${explorerBase}/blocks/${sample.blockHash}`), links(`/transactions/${sample.transactionId}`));
      await visit('transaction', () => page.goto(`${explorerBase}/transactions/${sample.transactionId}`), links(`/blocks/${sample.blockHash}`));
      await visit('address, page 1', () => page.goto(`${explorerBase}/addresses/${sample.address}`), pageLabel(1));
      await visit('address, page 2 (next)', () => pager().locator('svg').nth(1).click(), pageLabel(2));
      await visit('address, page 3 (next)', () => pager().locator('svg').nth(1).click(), pageLabel(3));
      await visit('address, page 2 (previous)', () => pager().locator('svg').nth(0).click(), pageLabel(2));
      await visit('address, page 1 (first)', () => pager().getByText('First', { exact: true }).click(), pageLabel(1));
      await visit('address, last page', () => pager().getByText('Last', { exact: true }).click(), async () =>
        page.getByText(/^(\d+) of \1$/).first().isVisible(),
      );
      const search = async (value: string) => {
        const box = page.getByPlaceholder('Search for blocks, addresses and transactions').first();
        await box.fill(value);
        await box.press('Enter');
      };
      await visit('search: block hash', () => search(sample.blockHash), async () => page.url().endsWith(`/blocks/${sample.blockHash}`));
      recorder.expected404.add(`/blocks/${sample.transactionId}`);
      await visit('search: transaction id', () => search(sample.transactionId), async () => page.url().endsWith(`/transactions/${sample.transactionId}`));
    } finally {
      await browser.close();
    }

    console.log('\nrequests to /kaspa-rest, in order:');
    const width = Math.max(...recorder.requests.map((request) => request.page.length), 4);
    for (const request of recorder.requests) {
      console.log(`${request.page.padEnd(width)}  ${String(request.status).padStart(6)}  ${request.method.padEnd(7)} ${request.path}${request.problem === undefined ? '' : `   ✗ ${request.problem}`}`);
    }
    const failures = recorder.requests.filter((request) => request.problem !== undefined);
    const byStatus = new Map<string, number>();
    for (const request of recorder.requests) byStatus.set(String(request.status), (byStatus.get(String(request.status)) ?? 0) + 1);
    const routes = new Set(recorder.requests.map((request) => `${request.method} ${request.path.split('?')[0]!.replace(/[0-9a-f]{64}|kaspadev:[a-z0-9]+|\d{4}-\d{2}-\d{2}/g, '{…}')}`));
    console.log('\nsummary');
    console.log(`  pages: ${walked.map((entry) => `${entry.page}${entry.ok ? ' ✓' : ' ✗ (not shown in 30 s)'}`).join('; ')}`);
    console.log(`  requests: ${recorder.requests.length} (${[...byStatus].map(([status, count]) => `${status}: ${count}`).join(', ')}), ${routes.size} distinct routes`);
    console.log(`  the explorer's own script errors (information): ${pageErrors.length === 0 ? 'none' : pageErrors.join(' | ')}`);
    console.log(`  problems: ${failures.length}`);
    const ok = failures.length === 0 && walked.every((entry) => entry.ok);
    console.log(ok ? 'WALK PASSED' : 'WALK FAILED');
    if (!ok) process.exitCode = 1;
  } finally {
    clearTimeout(timer);
    await stopProcess(explorer);
    if (app !== undefined) await stopApp(app);
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
