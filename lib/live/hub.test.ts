import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Db } from '../db';
import { idHex, spend } from '../devnet/test-support/devnet-harness';
import { MINER_KEY, TEST_COINBASE_MATURITY, startWireDevnet, wireKey, type WireDevnet } from '../devnet/test-support/wire-devnet';
import { createIndexer, type Indexer } from '../indexer';
import { mine } from '../indexer/test-support/views';
import { transactionToRpc } from '../rpc/convert-transaction';
import { createStreamHub, type StreamHub } from '../stream/hub';
import { counterCovenantLineage } from '../kaspa/test-support/covenant-fixture';
import { transactionToRpcOutput } from '../rpc/convert-block';
import type { LiveBlock, LiveChain, LiveEvent } from '../web/live-types';
import { blockActivity, createLiveHub, logBlockFeed, type LiveClient, type LiveHub } from './hub';
import { liveEventStream } from './live-stream';

type DataOf<T extends LiveEvent['type']> = Extract<LiveEvent, { type: T }>['data'];

/** Reads events until one of `type` matching `accept` arrives (skipping heartbeats and other events). */
async function nextOf<T extends LiveEvent['type']>(
  client: LiveClient,
  type: T,
  accept: (data: DataOf<T>) => boolean = () => true,
): Promise<DataOf<T>> {
  for (;;) {
    const event = await client.next(5_000);
    if (event === null) throw new Error(`client closed (${client.closeReason}) before a ${type} event`);
    if (event === 'idle') continue;
    const data = event.data as unknown as DataOf<T>;
    if (event.type === type && accept(data)) return data;
  }
}

describe('blockActivity', () => {
  it('counts version 1 transactions and those binding covenant outputs, never the coinbase', () => {
    const { genesis, continuation } = counterCovenantLineage('live-test:owner');
    const coinbase = transactionToRpcOutput({ ...genesis.tx, version: 1, inputs: [] });
    const plainVersionZero = transactionToRpcOutput({ ...genesis.tx, version: 0, outputs: genesis.tx.outputs.map(({ value, scriptPublicKey }) => ({ value, scriptPublicKey })) });
    const plainVersionOne = { ...plainVersionZero, version: 1 };
    expect(
      blockActivity([coinbase, transactionToRpcOutput(genesis.tx), plainVersionZero, plainVersionOne, transactionToRpcOutput(continuation.tx)]),
    ).toEqual({ versionOneTransactions: 3, covenantTransactions: 2 });
    expect(blockActivity([coinbase])).toEqual({ versionOneTransactions: 0, covenantTransactions: 0 });
  });
});

describe('live hub on a devnet node', () => {
  let devnet: WireDevnet;
  let hub: LiveHub;

  beforeAll(async () => {
    devnet = await startWireDevnet();
    hub = createLiveHub({ rpc: devnet.client, dagIntervalMs: 50, mempoolIntervalMs: 50 });
    await hub.ready;
  });

  afterAll(async () => {
    await hub.close();
    await devnet.close();
  });

  it('turns BlockAdded into a block event with header figures, parents and chain status', async () => {
    const client = hub.connect();
    const { hash, block } = await devnet.mine();
    const event = await nextOf(client, 'block', (data) => data.hash === hash);
    const { block: node } = await devnet.client.call('getBlock', { hash, includeTransactions: true });
    expect(event).toMatchObject<Partial<LiveBlock>>({
      hash,
      daaScore: node.header.daaScore.toString(),
      blueScore: node.header.blueScore.toString(),
      timestamp: Number(block.header.timestamp),
      txCount: node.transactions.length,
      parents: node.header.parentsByLevel[0],
      selectedParent: node.verboseData?.selectedParentHash,
      isChainBlock: true,
      color: 'blue',
    });
    expect(event.receivedAt).toBeGreaterThan(0);
    client.close();
  });

  it('reports the chain change with the added block and the merge-set colours', async () => {
    const client = hub.connect();
    const { hash: merging } = await devnet.mine();
    const chain: LiveChain = await nextOf(client, 'chain', (data) => data.added.includes(merging));
    const { block } = await devnet.client.call('getBlock', { hash: merging, includeTransactions: false });
    expect(block.verboseData?.mergeSetBluesHashes.length).toBeGreaterThan(0);
    expect(chain.blues).toEqual(expect.arrayContaining(block.verboseData?.mergeSetBluesHashes ?? []));
    expect(chain.reds).toEqual(expect.arrayContaining(block.verboseData?.mergeSetRedsHashes ?? []));
    expect(chain.removed).toEqual([]);
    client.close();
  });

  it('samples DAG figures and the mempool with the node’s values', async () => {
    await devnet.mine();
    const client = hub.connect();
    const info = await devnet.client.call('getBlockDagInfo', {});
    const dag = await nextOf(client, 'dag', (data) => BigInt(data.info.virtualDaaScore) >= info.virtualDaaScore);
    expect(dag.info.difficulty).toBe(info.difficulty);
    expect(BigInt(dag.blueScore)).toBeGreaterThan(0n);
    expect(dag.blocksPerSecond).toBeGreaterThan(0);
    expect(dag.hashrate).toBeCloseTo(2 * dag.info.difficulty * dag.blocksPerSecond);
    expect(dag.versionOneShare).toBeNull();
    expect(dag.covenantTxPerMinute).toBe(0);
    const mempool = await nextOf(client, 'mempool');
    const fees = await devnet.client.call('getFeeEstimate', {});
    expect(mempool.size).toBe(0);
    expect(mempool.feeEstimate.priorityBucket.feerate).toBe(fees.estimate.priorityBucket.feerate);
    client.close();
  });

  it('fans each event out to every client and replays recent blocks to a new one', async () => {
    const a = hub.connect();
    const b = hub.connect();
    const { hash } = await devnet.mine();
    const [seenByA, seenByB] = await Promise.all([
      nextOf(a, 'block', (data) => data.hash === hash),
      nextOf(b, 'block', (data) => data.hash === hash),
    ]);
    expect(seenByA).toEqual(seenByB);
    const late = hub.connect();
    expect((await nextOf(late, 'block', (data) => data.hash === hash)).isChainBlock).toBe(true);
    for (const client of [a, b, late]) client.close();
  });

  it('stops delivering to a client once it unsubscribes', async () => {
    const before = hub.clientCount;
    const client = hub.connect();
    expect(hub.clientCount).toBe(before + 1);
    while ((await client.next(0)) !== 'idle');
    const pending = client.next(5_000);
    client.close();
    expect(await pending).toBeNull();
    expect(hub.clientCount).toBe(before);
    await devnet.mine();
    expect(await client.next(10)).toBeNull();
    expect(client.closeReason).toBe('closed');
  });

  it('drops a client that falls behind and keeps serving the others', async () => {
    const slow = hub.connect({ maxQueued: 3 });
    const fast = hub.connect();
    const hashes: string[] = [];
    for (let index = 0; index < 3; index++) hashes.push((await devnet.mine()).hash);
    while (slow.closeReason === undefined) await devnet.mine();
    expect(slow.closeReason).toBe('slow');
    for (const hash of hashes) await nextOf(fast, 'block', (data) => data.hash === hash);
    expect(fast.closeReason).toBeUndefined();
    fast.close();
  });

  it('serves the events as Server-Sent Events with retry, typed messages and heartbeats', async () => {
    const reader = liveEventStream(hub, { heartbeatMs: 20, retryMs: 1234 }).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const { hash } = await devnet.mine();
    while (!(text.includes(hash) && text.includes(': heartbeat'))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text.startsWith('retry: 1234\n')).toBe(true);
    const message = text.split('\n\n').find((part) => part.startsWith('event: block') && part.includes(hash));
    expect(message).toBeDefined();
    const data = JSON.parse(message!.split('\n')[1]!.slice('data: '.length)) as LiveBlock;
    expect(data.hash).toBe(hash);
    const clients = hub.clientCount;
    await reader.cancel();
    expect(hub.clientCount).toBe(clients - 1);
  });
});

