/**
 * A manual clock for the simulated miners (and a node built on them): timers fire only when a test advances the
 * clock, in time order, with promise chains settling after each, so a seeded run is the same every time.
 */
import type { MinerTimers, TimerHandle } from '../mining/miner';

export const FAKE_TIMERS_START = 1_750_000_000_000;

interface FakeTimer {
  at: number;
  order: number;
  callback: () => void;
  cancelled: boolean;
}

export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A manual clock: `advance` fires due timers in time order, letting promise chains settle after each. */
export class FakeTimers implements MinerTimers {
  private current: number;
  private order = 0;
  private queue: FakeTimer[] = [];

  constructor(start = FAKE_TIMERS_START) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer: FakeTimer = { at: this.current + Math.max(0, delayMs), order: this.order++, callback, cancelled: false };
    this.queue.push(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    (handle as FakeTimer).cancelled = true;
  }

  pending(): number {
    return this.queue.filter((timer) => !timer.cancelled).length;
  }

  /** Moves the clock without firing anything, as when the event loop was busy. */
  jump(ms: number): void {
    this.current += ms;
  }

  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      await settle();
      this.queue = this.queue.filter((timer) => !timer.cancelled);
      const due = this.queue.filter((timer) => timer.at <= end);
      if (due.length === 0) break;
      const next = due.reduce((a, b) => (a.at < b.at || (a.at === b.at && a.order < b.order) ? a : b));
      this.queue.splice(this.queue.indexOf(next), 1);
      this.current = Math.max(this.current, next.at);
      next.callback();
    }
    this.current = end;
    await settle();
  }
}

