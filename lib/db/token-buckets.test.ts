import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenEngine, OP_SCORE_MULTIPLIER, type BlockApplication } from '../tokens/engine';
import { simulatedKasUsd } from '../tokens/kas-usd';
import {
  buildCandles,
  buildStatsHistory,
  CHART_INTERVALS,
  counterSamplesFromOps,
  fillsFromOps,
  type ChartInterval,
  type CounterSample,
  type Fill,
  type KasUsdRate,
} from '../tokens/market';
import { DEVNET_PROFILE } from '../tokens/profile';
import { syntheticMarketBlocks } from '../tokens/test-support/synthetic-market';
import type { Db, Queryable } from './connection';
import { migrate, MIGRATIONS } from './migrations';
import { testBackends, type TestDatabase } from './test-support/test-databases';
import { addTokenStatBuckets, createCandleUsdCache, getTokenCandles, getTokenStatSamples, refreshTokenCandles } from './token-buckets';
import { persistBlockApplications, revertTokenBlocksAbove } from './token-store';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 2026-03-01T00:00:00Z. */
const NOW_BASE = Date.UTC(2026, 2, 1);
const INTERVALS = Object.keys(CHART_INTERVALS) as ChartInterval[];
const SIMULATED = simulatedKasUsd('candles', 0.1).rateAt;
/** Unknown before NOW_BASE − 2 days, so some buckets have usd = null. */
const PARTIAL: KasUsdRate = (time) => (time < NOW_BASE - 2 * DAY ? null : 0.05 + (time % 7_919) / 1e6);

async function insertFills(db: Queryable, fills: readonly Fill[]): Promise<void> {
  await db.query(
    `INSERT INTO token_fills (tick, op_score, mts, tx_id, seller, buyer, amount, price, dec)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[], $5::text[], $6::text[], $7::numeric[],
       $8::numeric[], $9::smallint[])`,
    [
      fills.map((f) => f.tick),
      fills.map((f) => f.opScore),
      fills.map((f) => BigInt(f.timestamp)),
      fills.map(() => new Uint8Array(32)),
      fills.map((f) => f.seller),
      fills.map((f) => f.buyer),
      fills.map((f) => f.amount.toString()),
      fills.map((f) => f.price.toString()),
      fills.map((f) => f.dec),
    ],
  );
  await refreshTokenCandles(db, fills.map((f) => ({ tick: f.tick, mts: BigInt(f.timestamp) })));
}

async function insertSamples(db: Queryable, tick: string, samples: readonly CounterSample[]): Promise<void> {
  await db.query(
    `INSERT INTO token_stats (tick, op_score, mts, holder_total, mint_total, transfer_total)
     SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::integer[], $5::integer[], $6::integer[])`,
    [
      tick,
      samples.map((s) => s.opScore),
      samples.map((s) => BigInt(s.timestamp)),
      samples.map((s) => s.holderTotal),
      samples.map((s) => s.mintTotal),
      samples.map((s) => s.transferTotal),
    ],
  );
  await addTokenStatBuckets(db, samples.map((s) => ({ tick, mts: BigInt(s.timestamp) })));
}

/** Prices and amounts from tiny to huge (ties, near-ties, 30-digit amounts), times over ~14 months, any opScore order. */
const fillArbitrary = fc.record({
  offsetMs: fc.oneof(fc.integer({ min: -420 * DAY, max: DAY }), fc.integer({ min: -3 * DAY, max: 0 })),
  price: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 10n ** 19n })),
  amount: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 10n ** 30n })),
});

