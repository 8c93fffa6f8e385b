/**
 * Indexer benchmarks. Run with `npm run bench:indexer` (with the 64 MB young-generation semi-space `npm run indexer`
 * uses; `npx tsx bench/indexer.ts` runs with Node's default); the run stops by itself. Prints:
 *   1. ingest: tx/s and blocks/s indexing a devnet chain of at least --transactions (100,000) transactions, on
 *      PostgreSQL (--postgres, default postgres://postgres@127.0.0.1:5432/test; a scratch database is made and
 *      dropped) and on an on-disk PGlite; with the time a bare getBlocks sweep of the same chain takes (the node's
 *      share) as the baseline measured in the same run; beside each, where the CPU went (the indexer's and the node's
 *      threads' busy time, and on PostgreSQL the server processes' CPU, read from Linux's /proc).
 *   2. address-history page latency for one address with --history-rows (1,000,000) synthetic rows inserted straight
 *      into address_transactions and transactions (no chain behind them): page 1 against page 10,000, keyset paging
 *      with starting_after, on PostgreSQL.
 *   3. lag behind a live devnet mining at 10 blocks/s with traffic, on PostgreSQL: per block, the time the indexer
 *      committed it minus the time the node added it (p50/p95/max over --lag-seconds, default 30).
 *
 * The chain (bench/support/bench-chain.ts: Toccata from genesis, version 0 and 1 payments and KIP-20 covenant
 * lineages) is mined offline by a devnet node on a worker thread, which serves the ingest from that thread, as the
 * app's embedded devnet does; the block log under data/bench/ keeps it for reruns. Options: --only ingest|history|lag.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import pg from 'pg';
import { getAddressTransactions, migrate, openDb, readCheckpoint, type Db } from '../lib/db';
import { createDevnetNode } from '../lib/devnet/node';
import { FORK_ALWAYS } from '../lib/devnet/consensus/params';
import { bytesToHex } from '../lib/kaspa/bytes';
import { createIndexer } from '../lib/indexer';
import { createRpcClient, type RpcClient } from '../lib/rpc';
import { loadBenchChain } from './support/bench-chain';

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { values } = parseArgs({
  options: {
    transactions: { type: 'string', default: '100000' },
    'history-rows': { type: 'string', default: '1000000' },
    'lag-seconds': { type: 'string', default: '30' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    only: { type: 'string' },
  },
});
const TARGET_TRANSACTIONS = Number(values.transactions);
const HISTORY_ROWS = Number(values['history-rows']);
const LAG_SECONDS = Number(values['lag-seconds']);
const POSTGRES_URL = values.postgres;
const runs = (part: string) => values.only === undefined || values.only === part;

interface Scratch {
  db: Db;
  dispose(): Promise<void>;
}

async function scratchPostgres(): Promise<Scratch> {
  const name = `dagboard_bench_${process.pid}_${Math.floor(performance.now())}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const db = await openDb({ url: url.toString() });
  return {
    db,
    async dispose() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function scratchPglite(): Promise<Scratch> {
  const root = await mkdtemp(join(tmpdir(), 'dagboard-bench-'));
  const db = await openDb({ url: join(root, 'pglite') });
  return {
    db,
    async dispose() {
      await db.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

async function untilIndexed(db: Db, sink: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const checkpoint = await readCheckpoint(db, 'virtual-chain');
    if (checkpoint && bytesToHex(checkpoint.blockHash) === sink) return;
    if (performance.now() > deadline) throw new Error(`the index did not reach the sink within ${timeoutMs} ms`);
    await sleep(20);
  }
}

async function getBlocksSweep(rpc: RpcClient, genesis: string): Promise<{ ms: number; blocks: number; transactions: number }> {
  const started = performance.now();
  let low = genesis;
  let blocks = 0;
  let transactions = 0;
  for (;;) {
    const page = await rpc.call('getBlocks', { lowHash: low, includeBlocks: true, includeTransactions: true });
    blocks += page.blocks.length;
    transactions += page.blocks.reduce((sum, block) => sum + block.transactions.length, 0);
    const highest = page.blocks.filter((block) => block.verboseData?.isChainBlock === true).at(-1)?.header.hash;
    if (highest === undefined || highest === low) break;
    low = highest;
  }
  return { ms: performance.now() - started, blocks, transactions };
}

interface ChainNodeMessage {
  type: 'ready' | 'stopped';
  url?: string;
  genesis?: string;
}

/** The worker side of startChainNode: loads (or mines) the chain, serves it on loopback, stops when told. */
async function serveChain(): Promise<void> {
  const port = parentPort!;
  const { node, afterStop } = await loadBenchChain(TARGET_TRANSACTIONS);
  const url = await node.listen(0);
  port.once('message', () => {
    void node.stop().then(() => {
      afterStop();
      port.postMessage({ type: 'stopped' } satisfies ChainNodeMessage);
    });
  });
  port.postMessage({ type: 'ready', url, genesis: bytesToHex(node.genesisHash) } satisfies ChainNodeMessage);
}

