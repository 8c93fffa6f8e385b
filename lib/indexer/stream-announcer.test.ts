import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate, readStreamBounds, readStreamEvents, type Db, type StreamEvent } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { idHex, spend } from '../devnet/test-support/devnet-harness';
import { MINER_KEY, TEST_COINBASE_MATURITY, startWireDevnet, wireKey, type WireDevnet } from '../devnet/test-support/wire-devnet';
import { bytesToHex } from '../kaspa/bytes';
import { transactionToRpc } from '../rpc/convert-transaction';
import { createIndexer } from './indexer';
import { emptyIndex, mine, untilIndexedToSink } from './test-support/views';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function pay(node: WireDevnet, toSeed: number): Promise<string> {
  const [utxo] = node.node.consensus
    .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
    .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
  const payment = spend(utxo!, MINER_KEY, wireKey(toSeed).scriptPublicKey);
  await node.client.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
  return idHex(payment);
}

interface AddressData {
  address: string;
  transactionId: string;
  status: 'included' | 'accepted' | 'reverted';
  blockHash: string;
}

const parsed = (events: readonly StreamEvent[]) => events.map((event) => ({ ...event, json: JSON.parse(event.data) as Record<string, unknown> }));

describe.each(testBackends())('stream events from the indexer on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());
  beforeEach(() => emptyIndex(db));

  it('announces blocks, chain changes and a payment included, accepted, reverted by a reorganisation and accepted again', async () => {
    const node = await startWireDevnet();
    cleanups.push(() => node.close());
    await mine(node, TEST_COINBASE_MATURITY + 3);
    let wakes = 0;
    const indexer = createIndexer({
      rpc: node.client,
      db,
      clock: () => node.now(),
      nodePollIntervalMs: 50,
      retryDelayMs: 50,
      onStreamEvents: () => (wakes += 1),
    });
    cleanups.push(() => indexer.stop());
    await indexer.start();
    await indexer.whenReady(10_000);
    const { latest: start } = await readStreamBounds(db);
    expect(start).toBeGreaterThan(0n);
    expect(wakes).toBeGreaterThan(0);

    const payment = await pay(node, 21);
    const receiver = wireKey(21).address;
    const [carrying, accepting] = await mine(node, 2);
    await untilIndexedToSink(node, db);
    const reorg = node.node.forceReorg({ depth: 3 });
    await untilIndexedToSink(node, db);
    const [merging] = await mine(node, 1);
    await untilIndexedToSink(node, db);

    const events = parsed(await readStreamEvents(db, { after: start, limit: 10_000 }));
    const ids = events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));

    const forReceiver = events
      .filter((event) => event.topic === 'address' && event.address === receiver)
      .map((event) => event.json as unknown as AddressData);
    expect(forReceiver.map(({ status, blockHash }) => [status, blockHash])).toEqual([
      ['included', carrying],
      ['accepted', accepting],
      ['reverted', accepting],
      ['accepted', merging],
    ]);
    expect(forReceiver.every((event) => event.transactionId === payment && event.address === receiver)).toBe(true);
    const fromMiner = events.filter((event) => event.topic === 'address' && event.address === MINER_KEY.address);
    expect(fromMiner.some((event) => (event.json as unknown as AddressData).transactionId === payment)).toBe(true);

    const blocks = events.filter((event) => event.topic === 'block').map((event) => event.json.hash);
    expect(new Set(blocks).size).toBe(blocks.length);
    expect(blocks).toEqual(expect.arrayContaining([carrying, accepting, merging, ...reorg.blocks.map(bytesToHex)]));

    const chains = events.filter((event) => event.topic === 'chain').map((event) => event.json as { removed: string[]; added: { hash: string; acceptedTransactionIds: string[] }[] });
    const removing = chains.find((chain) => chain.removed.length > 0)!;
    expect(removing.removed).toEqual(reorg.change.removedChainBlockHashes.map(bytesToHex));
    const acceptedBy = (hash: string) => chains.flatMap((chain) => chain.added).find((added) => added.hash === hash)?.acceptedTransactionIds;
    expect(acceptedBy(accepting!)).toContain(payment);
    expect(acceptedBy(merging!)).toContain(payment);
  });

  it('announces nothing for history older than its window, and restarting announces no block twice', async () => {
    const node = await startWireDevnet();
    cleanups.push(() => node.close());
    await mine(node, 4);
    const old = createIndexer({ rpc: node.client, db, nodePollIntervalMs: 50, retryDelayMs: 50, clock: () => node.now() + 7_200_000 });
    cleanups.push(() => old.stop());
    await old.start();
    await old.whenReady(10_000);
    await old.stop();
    expect((await readStreamBounds(db)).latest).toBe(0n);

    await db.exec('TRUNCATE indexer_checkpoints');
    const again = createIndexer({ rpc: node.client, db, clock: () => node.now(), nodePollIntervalMs: 50, retryDelayMs: 50 });
    cleanups.push(() => again.stop());
    await again.start();
    await again.whenReady(10_000);
    await mine(node, 2);
    await untilIndexedToSink(node, db);
    const blocks = (await readStreamEvents(db, { after: 0n, topics: ['block'], limit: 1_000 })).map((event) => event.data);
    expect(blocks).toHaveLength(2);
  });
});
