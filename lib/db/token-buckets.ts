import {
  carriedCandle,
  CHART_INTERVALS,
  chartWindow,
  SOMPI_PER_KAS,
  type Candle,
  type CandleOptions,
  type ChartInterval,
  type CounterSample,
  type KasUsdRate,
  type UsdCandle,
} from '../tokens/market';
import type { Queryable } from './connection';

/*
 * Per-bucket chart rows (migration 4), so a chart reads at most one row per bucket instead of every fill or snapshot
 * in its range. Both tables are derived data, written in the token indexer's batch transaction:
 *   - token_candles: per token, bucket size and UTC-aligned bucket holding fills. Whenever fills are inserted or
 *     deleted (a batch, a reorganisation's revert) the touched buckets are rebuilt from token_fills, so they are
 *     exactly as reorg-safe as the fills;
 *   - token_stat_buckets: per token, bucket size and bucket, the counter snapshot with the highest opScore in it.
 *     Inserting snapshots only raises that maximum (an upsert); a revert rebuilds the buckets of the deleted ones.
 *
 * A candle row reproduces market.ts's buildCandles exactly:
 *   - high_kas/low_kas are ratioToNumber of the exact extreme price ratio (first by opScore among equal ratios),
 *     chosen in SQL by an exact key: floor(ratio × 10^175), which separates any two different ratios of numeric(78,0)
 *     amounts and numeric(20,0) prices;
 *   - `fills` packs, per fill in opScore order, three big-endian float64: time (ms), KAS price (ratioToNumber of the
 *     fill's ratio) and KAS paid (sompiToKas). USD keeps the per-fill rule (each fill at the KAS/USD rate of its own
 *     time, summed in opScore order) at read time, with any rate source, without reading token_fills; every rebuild
 *     gives the row a new `revision`, so USD figures computed once can be kept by revision (CandleUsdCache);
 *   - open/close_kas are ratioToNumber of the first/last fill by opScore, volume_kas/volume_tokens of the sums;
 *   - ratioToNumber is computed in SQL as JS does: the quotient to 21 significant digits, then the decimal string
 *     parsed as a float64 (both sides round correctly).
 */

/** The bucket sizes of the chart intervals (15 min, 1 h, 4 h, 1 d). */
export const CANDLE_BUCKET_SIZES: readonly bigint[] = [
  ...new Set(Object.values(CHART_INTERVALS).map((interval) => BigInt(interval.bucketMs))),
];

/** The buckets of every size holding these times, as a relation (tick, size, bucket) over parameters $1–$3. */
const TOUCHED = `(SELECT DISTINCT f.tick, s.size, (f.mts / s.size) * s.size AS bucket
  FROM unnest($1::text[], $2::bigint[]) AS f(tick, mts) CROSS JOIN unnest($3::bigint[]) AS s(size))`;

const touchedParams = (rows: readonly { tick: string; mts: bigint }[]) => [
  rows.map((row) => row.tick),
  rows.map((row) => row.mts),
  [...CANDLE_BUCKET_SIZES],
];

/** The same relation over every row of `table` (the migration's backfill). */
export function allBucketsOf(table: string): string {
  return `(SELECT DISTINCT f.tick, s.size, (f.mts / s.size) * s.size AS bucket FROM ${table} f
  CROSS JOIN (VALUES ${CANDLE_BUCKET_SIZES.map((size) => `(${size}::bigint)`).join(', ')}) AS s(size))`;
}

const RATIO_KEY_DIGITS = 175;

function ratioFloat8(numerator: string, denominator: string): string {
  return `(div(${numerator} * 10::numeric ^ s.scale, ${denominator})::numeric(1000,0)::text || 'e-' || s.scale)::float8
    FROM (SELECT greatest(0, 21 - (length((${numerator})::text) - length((${denominator})::text))) AS scale) s`;
}

/**
 * SELECT of rebuilt candle rows for the buckets in `touched` (a relation with tick, size, bucket); shared with the
 * migration that backfills existing fills.
 */
