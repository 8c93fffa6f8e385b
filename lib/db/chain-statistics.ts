/**
 * The chain statistics (migration 13): per window of WINDOW_DAA_SCORES DAA scores, what its blocks did, computed
 * from the index once the index is a whole window past it; per UTC hour the sum of the windows starting in it; and
 * the reads by window, hour or day. Transactions are those the window's chain blocks accepted, coinbases apart; a
 * transaction's fee counts once every input's spent output is known (always, unless its history was pruned first).
 */
import { SUBNETWORK_ID_COINBASE } from '../kaspa/types';
import { estimateDistinct, mergeSketches, SKETCH_INDEX_BITS, SKETCH_RANK_BITS, sketchOf, REGISTERS } from './address-sketch';
import type { Queryable } from './connection';

/** A minute at 10 blocks per second. */
export const WINDOW_DAA_SCORES = 600n;
const HOUR_MS = 3_600_000n;
const DAY_MS = 86_400_000n;

export type StatisticsInterval = 'window' | 'hour' | 'day';

export interface StatisticsRow {
  /** Milliseconds: a window's first block's timestamp, an hour's or a day's start. */
  start: bigint;
  /** Milliseconds: a window's last block's timestamp, an hour's or a day's end. */
  end: bigint;
  blocks: number;
  chainBlocks: number;
  transactions: number;
  /** Sums in grams and sompi, as decimal strings. */
  mass: string;
  fees: string;
  activeAddresses: number;
  /** False while the index may still add to the row. */
  complete: boolean;
  /** A window's DAA scores (first and last); null for hours and days. */
  daaScores: { start: bigint; end: bigint } | null;
}

interface StoredFigures {
  blocks: number;
  chain_blocks: number;
  transactions: number;
  mass: string;
  fees: string;
  address_sketch: Uint8Array;
  complete: boolean;
  end_time: bigint;
}

/** Where the refresher stands: the checkpoint's DAA score and the first window not known complete. */
export async function statisticsRefreshRange(
  db: Queryable,
  checkpointName: string,
): Promise<{ checkpointDaaScore: bigint; firstWindow: bigint } | null> {
  const { rows } = await db.query<{ checkpoint: bigint | null; complete_through: bigint | null; lowest: bigint | null }>(
    `SELECT (SELECT daa_score FROM indexer_checkpoints WHERE name = $1) AS checkpoint,
            (SELECT complete_through FROM chain_statistics_progress) AS complete_through,
            (SELECT min(daa_score) FROM blocks) AS lowest`,
    [checkpointName],
  );
  const row = rows[0]!;
  if (row.checkpoint === null || row.lowest === null) return null;
  const lowestWindow = row.lowest / WINDOW_DAA_SCORES;
  const next = row.complete_through === null ? lowestWindow : row.complete_through + 1n;
  return { checkpointDaaScore: row.checkpoint, firstWindow: next > lowestWindow ? next : lowestWindow };
}

/**
 * Computes a complete window's row from the index (none when it holds no block) and returns the hour it starts in.
 * Each part is computed from scratch, so a repeated run lands on the same row. The window's blocks,
 * then the ids its chain blocks accepted, are read first and passed on as arrays: every later read is a keyed lookup
 * (PGlite runs queries on the server's thread and keeps no planner statistics, so a scan there stalls every request).
 */
