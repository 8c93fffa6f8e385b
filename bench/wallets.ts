/**
 * The wallet calls on a large wallet (`npm run bench:wallets`), on a scratch PostgreSQL database:
 *   1. a wallet of --addresses used addresses and --transactions transactions (each pays one of its addresses from an
 *      outside payer, every tenth spends a wallet output back out), written through lib/db's own writes in blocks of
 *      1,000 accepted transactions; then POST /v1/wallets/summary and the first POST /v1/wallets/transactions page
 *      (limit 100), p50/p99 of --requests sequential in-process calls, beside the baseline of one of its addresses'
 *      first GET /v1/addresses/{address}/transactions page in the same run;
 *   2. the wallet grown to --export-rows transactions, then its whole tax CSV (generic layout, simulated KAS/USD)
 *      streamed through lib/wallet's export to a byte counter: rows/s and RSS sampled every 100 ms (peak, and at each
 *      tenth of the export to show it flat), beside the baseline of the same rows read by the export's page reads
 *      alone (no row building or CSV).
 * The node is a boundary (no UTXOs, empty mempool); bench:api measures node calls for real.
 *
 * Options: --addresses 1000, --transactions 100000, --export-rows 1000000, --requests 200,
 * --postgres postgres://postgres@127.0.0.1:5432. A quick run: --addresses 200 --transactions 10000 --export-rows 50000.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { endpointDefiner } from '../lib/api/wrapper/endpoint';
import { createIndexedReads, getAddressTransactionsEndpoint } from '../lib/api/endpoints/indexed-endpoints';
import { createApiKey, createMemoryKeyStore } from '../lib/api/keys/keys';
import { createMemoryMeter } from '../lib/api/keys/metering';
import { walletSummaryEndpoint, walletTransactionsEndpoint, type WalletApiContext } from '../lib/api/endpoints/wallet-endpoints';
import {
  applyVirtualChainChange,
  getWalletExportPage,
  insertBlocks,
  insertTransactions,
  migrate,
  openDb,
  type Db,
  type HistoryPosition,
  type TransactionRecord,
} from '../lib/db';
import { addressOf, payToAddressOutput, syntheticBlock, syntheticTransaction } from '../lib/db/test-support/fixtures';
import type { RpcMethodName, RpcResponse } from '../lib/rpc/types';
import { simulatedKasUsd } from '../lib/tokens/kas-usd';
import { taxCsvHeader, taxCsvLine } from '../lib/wallet/tax-csv';
import { taxRows } from '../lib/wallet/tax-export';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '1000' },
    transactions: { type: 'string', default: '100000' },
    'export-rows': { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '200' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
  },
});

const ADDRESSES = Number(values.addresses);
const TRANSACTIONS = Number(values.transactions);
const EXPORT_ROWS = Number(values['export-rows']);
const REQUESTS = Number(values.requests);
const TRANSACTIONS_PER_BLOCK = 1_000;
const WARMUP = 10;
const START_TIME = 1_750_000_000_000n;
const wallet = Array.from({ length: ADDRESSES }, (_, index) => addressOf(`bench wallet ${index}`));

/** Transaction `index`: pays wallet address index % ADDRESSES; every tenth also spends the previous one's output. */
function transactionAt(index: number, previous: TransactionRecord | null): TransactionRecord {
  const time = START_TIME + BigInt(index) * 1000n;
  const payee = `bench wallet ${index % ADDRESSES}`;
  if (previous !== null && index % 10 === 0) {
    return syntheticTransaction(
      `bench ${index}`,
      time,
      [{ previousTransactionId: previous.transactionId, previousIndex: 0, previousOutput: previous.outputs[0]! }],
      [payToAddressOutput('bench merchant', 40_000n), payToAddressOutput(payee, 55_000n)],
    );
  }
  return syntheticTransaction(
    `bench ${index}`,
    time,
    [{ previousTransactionId: new Uint8Array(32), previousIndex: index, previousOutput: payToAddressOutput('bench payer', 200_000n) }],
    [payToAddressOutput(payee, 100_000n), payToAddressOutput('bench payer', 99_000n)],
  );
}

