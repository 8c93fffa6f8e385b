import { createServer, connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  confirmations,
  getTransaction,
  migrate,
  readCheckpoint,
  writeCheckpoint,
  type Db,
  type Queryable,
} from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { transactionToRpc } from '../rpc/convert-transaction';
import { idHex, spend } from '../devnet/test-support/devnet-harness';
import { MINER_KEY, TEST_COINBASE_MATURITY, startWireDevnet, wireKey, type WireDevnet } from '../devnet/test-support/wire-devnet';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { createRpcClient } from '../rpc';
import { createIndexer, type Indexer } from './indexer';
import { emptyIndex, indexView, mine, nodeView, untilIndexedToSink } from './test-support/views';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function devnet(): Promise<WireDevnet> {
  const started = await startWireDevnet();
  cleanups.push(() => started.close());
  return started;
}

function indexer(node: WireDevnet, db: Db, batch: { maxBlocks?: number } = {}): Indexer {
  const created = createIndexer({ rpc: node.client, db, batch, nodePollIntervalMs: 50, retryDelayMs: 50 });
  cleanups.push(() => created.stop());
  return created;
}

/** Submits a payment from the miner's oldest unspent coinbase output; returns its id. */
async function pay(node: WireDevnet, toSeed: number): Promise<string> {
  const [utxo] = node.node.consensus
    .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
    .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
  const payment = spend(utxo!, MINER_KEY, wireKey(toSeed).scriptPublicKey);
  await node.client.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
  return idHex(payment);
}

