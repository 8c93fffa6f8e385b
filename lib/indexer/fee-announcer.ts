/**
 * The `fees` topic of the stream event log: samples the node's fee estimate every interval and appends an event when
 * a bucket's fee rate changed since the last announced one (the estimated waits move with every block, so they alone
 * announce nothing). Runs beside the indexer, in the one process that writes the log; after a restart it compares
 * with the newest `fees` event the log holds, so a restart alone announces nothing.
 */
import { appendStreamEvents, latestStreamEventData, type Db } from '../db';
import type { RpcClient } from '../rpc';
import { createPeriodicJob } from './periodic-job';

export interface FeeAnnouncerOptions {
  db: Db;
  rpc: Pick<RpcClient, 'call'>;
  /** Milliseconds since the Unix epoch. */
  clock?: () => number;
  intervalMs?: number;
  log?: (line: string) => void;
  /** After an event is appended (in-process subscribers poll at once). */
  onStreamEvents?: () => void;
}

export interface FeeAnnouncer {
  start(): void;
  stop(): Promise<void>;
  /** One sample; returns whether it appended an event. */
  runOnce(): Promise<boolean>;
}

/** The event's data: the fee rates (sompi per gram) and waits (s) of kaspad's buckets, highest rate first. */
export interface FeesEventData {
  priority: { feerate: number; estimatedSeconds: number };
  normal: { feerate: number; estimatedSeconds: number }[];
  low: { feerate: number; estimatedSeconds: number }[];
}

const feeratesOf = (data: FeesEventData) => [data.priority, ...data.normal, ...data.low].map((bucket) => bucket.feerate).join(',');

export function createFeeAnnouncer(options: FeeAnnouncerOptions): FeeAnnouncer {
  const { db, rpc } = options;
  const clock = options.clock ?? Date.now;
  const log = options.log ?? (() => undefined);
  let last: string | null | undefined;

  async function runOnce(): Promise<boolean> {
    const { estimate } = await rpc.call('getFeeEstimate', {});
    const bucket = ({ feerate, estimatedSeconds }: { feerate: number; estimatedSeconds: number }) => ({ feerate, estimatedSeconds });
    const data: FeesEventData = {
      priority: bucket(estimate.priorityBucket),
      normal: estimate.normalBuckets.map(bucket),
      low: estimate.lowBuckets.map(bucket),
    };
    if (last === undefined) {
      const stored = await latestStreamEventData(db, 'fees');
      last = stored === null ? null : feeratesOf(JSON.parse(stored) as FeesEventData);
    }
    const feerates = feeratesOf(data);
    if (feerates === last) return false;
    await db.transaction((tx) => appendStreamEvents(tx, [{ topic: 'fees', address: null, data }], clock()));
    last = feerates;
    options.onStreamEvents?.();
    return true;
  }

  const job = createPeriodicJob(async () => void (await runOnce()), {
    intervalMs: options.intervalMs ?? 10_000,
    onError: (error) => log(`fees: ${error instanceof Error ? error.message : String(error)}`),
  });

  return {
    start: () => job.start(),
    stop: () => job.stop(),
    runOnce,
  };
}
