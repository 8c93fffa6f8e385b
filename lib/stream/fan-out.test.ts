import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendStreamEvents, listenStreamEvents, migrate, type Db, type NewStreamEvent } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { createStreamHub, lingerFor } from './hub';

const block = (n: number): NewStreamEvent => ({ topic: 'block', address: null, data: { hash: `b${n}` } });

describe.each(testBackends())('stream fan-out through the log’s notifications on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  let writer: Db;
  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
    writer = await opened.openAnother();
  }, 60_000);
  afterAll(() => opened.dispose());

  it('wakes a hub that polls once an hour when another connection commits events, and not before the commit', async () => {
    const hub = createStreamHub({ db, pollMs: 3_600_000 });
    let notifications = 0;
    const listener = await listenStreamEvents(
      db,
      () => {
        notifications += 1;
        hub.wake();
      },
      (error) => {
        throw error;
      },
    );
    try {
      await hub.ready;
      await expect.poll(() => notifications).toBeGreaterThan(0);
      const subscription = hub.subscribe(null, { topics: new Set(['block']), addresses: null });
      expect(await subscription.next(50)).toEqual({ kind: 'idle' });

      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      const writing = writer.transaction(async (tx) => {
        await appendStreamEvents(tx, [block(1), block(2)], 1_000);
        await held;
      });
      const before = notifications;
      expect(await subscription.next(300)).toEqual({ kind: 'idle' });
      expect(notifications).toBe(before);
      commit();
      await writing;

      const batch = await subscription.next(30_000);
      expect(batch.kind).toBe('events');
      expect(batch.kind === 'events' && batch.events.map((event) => JSON.parse(event.data) as unknown)).toEqual([{ hash: 'b1' }, { hash: 'b2' }]);
      subscription.close();
    } finally {
      await listener.close();
      hub.close();
    }
  }, 60_000);

  it('coalesces wake-ups while lingering: the first event after a quiet spell goes at once, those committed within the linger after it in one batch', async () => {
    const hub = createStreamHub({ db, pollMs: 3_600_000, lingerMs: () => 2_000 });
    try {
      await hub.ready;
      const subscription = hub.subscribe(null, { topics: new Set(['block']), addresses: null });
      // After a quiet spell the first event goes at once; those that follow within the linger wait for each other.
      await writer.transaction((tx) => appendStreamEvents(tx, [block(10)], 1_000));
      hub.wake();
      const first = await subscription.next(30_000);
      expect(first.kind === 'events' && first.events.map((event) => JSON.parse(event.data) as unknown)).toEqual([{ hash: 'b10' }]);
      const waiting = subscription.next(30_000);
      for (let n = 11; n <= 13; n++) {
        await writer.transaction((tx) => appendStreamEvents(tx, [block(n)], 1_000));
        hub.wake();
      }
      const batch = await waiting;
      expect(batch.kind === 'events' && batch.events.map((event) => JSON.parse(event.data) as unknown)).toEqual([
        { hash: 'b11' },
        { hash: 'b12' },
        { hash: 'b13' },
      ]);
      subscription.close();
    } finally {
      hub.close();
    }
  }, 60_000);
});

describe('linger by subscriber count', () => {
  it('wakes at once up to 1,000 subscribers, then waits longer with more, never past 450 ms', () => {
    expect([0, 1_000, 2_000, 5_000, 10_000, 100_000].map(lingerFor)).toEqual([0, 0, 50, 200, 450, 450]);
  });
});