export function candleRowsSelect(touched: string): string {
  return `SELECT a.tick, a.size, a.bucket, a.trades, a.last_op_score, a.open_kas, a.high_kas, a.low_kas, a.close_kas,
    (SELECT ${ratioFloat8('a.sompi', SOMPI_PER_KAS.toString())}),
    (SELECT ${ratioFloat8('a.units', "('1' || repeat('0', a.dec))::numeric")}),
    a.fills
  FROM (SELECT t.tick, t.size, t.bucket, count(*)::integer AS trades, max(f.op_score) AS last_op_score,
      (array_agg(f.kas ORDER BY f.op_score))[1] AS open_kas,
      (array_agg(f.kas ORDER BY f.ratio_key DESC, f.op_score))[1] AS high_kas,
      (array_agg(f.kas ORDER BY f.ratio_key, f.op_score))[1] AS low_kas,
      (array_agg(f.kas ORDER BY f.op_score DESC))[1] AS close_kas,
      sum(f.price) AS sompi, sum(f.amount) AS units, (array_agg(f.dec ORDER BY f.op_score))[1] AS dec,
      string_agg(float8send(f.mts::float8) || float8send(f.kas) || float8send(f.kas_paid), ''::bytea ORDER BY f.op_score)
        AS fills
    FROM ${touched} t
    CROSS JOIN LATERAL (
      SELECT r.op_score, r.mts, r.price, r.amount, r.dec,
        div(r.num * 10::numeric ^ ${RATIO_KEY_DIGITS}, r.den) AS ratio_key,
        (SELECT ${ratioFloat8('r.num', 'r.den')}) AS kas,
        (SELECT ${ratioFloat8('r.price', SOMPI_PER_KAS.toString())}) AS kas_paid
      FROM (SELECT op_score, mts, price, amount, dec, (price::text || repeat('0', dec))::numeric AS num,
              amount * ${SOMPI_PER_KAS} AS den
            FROM token_fills WHERE tick = t.tick COLLATE "C" AND mts >= t.bucket AND mts < t.bucket + t.size) r
    ) f
    GROUP BY t.tick, t.size, t.bucket) a`;
}

export const CANDLE_COLUMNS =
  'tick, bucket_ms, bucket, trades, last_op_score, open_kas, high_kas, low_kas, close_kas, volume_kas, volume_tokens, fills';

/** Rebuilds, for every bucket size, the buckets holding these fills (by tick and time) from token_fills. */
export async function refreshTokenCandles(db: Queryable, fills: readonly { tick: string; mts: bigint }[]): Promise<void> {
  if (fills.length === 0) return;
  const params = touchedParams(fills);
  await db.query(
    `DELETE FROM token_candles c USING ${TOUCHED} t
     WHERE c.tick = t.tick COLLATE "C" AND c.bucket_ms = t.size AND c.bucket = t.bucket`,
    params,
  );
  await db.query(`INSERT INTO token_candles (${CANDLE_COLUMNS}) ${candleRowsSelect(TOUCHED)}`, params);
}

/** SELECT of the highest-opScore snapshot of each bucket in `touched` (shared with the migration's backfill). */
export function statBucketRowsSelect(touched: string): string {
  return `SELECT t.tick, t.size, t.bucket, s.op_score, s.holder_total, s.mint_total, s.transfer_total
  FROM ${touched} t
  CROSS JOIN LATERAL (SELECT op_score, holder_total, mint_total, transfer_total FROM token_stats
    WHERE tick = t.tick COLLATE "C" AND mts >= t.bucket AND mts < t.bucket + t.size ORDER BY op_score DESC LIMIT 1) s`;
}

export const STAT_BUCKET_COLUMNS = 'tick, bucket_ms, bucket, op_score, holder_total, mint_total, transfer_total';

