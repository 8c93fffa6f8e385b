/**
 * Indexer benchmarks. Run with `npm run bench:indexer` (with the 64 MB young-generation semi-space `npm run indexer`
 * uses; `npx tsx bench/indexer.ts` runs with Node's default); the run stops by itself. Prints:
 *   1. ingest: tx/s and blocks/s indexing a devnet chain of at least --transactions (100,000) transactions, on
 *      PostgreSQL (--postgres, default postgres://postgres@127.0.0.1:5432/test; a scratch database is made and
 *      dropped) and on an on-disk PGlite; with the time a bare getBlocks sweep of the same chain takes (the node's
 *      share) as the baseline measured in the same run.
 *   2. address-history page latency for one address with --history-rows (1,000,000) synthetic rows inserted straight
 *      into address_transactions and transactions (no chain behind them): page 1 against page 10,000, keyset paging
 *      with starting_after, on PostgreSQL.
 *   3. lag behind a live devnet mining at 10 blocks/s with traffic, on PostgreSQL: per block, the time the indexer
 *      committed it minus the time the node added it (p50/p95/max over --lag-seconds, default 30).
 *
 * The chain is mined offline by a devnet node on a worker thread (no simulated miners, a fake clock, the easiest target;
 * the node serves the ingest from that thread, as the app's embedded devnet does):
 * coinbase outputs become spending lanes, and every round each lane pays its value on to the next of 64 keys
 * (one input, one output), 300 transactions a block. The node's block log under data/bench/ (gitignored) keeps it, so
 * reruns replay it (every block re-validated) instead of mining it again. Options: --only ingest|history|lag.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import pg from 'pg';
import { getAddressTransactions, migrate, openDb, readCheckpoint, type Db } from '../lib/db';
import { createDevnetNode, type DevnetNode } from '../lib/devnet/node';
import type { Block } from '../lib/devnet/consensus';
import { wasmSecp256k1 } from '../lib/devnet/secp256k1-wasm';
import { payToPublicKeyScript } from '../lib/kaspa/address';
import { bytesToHex } from '../lib/kaspa/bytes';
import { transactionStorageMass } from '../lib/kaspa/mass';
import { PowState } from '../lib/kaspa/pow';
import { signTransaction } from '../lib/kaspa/signing';
import { transactionId } from '../lib/kaspa/transaction';
import { SUBNETWORK_ID_NATIVE, type Outpoint, type ScriptPublicKey, type Transaction, type UtxoEntry } from '../lib/kaspa/types';
import { createIndexer } from '../lib/indexer';
import { createRpcClient, type RpcClient } from '../lib/rpc';

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

const KEYS = 64;
const LANES = 300;
const TRANSACTIONS_PER_BLOCK = 300;
const COINBASE_MATURITY = 10;
const FEE = 10_000n;
const CHAIN_DIR = join('data', 'bench', `indexer-chain-${TARGET_TRANSACTIONS}`);
const CHAIN_DONE = join(CHAIN_DIR, 'complete.json');
const SEED = 'bench-indexer';
const GENESIS_TIME = 1_750_000_000_000;

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Key {
  privateKey: Uint8Array;
  scriptPublicKey: ScriptPublicKey;
}

function benchKey(index: number): Key {
  const privateKey = new Uint8Array(32);
  privateKey[0] = 0x42;
  privateKey[30] = index >> 8;
  privateKey[31] = (index & 0xff) + 1;
  return { privateKey, scriptPublicKey: payToPublicKeyScript(wasmSecp256k1.schnorrPublicKey(privateKey)) };
}

interface Lane {
  outpoint: Outpoint;
  entry: UtxoEntry;
  key: number;
}

/** The chain's devnet node; `now` is its fake clock (one block interval per mined block). */
function chainNode(): { node: DevnetNode; clock: { now: number } } {
  const clock = { now: GENESIS_TIME };
  const node = createDevnetNode({
    seed: SEED,
    miners: 0,
    hashesPerSecond: 20,
    persistence: { dir: CHAIN_DIR },
    clock: () => clock.now,
    params: { coinbaseMaturity: COINBASE_MATURITY },
    partitions: null,
  });
  return { node, clock };
}

