import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate, type Db } from './index';
import {
  appendStreamEvents,
  pruneStreamEvents,
  readStreamBounds,
  readStreamEvents,
  type NewStreamEvent,
} from './stream-events';
import { testBackends, type TestDatabase } from './test-support/test-databases';

const addressEvent = (address: string, n: number): NewStreamEvent => ({
  topic: 'address',
  address,
  data: { address, transactionId: String(n).padStart(64, '0'), status: 'included' },
});
const blockEvent = (n: number): NewStreamEvent => ({ topic: 'block', address: null, data: { hash: String(n), daaScore: `${n}` } });

describe.each(testBackends())('stream event log on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());
  beforeEach(() => db.exec('TRUNCATE stream_events, stream_event_retention'));

  it('numbers events in the order appended and hands their JSON back byte for byte', async () => {
    const { latest: before } = await readStreamBounds(db);
    await db.transaction((tx) => appendStreamEvents(tx, [blockEvent(1), addressEvent('kaspadev:a', 1), blockEvent(2)], 1_000));
    await db.transaction((tx) => appendStreamEvents(tx, [addressEvent('kaspadev:b', 2)], 2_000));
    const events = await readStreamEvents(db, { after: before, limit: 10 });
    expect(events.map((event) => event.topic)).toEqual(['block', 'address', 'block', 'address']);
    const ids = events.map((event) => event.id);
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
    expect(events[1]!.data).toBe(JSON.stringify(addressEvent('kaspadev:a', 1).data));
    expect(events[3]!.createdAt).toBe(2_000n);
    expect((await readStreamBounds(db)).latest).toBe(ids[3]);
  });

  it('filters by topic and by address, and pages by cursor', async () => {
    const { latest: start } = await readStreamBounds(db);
    await db.transaction((tx) =>
      appendStreamEvents(tx, [blockEvent(1), addressEvent('kaspadev:a', 1), addressEvent('kaspadev:b', 2), blockEvent(2)], 1),
    );
    const onlyA = await readStreamEvents(db, { after: start, addresses: ['kaspadev:a'], topics: ['address'], limit: 10 });
    expect(onlyA.map((event) => event.address)).toEqual(['kaspadev:a']);
    const blocksAndA = await readStreamEvents(db, { after: start, addresses: ['kaspadev:a'], topics: ['block', 'address'], limit: 10 });
    expect(blocksAndA.map((event) => event.topic)).toEqual(['block', 'address', 'block']);
    const first = await readStreamEvents(db, { after: start, limit: 2 });
    const rest = await readStreamEvents(db, { after: first.at(-1)!.id, limit: 10 });
    expect([...first, ...rest].map((event) => event.data)).toEqual((await readStreamEvents(db, { after: start, limit: 10 })).map((e) => e.data));
    expect(rest).toHaveLength(2);
  });

  it('prunes the events older than the window and records how far it pruned', async () => {
    const { latest: start } = await readStreamBounds(db);
    await db.transaction((tx) => appendStreamEvents(tx, [blockEvent(1), blockEvent(2)], 1_000));
    await db.transaction((tx) => appendStreamEvents(tx, [blockEvent(3)], 5_000));
    const all = await readStreamEvents(db, { after: start, limit: 10 });
    expect(await pruneStreamEvents(db, 5_000, 1)).toBe(1);
    expect((await readStreamBounds(db)).prunedThrough).toBe(all[0]!.id);
    expect(await pruneStreamEvents(db, 5_000, 100)).toBe(1);
    expect(await pruneStreamEvents(db, 5_000, 100)).toBe(0);
    const bounds = await readStreamBounds(db);
    expect(bounds.prunedThrough).toBe(all[1]!.id);
    expect(bounds.latest).toBe(all[2]!.id);
    expect((await readStreamEvents(db, { after: start, limit: 10 })).map((event) => event.id)).toEqual([all[2]!.id]);
  });

  it('keeps the cursor past the pruned events when the log is emptied', async () => {
    await db.transaction((tx) => appendStreamEvents(tx, [blockEvent(1)], 1));
    const { latest } = await readStreamBounds(db);
    await pruneStreamEvents(db, 10, 10);
    expect(await readStreamBounds(db)).toEqual({ prunedThrough: latest, latest });
  });
});
