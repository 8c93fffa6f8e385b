/**
 * KRC-20 figures. Run with `npx tsx bench/tokens.ts` (an in-memory PGlite), or `npx tsx bench/tokens.ts <postgres url>`
 * (a scratch database on that server, dropped at the end); it stops by itself. Synthetic data: reveal transactions built by lib/tokens/test-support (real envelopes the engine
 * parses; signatures are placeholders, which the indexer never checks), each fill a `list` plus the `send` filling it.
 *   1. token indexer: ops indexed per second from a chain index (lib/db tables) through the engine into the token
 *      tables, with the engine alone over the same blocks as the baseline;
 *   2. one token deployed through the engine, then 100,000 fills (and counter snapshots) inserted by SQL, and their
 *      chart bucket rows built by the same calls the token indexer makes after storing fills and snapshots;
 *   3. GET /v1/tokens/tk20/{ticker}/chart on that token: p50/p99 over sequential calls through the full endpoint
 *      wrapper for candles at every interval and stats at 1y, with the metadata endpoint and the previous candle path
 *      (every fill of the year read and buildCandles over them, as the endpoint did before token_candles) as
 *      baselines.
 */
import pg from 'pg';
import { endpointDefiner } from '../lib/api/wrapper/endpoint';
import { createIndexedReads } from '../lib/api/endpoints/indexed-endpoints';
import { createApiKey, createMemoryKeyStore } from '../lib/api/keys/keys';
import { createMemoryMeter } from '../lib/api/keys/metering';
import { candleUsdCacheFor, getTokenChartEndpoint, getTokenMetadataEndpoint, type TokenApiContext } from '../lib/api/endpoints/token-endpoints';
import { migrate, openDb, type Db } from '../lib/db';
import { addTokenStatBuckets, refreshTokenCandles } from '../lib/db/token-buckets';
import { persistBlockApplications } from '../lib/db/token-store';
import { createTokenEngine, type AcceptedBlock } from '../lib/tokens/engine';
import { buildCandles, chartWindow, type Fill } from '../lib/tokens/market';
import { createTokenIndexer } from '../lib/indexer/token-indexer';
import { simulatedKasUsd } from '../lib/tokens/kas-usd';
import { DEVNET_PROFILE } from '../lib/tokens/profile';
import { tokenRegistry } from '../lib/tokens/registry';
import { makeChain, storeChainCandidate, type StoredChainBlock } from '../lib/indexer/test-support/token-chain-index';
import { syntheticMarketBlocks } from '../lib/tokens/test-support/synthetic-market';

const DAY = 86_400_000;
const INDEXER_FILLS = 3_000;
const CHART_FILLS = 100_000;
const FILLS_PER_BLOCK = 50;
const CALLS = 50;
const WARMUP_CALLS = 10;
const PREVIOUS_PATH_CALLS = 5;

const opsIn = (blocks: readonly AcceptedBlock[]) => blocks.reduce((total, block) => total + block.transactions.length, 0);

async function indexerThroughput(db: Db): Promise<void> {
  const blocks = [
    ...syntheticMarketBlocks({
      tick: 'IDXT',
      parties: 16,
      fills: INDEXER_FILLS,
      fillsPerBlock: FILLS_PER_BLOCK,
      startDaaScore: 10_000n,
      startMs: Date.now() - 30 * DAY,
      spanMs: 29 * DAY,
    }),
  ];
  const engineStart = performance.now();
  const engine = createTokenEngine({ profile: DEVNET_PROFILE });
  for (const block of blocks) engine.applyBlock(block);
  const engineSeconds = (performance.now() - engineStart) / 1000;

  let tip: StoredChainBlock | null = null;
  for (const block of blocks) {
    tip = await db.transaction(async (tx) => {
      const stored = await storeChainCandidate(tx, {
        label: block.hash,
        daaScore: block.daaScore,
        parent: tip?.hash ?? null,
        transactions: block.transactions,
      });
      await makeChain(tx, [], [stored]);
      return stored;
    });
  }
  const indexer = createTokenIndexer({ db, profile: DEVNET_PROFILE });
  const start = performance.now();
  const result = await indexer.catchUp();
  const seconds = (performance.now() - start) / 1000;
  const ops = opsIn(blocks);
  if (result.ops !== ops) throw new Error(`the token indexer applied ${result.ops} ops, expected ${ops}`);
  console.log(`token indexer (chain index → engine → token tables, ${ops} ops in ${blocks.length} chain blocks): ${Math.round(ops / seconds)} ops/s`);
  console.log(`  baseline, engine alone over the same blocks: ${Math.round(ops / engineSeconds)} ops/s`);
}