/** Raises each touched bucket's snapshot to the highest-opScore one of these newly stored snapshots. */
export async function addTokenStatBuckets(db: Queryable, samples: readonly { tick: string; mts: bigint }[]): Promise<void> {
  if (samples.length === 0) return;
  await db.query(
    `INSERT INTO token_stat_buckets (${STAT_BUCKET_COLUMNS}) ${statBucketRowsSelect(TOUCHED)}
     ON CONFLICT (tick, bucket_ms, bucket) DO UPDATE SET op_score = EXCLUDED.op_score,
       holder_total = EXCLUDED.holder_total, mint_total = EXCLUDED.mint_total, transfer_total = EXCLUDED.transfer_total
     WHERE EXCLUDED.op_score > token_stat_buckets.op_score`,
    touchedParams(samples),
  );
}

/** Rebuilds the touched buckets after snapshots were deleted. */
export async function rebuildTokenStatBuckets(db: Queryable, samples: readonly { tick: string; mts: bigint }[]): Promise<void> {
  if (samples.length === 0) return;
  const params = touchedParams(samples);
  await db.query(
    `DELETE FROM token_stat_buckets b USING ${TOUCHED} t
     WHERE b.tick = t.tick COLLATE "C" AND b.bucket_ms = t.size AND b.bucket = t.bucket`,
    params,
  );
  await db.query(`INSERT INTO token_stat_buckets (${STAT_BUCKET_COLUMNS}) ${statBucketRowsSelect(TOUCHED)}`, params);
}

interface StatBucketRow {
  bucket: bigint;
  op_score: bigint;
  holder_total: number;
  mint_total: number;
  transfer_total: number;
}

const sampleOf = (row: StatBucketRow): CounterSample => ({
  opScore: row.op_score,
  timestamp: Number(row.bucket),
  holderTotal: row.holder_total,
  mintTotal: row.mint_total,
  transferTotal: row.transfer_total,
});

/**
 * The snapshots buildStatsHistory needs for a window, from token_stat_buckets: the highest-opScore one before the
 * window, then the highest-opScore one of each bucket in it (timestamp = the bucket start, which is all it reads).
 */
export async function getTokenStatSamples(db: Queryable, tick: string, options: { interval: ChartInterval; now: number }): Promise<CounterSample[]> {
  const window = chartWindow(options.interval, options.now);
  const size = BigInt(window.bucketMs);
  const [before, inside] = await Promise.all([
    db.query<StatBucketRow>(
      `SELECT bucket, op_score, holder_total, mint_total, transfer_total FROM token_stat_buckets
       WHERE tick = $1 AND bucket_ms = $2 AND bucket < $3 ORDER BY op_score DESC LIMIT 1`,
      [tick, size, BigInt(window.first)],
    ),
    db.query<StatBucketRow>(
      `SELECT bucket, op_score, holder_total, mint_total, transfer_total FROM token_stat_buckets
       WHERE tick = $1 AND bucket_ms = $2 AND bucket >= $3 AND bucket <= $4 ORDER BY bucket`,
      [tick, size, BigInt(window.first), BigInt(window.last)],
    ),
  ]);
  return [...before.rows, ...inside.rows].map(sampleOf);
}

interface CandleRow {
  bucket: bigint;
  revision: bigint;
  trades: number;
  open_kas: number;
  high_kas: number;
  low_kas: number;
  close_kas: number;
  volume_kas: number;
  volume_tokens: number;
}

const FILL_BYTES = 24;

function usdOfBucket(fills: Uint8Array, kasUsd: KasUsdRate): UsdCandle | null {
  const view = new DataView(fills.buffer, fills.byteOffset, fills.byteLength);
  let open = 0;
  let high = -Infinity;
  let low = Infinity;
  let close = 0;
  let volume = 0;
  for (let offset = 0; offset < fills.byteLength; offset += FILL_BYTES) {
    const rate = kasUsd(view.getFloat64(offset));
    if (rate === null || rate === undefined) return null;
    close = view.getFloat64(offset + 8) * rate;
    if (offset === 0) open = close;
    high = Math.max(high, close);
    low = Math.min(low, close);
    volume += view.getFloat64(offset + 16) * rate;
  }
  return { open, high, low, close, volume };
}