export async function refreshStatisticsWindow(db: Queryable, window: bigint): Promise<bigint | null> {
  const { rows: blocks } = await db.query<{ hash: Uint8Array; timestamp: bigint; is_chain_block: boolean }>(
    'SELECT hash, timestamp, is_chain_block FROM blocks WHERE daa_score >= $1 AND daa_score < $2',
    [window * WINDOW_DAA_SCORES, (window + 1n) * WINDOW_DAA_SCORES],
  );
  if (blocks.length === 0) {
    await db.query('DELETE FROM chain_statistics_windows WHERE window_index = $1', [window]);
    return null;
  }
  const chainBlocks = blocks.filter((block) => block.is_chain_block).map((block) => block.hash);
  const { rows: acceptedRows } = await db.query<{ transaction_id: Uint8Array }>(
    'SELECT transaction_id FROM transaction_acceptances WHERE accepting_block_hash = ANY($1::bytea[])',
    [chainBlocks],
  );
  const accepted = acceptedRows.map((row) => row.transaction_id);
  const { rows } = await db.query<{ transactions: number; mass: string; fees: string }>(
    `WITH accepted AS (SELECT unnest($1::bytea[]) AS transaction_id), paid AS (
       SELECT t.transaction_id, t.mass FROM accepted JOIN transactions t USING (transaction_id) WHERE t.subnetwork_id <> $2
     ), spent AS (
       SELECT i.transaction_id, sum(i.previous_amount) AS amount FROM paid JOIN transaction_inputs i USING (transaction_id)
       GROUP BY i.transaction_id HAVING count(i.previous_amount) = count(*)
     ), created AS (
       SELECT o.transaction_id, sum(o.amount) AS amount FROM paid JOIN transaction_outputs o USING (transaction_id)
       GROUP BY o.transaction_id
     )
     SELECT (SELECT count(*) FROM paid)::integer AS transactions,
            (SELECT coalesce(sum(mass), 0) FROM paid) AS mass,
            (SELECT coalesce(sum(s.amount - coalesce(c.amount, 0)), 0) FROM spent s LEFT JOIN created c USING (transaction_id)) AS fees`,
    [accepted, SUBNETWORK_ID_COINBASE],
  );
  const figures = rows[0]!;
  const rankMask = (1 << SKETCH_RANK_BITS) - 1;
  const { rows: registers } = await db.query<{ register: number; rank: number }>(
    `WITH accepted AS (SELECT unnest($1::bytea[]) AS transaction_id), touched AS (
       SELECT o.address FROM accepted JOIN transaction_outputs o USING (transaction_id) WHERE o.address IS NOT NULL
       UNION
       SELECT i.previous_address FROM accepted JOIN transaction_inputs i USING (transaction_id)
       WHERE i.previous_address IS NOT NULL
     ), hashed AS (SELECT hashtext(address) AS h FROM touched)
     SELECT (h & ${REGISTERS - 1}) AS register,
            max(${SKETCH_RANK_BITS + 1} - length(ltrim(((h >> ${SKETCH_INDEX_BITS}) & ${rankMask})::bit(${SKETCH_RANK_BITS})::text, '0')))::integer AS rank
     FROM hashed GROUP BY 1`,
    [accepted],
  );
  const timestamps = blocks.map((block) => block.timestamp);
  const startTime = timestamps.reduce((low, time) => (time < low ? time : low));
  const endTime = timestamps.reduce((high, time) => (time > high ? time : high));
  await db.query(
    `INSERT INTO chain_statistics_windows (window_index, start_time, end_time, blocks, chain_blocks, transactions, mass,
                                           fees, address_sketch, complete)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (window_index) DO UPDATE SET start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time,
       blocks = EXCLUDED.blocks, chain_blocks = EXCLUDED.chain_blocks, transactions = EXCLUDED.transactions,
       mass = EXCLUDED.mass, fees = EXCLUDED.fees, address_sketch = EXCLUDED.address_sketch, complete = EXCLUDED.complete`,
    [
      window,
      startTime,
      endTime,
      blocks.length,
      chainBlocks.length,
      figures.transactions,
      figures.mass,
      figures.fees,
      sketchOf(registers),
      true,
    ],
  );
  return (startTime / HOUR_MS) * HOUR_MS;
}

/**
 * An hour's row again from its windows. Complete once every window starting in it is complete and a complete window
 * starts after it (no later window can start in it any more).
 */
export async function refreshStatisticsHour(db: Queryable, hourStart: bigint): Promise<void> {
  const hourEnd = hourStart + HOUR_MS;
  const { rows } = await db.query<StoredFigures & { later_complete: boolean }>(
    `SELECT blocks, chain_blocks, transactions, mass, fees, address_sketch, complete, end_time,
            EXISTS (SELECT 1 FROM chain_statistics_windows WHERE start_time >= $2 AND complete) AS later_complete
     FROM chain_statistics_windows WHERE start_time >= $1 AND start_time < $2`,
    [hourStart, hourEnd],
  );
  if (rows.length === 0) {
    await db.query('DELETE FROM chain_statistics_hours WHERE hour_start = $1', [hourStart]);
    return;
  }
  const sum = summed(rows);
  await db.query(
    `INSERT INTO chain_statistics_hours (hour_start, end_time, blocks, chain_blocks, transactions, mass, fees,
                                         address_sketch, complete)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (hour_start) DO UPDATE SET end_time = EXCLUDED.end_time, blocks = EXCLUDED.blocks,
       chain_blocks = EXCLUDED.chain_blocks, transactions = EXCLUDED.transactions, mass = EXCLUDED.mass,
       fees = EXCLUDED.fees, address_sketch = EXCLUDED.address_sketch, complete = EXCLUDED.complete`,
    [
      hourStart,
      hourEnd,
      sum.blocks,
      sum.chain_blocks,
      sum.transactions,
      sum.mass,
      sum.fees,
      sum.address_sketch,
      sum.complete && rows[0]!.later_complete,
    ],
  );
}

