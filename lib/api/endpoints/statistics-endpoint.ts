/**
 * GET /v1/statistics (an extension): the chain's figures over time from the statistics the indexer keeps
 * (lib/db/chain-statistics.ts), newest first. `minute` rows are windows of 600 DAA scores (a minute at 10 blocks/s)
 * with their first and last block's timestamps; `hour` and `day` rows are UTC hours and days summing the windows that
 * start in them. Active addresses are estimated from merged sketches (about 3% error; exact-ish below a few hundred).
 */
import { z } from 'zod';
import { readStatistics, type StatisticsInterval, type StatisticsRow } from '../../db';
import { pageLimit } from '../http/schemas';
import { endpointsFor } from '../wrapper/endpoint';
import type { IndexedApiContext } from './indexed-endpoints';

const statisticsEndpointOf = endpointsFor<IndexedApiContext>();

export const STATISTICS_INTERVALS = ['minute', 'hour', 'day'] as const;
export type StatisticsIntervalName = (typeof STATISTICS_INTERVALS)[number];

const storedInterval: Record<StatisticsIntervalName, StatisticsInterval> = { minute: 'window', hour: 'hour', day: 'day' };

export interface StatisticsView {
  /** Milliseconds since the Unix epoch. */
  start: number;
  end: number;
  blocks: number;
  chainBlocks: number;
  transactions: number;
  /** Grams and sompi, decimal strings. */
  mass: string;
  fees: string;
  activeAddresses: number;
  complete: boolean;
  /** A minute's DAA scores, first and last; null for hours and days. */
  daaScoreStart: number | null;
  daaScoreEnd: number | null;
}

export const statisticsView = (row: StatisticsRow): StatisticsView => ({
  start: Number(row.start),
  end: Number(row.end),
  blocks: row.blocks,
  chainBlocks: row.chainBlocks,
  transactions: row.transactions,
  mass: row.mass,
  fees: row.fees,
  activeAddresses: row.activeAddresses,
  complete: row.complete,
  daaScoreStart: row.daaScores === null ? null : Number(row.daaScores.start),
  daaScoreEnd: row.daaScores === null ? null : Number(row.daaScores.end),
});

const interval = z
  .enum(STATISTICS_INTERVALS)
  .default('minute')
  .meta({ description: 'minute (600 DAA scores), hour or day (UTC); minute when absent' });

export const getStatisticsEndpoint = statisticsEndpointOf({
  id: 'GET /v1/statistics',
  query: z.object({ interval, limit: pageLimit }),
  async handler({ context, query }) {
    const rows = await readStatistics(context.db, storedInterval[query.interval], query.limit);
    return {
      body: { interval: query.interval, statistics: rows.map(statisticsView), metadata: { count: rows.length } },
      cache: { kind: 'short', maxAgeSeconds: 5 },
    };
  },
});