/**
 * The USD figures of candle rows, by row revision (every rebuild gives a row a new one), for one rate source whose
 * rate is a fixed function of time: such figures never change, so the per-fill pass runs once per bucket and process.
 */
export interface CandleUsdCache {
  readonly rateAt: KasUsdRate;
  get(tick: string, revision: bigint): UsdCandle | null | undefined;
  set(tick: string, revision: bigint, usd: UsdCandle | null): void;
}

export function createCandleUsdCache(rateAt: KasUsdRate, maxEntries = 200_000): CandleUsdCache {
  const entries = new Map<string, UsdCandle | null>();
  return {
    rateAt,
    get: (tick, revision) => entries.get(`${tick} ${revision}`),
    set(tick, revision, usd) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(`${tick} ${revision}`, usd);
    },
  };
}

/**
 * One token's candles from token_candles, equal to buildCandles over all of its fills: the window's rows, and the
 * close carried in from the row whose last fill is the latest by opScore before the window. A row's packed fills are
 * read only when its USD figures are needed and not in `usdCache` (which must belong to options.kasUsd).
 */
export async function getTokenCandles(
  db: Queryable,
  tick: string,
  options: CandleOptions,
  usdCache?: CandleUsdCache,
): Promise<Candle[]> {
  const { kasUsd } = options;
  if (usdCache && usdCache.rateAt !== kasUsd) throw new Error('the USD cache belongs to another rate source');
  const window = chartWindow(options.interval, options.now);
  const size = BigInt(window.bucketMs);
  const [before, inside] = await Promise.all([
    db.query<{ close_kas: number }>(
      `SELECT close_kas FROM token_candles WHERE tick = $1 AND bucket_ms = $2 AND bucket < $3
       ORDER BY last_op_score DESC LIMIT 1`,
      [tick, size, BigInt(window.first)],
    ),
    db.query<CandleRow>(
      `SELECT bucket, revision, trades, open_kas, high_kas, low_kas, close_kas, volume_kas, volume_tokens FROM token_candles
       WHERE tick = $1 AND bucket_ms = $2 AND bucket >= $3 AND bucket <= $4 ORDER BY bucket`,
      [tick, size, BigInt(window.first), BigInt(window.last)],
    ),
  ]);
  const usd = new Map<bigint, UsdCandle | null>();
  if (kasUsd) {
    const missing: bigint[] = [];
    for (const row of inside.rows) {
      const cached = usdCache?.get(tick, row.revision);
      if (cached === undefined) missing.push(row.bucket);
      else usd.set(row.revision, cached);
    }
    if (missing.length > 0) {
      const packed = await db.query<{ revision: bigint; fills: Uint8Array }>(
        'SELECT revision, fills FROM token_candles WHERE tick = $1 AND bucket_ms = $2 AND bucket = ANY($3::bigint[])',
        [tick, size, missing],
      );
      for (const row of packed.rows) {
        const figures = usdOfBucket(row.fills, kasUsd);
        usd.set(row.revision, figures);
        usdCache?.set(tick, row.revision, figures);
      }
    }
  }
  const byTime = new Map(inside.rows.map((row) => [Number(row.bucket), row]));
  const candles: Candle[] = [];
  let lastClose = before.rows[0]?.close_kas ?? null;
  for (let time = window.first; time <= window.last; time += window.bucketMs) {
    const row = byTime.get(time);
    if (row) {
      candles.push({
        time,
        open: row.open_kas,
        high: row.high_kas,
        low: row.low_kas,
        close: row.close_kas,
        volumeKas: row.volume_kas,
        volumeTokens: row.volume_tokens,
        trades: row.trades,
        usd: kasUsd ? (usd.get(row.revision) ?? null) : null,
      });
      lastClose = row.close_kas;
    } else if (lastClose !== null) {
      candles.push(carriedCandle(time, lastClose, kasUsd));
    }
  }
  return candles;
}
