/**
 * A background job of the indexing process (retention, statistics, fee sampling): `run` every `intervalMs`, never
 * two runs at once, the first after `firstDelayMs`; a run that returns `'again'` (a backlog left) is followed at once.
 * A failed run is reported and the schedule goes on. `stop()` waits for the run in progress; a long run may check
 * `stopping` to end early. The timer never keeps the process alive.
 */
export interface PeriodicJob {
  start(): void;
  stop(): Promise<void>;
  /** True once stop() was called while a run is in progress. */
  readonly stopping: boolean;
}

export interface PeriodicJobOptions {
  intervalMs: number;
  /** Before the first run; the interval when unset. */
  firstDelayMs?: number;
  onError: (error: unknown) => void;
}

export function createPeriodicJob(run: () => Promise<'again' | void>, options: PeriodicJobOptions): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      let again = false;
      running = run()
        .then((result) => {
          again = result === 'again';
        })
        .catch(options.onError)
        .finally(() => {
          running = undefined;
          schedule(again ? 0 : options.intervalMs);
        });
    }, delayMs);
    timer.unref();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(options.firstDelayMs ?? options.intervalMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
    get stopping() {
      return stopped && running !== undefined;
    },
  };
}