async function fill(db: Db, from: number, to: number): Promise<number> {
  const started = performance.now();
  let previous: TransactionRecord | null = null;
  for (let start = from; start < to; start += TRANSACTIONS_PER_BLOCK) {
    const batch: TransactionRecord[] = [];
    for (let index = start; index < Math.min(to, start + TRANSACTIONS_PER_BLOCK); index++) {
      previous = transactionAt(index, previous);
      batch.push(previous);
    }
    const block = syntheticBlock({
      label: `bench wallet block ${start}`,
      daaScore: BigInt(start / TRANSACTIONS_PER_BLOCK + 1),
      parents: [],
      transactionIds: batch.map((transaction) => transaction.transactionId),
      isChainBlock: false,
    });
    await db.transaction(async (tx) => {
      await insertBlocks(tx, [block]);
      await insertTransactions(tx, batch);
      await applyVirtualChainChange(tx, {
        removedChainBlockHashes: [],
        added: [{ acceptingBlockHash: block.hash, acceptedTransactionIds: block.transactionIds }],
      });
    });
  }
  return (performance.now() - started) / 1000;
}

async function endpoints(db: Db) {
  const clock = () => Date.now();
  // The node is a boundary: an empty UTXO set and mempool, and a constant sink blue score.
  const rpc = {
    async call<M extends RpcMethodName>(method: M): Promise<RpcResponse<M>> {
      if (method === 'getSinkBlueScore') return { blueScore: 1_000_000n } as RpcResponse<M>;
      if (method === 'getUtxosByAddresses' || method === 'getMempoolEntriesByAddresses') return { entries: [] } as RpcResponse<M>;
      throw new Error(`unexpected node call ${method}`);
    },
  };
  const context: WalletApiContext = {
    keys: createMemoryKeyStore(),
    meter: createMemoryMeter(),
    clock,
    logger: { error: (message) => console.error(message) },
    addressPrefix: async () => 'kaspadev',
    rpc,
    ...createIndexedReads({ db, rpc, clock }),
  };
  const { key } = await createApiKey(context.keys, {
    name: 'bench',
    limits: { milliRuPerSecond: 1_000_000_000, milliRuPerMonth: 1_000_000_000_000 },
    now: new Date(),
  });
  const define = endpointDefiner(() => context);
  const summary = define(walletSummaryEndpoint);
  const history = define(walletTransactionsEndpoint);
  const addressHistory = define(getAddressTransactionsEndpoint);
  const post = (handler: typeof summary, body: unknown) =>
    handler(
      new Request('http://localhost/v1/bench', {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({}) },
    );
  return {
    summary: () => post(summary, { addresses: wallet }),
    history: () => post(history, { addresses: wallet, limit: 100 }),
    addressHistory: () =>
      addressHistory(new Request('http://localhost/v1/bench?limit=100', { headers: { 'x-api-key': key } }), {
        params: Promise.resolve({ address: wallet[0]! }),
      }),
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function latency(call: () => Promise<Response>): Promise<string> {
  for (let i = 0; i < WARMUP; i++) await (await call()).text();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const response = await call();
    await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  }
  times.sort((a, b) => a - b);
  return `p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`;
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** Runs `work`, sampling RSS every 100 ms; `progress()` (0..1) places the samples at each tenth of the work. */
async function withRss<T>(work: () => Promise<T>, progress: () => number): Promise<{ result: T; peak: number; tenths: number[] }> {
  let peak = process.memoryUsage.rss();
  const tenths: number[] = [];
  const timer = setInterval(() => {
    const rss = process.memoryUsage.rss();
    peak = Math.max(peak, rss);
    while (tenths.length < Math.floor(progress() * 10)) tenths.push(rss);
  }, 100);
  try {
    const result = await work();
    return { result, peak, tenths };
  } finally {
    clearInterval(timer);
  }
}

async function exportFigures(db: Db): Promise<void> {
  let rows = 0;
  let bytes = 0;
  const kasUsd = simulatedKasUsd('bench', 0.1);
  const exportRun = await withRss(
    async () => {
      const started = performance.now();
      bytes += Buffer.byteLength(taxCsvHeader('generic'));
      const query = { addresses: wallet, from: null, to: null, after: null, openingBalance: null, virtualBlueScore: 1_000_000n, kasUsd };
      for await (const row of taxRows(db, query)) {
        bytes += Buffer.byteLength(taxCsvLine('generic', row));
        rows += 1;
      }
      return (performance.now() - started) / 1000;
    },
    () => rows / EXPORT_ROWS,
  );
  let readRows = 0;
  const readRun = await withRss(
    async () => {
      const started = performance.now();
      let after: HistoryPosition | null = null;
      for (;;) {
        const page = await getWalletExportPage(db, { addresses: wallet, from: null, to: null, after, limit: 1000, perAddressLimit: 16 });
        readRows += page.transactions.length;
        const last = page.transactions.at(-1);
        if (!page.hasMore || last === undefined) break;
        after = { blockTime: last.blockTime, transactionId: last.transactionId };
      }
      return (performance.now() - started) / 1000;
    },
    () => readRows / EXPORT_ROWS,
  );
  if (rows !== EXPORT_ROWS || readRows !== EXPORT_ROWS) throw new Error(`exported ${rows}, read ${readRows} of ${EXPORT_ROWS} rows`);
  console.log(`CSV export of ${rows.toLocaleString('en')} rows (${megabytes(bytes)} of CSV):`);
  console.log(`  tax CSV (generic, simulated KAS/USD)  ${(rows / exportRun.result).toFixed(0)} rows/s, ${exportRun.result.toFixed(1)} s, peak RSS ${megabytes(exportRun.peak)}`);
  console.log(`    RSS at each tenth: ${exportRun.tenths.map(megabytes).join(', ')}`);
  console.log(`  export page reads alone (baseline)    ${(readRows / readRun.result).toFixed(0)} rows/s, ${readRun.result.toFixed(1)} s, peak RSS ${megabytes(readRun.peak)}`);
}

async function measure(db: Db): Promise<void> {
  await migrate(db);
  const written = await fill(db, 0, TRANSACTIONS);
  console.log(`wrote ${TRANSACTIONS.toLocaleString('en')} transactions over ${ADDRESSES} addresses in ${written.toFixed(1)} s`);
  const calls = await endpoints(db);
  console.log(`wallet of ${ADDRESSES} used addresses, ${TRANSACTIONS.toLocaleString('en')} transactions (${REQUESTS} sequential calls):`);
  console.log(`  POST /v1/wallets/summary                         ${await latency(calls.summary)}`);
  console.log(`  POST /v1/wallets/transactions, first page of 100 ${await latency(calls.history)}`);
  console.log(`  GET /v1/addresses/{address}/transactions, 100    ${await latency(calls.addressHistory)}   (baseline: one address)`);
  if (EXPORT_ROWS > TRANSACTIONS) {
    const grown = await fill(db, TRANSACTIONS, EXPORT_ROWS);
    console.log(`grew the wallet to ${EXPORT_ROWS.toLocaleString('en')} transactions in ${grown.toFixed(1)} s`);
  }
  await exportFigures(db);
}

async function main(): Promise<void> {
  if (!Number.isInteger(ADDRESSES) || ADDRESSES < 1 || ADDRESSES > 2000) throw new RangeError('--addresses must be 1..2000');
  if (!Number.isInteger(TRANSACTIONS) || TRANSACTIONS < ADDRESSES) throw new RangeError('--transactions must be ≥ --addresses');
  if (!Number.isInteger(EXPORT_ROWS) || EXPORT_ROWS < TRANSACTIONS) throw new RangeError('--export-rows must be ≥ --transactions');
  if (!Number.isInteger(REQUESTS) || REQUESTS < 10) throw new RangeError('--requests must be ≥ 10');
  const name = `dagboard_bench_wallets_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${values.postgres}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const db = await openDb({ url: `${values.postgres}/${name}` });
    try {
      await measure(db);
    } finally {
      await db.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
