/**
 * The covenant lineage endpoint on a covenant with 100,000 continuations (`npm run bench:covenants`), beside the
 * address-history endpoint on an address with as many transactions, in the same run on the same database: every
 * state of the covenant pays the same P2PK address, so one set of transactions is both a lineage of --continuations + 1
 * and an address history of as many. The rows go in through lib/db's own writes (blocks of 1,000 transactions, each
 * accepted by a chain block, so the lineage and covenant UTXO set are built by the acceptance path the indexer uses).
 *
 * Each endpoint runs in-process with its real key check, metering, validation, read and formatting (no HTTP, which
 * bench:api measures); the node is a constant sink blue score. Pages: the first (no cursor) and a deep one (the cursor
 * halfway down), limit 20 and 100, --requests sequential calls each after a warm-up, p50/p99 in ms.
 *
 * Options: --continuations 100000, --requests 300, --postgres postgres://postgres@127.0.0.1:5432 (a scratch database
 * is made and dropped), --pglite (also on an in-memory PGlite).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  applyVirtualChainChange,
  insertBlocks,
  insertTransactions,
  migrate,
  openDb,
  type Db,
  type TransactionRecord,
} from '../lib/db';
import { addressOf, covenantOutput, hashOf, payToAddressOutput, syntheticBlock, syntheticTransaction } from '../lib/db/test-support/fixtures';
import type { RouteId } from '../lib/api/keys/costs';
import { endpointDefiner } from '../lib/api/wrapper/endpoint';
import { createIndexedReads, getAddressTransactionsEndpoint, getCovenantTransactionsEndpoint, type IndexedApiContext } from '../lib/api/endpoints/indexed-endpoints';
import { createApiKey, createMemoryKeyStore } from '../lib/api/keys/keys';
import { createMemoryMeter } from '../lib/api/keys/metering';
import { bytesToHex } from '../lib/kaspa/bytes';
import type { RpcMethodName, RpcResponse } from '../lib/rpc/types';

const { values } = parseArgs({
  options: {
    continuations: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '300' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
    pglite: { type: 'boolean', default: false },
  },
});

const CONTINUATIONS = Number(values.continuations);
const REQUESTS = Number(values.requests);
const TRANSACTIONS_PER_BLOCK = 1_000;
const WARMUP = 20;
const COVENANT = hashOf('bench covenant');
const OWNER = 'bench covenant owner';
const GENESIS_TIME = 1_750_000_000_000n;

/** funding, genesis, then CONTINUATIONS continuations; every covenant state pays OWNER's address. */
function* lineageTransactions(): Generator<TransactionRecord> {
  let previous = syntheticTransaction('bench funding', GENESIS_TIME, [], [payToAddressOutput('bench funder', 10n ** 15n)]);
  yield previous;
  for (let index = 0; index <= CONTINUATIONS; index++) {
    const output = covenantOutput(OWNER, 10n ** 15n - BigInt(index + 1) * 1000n, COVENANT, 0);
    const next = syntheticTransaction(
      `bench state ${index}`,
      GENESIS_TIME + BigInt(index + 1) * 100n,
      [{ previousTransactionId: previous.transactionId, previousIndex: 0, previousOutput: previous.outputs[0]! }],
      [output],
    );
    next.version = 1;
    yield next;
    previous = next;
  }
}