/**
 * The chart token: deployed and minted through the engine and token-store, then CHART_FILLS fills (and a counter
 * snapshot per fill) inserted by SQL straight into token_fills/token_stats, spread evenly over the last 363 days.
 */
async function storeChartToken(db: Db, now: number): Promise<void> {
  const engine = createTokenEngine({ profile: DEVNET_PROFILE });
  const [deploy] = syntheticMarketBlocks({
    tick: 'BIGT',
    parties: 40,
    fills: 0,
    fillsPerBlock: FILLS_PER_BLOCK,
    startDaaScore: 1_000_000n,
    startMs: now - 364 * DAY,
    spanMs: 363 * DAY,
  });
  await db.transaction((tx) => persistBlockApplications(tx, [engine.applyBlock(deploy!)]));
  const start = performance.now();
  const params = [CHART_FILLS, BigInt(now - 363 * DAY), 363 * DAY];
  await db.query(
    `INSERT INTO token_fills (tick, op_score, mts, tx_id, seller, buyer, amount, price, dec)
     SELECT 'BIGT', (2000000 + i) * 10000, $2 + (i::bigint * $3 / $1), decode(lpad(to_hex(i), 64, '0'), 'hex'),
            'kaspadev:seller' || (i % 40), 'kaspadev:buyer' || ((i + 1) % 40), 100000000 + (i % 97) * 1000000,
            (5 + (i * 7919) % 50) * 100000000, 8
     FROM generate_series(1::bigint, $1::bigint) AS i`,
    params,
  );
  await db.query(
    `INSERT INTO token_stats (tick, op_score, mts, holder_total, mint_total, transfer_total)
     SELECT 'BIGT', (2000000 + i) * 10000, $2 + (i::bigint * $3 / $1), 40, 40, 0
     FROM generate_series(1::bigint, $1::bigint) AS i`,
    params,
  );
  const inserted = performance.now();
  const { rows } = await db.query<{ tick: string; mts: bigint }>(`SELECT tick, mts FROM token_fills WHERE tick = 'BIGT'`);
  await refreshTokenCandles(db, rows);
  await addTokenStatBuckets(db, rows);
  await db.exec('ANALYZE');
  const end = performance.now();
  console.log(
    `inserted ${CHART_FILLS} fills of BIGT by SQL in ${((inserted - start) / 1000).toFixed(1)} s, ` +
      `their chart bucket rows in ${((end - inserted) / 1000).toFixed(1)} s`,
  );
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

async function chartLatency(db: Db, now: number): Promise<void> {
  const rpc = { call: async () => ({ blueScore: 0n }) as never };
  const kasUsd = simulatedKasUsd('bench', 0.1);
  const context: TokenApiContext = {
    keys: createMemoryKeyStore(),
    meter: createMemoryMeter(),
    clock: () => now,
    logger: { error: (message, entry) => console.error(message, entry) },
    addressPrefix: async () => 'kaspadev',
    rpc,
    ...createIndexedReads({ db, rpc, clock: () => now }),
    tokens: { registry: tokenRegistry({ tokens: {} }), kasUsd, candleUsd: candleUsdCacheFor(kasUsd) },
  };
  const { key } = await createApiKey(context.keys, {
    name: 'bench',
    limits: { milliRuPerSecond: 1_000_000_000, milliRuPerMonth: 1_000_000_000_000 },
    now: new Date(now),
  });
  const define = endpointDefiner(() => context);
  const measure = async (label: string, definition: { id: string }, query: string, check: (body: string) => void) => {
    const handler = define(definition as never);
    const call = async () => {
      const response = await handler(new Request(`http://localhost/v1/tokens/tk20/BIGT/x${query}`, { headers: { 'x-api-key': key } }), {
        params: Promise.resolve({ standard: 'tk20', ticker: 'BIGT' }),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${label}: HTTP ${response.status} ${text}`);
      return text;
    };
    const first = performance.now();
    check(await call());
    const firstMs = performance.now() - first;
    for (let i = 0; i < WARMUP_CALLS; i++) await call();
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const start = performance.now();
      await call();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${label}: p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms (${CALLS} calls; ` +
        `first call ${firstMs.toFixed(1)} ms)`,
    );
  };
  await measure('chart candles 1y (100,000 fills)', getTokenChartEndpoint, '?type=candles&interval=1y', (body) => {
    const { candles } = JSON.parse(body) as { candles: { trades: number }[] };
    const trades = candles.reduce((total, candle) => total + candle.trades, 0);
    if (candles.length < 360 || trades !== CHART_FILLS) throw new Error(`expected ~365 daily candles over ${CHART_FILLS} fills, got ${candles.length} and ${trades}`);
  });
  for (const interval of ['1m', '7d', '1d']) {
    await measure(`chart candles ${interval}`, getTokenChartEndpoint, `?type=candles&interval=${interval}`, (body) => {
      if ((JSON.parse(body) as { candles: unknown[] }).candles.length === 0) throw new Error(`expected ${interval} candles`);
    });
  }
  await measure('chart stats 1y', getTokenChartEndpoint, '?type=stats&interval=1y', (body) => {
    if ((JSON.parse(body) as { stats: unknown[] }).stats.length < 360) throw new Error('expected ~365 stats items');
  });
  await measure('  baseline, metadata', getTokenMetadataEndpoint, '', () => undefined);
  await previousCandlePath(db, now, context.tokens.kasUsd.rateAt);
}

/** The previous candle path (every fill of the window read, buildCandles over them), timed without the wrapper. */
async function previousCandlePath(db: Db, now: number, kasUsd: (time: number) => number | null | undefined): Promise<void> {
  const window = chartWindow('1y', now);
  const times: number[] = [];
  for (let i = 0; i < PREVIOUS_PATH_CALLS; i++) {
    const start = performance.now();
    const { rows } = await db.query<{ op_score: bigint; mts: bigint; amount: string; price: string; dec: number }>(
      `SELECT op_score, mts, amount, price, dec FROM token_fills WHERE tick = 'BIGT' AND mts < $1 ORDER BY op_score`,
      [BigInt(window.last + window.bucketMs)],
    );
    const fills: Fill[] = rows.map((row) => ({
      tick: 'BIGT',
      opScore: row.op_score,
      timestamp: Number(row.mts),
      txId: '',
      seller: '',
      buyer: '',
      amount: BigInt(row.amount),
      price: BigInt(row.price),
      dec: row.dec,
    }));
    buildCandles(fills, { interval: '1y', now, kasUsd });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(
    `  baseline, previous candle path 1y (read every fill + buildCandles): p50 ${percentile(times, 0.5).toFixed(1)} ms, ` +
      `max ${times[times.length - 1]!.toFixed(1)} ms (${PREVIOUS_PATH_CALLS} calls)`,
  );
}

/** A scratch database on the PostgreSQL server `serverUrl` names, dropped by the returned function. */
async function scratchPostgres(serverUrl: string): Promise<{ db: Db; drop: () => Promise<void> }> {
  const name = `dagboard_bench_tokens_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDb({ url: url.toString() });
  return {
    db,
    async drop() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  const scratch = serverUrl ? await scratchPostgres(serverUrl) : null;
  const db = scratch?.db ?? (await openDb({ url: 'memory://' }));
  console.log(`database: ${serverUrl ? 'PostgreSQL (scratch database)' : 'in-memory PGlite'}`);
  try {
    await migrate(db);
    const now = Date.now();
    await indexerThroughput(db);
    await storeChartToken(db, now);
    await chartLatency(db, now);
  } finally {
    if (scratch) await scratch.drop();
    else await db.close();
  }
}

await main();
