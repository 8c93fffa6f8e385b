import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate, readCheckpoint, readIndexGaps, type Db } from '../db';
import { testBackends, type TestDatabase } from '../db/test-support/test-databases';
import { startWireDevnet, wireKey, type WireDevnet } from '../devnet/test-support/wire-devnet';
import type { Block } from '../devnet/consensus/consensus';
import { bytesToHex } from '../kaspa/bytes';
import { RpcRejectedError, type RpcClient } from '../rpc';
import { DEFAULT_CHECKPOINT_NAME } from '../db';
import { createIndexer, type Indexer } from './indexer';
import { emptyIndex, indexView, mine, nodeView, untilIndexedToSink } from './test-support/views';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function devnet(overrides: Parameters<typeof startWireDevnet>[0] = {}): Promise<WireDevnet> {
  const started = await startWireDevnet(overrides);
  cleanups.push(() => started.close());
  return started;
}

function indexer(rpc: RpcClient, db: Db): Indexer {
  const created = createIndexer({ rpc, db, nodePollIntervalMs: 50, retryDelayMs: 50 });
  cleanups.push(() => created.stop());
  return created;
}

async function indexToSink(node: WireDevnet, db: Db): Promise<void> {
  const first = indexer(node.client, db);
  await first.start();
  await first.whenReady(10_000);
  await untilIndexedToSink(node, db);
  await first.stop();
}

async function mineBlocks(node: WireDevnet, count: number): Promise<Block[]> {
  const blocks: Block[] = [];
  for (let i = 0; i < count; i++) blocks.push((await node.mine()).block);
  return blocks;
}

const HASH_PARAMS = ['hash', 'lowHash', 'startHash'] as const;

/**
 * The real node over the real wire, seen as a node pruned at `pruningPoint`: it names that block as its pruning point
 * and refuses every block in `pruned` with kaspad's "cannot find header …". Counts getBlock calls.
 */
function prunedView(client: RpcClient, pruningPoint: string, pruned: ReadonlySet<string>) {
  const counts = { refusedGetBlock: 0 };
  const call: RpcClient['call'] = async (method, params, options) => {
    for (const name of HASH_PARAMS) {
      const hash = (params as Record<string, unknown>)[name];
      if (typeof hash === 'string' && pruned.has(hash)) {
        if (method === 'getBlock') counts.refusedGetBlock++;
        throw new RpcRejectedError(method, `cannot find header ${hash}`);
      }
    }
    const answer = await client.call(method, params, options);
    if (method === 'getBlockDagInfo') return { ...answer, pruningPointHash: pruningPoint } as typeof answer;
    return answer;
  };
  const rpc: RpcClient = {
    get url() {
      return client.url;
    },
    get state() {
      return client.state;
    },
    call,
    subscribe: (event, params, listener) => client.subscribe(event, params, listener),
    onStateChange: (listener) => client.onStateChange(listener),
    close: () => client.close(),
  };
  return { rpc, counts };
}