async function fill(db: Db): Promise<{ seconds: number; transactions: number }> {
  const started = performance.now();
  let batch: TransactionRecord[] = [];
  let blockNumber = 0;
  let transactions = 0;
  const flush = async () => {
    const block = syntheticBlock({
      label: `bench block ${blockNumber}`,
      daaScore: BigInt(blockNumber + 1),
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
    transactions += batch.length;
    batch = [];
    blockNumber += 1;
  };
  for (const transaction of lineageTransactions()) {
    batch.push(transaction);
    if (batch.length === TRANSACTIONS_PER_BLOCK) await flush();
  }
  if (batch.length > 0) await flush();
  return { seconds: (performance.now() - started) / 1000, transactions };
}

interface Page {
  status: number;
  body: { transactions: { transactionId: string }[]; metadata: { count: number } };
}

async function endpoints(db: Db) {
  const clock = () => Date.now();
  // The node is a boundary here: confirmations only need its sink blue score, which bench:api measures for real.
  const rpc = {
    async call<M extends RpcMethodName>(method: M): Promise<RpcResponse<M>> {
      if (method !== 'getSinkBlueScore') throw new Error(`unexpected node call ${method}`);
      return { blueScore: 1_000_000n } as RpcResponse<M>;
    },
  };
  const context: IndexedApiContext = {
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
  const call = async (definition: { id: RouteId }, params: Record<string, string>, query: string): Promise<Page> => {
    const handler = define(definition as never);
    const response = await handler(
      new Request(`http://localhost/v1/bench${query}`, { headers: { 'x-api-key': key } }),
      { params: Promise.resolve(params) },
    );
    return { status: response.status, body: (await response.json()) as Page['body'] };
  };
  return {
    lineage: (query: string) => call(getCovenantTransactionsEndpoint, { covenantId: bytesToHex(COVENANT) }, query),
    history: (query: string) => call(getAddressTransactionsEndpoint, { address: addressOf(OWNER) }, query),
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function latency(read: (query: string) => Promise<Page>, query: string, limit: number): Promise<string> {
  for (let i = 0; i < WARMUP; i++) await read(query);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const page = await read(query);
    times.push(performance.now() - started);
    if (page.status !== 200 || page.body.metadata.count !== limit) {
      throw new Error(`${query}: status ${page.status}, ${page.body.metadata?.count} items`);
    }
  }
  times.sort((a, b) => a - b);
  return `p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`;
}

/** The transaction id halfway down the newest-first list, found by walking 100-item pages. */
async function middleCursor(read: (query: string) => Promise<Page>, depth: number): Promise<string> {
  let cursor = '';
  for (let walked = 0; walked < depth; walked += 100) {
    const page = await read(`?limit=100${cursor === '' ? '' : `&starting_after=${cursor}`}`);
    cursor = page.body.transactions.at(-1)!.transactionId;
  }
  return cursor;
}

async function measure(name: string, db: Db): Promise<void> {
  await migrate(db);
  const { seconds, transactions } = await fill(db);
  console.log(`${name}: wrote ${transactions.toLocaleString('en')} transactions in ${seconds.toFixed(1)} s`);
  const { lineage, history } = await endpoints(db);
  const depth = Math.floor(CONTINUATIONS / 2);
  const deepLineage = await middleCursor(lineage, depth);
  const deepHistory = await middleCursor(history, depth);
  for (const limit of [20, 100]) {
    for (const [label, query, lineageQuery] of [
      ['first page', `?limit=${limit}`, `?limit=${limit}`],
      [`page at depth ${depth.toLocaleString('en')}`, `?limit=${limit}&starting_after=${deepHistory}`, `?limit=${limit}&starting_after=${deepLineage}`],
    ] as const) {
      const lineageFigures = await latency(lineage, lineageQuery, limit);
      const historyFigures = await latency(history, query, limit);
      console.log(`${name}, limit ${limit}, ${label}:`);
      console.log(`  GET /v1/covenants/{id}/transactions      ${lineageFigures}`);
      console.log(`  GET /v1/addresses/{address}/transactions ${historyFigures}   (baseline)`);
    }
  }
}

async function main(): Promise<void> {
  if (!Number.isInteger(CONTINUATIONS) || CONTINUATIONS < 200) throw new RangeError('--continuations must be ≥ 200');
  if (!Number.isInteger(REQUESTS) || REQUESTS < 10) throw new RangeError('--requests must be ≥ 10');
  console.log(`a covenant with ${CONTINUATIONS.toLocaleString('en')} continuations; ${REQUESTS} sequential calls per figure`);
  const name = `dagboard_bench_covenants_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${values.postgres}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const db = await openDb({ url: `${values.postgres}/${name}` });
    try {
      await measure('PostgreSQL', db);
    } finally {
      await db.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  if (values.pglite) {
    const db = await openDb({ url: 'memory://' });
    try {
      await measure('PGlite', db);
    } finally {
      await db.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
