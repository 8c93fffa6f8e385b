import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, readCheckpoint, tableDigests, type Db } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { createDevnetNode, type DevnetNode } from '../devnet';
import { seededRandom } from '../devnet/traffic/traffic';
import { bytesToHex } from '../kaspa/bytes';
import { createRpcClient, type RpcClient } from '../rpc';
import { DEFAULT_CHECKPOINT_NAME } from '../db';
import { createIndexer } from './indexer';

/*
 * Crash recovery with real processes: a devnet node mines and carries traffic in this process, `npm run indexer`
 * (lib/runtime/indexer-main.ts) runs as a child process against it and is SIGKILLed at seeded random moments, KILLS
 * times. Then the chain is frozen,
 * an indexer finishes the crashed index, another indexes the same chain from scratch into a fresh database, and the
 * two must hold the same rows (an ordered digest per table). Bounded: every wait has a deadline.
 */

const KILLS = 20;
/** A kill lands this long (uniformly drawn) after the child's first log line. */
const MAX_KILL_DELAY_MS = 1_500;
const CHILD_START_TIMEOUT_MS = 120_000;
const MAIN_SCRIPT = join(import.meta.dirname, '..', 'runtime', 'indexer-main.ts');

interface CrashTarget {
  /** The child's database settings (DATABASE_URL or DATA_DIR), migrated already so no child spends its life on that. */
  childEnv: Record<string, string>;
  /** Opens the crashed index (only while no child holds it). */
  open(): Promise<Db>;
  /** A fresh, empty database of the same kind for the from-scratch reindex. */
  openFresh(): Promise<Db>;
  dispose(): Promise<void>;
}

async function pgliteTarget(): Promise<CrashTarget> {
  const root = await mkdtemp(join(tmpdir(), 'dagboard-crash-'));
  const created = await openDb({ url: join(root, 'pglite') });
  await migrate(created);
  await created.close();
  const opened: Db[] = [];
  const track = async (db: Db) => {
    opened.push(db);
    return db;
  };
  return {
    childEnv: { DATA_DIR: root },
    open: async () => track(await openDb({ url: join(root, 'pglite') })),
    openFresh: async () => track(await openDb({ url: join(root, 'reindex') })),
    async dispose() {
      for (const db of opened) await db.close().catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}

async function postgresTarget(backend: ReturnType<typeof testBackends>[number]): Promise<CrashTarget> {
  const crashed: TestDatabase = await backend.open();
  await migrate(crashed.db);
  let fresh: TestDatabase | undefined;
  return {
    childEnv: { DATABASE_URL: crashed.url },
    open: async () => crashed.db,
    async openFresh() {
      fresh = await backend.open();
      return fresh.db;
    },
    async dispose() {
      await fresh?.dispose();
      await crashed.dispose();
    },
  };
}

/**
 * Starts the standalone indexer; resolves at its first log line (it has opened the database and is indexing: the
 * bootstrap line on a fresh index, else "following"). Not later: on PGlite the catch-up's writes can hold the child's
 * event loop for long stretches, delaying even the "following" line.
 */
function startChild(url: string, databaseEnv: Record<string, string>, output: string[]): Promise<ChildProcess> {
  // Only what the indexer reads (lib/env.ts): nothing from this process's environment leaks into the child.
  const environment: NodeJS.ProcessEnv = { NODE_ENV: 'production', KASPA_RPC_URL: url, ...databaseEnv };
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN_SCRIPT], { env: environment, stdio: 'pipe' });
  const collect = (data: Buffer) => output.push(String(data));
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the indexer did not start within ${CHILD_START_TIMEOUT_MS} ms:\n${output.join('')}`));
    }, CHILD_START_TIMEOUT_MS);
    child.stdout.on('data', (data: Buffer) => {
      collect(data);
      if (String(data).includes('[dagboard indexer]')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the indexer exited with ${code} before logging:\n${output.join('')}`));
    });
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs an in-process indexer on `db` until its checkpoint is the node's (frozen) sink. */
async function indexToSink(rpc: RpcClient, db: Db): Promise<void> {
  await migrate(db);
  const indexer = createIndexer({ rpc, db, nodePollIntervalMs: 100, retryDelayMs: 100 });
  await indexer.start();
  try {
    await indexer.whenReady(60_000);
    const { sink } = await rpc.call('getSink', {});
    for (let attempt = 0; ; attempt++) {
      const checkpoint = await readCheckpoint(db, DEFAULT_CHECKPOINT_NAME);
      if (checkpoint && bytesToHex(checkpoint.blockHash) === sink) return;
      if (attempt > 600) throw new Error(`the index did not reach the sink ${sink}`);
      await sleep(100);
    }
  } finally {
    await indexer.stop();
  }
}

/*
 * One variant per run: PostgreSQL when DATABASE_URL names one (`npm run test:postgres`), else an on-disk PGlite
 * (`npm run test:unit`), so `npm test` covers both without running the slow PGlite variant twice.
 */
const postgres = testBackends().find((backend) => backend.name === 'postgres');
const targets: { name: string; make: () => Promise<CrashTarget> }[] = postgres
  ? [{ name: 'postgres', make: () => postgresTarget(postgres) }]
  : [{ name: 'pglite on disk', make: pgliteTarget }];

describe.each(targets)('crash recovery on $name', ({ make }) => {
  let node: DevnetNode;
  let url: string;
  let target: CrashTarget;

  beforeAll(async () => {
    node = createDevnetNode({
      seed: 'crash-recovery',
      blocksPerSecond: 4,
      txPerSecond: 20,
      // A modest rate: the children's start-up, not the chain, should be what takes the time.
      miners: 2,
      persistence: null,
      trafficThread: 'main',
      partitions: null,
      params: { coinbaseMaturity: 8 },
    });
    url = await node.listen(0);
    await node.start();
    target = await make();
  }, 120_000);

  afterAll(async () => {
    await node?.stop();
    await target?.dispose();
  }, 60_000);

  it(
    `loses and duplicates nothing across ${KILLS} SIGKILLs: the index equals a from-scratch reindex`,
    async () => {
      const random = seededRandom(20_261_122);
      const output: string[] = [];
      for (let round = 0; round < KILLS; round++) {
        const child = await startChild(url, target.childEnv, output);
        await sleep(Math.floor(random() * MAX_KILL_DELAY_MS));
        await kill(child);
      }
      expect(output.join(''), 'no child failed on its own').not.toContain('failed:');

      await Promise.all([node.swarm?.stop(), node.traffic?.stop()]);
      await sleep(200);
      const rpc = createRpcClient({ url, reconnect: false, requestTimeoutMs: 30_000 });
      try {
        const crashed = await target.open();
        const before = await readCheckpoint(crashed, DEFAULT_CHECKPOINT_NAME);
        expect(before, 'the killed indexers stored a checkpoint').not.toBeNull();
        await indexToSink(rpc, crashed);
        const reindexed = await target.openFresh();
        await indexToSink(rpc, reindexed);

        const [recovered, fromScratch] = await Promise.all([tableDigests(crashed), tableDigests(reindexed)]);
        expect(recovered.transactions?.rows, 'the chain carried traffic').toBeGreaterThan(100);
        expect(recovered).toEqual(fromScratch);
      } finally {
        await rpc.close();
      }
    },
    // Each round starts a tsx child: about a second on a quiet machine, far longer on a busy one.
    600_000,
  );
});
