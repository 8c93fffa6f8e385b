import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenEngine } from '../tokens/engine';
import { DEVNET_PROFILE } from '../tokens/profile';
import { syntheticMarketBlocks } from '../tokens/test-support/synthetic-market';
import type { Db, Queryable, QueryResult } from './connection';
import { migrate } from './migrations';
import { testBackends, type TestDatabase } from './test-support/test-databases';
import { getTokenFillPage, getTokenHolderPage, getTokenOpPage } from './token-activity';
import { persistBlockApplications } from './token-store';

/** As token-explain.test.ts: plans taken with whole-table scans priced out, so only a missing index shows up as one. */
const AT_SCALE = ['enable_seqscan', 'enable_mergejoin', 'enable_hashjoin'].map((setting) => `SET LOCAL ${setting} = off`);
const TABLES = new Set(['token_balances', 'token_ops', 'token_fills']);

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
    table !== undefined && TABLES.has(table) && (type === 'Seq Scan' || (type.startsWith('Index') && node['Index Cond'] === undefined));
  return [...(unindexed ? [`${type} on ${table}`] : []), ...(node.Plans ?? []).flatMap(unindexedScans)];
}

function explaining(db: Db, scans: string[][]): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      scans.push(
        await db.transaction(async (tx) => {
          for (const setting of AT_SCALE) await tx.query(setting);
          const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
          const raw = rows[0]?.['QUERY PLAN'];
          const [plan] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
          return unindexedScans(plan!.Plan);
        }),
      );
      return db.query<T>(sql, params);
    },
    exec: (sql) => db.exec(sql),
  };
}

describe.each(testBackends())('token activity reads ($name)', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let traced: Queryable;
  const scans: string[][] = [];

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
    const engine = createTokenEngine({ profile: DEVNET_PROFILE });
    const market = syntheticMarketBlocks({ tick: 'SYNA', parties: 12, fills: 600, fillsPerBlock: 25, startDaaScore: 1000n, startMs: Date.UTC(2026, 0, 1), spanMs: 30 * 86_400_000 });
    for (const block of market) {
      const application = engine.applyBlock(block);
      await db.transaction((tx) => persistBlockApplications(tx, [application]));
      engine.pruneUndo(0);
    }
    await db.exec('ANALYZE');
    traced = explaining(db, scans);
  }, 300_000);

  afterAll(async () => {
    await database?.dispose();
  });

  it('holder pages walk every holder once, largest first, through indexes only', async () => {
    const from = scans.length;
    const all = (await getTokenHolderPage(db, 'SYNA', 1000)).rows;
    expect(all.length).toBeGreaterThan(3);
    const walked = [];
    let after: string | undefined;
    for (;;) {
      const page = await getTokenHolderPage(traced, 'SYNA', 3, after);
      walked.push(...page.rows);
      if (!page.hasMore) break;
      after = page.rows.at(-1)!.address;
    }
    expect(walked).toEqual(all);
    const totals = walked.map((holder) => holder.balance + holder.locked);
    expect(totals).toEqual([...totals].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(scans.slice(from).flat()).toEqual([]);
    await expect(getTokenHolderPage(db, 'SYNA', 3, 'kaspadev:nobody')).rejects.toThrow('holds no SYNA');
  });

  it('op and fill pages are newest first below the cursor, through indexes only', async () => {
    const from = scans.length;
    const ops = await getTokenOpPage(traced, 'SYNA', 50);
    expect(ops.hasMore).toBe(true);
    const older = await getTokenOpPage(traced, 'SYNA', 50, ops.rows.at(-1)!.opScore);
    expect(older.rows[0]!.opScore).toBeLessThan(ops.rows.at(-1)!.opScore);
    const fills = await getTokenFillPage(traced, 'SYNA', 50);
    expect(fills.rows).toHaveLength(50);
    const scores = fills.rows.map((fill) => fill.opScore);
    expect(scores).toEqual([...scores].sort((a, b) => (a < b ? 1 : -1)));
    const rest = await getTokenFillPage(traced, 'SYNA', 1000, scores.at(-1));
    expect([rest.rows.length + 50, rest.hasMore]).toEqual([600, false]);
    expect(scans.slice(from).flat()).toEqual([]);
  });
});
