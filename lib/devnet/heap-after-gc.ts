/**
 * The V8 heap in use right after this thread's latest major (mark-compact) GC: what the thread actually retains,
 * unlike the used heap at an arbitrary moment, which swings with garbage not yet collected. Read by a soak to tell
 * growth from noise; each thread (the app's main thread, the devnet worker) watches its own isolate.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export interface HeapAfterGcWatch {
  /** Bytes in use after the latest major GC; null before the first one. */
  current(): number | null;
  stop(): void;
}

function isMajor(entry: PerformanceEntry): boolean {
  const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } | null };
  return detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}

export function watchHeapAfterMajorGc(): HeapAfterGcWatch {
  let retained: number | null = null;
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().some(isMajor)) retained = getHeapStatistics().used_heap_size;
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    current: () => retained,
    stop: () => observer.disconnect(),
  };
}
