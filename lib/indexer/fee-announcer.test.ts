import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, readStreamEvents, type Db } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import type { RpcClient } from '../rpc';
import type { RpcFeeEstimate } from '../rpc/types';
import { createFeeAnnouncer } from './fee-announcer';

const estimateOf = (priority: number, waits = 1): RpcFeeEstimate => ({
  priorityBucket: { feerate: priority, estimatedSeconds: waits },
  normalBuckets: [{ feerate: 1, estimatedSeconds: waits * 10 }],
  lowBuckets: [{ feerate: 1, estimatedSeconds: waits * 60 }],
});

/** The node's getFeeEstimate at the boundary: the answer is whatever the test set last. */
function nodeAnswering(state: { estimate: RpcFeeEstimate }): Pick<RpcClient, 'call'> {
  return { call: (async () => ({ estimate: state.estimate })) as unknown as RpcClient['call'] };
}

describe.each(testBackends())('fee announcer on $name', (backend) => {
  let database: TestDatabase;
  let db: Db;

  beforeEach(async () => {
    database = await backend.open();
    db = database.db;
    await migrate(db);
  }, 60_000);

  afterEach(async () => {
    await database?.dispose();
  });

  const feesEvents = async () =>
    (await readStreamEvents(db, { after: 0n, topics: ['fees'], limit: 100 })).map((event) => JSON.parse(event.data) as unknown);

  it('announces the first estimate and each change of a fee rate, not a change of the waits alone', async () => {
    const node = { estimate: estimateOf(1) };
    let notified = 0;
    const announcer = createFeeAnnouncer({ db, rpc: nodeAnswering(node), clock: () => 1_000, onStreamEvents: () => (notified += 1) });
    expect(await announcer.runOnce()).toBe(true);
    node.estimate = estimateOf(1, 2);
    expect(await announcer.runOnce()).toBe(false);
    node.estimate = estimateOf(2.5);
    expect(await announcer.runOnce()).toBe(true);
    expect(await feesEvents()).toEqual([
      { priority: { feerate: 1, estimatedSeconds: 1 }, normal: [{ feerate: 1, estimatedSeconds: 10 }], low: [{ feerate: 1, estimatedSeconds: 60 }] },
      { priority: { feerate: 2.5, estimatedSeconds: 1 }, normal: [{ feerate: 1, estimatedSeconds: 10 }], low: [{ feerate: 1, estimatedSeconds: 60 }] },
    ]);
    expect(notified).toBe(2);
  });

  it('after a restart, compares with the newest announced estimate instead of announcing again', async () => {
    const node = { estimate: estimateOf(3) };
    expect(await createFeeAnnouncer({ db, rpc: nodeAnswering(node) }).runOnce()).toBe(true);
    expect(await createFeeAnnouncer({ db, rpc: nodeAnswering(node) }).runOnce()).toBe(false);
    node.estimate = estimateOf(4);
    expect(await createFeeAnnouncer({ db, rpc: nodeAnswering(node) }).runOnce()).toBe(true);
    expect(await feesEvents()).toHaveLength(2);
  });
});