function solve(block: Block): Block {
  const state = PowState.fromHeader(block.header);
  for (let nonce = 0n; ; nonce++) {
    if (state.checkPow(nonce)) return { ...block, header: { ...block.header, nonce } };
  }
}

function payOn(lane: Lane, keys: readonly Key[]): { transaction: Transaction; next: Lane } {
  const to = (lane.key + 1) % keys.length;
  const unsigned: Transaction = {
    version: 0,
    inputs: [{ previousOutpoint: lane.outpoint, signatureScript: new Uint8Array(0), sequence: 0n, sigOpCount: 1 }],
    outputs: [{ value: lane.entry.amount - FEE, scriptPublicKey: keys[to]!.scriptPublicKey }],
    lockTime: 0n,
    subnetworkId: SUBNETWORK_ID_NATIVE,
    gas: 0n,
    payload: new Uint8Array(0),
    storageMass: 0n,
  };
  const committed = { ...unsigned, storageMass: transactionStorageMass(unsigned, [lane.entry]) ?? 0n };
  const transaction = signTransaction(committed, [keys[lane.key]!.privateKey], [lane.entry], { backend: wasmSecp256k1 });
  return {
    transaction,
    next: {
      outpoint: { transactionId: transactionId(transaction), index: 0 },
      entry: { amount: lane.entry.amount - FEE, scriptPublicKey: keys[to]!.scriptPublicKey, blockDaaScore: 0n, isCoinbase: false },
      key: to,
    },
  };
}

/** Mines the chain into the block log, or replays the log; returns the node, not yet listening. */
async function loadChain(): Promise<{ node: DevnetNode; afterStop: () => void }> {
  if (existsSync(CHAIN_DIR) && !existsSync(CHAIN_DONE)) rmSync(CHAIN_DIR, { recursive: true, force: true });
  const cached = existsSync(CHAIN_DONE);
  const started = performance.now();
  const { node, clock } = chainNode();
  const { consensus } = node;
  if (cached) {
    const info = JSON.parse(readFileSync(CHAIN_DONE, 'utf8')) as { transactions: number; blocks: number };
    if (consensus.blockCount() - 1 !== info.blocks) {
      throw new Error(`the cached chain in ${CHAIN_DIR} is incomplete; delete the directory to mine it again`);
    }
    console.log(
      `chain: replayed ${info.blocks} blocks / ${info.transactions} transactions from ${CHAIN_DIR} in ` +
        `${seconds(performance.now() - started)} s`,
    );
    return { node, afterStop: () => undefined };
  }
  const keys = Array.from({ length: KEYS }, (_, index) => benchKey(index));
  const mine = (transactions: Transaction[], payKey: number) => {
    clock.now += 100;
    const template = consensus.buildBlockTemplate({ payScriptPublicKey: keys[payKey]!.scriptPublicKey, transactions });
    if (template.rejectedTransactions.length > 0) {
      throw new Error(`template rejected transactions: ${template.rejectedTransactions[0]!.message}`);
    }
    const result = consensus.validateAndInsertBlock(solve(template.block));
    if (result.type !== 'success') throw new Error(`mined block rejected: ${JSON.stringify(result)}`);
  };
  for (let block = 0; block < LANES + COINBASE_MATURITY + 2; block++) {
    mine([], block % KEYS);
    if (block % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
    if (block % 100 === 99) console.log(`chain: mined ${block + 1} coinbase blocks (spending lanes)`);
  }
  const virtualDaaScore = consensus.virtualDaaScore();
  let lanes: Lane[] = keys.flatMap((key, index) =>
    consensus
      .getUtxosByScriptPublicKey(key.scriptPublicKey)
      .filter((utxo) => !utxo.entry.isCoinbase || utxo.entry.blockDaaScore + BigInt(COINBASE_MATURITY) < virtualDaaScore)
      .map((utxo) => ({ outpoint: utxo.outpoint, entry: utxo.entry, key: index })),
  );
  let transactions = 0;
  let blocks = 0;
  while (transactions < TARGET_TRANSACTIONS) {
    const next: Lane[] = [];
    for (let start = 0; start < lanes.length && transactions < TARGET_TRANSACTIONS; start += TRANSACTIONS_PER_BLOCK) {
      const paid = lanes.slice(start, start + TRANSACTIONS_PER_BLOCK).map((lane) => payOn(lane, keys));
      // Signed here with the keys they spend from, as the node marks what its mempool verified: the template and the
      // block skip the script check (a replay of the cached chain verifies every signature again).
      for (const item of paid) consensus.markScriptsVerified(item.transaction);
      mine(
        paid.map((item) => item.transaction),
        blocks % KEYS,
      );
      blocks++;
      transactions += paid.length;
      next.push(...paid.map((item) => item.next));
    }
    lanes = next;
    await new Promise((resolve) => setImmediate(resolve));
    if (blocks % 50 === 0) console.log(`chain: mined ${transactions} transactions in ${blocks} blocks`);
  }
  const total = consensus.blockCount() - 1;
  console.log(`chain: mined ${total} blocks / ${transactions} transactions in ${seconds(performance.now() - started)} s`);
  // The block log is complete once the node stops (it flushes on close): only then is the cache marked usable.
  return { node, afterStop: () => writeFileSync(CHAIN_DONE, JSON.stringify({ transactions, blocks: total })) };
}

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
  const { node, afterStop } = await loadChain();
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
async function startChainNode(): Promise<{ url: string; genesis: string; stop(): Promise<void> }> {
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
    async stop() {
      const stopped = next();
      worker.postMessage('stop');
      await stopped;
      await worker.terminate();
    },
  };
}

