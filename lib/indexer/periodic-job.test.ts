import { describe, expect, it } from 'vitest';
import { createPeriodicJob } from './periodic-job';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('periodic job', () => {
  it('runs after the first delay, then every interval, one run at a time', async () => {
    let runs = 0;
    let concurrent = 0;
    let most = 0;
    const job = createPeriodicJob(
      async () => {
        runs += 1;
        most = Math.max(most, ++concurrent);
        await sleep(5);
        concurrent -= 1;
      },
      { intervalMs: 10, firstDelayMs: 0, onError: () => undefined },
    );
    job.start();
    job.start();
    await sleep(120);
    await job.stop();
    expect(runs).toBeGreaterThan(3);
    expect(most).toBe(1);
    const stoppedAt = runs;
    await sleep(40);
    expect(runs).toBe(stoppedAt);
  });

  it('follows a run that asks for it at once, and reports a failure without ending the schedule', async () => {
    const starts: number[] = [];
    const errors: unknown[] = [];
    let calls = 0;
    const job = createPeriodicJob(
      async () => {
        calls += 1;
        starts.push(performance.now());
        if (calls === 1) throw new Error('first run fails');
        return calls < 4 ? 'again' : undefined;
      },
      { intervalMs: 60_000, firstDelayMs: 0, onError: (error) => errors.push(error) },
    );
    job.start();
    await sleep(50);
    await job.stop();
    expect(errors).toHaveLength(1);
    // The failed first run waits the interval (a minute), so nothing ran after it.
    expect(calls).toBe(1);

    const again = createPeriodicJob(async () => (starts.push(performance.now()), calls++ < 4 ? 'again' : undefined), {
      intervalMs: 60_000,
      firstDelayMs: 0,
      onError: (error) => errors.push(error),
    });
    again.start();
    await sleep(50);
    await again.stop();
    expect(calls).toBe(5);
  });

  it('stop waits for the run in progress, which sees `stopping` and may end early', async () => {
    let sawStopping = false;
    let finished = false;
    const job = createPeriodicJob(
      async () => {
        for (let step = 0; step < 100 && !job.stopping; step++) await sleep(5);
        sawStopping = job.stopping;
        finished = true;
      },
      { intervalMs: 1_000, firstDelayMs: 0, onError: () => undefined },
    );
    job.start();
    await sleep(20);
    expect(job.stopping).toBe(false);
    await job.stop();
    expect(finished).toBe(true);
    expect(sawStopping).toBe(true);
  });
});