describe('live hub on the event log, written by the indexer', () => {
  let devnet: WireDevnet;
  let db: Db;
  let streams: StreamHub;
  let indexer: Indexer;
  let hub: LiveHub;

  beforeAll(async () => {
    devnet = await startWireDevnet();
    await mine(devnet, TEST_COINBASE_MATURITY + 2);
    db = await openDb({ url: 'memory://' });
    await migrate(db);
    streams = createStreamHub({ db, pollMs: 20 });
    indexer = createIndexer({ rpc: devnet.client, db, clock: () => devnet.now(), nodePollIntervalMs: 50, retryDelayMs: 50, onStreamEvents: () => streams.wake() });
    await indexer.start();
    await indexer.whenReady(10_000);
    hub = createLiveHub({ rpc: devnet.client, feed: logBlockFeed(streams), dagIntervalMs: 50, mempoolIntervalMs: 50 });
    await hub.ready;
  }, 60_000);

  afterAll(async () => {
    await hub.close();
    await indexer.stop();
    streams.close();
    await db.close();
    await devnet.close();
  });

  it('shows a block with its listed transaction and Toccata counts as the node has them, and colours its merge set when it joins the chain', async () => {
    const client = hub.connect();
    const [utxo] = devnet.node.consensus.getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey);
    const payment = spend(utxo!, MINER_KEY, wireKey(51).scriptPublicKey);
    await devnet.client.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
    const { hash } = await devnet.mine();
    const { hash: merging } = await devnet.mine();
    const event = await nextOf(client, 'block', (data) => data.hash === hash);
    const { block: node } = await devnet.client.call('getBlock', { hash, includeTransactions: true });
    expect(event).toMatchObject<Partial<LiveBlock>>({
      hash,
      daaScore: node.header.daaScore.toString(),
      txCount: node.transactions.length,
      parents: node.header.parentsByLevel[0],
      selectedParent: node.verboseData?.selectedParentHash,
      versionOneTransactions: 0,
      covenantTransactions: 0,
    });
    expect(event.transactions).toEqual([{ id: idHex(payment), outputSompi: payment.outputs.reduce((sum, output) => sum + output.value, 0n).toString() }]);
    const chain = await nextOf(client, 'chain', (data) => data.added.includes(merging));
    const { block: mergingNode } = await devnet.client.call('getBlock', { hash: merging, includeTransactions: false });
    expect(chain.blues).toEqual(mergingNode.verboseData?.mergeSetBluesHashes);
    expect(chain.blues).toContain(hash);
    const late = hub.connect();
    expect(await nextOf(late, 'block', (data) => data.hash === hash)).toMatchObject({ isChainBlock: true, color: 'blue' });
    for (const each of [client, late]) each.close();
  });
});