describe.each(testBackends())('token candle rows ($name)', (backend) => {
  let database: TestDatabase;
  let db: Db;
  let run = 0;

  beforeAll(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
  }, 120_000);

  afterAll(async () => {
    await database?.dispose();
  });

  it('equal buildCandles over all fills for every interval and rate source, in any batching', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fillArbitrary, { minLength: 0, maxLength: 60 }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: DAY - 1 }),
        async (drawn, dec, batches, nowOffset) => {
          const tick = `T${(run++).toString(36).toUpperCase().padStart(4, 'A')}`.slice(0, 6);
          const now = NOW_BASE + nowOffset;
          const fills: Fill[] = drawn.map((d, index) => ({
            tick,
            opScore: BigInt(1_000 + index * 3),
            timestamp: now + d.offsetMs,
            txId: '00'.repeat(32),
            seller: 's',
            buyer: 'b',
            amount: d.amount,
            price: d.price,
            dec,
          }));
          const size = Math.ceil(fills.length / batches);
          const samples: CounterSample[] = fills.map((fill, index) => ({
            opScore: fill.opScore,
            timestamp: fill.timestamp,
            holderTotal: index * 3,
            mintTotal: index * 5 + 1,
            transferTotal: index * 7 + 2,
          }));
          for (let start = 0; start < fills.length; start += size) {
            await insertFills(db, fills.slice(start, start + size));
            await insertSamples(db, tick, samples.slice(start, start + size));
          }
          for (const interval of INTERVALS) {
            for (const kasUsd of [undefined, SIMULATED, PARTIAL]) {
              const options = { interval, now, kasUsd };
              const expected = buildCandles(fills, options);
              expect(await getTokenCandles(db, tick, options)).toEqual(expected);
              if (kasUsd) {
                const cache = createCandleUsdCache(kasUsd);
                expect(await getTokenCandles(db, tick, options, cache)).toEqual(expected);
                expect(await getTokenCandles(db, tick, options, cache)).toEqual(expected);
              }
            }
            const options = { interval, now };
            expect(buildStatsHistory(await getTokenStatSamples(db, tick, options), options)).toEqual(
              buildStatsHistory(samples, options),
            );
          }
        },
      ),
      { numRuns: backend.name === 'pglite' ? 40 : 60 },
    );
  }, 600_000);

  it('follow the token indexer through a reorganisation', async () => {
    const engine = createTokenEngine({ profile: DEVNET_PROFILE });
    const blocks = [
      ...syntheticMarketBlocks({
        tick: 'REOR',
        parties: 6,
        fills: 300,
        fillsPerBlock: 10,
        startDaaScore: 50_000n,
        startMs: NOW_BASE - 20 * DAY,
        spanMs: 19 * DAY,
      }),
    ];
    const applications: BlockApplication[] = blocks.map((block) => engine.applyBlock(block));
    for (let start = 0; start < applications.length; start += 7) {
      await db.transaction((tx) => persistBlockApplications(tx, applications.slice(start, start + 7)));
    }
    const ops = applications.flatMap((application) => application.ops);
    const all = fillsFromOps(ops);
    expect(all.length).toBe(300);
    const cache = createCandleUsdCache(SIMULATED);
    const compare = async (kept: (opScore: bigint) => boolean) => {
      const fills = all.filter((fill) => kept(fill.opScore));
      const samples = counterSamplesFromOps(ops, 'REOR').filter((sample) => kept(sample.opScore));
      for (const interval of INTERVALS) {
        const options = { interval, now: NOW_BASE, kasUsd: SIMULATED };
        const expected = buildCandles(fills, options);
        expect(await getTokenCandles(db, 'REOR', options)).toEqual(expected);
        expect(await getTokenCandles(db, 'REOR', options, cache)).toEqual(expected);
        expect(buildStatsHistory(await getTokenStatSamples(db, 'REOR', options), options)).toEqual(
          buildStatsHistory(samples, options),
        );
      }
    };
    await compare(() => true);
    const cut = blocks[Math.floor(blocks.length / 2)]!.daaScore;
    const firstRemoved = (cut + 1n) * OP_SCORE_MULTIPLIER;
    expect(all.filter((fill) => fill.opScore >= firstRemoved).length).toBeGreaterThan(100);
    await db.transaction((tx) => revertTokenBlocksAbove(tx, cut));
    await compare((opScore) => opScore < firstRemoved);
    await db.transaction((tx) => persistBlockApplications(tx, applications.filter((application) => application.daaScore > cut)));
    await compare(() => true);
  }, 300_000);

  it('are backfilled by migration 4 from the fills and snapshots stored before it (inserted as version 3 stored them)', async () => {
    const fresh = await backend.open();
    try {
      await migrate(fresh.db, MIGRATIONS.filter((migration) => migration.version < 4));
      const engine = createTokenEngine({ profile: DEVNET_PROFILE });
      const applications = [
        ...syntheticMarketBlocks({
          tick: 'BACK',
          parties: 5,
          fills: 120,
          fillsPerBlock: 12,
          startDaaScore: 9_000n,
          startMs: NOW_BASE - 40 * DAY,
          spanMs: 39 * DAY,
        }),
      ].map((block) => engine.applyBlock(block));
      const ops = applications.flatMap((application) => application.ops);
      const fills = fillsFromOps(ops);
      expect(fills.length).toBe(120);
      await fresh.db.query(
        `INSERT INTO token_fills (tick, op_score, mts, tx_id, seller, buyer, amount, price, dec)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[], $5::text[], $6::text[],
           $7::numeric[], $8::numeric[], $9::smallint[])`,
        [
          fills.map((f) => f.tick),
          fills.map((f) => f.opScore),
          fills.map((f) => BigInt(f.timestamp)),
          fills.map(() => new Uint8Array(32)),
          fills.map((f) => f.seller),
          fills.map((f) => f.buyer),
          fills.map((f) => f.amount.toString()),
          fills.map((f) => f.price.toString()),
          fills.map((f) => f.dec),
        ],
      );
      const samples = counterSamplesFromOps(ops, 'BACK');
      await fresh.db.query(
        `INSERT INTO token_stats (tick, op_score, mts, holder_total, mint_total, transfer_total)
         SELECT 'BACK', * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::integer[], $5::integer[])`,
        [
          samples.map((sample) => sample.opScore),
          samples.map((sample) => BigInt(sample.timestamp)),
          samples.map((sample) => sample.holderTotal),
          samples.map((sample) => sample.mintTotal),
          samples.map((sample) => sample.transferTotal),
        ],
      );
      expect(await migrate(fresh.db)).toEqual(MIGRATIONS.map((migration) => migration.version).filter((version) => version > 3));
      for (const interval of INTERVALS) {
        const options = { interval, now: NOW_BASE, kasUsd: SIMULATED };
        expect(await getTokenCandles(fresh.db, 'BACK', options)).toEqual(buildCandles(fills, options));
        expect(buildStatsHistory(await getTokenStatSamples(fresh.db, 'BACK', options), options)).toEqual(
          buildStatsHistory(samples, options),
        );
      }
    } finally {
      await fresh.dispose();
    }
  }, 300_000);
});
