import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSubmissionAnnouncer, migrate, readStreamBounds, readStreamEvents, type Db } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { idHex, spend } from '../devnet/test-support/devnet-harness';
import { MINER_KEY, TEST_COINBASE_MATURITY, startWireDevnet, wireKey, type WireDevnet } from '../devnet/test-support/wire-devnet';
import { transactionToRpc } from '../rpc/convert-transaction';
import { createIndexer } from './indexer';
import { createMempoolAnnouncer } from './mempool-announcer';
import { emptyIndex, mine, untilIndexedToSink } from './test-support/views';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface StatusEvent {
  address: string;
  transactionId: string;
  status: string;
}

describe.each(testBackends())('mempool events on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());
  beforeEach(async () => {
    await emptyIndex(db);
    await db.exec('TRUNCATE mempool_watch');
  });

  it('announces a submission and a polled transaction as entering the mempool before their block events, once each, and a replaced one as dropped', async () => {
    const node = await startWireDevnet();
    cleanups.push(() => node.close());
    await mine(node, TEST_COINBASE_MATURITY + 4);
    const indexer = createIndexer({ rpc: node.client, db, clock: () => node.now(), nodePollIntervalMs: 50, retryDelayMs: 50 });
    cleanups.push(() => indexer.stop());
    await indexer.start();
    await indexer.whenReady(10_000);
    let now = node.now();
    const announcer = createMempoolAnnouncer({
      db,
      rpc: node.client,
      addressPrefix: async () => 'kaspadev',
      position: () => ({ nodeDaaScore: indexer.status().nodeVirtualDaaScore, indexedDaaScore: indexer.status().indexedDaaScore }),
      clock: () => now,
      dropGraceMs: 10_000,
    });
    let announced = 0;
    const announceSubmission = createSubmissionAnnouncer({
      db,
      addressPrefix: async () => 'kaspadev',
      clock: () => now,
      onAnnounced: () => (announced += 1),
      onError: (error) => {
        throw error;
      },
    });
    const { latest: start } = await readStreamBounds(db);

    const [first, second, third] = node.node.consensus
      .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
      .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
    const submitted = spend(first!, MINER_KEY, wireKey(31).scriptPublicKey);
    const submittedRpc = transactionToRpc(submitted);
    const answer = await announceSubmission(submittedRpc, () =>
      node.client.call('submitTransaction', { transaction: submittedRpc, allowOrphan: false }),
    );
    expect(answer.transactionId).toBe(idHex(submitted));
    expect(announced).toBe(1);

    const polled = spend(second!, MINER_KEY, wireKey(32).scriptPublicKey);
    await node.client.call('submitTransaction', { transaction: transactionToRpc(polled), allowOrphan: false });
    const replaced = spend(third!, MINER_KEY, wireKey(33).scriptPublicKey);
    await node.client.call('submitTransaction', { transaction: transactionToRpc(replaced), allowOrphan: false });
    expect((await announcer.runOnce()).entered).toBe(2);
    expect((await announcer.runOnce()).entered).toBe(0);

    const replacement = spend(third!, MINER_KEY, wireKey(34).scriptPublicKey, 5_000_000n);
    const replacementRpc = transactionToRpc(replacement);
    await announceSubmission(replacementRpc, () => node.client.call('submitTransactionReplacement', { transaction: replacementRpc }));
    now += 1_000;
    expect(await announcer.runOnce()).toEqual({ entered: 0, mined: 0, dropped: 0 });

    await mine(node, 2);
    await untilIndexedToSink(node, db);
    now += 1_000;
    expect(await announcer.runOnce()).toEqual({ entered: 0, mined: 3, dropped: 0 });
    now += 10_000;
    expect(await announcer.runOnce()).toEqual({ entered: 0, mined: 0, dropped: 1 });
    expect(await announcer.runOnce()).toEqual({ entered: 0, mined: 0, dropped: 0 });

    const events = (await readStreamEvents(db, { after: start, topics: ['address'], limit: 10_000 })).map(
      (event) => JSON.parse(event.data) as StatusEvent,
    );
    const statuses = (transactionId: string, address: string) =>
      events.filter((event) => event.transactionId === transactionId && event.address === address).map((event) => event.status);
    expect(statuses(idHex(submitted), wireKey(31).address)).toEqual(['mempool', 'included', 'accepted']);
    expect(statuses(idHex(submitted), MINER_KEY.address)).toEqual(['mempool', 'included', 'accepted']);
    expect(statuses(idHex(polled), wireKey(32).address)).toEqual(['mempool', 'included', 'accepted']);
    expect(statuses(idHex(replacement), wireKey(34).address)).toEqual(['mempool', 'included', 'accepted']);
    expect(statuses(idHex(replaced), wireKey(33).address)).toEqual(['mempool', 'dropped']);
    expect(statuses(idHex(replaced), MINER_KEY.address)).toEqual(['mempool', 'dropped']);
    expect((await db.query<{ count: bigint }>('SELECT count(*) AS count FROM mempool_watch')).rows[0]?.count).toBe(0n);
  }, 60_000);

  it('after a restart announces nothing twice; an input whose funding output is not indexed names no address; a refused submission announces nothing', async () => {
    const node: WireDevnet = await startWireDevnet();
    cleanups.push(() => node.close());
    await mine(node, TEST_COINBASE_MATURITY + 2);
    const options = {
      db,
      rpc: node.client,
      addressPrefix: async () => 'kaspadev' as const,
      position: () => ({ nodeDaaScore: null, indexedDaaScore: null }),
      clock: () => node.now(),
    };
    const { latest: start } = await readStreamBounds(db);
    const [utxo] = node.node.consensus.getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey);
    const payment = spend(utxo!, MINER_KEY, wireKey(35).scriptPublicKey);
    await node.client.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
    expect((await createMempoolAnnouncer(options).runOnce()).entered).toBe(1);
    expect((await createMempoolAnnouncer(options).runOnce()).entered).toBe(0);

    const announceSubmission = createSubmissionAnnouncer({
      db,
      addressPrefix: async () => 'kaspadev',
      clock: () => node.now(),
      onAnnounced: () => undefined,
      onError: (error) => {
        throw error;
      },
    });
    const doubleSpend = transactionToRpc(spend(utxo!, MINER_KEY, wireKey(36).scriptPublicKey));
    await expect(
      announceSubmission(doubleSpend, () => node.client.call('submitTransaction', { transaction: doubleSpend, allowOrphan: false })),
    ).rejects.toThrow();
    const events = await readStreamEvents(db, { after: start, topics: ['address'], limit: 100 });
    expect(events.map((event) => event.address)).toEqual([wireKey(35).address]);
  }, 60_000);
});
