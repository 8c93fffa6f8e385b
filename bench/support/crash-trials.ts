/**
 * Kill -9 trials of the whole app: `node server.mjs` (Next, the devnet worker, the indexer and embedded PGlite in one
 * process) started again and again in one DATA_DIR and SIGKILLed at seeded random moments, some while it starts, the
 * rest while it runs. Every start must become ready (/api/status) with the indexed view equal to the node's:
 * compareWithNode checks each indexed block of a recent DAA-score window against the node's own getBlock (chain
 * flag, selected parent, merge set) and that every chain block's merge set and selected parent are indexed.
 * Used by e2e/api/crash-restart.spec.ts (a few trials) and bench/crash.ts (`npm run bench:crash`, 20 and more).
 * Loopback only; the app listens on a port the system picks (-p 0); needs `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../../lib/devnet/traffic/traffic';
import { sleep } from './app-server';

export interface CrashTrialOptions {
  trials: number;
  seed: number;
  /** The longest a running app lives after its check before the kill. */
  maxRunMs: number;
  /** Share of the trials whose app is first also killed while it starts. */
  startupKillShare: number;
  readyTimeoutMs: number;
  /** Extra environment of the app (DEVNET_BLOCKS_PER_SECOND and the like). */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface CrashTrial {
  trial: number;
  /** From spawning `node server.mjs` until /api/status said ready. */
  readyMs: number;
  /** Blocks compared with the node. */
  comparedBlocks: number;
  indexedDaaScore: bigint;
  /** The devnet dropped a torn or corrupt block-log tail on this start. */
  devnetRecovered: boolean;
  /** Recoveries and gaps the indexer reported on this start. */
  indexerRecoveries: number;
  indexGaps: number;
  /** The app was killed once more while starting, before this (verified) start. */
  killedWhileStarting: boolean;
  /** How long the app ran after its check before the SIGKILL. */
  ranMs: number;
}

interface StatusBody {
  ready: boolean;
  indexer: { indexedDaaScore: string | null; recoveries: number; gaps: unknown[]; error: string | null } | null;
  devnet: { recovery: unknown } | null;
}

interface IndexedBlock {
  hash: string;
  isChainBlock: boolean;
  selectedParentHash: string | null;
  mergeSetBluesHashes: string[];
  mergeSetRedsHashes: string[];
  daaScore: number | string;
}

interface NodeBlock {
  verboseData: {
    isChainBlock: boolean;
    selectedParentHash: string;
    mergeSetBluesHashes: string[];
    mergeSetRedsHashes: string[];
  };
}

/** Chain blocks this far below the checkpoint no longer move (the devnet's reorganisations reach 5 deep). */
const STABLE_MARGIN = 30n;
const WINDOW = 120n;
/** Merge-set members of the window's chain blocks are looked up this far below it (a partitioned miner's reds). */
const MERGE_SET_REACH = 500n;
const NODE_CALLS_AT_ONCE = 8;
/** A young chain is mined on until a check has at least this many settled blocks to compare. */
const MIN_COMPARED = 10n;

export interface RunningApp {
  child: ChildProcess;
  base: Promise<string>;
  exited: Promise<void>;
  output: string[];
}

/** `node server.mjs` on a port the system picks, in its own process group; `base` resolves once it listens. */
export function spawnApp(dataDir: string, apiKey: string, env: Record<string, string>): RunningApp {
  const child = spawn('node', ['server.mjs', '-p', '0', '-H', '127.0.0.1'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      DATA_DIR: dataDir,
      DEVNET_RPC_PORT: '0',
      SERVER_API_KEY: apiKey,
      ...env,
    },
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      if (output.length > 200) output.shift();
      const ready = /ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (ready) resolve(ready[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`the app exited before listening:\n${output.join('')}`)));
  });
  base.catch(() => undefined);
  return { child, base, exited, output };
}

async function killHard(app: RunningApp): Promise<void> {
  if (app.child.pid !== undefined && app.child.exitCode === null && app.child.signalCode === null) {
    process.kill(-app.child.pid, 'SIGKILL');
  }
  await app.exited;
}

export async function stopGently(app: RunningApp): Promise<void> {
  if (app.child.pid === undefined || app.child.exitCode !== null || app.child.signalCode !== null) return;
  process.kill(-app.child.pid, 'SIGTERM');
  await Promise.race([app.exited, sleep(15_000)]);
  await killHard(app);
}

async function fetchJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function untilReady(base: string, app: RunningApp, timeoutMs: number): Promise<StatusBody> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (app.child.exitCode !== null) throw new Error(`the app exited with ${app.child.exitCode}:\n${app.output.join('')}`);
    try {
      const status = await fetchJson<StatusBody>(`${base}/api/status`);
      if (status.ready) return status;
      last = JSON.stringify(status.indexer);
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  throw new Error(`the app did not become ready within ${timeoutMs} ms (last status: ${last}); its output:\n${app.output.join('')}`);
}

/** Waits (within the deadline) until the index reaches past STABLE_MARGIN, so the check has settled blocks to compare. */
async function untilComparable(base: string, app: RunningApp, deadline: number): Promise<void> {
  const wanted = STABLE_MARGIN + MIN_COMPARED;
  let indexed = -1n;
  while (performance.now() < deadline) {
    if (app.child.exitCode !== null) throw new Error(`the app exited with ${app.child.exitCode}:\n${app.output.join('')}`);
    const status = await fetchJson<StatusBody>(`${base}/api/status`);
    indexed = BigInt(status.indexer?.indexedDaaScore ?? '-1');
    if (indexed >= wanted) return;
    await sleep(250);
  }
  throw new Error(`the index stayed at DAA score ${indexed}, below the ${wanted} a check needs`);
}