export async function recordStatisticsProgress(db: Queryable, completeThrough: bigint): Promise<void> {
  await db.query(
    `INSERT INTO chain_statistics_progress (singleton, complete_through) VALUES (true, $1)
     ON CONFLICT (singleton) DO UPDATE SET complete_through = EXCLUDED.complete_through`,
    [completeThrough],
  );
}

function summed(rows: readonly StoredFigures[]): Omit<StoredFigures, 'end_time'> {
  return {
    blocks: rows.reduce((total, row) => total + row.blocks, 0),
    chain_blocks: rows.reduce((total, row) => total + row.chain_blocks, 0),
    transactions: rows.reduce((total, row) => total + row.transactions, 0),
    mass: rows.reduce((total, row) => total + BigInt(row.mass), 0n).toString(),
    fees: rows.reduce((total, row) => total + BigInt(row.fees), 0n).toString(),
    address_sketch: mergeSketches(rows.map((row) => row.address_sketch)),
    complete: rows.every((row) => row.complete),
  };
}

const rowOf = (
  figures: Omit<StoredFigures, 'end_time'>,
  start: bigint,
  end: bigint,
  window: bigint | null = null,
): StatisticsRow => ({
  start,
  end,
  blocks: figures.blocks,
  chainBlocks: figures.chain_blocks,
  transactions: figures.transactions,
  mass: figures.mass,
  fees: figures.fees,
  activeAddresses: estimateDistinct(figures.address_sketch),
  complete: figures.complete,
  daaScores: window === null ? null : { start: window * WINDOW_DAA_SCORES, end: (window + 1n) * WINDOW_DAA_SCORES - 1n },
});

/** The newest `limit` windows, hours or days, newest first. */
export async function readStatistics(db: Queryable, interval: StatisticsInterval, limit: number): Promise<StatisticsRow[]> {
  if (interval === 'window') {
    const { rows } = await db.query<StoredFigures & { window_index: bigint; start_time: bigint }>(
      `SELECT window_index, start_time, end_time, blocks, chain_blocks, transactions, mass, fees, address_sketch, complete
       FROM chain_statistics_windows ORDER BY window_index DESC LIMIT $1`,
      [limit],
      { prepared: true },
    );
    return rows.map((row) => rowOf(row, row.start_time, row.end_time, row.window_index));
  }
  if (interval === 'hour') {
    const { rows } = await db.query<StoredFigures & { hour_start: bigint }>(
      `SELECT hour_start, end_time, blocks, chain_blocks, transactions, mass, fees, address_sketch, complete
       FROM chain_statistics_hours ORDER BY hour_start DESC LIMIT $1`,
      [limit],
      { prepared: true },
    );
    return rows.map((row) => rowOf(row, row.hour_start, row.end_time));
  }
  const { rows } = await db.query<StoredFigures & { hour_start: bigint }>(
    `SELECT hour_start, end_time, blocks, chain_blocks, transactions, mass, fees, address_sketch, complete
     FROM chain_statistics_hours
     WHERE hour_start >= (SELECT max(hour_start) / ${DAY_MS} * ${DAY_MS} FROM chain_statistics_hours) - ($1::bigint - 1) * ${DAY_MS}
     ORDER BY hour_start DESC`,
    [limit],
    { prepared: true },
  );
  const days = new Map<bigint, (StoredFigures & { hour_start: bigint })[]>();
  for (const row of rows) {
    const day = (row.hour_start / DAY_MS) * DAY_MS;
    days.set(day, [...(days.get(day) ?? []), row]);
  }
  const newestDay = rows.length === 0 ? null : (rows[0]!.hour_start / DAY_MS) * DAY_MS;
  return [...days].map(([day, hours]) => {
    const figures = summed(hours);
    return rowOf({ ...figures, complete: figures.complete && day !== newestDay }, day, day + DAY_MS);
  });
}
