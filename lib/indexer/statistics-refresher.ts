/**
 * The statistics refresher: every interval, computes the chain statistics (lib/db/chain-statistics.ts) of the windows
 * the index has completed since the last run (the checkpoint a whole window past them: the chain's reorganisations
 * stay far shallower than a minute), oldest first, each once and in its own transaction, at most `maxWindows` a run
 * (a run that hit the bound runs again at once, so a long backlog is worked off without one long transaction), then
 * the hours those windows start in. A window still open is not shown: on PGlite every query runs on the server's
 * thread, and computing the open window again every interval cost a request stall each time.
 */
import {
  recordStatisticsProgress,
  refreshStatisticsHour,
  refreshStatisticsWindow,
  statisticsRefreshRange,
  WINDOW_DAA_SCORES,
  type Db,
  DEFAULT_CHECKPOINT_NAME,
} from '../db';
import { createPeriodicJob } from './periodic-job';

export interface StatisticsRefresherOptions {
  db: Db;
  checkpointName?: string;
  log?: (line: string) => void;
  intervalMs?: number;
  maxWindows?: number;
}

export interface StatisticsRun {
  windows: number;
  /** The last window now known complete; null when none is. */
  completeThrough: bigint | null;
}

export interface StatisticsRefresher {
  start(): void;
  stop(): Promise<void>;
  runOnce(): Promise<StatisticsRun>;
}

const HOUR_MS = 3_600_000n;

export function createStatisticsRefresher(options: StatisticsRefresherOptions): StatisticsRefresher {
  const { db } = options;
  const checkpointName = options.checkpointName ?? DEFAULT_CHECKPOINT_NAME;
  const maxWindows = BigInt(options.maxWindows ?? 50);
  const intervalMs = options.intervalMs ?? 10_000;
  const log = options.log ?? (() => undefined);

  async function runOnce(): Promise<StatisticsRun> {
    const range = await statisticsRefreshRange(db, checkpointName);
    if (range === null) return { windows: 0, completeThrough: null };
    const lastComplete = range.checkpointDaaScore / WINDOW_DAA_SCORES - 2n;
    const last = range.firstWindow + maxWindows - 1n < lastComplete ? range.firstWindow + maxWindows - 1n : lastComplete;
    const hours = new Set<bigint>();
    let completeThrough: bigint | null = range.firstWindow - 1n;
    for (let window = range.firstWindow; window <= last; window++) {
      const hour = await db.transaction(async (tx) => {
        const started = await refreshStatisticsWindow(tx, window);
        await recordStatisticsProgress(tx, window);
        return started;
      });
      completeThrough = window;
      if (hour !== null) hours.add(hour);
      if (job.stopping) break;
    }
    const ordered = [...hours].sort((a, b) => (a < b ? -1 : 1));
    if (ordered.length > 0) ordered.unshift(ordered[0]! - HOUR_MS);
    for (const hour of ordered) await refreshStatisticsHour(db, hour);
    return { windows: Math.max(0, Number(last - range.firstWindow + 1n)), completeThrough: completeThrough < 0n ? null : completeThrough };
  }

  const job = createPeriodicJob(async () => (BigInt((await runOnce()).windows) >= maxWindows ? 'again' : undefined), {
    intervalMs,
    firstDelayMs: 0,
    onError: (error) => log(`statistics: ${error instanceof Error ? error.message : String(error)}`),
  });

  return {
    start: () => job.start(),
    stop: () => job.stop(),
    runOnce,
  };
}