/**
 * The chain's node on a worker thread of its own, as the app runs its embedded devnet and as kaspad is a process of
 * its own: the indexer's thread does only the indexer's work, and the node's serving overlaps it.
 */
async function startChainNode(): Promise<{
  url: string;
  genesis: string;
  /** The node thread's event-loop utilisation since `since` (or since it started). */
  utilization(since?: EventLoopUtilization): EventLoopUtilization;
  stop(): Promise<void>;
}> {
  const entry = import.meta.url;
  const source = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  const worker = new Worker(source, { eval: true, argv: process.argv.slice(2) });
  const next = () =>
    new Promise<ChainNodeMessage>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const ready = await next();
  return {
    url: ready.url!,
    genesis: ready.genesis!,
    utilization: (since) => worker.performance.eventLoopUtilization(since),
    async stop() {
      const stopped = next();
      worker.postMessage('stop');
      await stopped;
      await worker.terminate();
    },
  };
}

/**
 * CPU seconds the local PostgreSQL server's processes have used (Linux /proc, clock ticks of 1/100 s), to say where an
 * ingest's time went; null where /proc cannot tell.
 */
async function postgresCpuSeconds(): Promise<number | null> {
  try {
    let ticks = 0;
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
      if (stat === null) continue;
      const nameEnd = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, nameEnd) !== 'postgres') continue;
      const fields = stat.slice(nameEnd + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / 100;
  } catch {
    return null;
  }
}

const busySeconds = (utilization: EventLoopUtilization) => (utilization.active / 1000).toFixed(2);

async function benchIngest(): Promise<void> {
  const node = await startChainNode();
  const rpc = createRpcClient({ url: node.url, reconnect: false, requestTimeoutMs: 120_000 });
  try {
    const { sink } = await rpc.call('getSink', {});
    const clientThread = performance.eventLoopUtilization();
    const nodeThread = node.utilization();
    const sweep = await getBlocksSweep(rpc, node.genesis);
    console.log(
      `baseline: a bare getBlocks sweep (node + wire + client decode) takes ${seconds(sweep.ms)} s for ` +
        `${sweep.blocks} blocks / ${sweep.transactions} transactions (${Math.round(sweep.transactions / (sweep.ms / 1000))} tx/s); ` +
        `client thread busy ${busySeconds(performance.eventLoopUtilization(clientThread))} s, node thread ` +
        `${busySeconds(node.utilization(nodeThread))} s`,
    );
    for (const [name, open] of [
      ['postgres', scratchPostgres],
      ['pglite (on disk)', scratchPglite],
    ] as const) {
      const scratch = await open();
      try {
        await migrate(scratch.db);
        const indexer = createIndexer({ rpc, db: scratch.db });
        const postgresBefore = name === 'postgres' ? await postgresCpuSeconds() : null;
        const indexerThread = performance.eventLoopUtilization();
        const nodeThread = node.utilization();
        const started = performance.now();
        await indexer.start();
        await untilIndexed(scratch.db, sink, 30 * 60_000);
        const ms = performance.now() - started;
        const postgresAfter = postgresBefore === null ? null : await postgresCpuSeconds();
        const busy =
          `indexer thread busy ${busySeconds(performance.eventLoopUtilization(indexerThread))} s, node thread ` +
          `${busySeconds(node.utilization(nodeThread))} s` +
          (postgresAfter === null || postgresBefore === null ? '' : `, PostgreSQL ${(postgresAfter - postgresBefore).toFixed(2)} s CPU`);
        await indexer.stop();
        const { rows } = await scratch.db.query<{ blocks: number; transactions: number }>(
          'SELECT (SELECT count(*) FROM blocks)::integer AS blocks, (SELECT count(*) FROM transactions)::integer AS transactions',
        );
        const counts = rows[0]!;
        const rate = counts.transactions / (ms / 1000);
        const ratio = rate / (sweep.transactions / (sweep.ms / 1000));
        const goal = name === 'postgres' ? 0.9 : 0.7;
        console.log(
          `ingest ${name}: ${counts.transactions} transactions, ${counts.blocks} blocks in ${seconds(ms)} s → ` +
            `${Math.round(rate)} tx/s, ${Math.round(counts.blocks / (ms / 1000))} blocks/s = ${ratio.toFixed(2)} of the sweep ` +
            `(goal ≥ ${goal}: ${ratio >= goal ? 'met' : 'NOT met'}); ${busy}`,
        );
      } finally {
        await scratch.dispose();
      }
    }
  } finally {
    await rpc.close();
    await node.stop();
  }
}

