import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { watchHeapAfterMajorGc } from './heap-after-gc';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the heap after a major GC', () => {
  it('is unknown before the first major GC and follows what the thread retains after each', async () => {
    const watch = watchHeapAfterMajorGc();
    try {
      expect(watch.current()).toBeNull();
      gc();
      await nextTurn();
      const before = watch.current();
      expect(before).toBeGreaterThan(0);
      const retained = Array.from({ length: 200_000 }, (_, index) => ({ index, text: `kept ${index}` }));
      gc();
      await nextTurn();
      const holding = watch.current()!;
      expect(holding - before!).toBeGreaterThan(8 * retained.length);
      retained.length = 0;
      gc();
      await nextTurn();
      expect(watch.current()!).toBeLessThan(holding);
    } finally {
      watch.stop();
    }
  });
});