/** A TCP relay to the node whose connections the test can cut (the client then reconnects through it). */
async function cuttableRelay(target: string): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server = createServer((incoming) => {
    const outgoing = connect(Number(port), hostname);
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    incoming.pipe(outgoing).pipe(incoming);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay has no port');
  return {
    url: `ws://127.0.0.1:${address.port}`,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const DIGESTED_TABLES = {
  blocks: 'hash',
  block_children: 'parent_hash, child_hash',
  block_transactions: 'block_hash, position',
  transactions: 'transaction_id',
  transaction_inputs: 'transaction_id, input_index',
  transaction_outputs: 'transaction_id, output_index',
  transaction_acceptances: 'transaction_id',
  address_transactions: 'address, block_time, transaction_id',
} as const;

/** Row count and an md5 over every row (in key order) of each index table. */
async function digests(db: Queryable): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const [table, key] of Object.entries(DIGESTED_TABLES)) {
    const { rows } = await db.query<{ count: bigint; digest: string | null }>(
      `SELECT count(*) AS count, md5(string_agg(t::text, '|' ORDER BY ${key})) AS digest FROM ${table} t`,
    );
    result[table] = `${rows[0]!.count}:${rows[0]!.digest}`;
  }
  const checkpoint = await readCheckpoint(db, 'virtual-chain');
  result.checkpoint = checkpoint ? `${bytesToHex(checkpoint.blockHash)}:${checkpoint.daaScore}` : 'none';
  return result;
}

describe.each(testBackends())('indexer on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());
  beforeEach(() => emptyIndex(db));

  it('catches up with an existing chain, then follows it live, matching the node block for block', async () => {
    const node = await devnet();
    await mine(node, TEST_COINBASE_MATURITY + 2);
    const early = await pay(node, 5);
    await mine(node, 3);
    const following = indexer(node, db, { maxBlocks: 4 });
    await following.start();
    await following.whenReady(10_000);
    expect(await indexView(db)).toEqual(await nodeView(node));

    const late = await pay(node, 6);
    await mine(node, 4);
    await untilIndexedToSink(node, db);
    const view = await indexView(db);
    expect(view).toEqual(await nodeView(node));
    expect(view.acceptances[early]).toBeDefined();
    expect(view.acceptances[late]).toBeDefined();

    const status = following.status();
    expect(status.ready).toBe(true);
    expect(status.lagSeconds).toBe(0);
    expect(status.indexedDaaScore).toBe((await readCheckpoint(db, 'virtual-chain'))!.daaScore);
    const spent = await getTransaction(db, hexToBytes(late), { includePayload: false });
    expect(spent!.inputs[0]!.previousOutput?.address).toBe(MINER_KEY.address);
    expect(spent!.inputs[0]!.previousOutput?.amount).toBeGreaterThan(0n);
  });

  it('restarts from its checkpoint with no gap and no duplicate, and replaying batches changes nothing', async () => {
    const node = await devnet();
    await mine(node, TEST_COINBASE_MATURITY + 3);
    await pay(node, 7);
    await mine(node, 2);
    const first = indexer(node, db);
    await first.start();
    await first.whenReady(10_000);
    await first.stop();

    await pay(node, 8);
    await mine(node, 5);
    const second = indexer(node, db);
    await second.start();
    await second.whenReady(10_000);
    expect(await indexView(db)).toEqual(await nodeView(node));

    await second.stop();
    const incremental = await digests(db);

    await emptyIndex(db);
    const oneGo = indexer(node, db, { maxBlocks: 3 });
    await oneGo.start();
    await oneGo.whenReady(10_000);
    await oneGo.stop();
    const expected = await digests(db);
    expect(incremental).toEqual(expected);

    await writeCheckpoint(db, {
      name: 'virtual-chain',
      blockHash: node.node.genesisHash,
      blueScore: 0n,
      daaScore: 0n,
    });
    const replay = indexer(node, db, { maxBlocks: 2 });
    await replay.start();
    await replay.whenReady(10_000);
    expect(await digests(db)).toEqual(expected);
  });

  it('moves acceptance, chain flags and confirmations exactly through a forced reorganisation', async () => {
    const node = await devnet();
    await mine(node, TEST_COINBASE_MATURITY + 3);
    const payment = await pay(node, 9);
    const [carrying, accepting] = await mine(node, 2);
    const following = indexer(node, db);
    await following.start();
    await following.whenReady(10_000);
    expect((await indexView(db)).acceptances[payment]).toBe(accepting);

    const reorg = node.node.forceReorg({ depth: 3 });
    await untilIndexedToSink(node, db);
    const afterReorg = await indexView(db);
    expect(afterReorg).toEqual(await nodeView(node));
    expect(afterReorg.acceptances[payment]).toBeUndefined();
    for (const removed of reorg.change.removedChainBlockHashes.map(bytesToHex)) {
      expect(afterReorg.chainBlocks).not.toContain(removed);
    }
    expect(afterReorg.chainBlocks).toContain(bytesToHex(reorg.blocks.at(-1)!));
    expect(afterReorg.chainBlocks).not.toContain(carrying);
    expect(afterReorg.blocks).toContain(carrying);
    const orphaned = await getTransaction(db, hexToBytes(payment), { includePayload: false });
    expect(orphaned!.acceptingBlockHash).toBeNull();
    expect(confirmations(orphaned!, node.node.consensus.sinkBlueScore())).toBe(0);

    const [merging] = await mine(node, 1);
    await untilIndexedToSink(node, db);
    expect(await indexView(db)).toEqual(await nodeView(node));
    const accepted = await getTransaction(db, hexToBytes(payment), { includePayload: false });
    expect(bytesToHex(accepted!.acceptingBlockHash!)).toBe(merging);
    await mine(node, 2);
    await untilIndexedToSink(node, db);
    const { blueScore } = await node.client.call('getSinkBlueScore', {});
    const confirmed = await getTransaction(db, hexToBytes(payment), { includePayload: false });
    const { block } = await node.client.call('getBlock', { hash: merging!, includeTransactions: false });
    expect(confirmations(confirmed!, blueScore)).toBe(Number(blueScore - block.header.blueScore));
    expect(confirmations(confirmed!, blueScore)).toBe(2);
  });

  it('catches up again from its checkpoint after losing the connection', async () => {
    const node = await devnet();
    await mine(node, 3);
    const relay = await cuttableRelay(node.url);
    cleanups.push(() => relay.close());
    const client = createRpcClient({ url: relay.url, reconnect: { initialDelayMs: 20, maxDelayMs: 50 }, requestTimeoutMs: 5_000 });
    cleanups.push(() => client.close());
    const following = createIndexer({ rpc: client, db, nodePollIntervalMs: 50, retryDelayMs: 50 });
    cleanups.push(() => following.stop());
    await following.start();
    await following.whenReady(10_000);

    relay.cut();
    await mine(node, TEST_COINBASE_MATURITY + 3);
    const payment = await pay(node, 10);
    await mine(node, 2);
    await untilIndexedToSink(node, db);
    const view = await indexView(db);
    expect(view).toEqual(await nodeView(node));
    expect(view.acceptances[payment]).toBeDefined();
    await expect.poll(() => following.status().ready).toBe(true);
  });

  it('takes a chain change that adds and removes nothing (a side block) as a continuation, not a gap', async () => {
    const node = await devnet();
    await mine(node, 3);
    let catchUps = 0;
    const counting = new Proxy(node.client, {
      get(target, property, receiver) {
        if (property !== 'call') return Reflect.get(target, property, receiver) as unknown;
        return (method: string, params: unknown) => {
          if (method === 'getVirtualChainFromBlock') catchUps += 1;
          return (target.call as (method: string, params: unknown) => Promise<unknown>)(method, params);
        };
      },
    });
    const following = createIndexer({ rpc: counting, db, nodePollIntervalMs: 50, retryDelayMs: 50 });
    cleanups.push(() => following.stop());
    await following.start();
    await following.whenReady(10_000);
    let sideBlocks = 0;
    for (let attempt = 0; attempt < 5 && sideBlocks === 0; attempt++) {
      const parallel = await node.template(wireKey(4).address);
      await mine(node, 1);
      await untilIndexedToSink(node, db);
      const before = catchUps;
      const { sink } = await node.client.call('getSink', {});
      expect((await node.submit(parallel)).type).toBe('success');
      if ((await node.client.call('getSink', {})).sink !== sink) continue;
      sideBlocks += 1;
      await mine(node, 1);
      await untilIndexedToSink(node, db);
      expect(catchUps).toBe(before);
    }
    expect(sideBlocks).toBe(1);
    expect(await indexView(db)).toEqual(await nodeView(node));
  });

  it('catches up when the node stops notifying while its sink moves on', async () => {
    const node = await devnet();
    await mine(node, 2);
    const following = indexer(node, db);
    await following.start();
    await following.whenReady(10_000);
    await node.client.call('unsubscribe', { BlockAdded: {} });
    await node.client.call('unsubscribe', { VirtualChainChanged: { include_accepted_transaction_ids: true } });

    await mine(node, 4);
    await untilIndexedToSink(node, db);
    expect(await indexView(db)).toEqual(await nodeView(node));
  });
});