/** Checks the index against the node; throws naming the first difference. Returns the number of blocks compared. */
export async function compareWithNode(base: string, apiKey: string): Promise<{ comparedBlocks: number; indexedDaaScore: bigint }> {
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const status = await fetchJson<StatusBody>(`${base}/api/status`);
  const indexedDaaScore = BigInt(status.indexer!.indexedDaaScore!);
  const top = indexedDaaScore - STABLE_MARGIN;
  if (top <= 0n) return { comparedBlocks: 0, indexedDaaScore };
  const low = top > WINDOW ? top - WINDOW : 0n;
  const reachLow = low > MERGE_SET_REACH ? low - MERGE_SET_REACH : 0n;
  const { blocks } = await fetchJson<{ blocks: IndexedBlock[] }>(`${base}/v1/blocks/daa-score/${reachLow}/${top}`, { headers });
  const indexed = new Map(blocks.map((block) => [block.hash, block]));
  const window = blocks.filter((block) => BigInt(block.daaScore) >= low);
  const node = new Map<string, NodeBlock>();
  for (let start = 0; start < window.length; start += NODE_CALLS_AT_ONCE) {
    await Promise.all(
      window.slice(start, start + NODE_CALLS_AT_ONCE).map(async (block) => {
        const answer = await fetchJson<{ block: NodeBlock }>(`${base}/v1/rpc/getBlock`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ hash: block.hash, includeTransactions: false }),
        });
        node.set(block.hash, answer.block);
      }),
    );
  }
  for (const block of window) {
    const { verboseData } = node.get(block.hash)!;
    const differs = (what: string, index: unknown, nodeValue: unknown) =>
      new Error(`block ${block.hash} (DAA score ${block.daaScore}): ${what} is ${JSON.stringify(index)} in the index, ${JSON.stringify(nodeValue)} on the node`);
    if (block.isChainBlock !== verboseData.isChainBlock) throw differs('isChainBlock', block.isChainBlock, verboseData.isChainBlock);
    // The index writes genesis's selected parent as null where kaspad names its virtual origin.
    if (block.selectedParentHash !== null && block.selectedParentHash !== verboseData.selectedParentHash) {
      throw differs('selectedParentHash', block.selectedParentHash, verboseData.selectedParentHash);
    }
    const mergeSet = (blues: string[], reds: string[]) => [...blues, ...reds].sort();
    const indexedMergeSet = mergeSet(block.mergeSetBluesHashes, block.mergeSetRedsHashes);
    const nodeMergeSet = mergeSet(verboseData.mergeSetBluesHashes, verboseData.mergeSetRedsHashes);
    if (JSON.stringify(indexedMergeSet) !== JSON.stringify(nodeMergeSet)) throw differs('the merge set', indexedMergeSet, nodeMergeSet);
    if (!block.isChainBlock) continue;
    const parent = block.selectedParentHash === null ? undefined : indexed.get(block.selectedParentHash);
    if (block.selectedParentHash !== null && BigInt(block.daaScore) > reachLow && parent?.isChainBlock !== true) {
      throw new Error(`chain block ${block.hash}: its selected parent ${block.selectedParentHash} is not an indexed chain block`);
    }
    const missing = nodeMergeSet.find((member) => !indexed.has(member));
    if (missing !== undefined) throw new Error(`chain block ${block.hash}: merge-set member ${missing} is not indexed`);
  }
  return { comparedBlocks: window.length, indexedDaaScore };
}

/** Runs the trials in one scratch DATA_DIR (removed afterwards); throws at the first start that fails its check. */
export async function runCrashTrials(options: CrashTrialOptions): Promise<CrashTrial[]> {
  const log = options.log ?? (() => undefined);
  const random = seededRandom(options.seed);
  const dataDir = mkdtempSync(join(tmpdir(), 'dagboard-crash-'));
  const apiKey = randomBytes(24).toString('hex');
  const env = options.env ?? {};
  const results: CrashTrial[] = [];
  let app: RunningApp | undefined;
  try {
    for (let trial = 1; trial <= options.trials; trial++) {
      const killedWhileStarting = random() < options.startupKillShare;
      if (killedWhileStarting) {
        app = spawnApp(dataDir, apiKey, env);
        await Promise.race([app.exited, sleep(500 + random() * 6_000)]);
        await killHard(app);
      }
      const started = performance.now();
      app = spawnApp(dataDir, apiKey, env);
      const base = await app.base;
      const status = await untilReady(base, app, options.readyTimeoutMs);
      const readyMs = performance.now() - started;
      await untilComparable(base, app, started + options.readyTimeoutMs);
      const { comparedBlocks, indexedDaaScore } = await compareWithNode(base, apiKey);
      const ranMs = random() * options.maxRunMs;
      await sleep(ranMs);
      await killHard(app);
      const result: CrashTrial = {
        trial,
        readyMs,
        comparedBlocks,
        indexedDaaScore,
        devnetRecovered: status.devnet?.recovery != null,
        indexerRecoveries: status.indexer?.recoveries ?? 0,
        indexGaps: status.indexer?.gaps.length ?? 0,
        killedWhileStarting,
        ranMs,
      };
      results.push(result);
      log(
        `trial ${trial}: ready in ${(readyMs / 1000).toFixed(1)} s at DAA score ${indexedDaaScore}, ${comparedBlocks} blocks ` +
          `equal to the node's${killedWhileStarting ? ' (killed once while starting)' : ''}` +
          `${result.devnetRecovered ? ', devnet dropped a torn block-log tail' : ''}` +
          `${result.indexerRecoveries > 0 ? `, indexer walked back ${result.indexerRecoveries}×` : ''}; killed after ${(ranMs / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    if (app !== undefined) await stopGently(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}
