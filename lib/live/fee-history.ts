/**
 * Recent fee-estimate history for the /fees page: the node's getFeeEstimate sampled at a fixed interval into a
 * bounded ring (the node keeps no history). The runtime owns the process's sampler and starts it with the app.
 */
import { feeEstimateToNode, type NodeFeeEstimate } from '../api/endpoints/node-format';
import type { RpcClient } from '../rpc';
import type { FeeSample } from '../web/live-types';

export interface FeeHistory {
  samples(): FeeSample[];
  stop(): void;
}

export interface FeeHistoryOptions {
  estimate: () => Promise<NodeFeeEstimate>;
  intervalMs: number;
  capacity: number;
  clock?: () => number;
}

export const FEE_SAMPLE_INTERVAL_MS = 10_000;
/** Six hours at one sample per 10 s. */
export const FEE_HISTORY_CAPACITY = 2_160;

export function sampleOf(estimate: NodeFeeEstimate, time: number): FeeSample {
  return {
    time,
    priority: estimate.priorityBucket.feerate,
    normal: estimate.normalBuckets[0]?.feerate ?? estimate.priorityBucket.feerate,
    low: estimate.lowBuckets[0]?.feerate ?? estimate.normalBuckets[0]?.feerate ?? estimate.priorityBucket.feerate,
  };
}

export function createFeeHistory(options: FeeHistoryOptions): FeeHistory {
  const clock = options.clock ?? Date.now;
  const ring: FeeSample[] = [];
  let stopped = false;

  async function sampleOnce(): Promise<void> {
    try {
      const sample = sampleOf(await options.estimate(), clock());
      ring.push(sample);
      if (ring.length > options.capacity) ring.splice(0, ring.length - options.capacity);
    } catch {
      // An unreachable node leaves a gap in the history; the chart shows it as one.
    }
  }

  void sampleOnce();
  const timer = setInterval(() => {
    if (!stopped) void sampleOnce();
  }, options.intervalMs);
  timer.unref?.();

  return {
    samples: () => [...ring],
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** A sampler over the node's getFeeEstimate at the default interval and capacity. */
export function nodeFeeHistory(rpc: RpcClient): FeeHistory {
  return createFeeHistory({
    estimate: async () => feeEstimateToNode((await rpc.call('getFeeEstimate', {})).estimate),
    intervalMs: FEE_SAMPLE_INTERVAL_MS,
    capacity: FEE_HISTORY_CAPACITY,
  });
}