describe.each(testBackends())('indexer recovery on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());
  beforeEach(() => emptyIndex(db));

  it('walks back to the newest chain block a node that lost its newest blocks still knows, undoes above it as a reorganisation, and follows the node', async () => {
    const original = await devnet();
    const blocks = await mineBlocks(original, 24);
    await indexToSink(original, db);
    const lostCheckpoint = (await readCheckpoint(db, DEFAULT_CHECKPOINT_NAME))!;

    const survivor = await devnet();
    for (const block of blocks.slice(0, 15)) {
      expect((await survivor.submit(block)).type).toBe('success');
      survivor.advance(100);
    }
    await mine(survivor, 6, wireKey(2).address);

    const recovered = indexer(survivor.client, db);
    await recovered.start();
    await recovered.whenReady(10_000);
    await untilIndexedToSink(survivor, db);

    const node = await nodeView(survivor);
    const index = await indexView(db);
    expect(index.chainBlocks).toEqual(node.chainBlocks);
    expect(index.acceptances).toEqual(node.acceptances);
    expect(index.blocks).toEqual(expect.arrayContaining(node.blocks));
    const status = recovered.status();
    expect(status).toMatchObject({ ready: true, recoveries: 1, gaps: [] });
    expect(status.notice).toContain(bytesToHex(lostCheckpoint.blockHash));
    expect(await readIndexGaps(db, DEFAULT_CHECKPOINT_NAME)).toEqual([]);
  });

  it('on a different chain, records the gap, resumes at the node\'s pruning point and takes the node\'s chain', async () => {
    const original = await devnet();
    await mine(original, 12);
    await indexToSink(original, db);
    const before = await indexView(db);
    const lostCheckpoint = (await readCheckpoint(db, DEFAULT_CHECKPOINT_NAME))!;

    const other = await devnet({ hashesPerSecond: 40 });
    await mine(other, 8);
    const following = indexer(other.client, db);
    await following.start();
    await following.whenReady(10_000);
    await untilIndexedToSink(other, db);

    const node = await nodeView(other);
    const index = await indexView(db);
    expect(index.chainBlocks).toEqual(node.chainBlocks);
    expect(index.acceptances).toEqual(node.acceptances);
    expect(index.blocks).toEqual([...before.blocks, ...node.blocks].sort());
    const gaps = await readIndexGaps(db, DEFAULT_CHECKPOINT_NAME);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({
      reason: 'different-chain',
      lostCheckpointDaaScore: lostCheckpoint.daaScore,
      lastKeptHash: null,
      resumedDaaScore: 0n,
      replacedChainBlocks: before.chainBlocks.length,
    });
    expect(bytesToHex(gaps[0]!.resumedHash)).toBe(bytesToHex(other.node.genesisHash));
    expect(following.status()).toMatchObject({ ready: true, recoveries: 0, gaps });
    expect(following.status().notice).toMatch(/empty database/);
  });

  it('against a node pruned past the index, records exactly what is missing, keeps the stored history and never loops', async () => {
    const node = await devnet();
    await mine(node, 12);
    await indexToSink(node, db);
    const lostCheckpoint = (await readCheckpoint(db, DEFAULT_CHECKPOINT_NAME))!;
    const storedChain = (await indexView(db)).chainBlocks;
    const beyond = await mine(node, 20);
    const pruningPoint = beyond[9]!;
    const kept = new Set(beyond.slice(9));
    const pruned = new Set((await nodeView(node)).blocks.filter((hash) => !kept.has(hash)));
    const { rpc, counts } = prunedView(node.client, pruningPoint, pruned);

    const following = indexer(rpc, db);
    await following.start();
    await following.whenReady(10_000);
    await untilIndexedToSink(node, db);

    const chainAfter = await node.client.call('getVirtualChainFromBlock', { startHash: pruningPoint, includeAcceptedTransactionIds: false });
    expect((await indexView(db)).chainBlocks).toEqual([...storedChain, pruningPoint, ...chainAfter.addedChainBlockHashes].sort());
    const gaps = await readIndexGaps(db, DEFAULT_CHECKPOINT_NAME);
    expect(gaps).toEqual([
      expect.objectContaining({
        reason: 'pruned',
        lostCheckpointDaaScore: lostCheckpoint.daaScore,
        lastKeptDaaScore: lostCheckpoint.daaScore,
        resumedDaaScore: (await node.client.call('getBlock', { hash: pruningPoint, includeTransactions: false })).block.header.daaScore,
        replacedChainBlocks: 0,
      }),
    ]);
    expect(bytesToHex(gaps[0]!.lastKeptHash!)).toBe(bytesToHex(lostCheckpoint.blockHash));
    expect(following.status().notice).toMatch(/archival node/);
    // The checkpoint check, then doubling steps back over the 13 stored chain blocks (depths 0, 2, 6, 12), not a probe each.
    expect(counts.refusedGetBlock).toBe(5);

    await following.stop();
    const again = indexer(rpc, db);
    await again.start();
    await again.whenReady(10_000);
    expect(again.status().gaps).toHaveLength(1);
    expect(await readIndexGaps(db, DEFAULT_CHECKPOINT_NAME)).toHaveLength(1);
  });
});