async function benchIngest(): Promise<void> {
  const node = await startChainNode();
  const rpc = createRpcClient({ url: node.url, reconnect: false, requestTimeoutMs: 120_000 });
  try {
    const { sink } = await rpc.call('getSink', {});
    const sweep = await getBlocksSweep(rpc, node.genesis);
    console.log(
      `baseline: a bare getBlocks sweep (node + wire + client decode) takes ${seconds(sweep.ms)} s for ` +
        `${sweep.blocks} blocks / ${sweep.transactions} transactions (${Math.round(sweep.transactions / (sweep.ms / 1000))} tx/s)`,
    );
    for (const [name, open] of [
      ['postgres', scratchPostgres],
      ['pglite (on disk)', scratchPglite],
    ] as const) {
      const scratch = await open();
      try {
        await migrate(scratch.db);
        const indexer = createIndexer({ rpc, db: scratch.db });
        const started = performance.now();
        await indexer.start();
        await untilIndexed(scratch.db, sink, 30 * 60_000);
        const ms = performance.now() - started;
        await indexer.stop();
        const { rows } = await scratch.db.query<{ blocks: number; transactions: number }>(
          'SELECT (SELECT count(*) FROM blocks)::integer AS blocks, (SELECT count(*) FROM transactions)::integer AS transactions',
        );
        const counts = rows[0]!;
        console.log(
          `ingest ${name}: ${counts.transactions} transactions, ${counts.blocks} blocks in ${seconds(ms)} s → ` +
            `${Math.round(counts.transactions / (ms / 1000))} tx/s, ${Math.round(counts.blocks / (ms / 1000))} blocks/s` +
            (name === 'postgres' ? ' (goal ≥ 5,000 tx/s)' : ''),
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
    params: { coinbaseMaturity: 20 },
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
