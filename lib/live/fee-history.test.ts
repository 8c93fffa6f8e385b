import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeFeeEstimate } from '../api/endpoints/node-format';
import { createFeeHistory, sampleOf } from './fee-history';

function estimate(priority: number, normal: number[], low: number[]): NodeFeeEstimate {
  const bucket = (feerate: number) => ({ feerate, estimatedSeconds: 1 });
  return { priorityBucket: bucket(priority), normalBuckets: normal.map(bucket), lowBuckets: low.map(bucket) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('fee history', () => {
  it('takes the first bucket of each kind, falling back to the next-higher kind', () => {
    expect(sampleOf(estimate(5, [3, 2], [1]), 7)).toEqual({ time: 7, priority: 5, normal: 3, low: 1 });
    expect(sampleOf(estimate(5, [], []), 7)).toEqual({ time: 7, priority: 5, normal: 5, low: 5 });
  });

  it('samples on an interval into a bounded ring and skips failed samples', async () => {
    vi.useFakeTimers();
    let call = 0;
    const history = createFeeHistory({
      estimate: async () => {
        call += 1;
        if (call === 3) throw new Error('node unreachable');
        return estimate(call, [1], [1]);
      },
      intervalMs: 1000,
      capacity: 3,
      clock: () => call * 1000,
    });
    for (let tick = 0; tick < 5; tick += 1) await vi.advanceTimersByTimeAsync(1000);
    history.stop();
    expect(call).toBe(6);
    expect(history.samples().map((sample) => sample.priority)).toEqual([4, 5, 6]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(call).toBe(6);
  });
});
