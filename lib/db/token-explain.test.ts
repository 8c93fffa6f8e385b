import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenEngine, type BlockApplication } from '../tokens/engine';
import { DEVNET_PROFILE } from '../tokens/profile';
import { syntheticMarketBlocks } from '../tokens/test-support/synthetic-market';
import type { Db, Queryable, QueryResult } from './connection';
import { migrate } from './migrations';
import { hashOf } from './test-support/fixtures';
import { testBackends, type TestDatabase } from './test-support/test-databases';
import {
  getToken,
  getTokenHolders,
  getTokenHolding,
  getTokenMarketSummaries,
  getTokenOps,
  getTokenOpsOfTransaction,
  getTokenBalancesOfAddress,
  getTokenPage,
} from './token-reads';
import { addTokenStatBuckets, getTokenCandles, getTokenStatSamples, rebuildTokenStatBuckets, refreshTokenCandles } from './token-buckets';
import { readAcceptedBlocks, readChainBlockRef, readChainBlocksAfter } from './token-source';
import { loadTokenSnapshot, persistBlockApplications, pruneTokenUndo, readTokenCheckpoint, revertTokenBlocksAbove } from './token-store';

/** As explain.test.ts: plans taken with whole-table scans priced out, so only a missing index shows up as one. */
const AT_SCALE = ['enable_seqscan', 'enable_mergejoin', 'enable_hashjoin'].map((setting) => `SET LOCAL ${setting} = off`);
const LARGE_TABLES = new Set([
  'blocks',
  'transaction_acceptances',
  'block_transactions',
  'transactions',
  'transaction_inputs',
  'transaction_outputs',
  'token_balances',
  'token_orders',
  'token_ops',
  'token_stats',
  'token_fills',
  'token_undo',
  'token_candles',
  'token_stat_buckets',
]);
const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function unindexedScans(node: PlanNode): string[] {
  const table = node['Relation Name'];
  const type = node['Node Type'];
  const unindexed =
    table !== undefined &&
    LARGE_TABLES.has(table) &&
    (type === 'Seq Scan' || (type.startsWith('Index') && node['Index Cond'] === undefined));
  return [...(unindexed ? [`${type} on ${table}`] : []), ...(node.Plans ?? []).flatMap(unindexedScans)];
}

interface Explained {
  sql: string;
  scans: string[];
}

function explaining(db: Db, explained: Explained[]): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      const scans = await db.transaction(async (tx) => {
        for (const setting of AT_SCALE) await tx.query(setting);
        const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        const raw = rows[0]?.['QUERY PLAN'];
        const [plan] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
        return unindexedScans(plan!.Plan);
      });
      explained.push({ sql: sql.replace(/\s+/g, ' ').trim(), scans });
      return db.query<T>(sql, params);
    },
    exec: (sql) => db.exec(sql),
  };
}

describe.each(testBackends())('token reads and writes use indexes ($name)', (backend) => {
  let database: TestDatabase;
  let db: Db;
  const explained: Explained[] = [];
  let traced: Queryable;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    const engine = createTokenEngine({ profile: DEVNET_PROFILE });
    const markets = [
      syntheticMarketBlocks({ tick: 'SYNA', parties: 12, fills: 1500, fillsPerBlock: 25, startDaaScore: 1000n, startMs: START, spanMs: 200 * DAY }),
      syntheticMarketBlocks({ tick: 'SYNB', parties: 12, fills: 1500, fillsPerBlock: 25, startDaaScore: 1005n, startMs: START, spanMs: 200 * DAY }),
    ];
    let done = false;
    while (!done) {
      const applications: BlockApplication[] = [];
      for (const market of markets) {
        const next = market.next();
        if (next.done) done = true;
        else applications.push(engine.applyBlock(next.value));
      }
      await db.transaction((tx) => persistBlockApplications(tx, applications));
      engine.pruneUndo(0);
    }
    await db.exec('ANALYZE');
    traced = explaining(db, explained);
  }, 300_000);

  afterAll(async () => {
    await database?.dispose();
  });

  const paths: [string, () => Promise<unknown>][] = [
    ['token by key', () => getToken(traced, 'SYNA')],
    ['holding of one address', () => getTokenHolding(traced, 'SYNA', 'kaspadev:qqq')],
    ['token list, first page', () => getTokenPage(traced, { limit: 20 })],
    ['token list, after a cursor', () => getTokenPage(traced, { limit: 20, startingAfter: 'SYNB' })],
    ['token list, before a cursor', () => getTokenPage(traced, { limit: 20, endingBefore: 'SYNA' })],
    ...(['1d', '7d', '1m', '1y'] as const).flatMap((interval): [string, () => Promise<unknown>][] => [
      [`chart candles ${interval}`, () => getTokenCandles(traced, 'SYNA', { interval, now: START + 150 * DAY, kasUsd: () => 0.1 })],
      [`chart stats ${interval}`, () => getTokenStatSamples(traced, 'SYNA', { interval, now: START + 150 * DAY })],
    ]),
    ['candle bucket rebuild', () => refreshTokenCandles(traced, [{ tick: 'SYNA', mts: BigInt(START + 100 * DAY) }])],
    ['stat bucket upsert', () => addTokenStatBuckets(traced, [{ tick: 'SYNA', mts: BigInt(START + 100 * DAY) }])],
    ['stat bucket rebuild', () => rebuildTokenStatBuckets(traced, [{ tick: 'SYNA', mts: BigInt(START + 100 * DAY) }])],
    ['market summaries', () => getTokenMarketSummaries(traced, ['SYNA', 'SYNB'], START + 150 * DAY)],
    ['top holders', () => getTokenHolders(traced, 'SYNB', 50)],
    ['recent ops', () => getTokenOps(traced, 'SYNA', 50)],
    ['older ops', () => getTokenOps(traced, 'SYNA', 50, 1_100n * 10_000n)],
    ['ops of one transaction', () => getTokenOpsOfTransaction(traced, hashOf('no transaction'))],
    ['balances of one address', () => getTokenBalancesOfAddress(traced, 'kaspadev:qqq', 1000)],
    ['checkpoint read', () => readTokenCheckpoint(traced)],
    ['chain block by hash', () => readChainBlockRef(traced, hashOf('no block'))],
    ['chain blocks after a DAA score', () => readChainBlocksAfter(traced, { daaScore: 5n, blueScore: 6n }, 100)],
    [
      'accepted blocks',
      () =>
        readAcceptedBlocks(traced, [
          { hash: hashOf('c'), daaScore: 1n, blueScore: 1n, timestamp: 1n, selectedParentHash: null, isChainBlock: true, mergeSet: [] },
        ]),
    ],
    ['revert above the tip', () => revertTokenBlocksAbove(traced, 1n << 40n)],
    ['undo pruning', () => pruneTokenUndo(traced, 10n)],
  ];

  it.each(paths)('%s reads through indexes only', async (_, run) => {
    const from = explained.length;
    await run();
    const statements = explained.slice(from);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((statement) => statement.scans.length > 0)).toEqual([]);
  });

  it('holds enough rows for the planner to prefer indexes, and the snapshot loads', async () => {
    const { rows } = await db.query<{ count: bigint }>('SELECT count(*) AS count FROM token_ops');
    expect(rows[0]!.count).toBeGreaterThan(5_000n);
    const snapshot = await loadTokenSnapshot(db);
    expect(snapshot.tokens.map((token) => token.tick)).toEqual(['SYNA', 'SYNB']);
  });
});