async function benchHistory(): Promise<void> {
  const scratch = await scratchPostgres();
  const { db } = scratch;
  try {
    await migrate(db);
    const address = 'kaspadev:qbenchsyntheticaddress';
    const filled = performance.now();
    // Synthetic rows (no chain behind them): one address, HISTORY_ROWS transactions 100 ms apart.
    await db.exec(`
      INSERT INTO transactions (transaction_id, hash, version, lock_time, subnetwork_id, gas, payload, mass, block_time)
      SELECT sha256(int8send(i)), sha256(int8send(-i)), 0, 0, '\\x0000000000000000000000000000000000000000'::bytea, 0,
             ''::bytea, 2036, 1750000000000 + i * 100
      FROM generate_series(1, ${HISTORY_ROWS}) AS i;
      INSERT INTO address_transactions (address, block_time, transaction_id, amount_sent, amount_received)
      SELECT '${address}', 1750000000000 + i * 100, sha256(int8send(i)), 0, 100000000
      FROM generate_series(1, ${HISTORY_ROWS}) AS i;
      ANALYZE transactions; ANALYZE address_transactions;
    `);
    console.log(`history: inserted ${HISTORY_ROWS} synthetic address rows in ${seconds(performance.now() - filled)} s`);
    const limit = 20;
    const targetPage = 10_000;
    const { rows } = await db.query<{ transaction_id: Uint8Array }>(
      `SELECT transaction_id FROM address_transactions WHERE address = $1
       ORDER BY block_time DESC, transaction_id DESC OFFSET $2 LIMIT 1`,
      [address, (targetPage - 1) * limit - 1],
    );
    const cursor = rows[0]!.transaction_id;
    const query = { address, limit, acceptedOnly: false, includePayload: false };
    const time = async (startingAfter?: Uint8Array) => {
      const samples: number[] = [];
      for (let run = 0; run < 60; run++) {
        const started = performance.now();
        const page = await getAddressTransactions(db, { ...query, startingAfter });
        samples.push(performance.now() - started);
        if (page.transactions.length !== limit) throw new Error('a page came back short');
      }
      samples.sort((a, b) => a - b);
      return samples.slice(10);
    };
    await time();
    await time(cursor);
    const first = await time();
    const deep = await time(cursor);
    const median = (samples: number[]) => samples[Math.floor(samples.length / 2)]!;
    console.log(
      `history postgres: page 1 median ${median(first).toFixed(2)} ms, page ${targetPage} (starting_after) median ` +
        `${median(deep).toFixed(2)} ms → ratio ${(median(deep) / median(first)).toFixed(2)} (goal ≤ 1.5; ${limit} per page)`,
    );
  } finally {
    await scratch.dispose();
  }
}

async function benchLag(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'dagboard-bench-lag-'));
  const node = createDevnetNode({
    seed: 'bench-lag',
    blocksPerSecond: 10,
    txPerSecond: 50,
    miners: 4,
    persistence: null,
    trafficThread: 'worker',
    params: { coinbaseMaturity: 20, toccataActivation: FORK_ALWAYS },
    partitions: null,
  });
  const addedAt = new Map<string, number>();
  node.consensus.events.on('blockAdded', ({ hash }) => addedAt.set(bytesToHex(hash), performance.now()));
  const url = await node.listen(0);
  await node.start();
  const scratch = await scratchPostgres();
  const rpc = createRpcClient({ url, requestTimeoutMs: 30_000 });
  const lags: number[] = [];
  let measuring = false;
  try {
    await migrate(scratch.db);
    const indexer = createIndexer({
      rpc,
      db: scratch.db,
      onBlocksStored: (hashes) => {
        if (!measuring) return;
        const now = performance.now();
        for (const hash of hashes) {
          const added = addedAt.get(hash);
          if (added !== undefined) lags.push(now - added);
        }
      },
    });
    await indexer.start();
    // Following from genesis, the indexer is never far behind; a warm-up lets the wallets' coinbases mature.
    await sleep(10_000);
    measuring = true;
    const before = node.stats();
    await sleep(LAG_SECONDS * 1000);
    measuring = false;
    const after = node.stats();
    const finalStatus = indexer.status();
    await indexer.stop();
    lags.sort((a, b) => a - b);
    const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? NaN;
    console.log(
      `lag postgres: node at ${((after.blocksAdded - before.blocksAdded) / LAG_SECONDS).toFixed(1)} blocks/s, ` +
        `${((after.transactionsAccepted - before.transactionsAccepted) / LAG_SECONDS).toFixed(1)} tx/s; ` +
        `${lags.length} blocks: p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${at(1).toFixed(0)} ms ` +
        `(goal p95 < 1000 ms); indexer ${finalStatus.phase}`,
    );
  } finally {
    await rpc.close();
    await node.stop();
    await scratch.dispose();
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (runs('ingest')) await benchIngest();
  if (runs('history')) await benchHistory();
  if (runs('lag')) await benchLag();
}

if (isMainThread) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  void serveChain();
}
