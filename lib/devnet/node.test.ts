import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { headerHash } from '../kaspa/header';
import { RpcRejectedError } from '../rpc/errors';
import type { RpcNotifications } from '../rpc/types';
import { createDevnetNode, type DevnetNode, type DevnetNodeOptions } from './node';
import { blockLogLine } from './block-log';
import { describeNodeEvent } from './node-event-text';
import { FORK_ALWAYS, FORK_NEVER } from './consensus/params';
import { blockFromRpc, blockToRpcSubmission } from '../rpc/convert-block';
import { stringifyJson } from '../rpc/json';
import { createRpcHandlers } from './server/rpc-handlers';
import { transactionToRpc } from '../rpc/convert-transaction';
import { GENESIS_TIMESTAMP, idHex, solve, spend } from './test-support/devnet-harness';
import { MINER_KEY, settle, startWireDevnet, TEST_COINBASE_MATURITY, wireKey, type WireDevnet } from './test-support/wire-devnet';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dagboard-devnet-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface FakeClock {
  now: number;
}

function memoryNode(clock: FakeClock, overrides: Partial<DevnetNodeOptions> = {}): DevnetNode {
  const node = createDevnetNode({
    seed: 'node-test',
    miners: 0,
    hashesPerSecond: 20,
    persistence: null,
    clock: () => clock.now,
    params: { coinbaseMaturity: TEST_COINBASE_MATURITY },
    partitions: null,
    ...overrides,
  });
  cleanups.push(() => node.stop());
  return node;
}

/** Mines one block through the node's in-process RPC, as its own miners do. */
async function mineInProcess(node: DevnetNode, clock: FakeClock, payAddress = MINER_KEY.address): Promise<string> {
  const { block } = await node.rpc.call('getBlockTemplate', { payAddress, extraData: [] });
  const solved = solve(blockFromRpc(block));
  const { report } = await node.rpc.call('submitBlock', { block: blockToRpcSubmission(solved), allowNonDaaBlocks: false });
  if (report.type !== 'success') throw new Error(`block rejected: ${JSON.stringify(report)}`);
  await settle();
  clock.now += 100;
  return bytesToHex(headerHash(solved.header));
}

function utxoSet(node: DevnetNode): string[] {
  return [...node.consensus.utxoSetSnapshot()].map(([key, entry]) => `${key}=${entry.amount}:${entry.blockDaaScore}`).sort();
}

describe('in-process RPC caller', () => {
  it('answers with wire-shaped values and rejects as the socket client would', async () => {
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const node = memoryNode(clock);
    const info = await node.rpc.call('getBlockDagInfo', {});
    expect(info.virtualDaaScore).toBe(0n);
    expect(info.sink).toBe(bytesToHex(node.genesisHash));

    const unknown = 'ef'.repeat(32);
    const missing = await node.rpc.call('getBlock', { hash: unknown, includeTransactions: false }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(RpcRejectedError);
    expect((missing as RpcRejectedError).message).toBe(`cannot find header ${unknown}`);
    const malformed = await node.rpc
      .call('getBlock', { hash: 'xyz', includeTransactions: false })
      .catch((error: unknown) => error as RpcRejectedError);
    expect((malformed as RpcRejectedError).message).toBe('request deserialization error');
  });
});

/** A miner-less node keeping its chain in `dir`, on a manual clock. */
function persistedOptions(dir: string, clock: FakeClock): DevnetNodeOptions {
  return {
    seed: 'persist',
    miners: 0,
    hashesPerSecond: 20,
    persistence: { dir },
    clock: () => clock.now,
    params: { coinbaseMaturity: TEST_COINBASE_MATURITY },
  };
}

describe('persistence', () => {
  it('replays a chain that crossed the Toccata activation, and sets it aside for a node with another activation', async () => {
    const dir = temporaryDir();
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const options = (toccataActivation: bigint, onEvent?: DevnetNodeOptions['onEvent']) =>
      createDevnetNode({
        seed: 'persist-toccata',
        miners: 0,
        hashesPerSecond: 20,
        persistence: { dir },
        clock: () => clock.now,
        params: { coinbaseMaturity: TEST_COINBASE_MATURITY, toccataActivation },
        ...(onEvent ? { onEvent } : {}),
      });
    const first = options(5n);
    for (let i = 0; i < 12; i++) await mineInProcess(first, clock);
    const sink = bytesToHex(first.consensus.sink());
    const blocks = first.consensus.blockCount();
    expect(first.consensus.getBlock(first.consensus.sink())!.header.version).toBe(2);
    await first.stop();

    const events: string[] = [];
    const same = options(5n, (event) => events.push(event.type === 'replayed' ? `replayed ${event.blocks}` : event.type));
    expect(events).toEqual([`replayed ${blocks - 1}`]);
    expect(bytesToHex(same.consensus.sink())).toBe(sink);
    await same.stop();

    const lines: string[] = [];
    const other = options(FORK_NEVER, (event) => lines.push(describeNodeEvent(event)));
    cleanups.push(() => other.stop());
    expect(lines[0]).toMatch(/^the stored chain ran Toccata from DAA score 5, this node from never: starting a fresh chain \(the old one moved to .*superseded-\d+\)$/);
    expect(other.consensus.blockCount()).toBe(1);
    await mineInProcess(other, clock);
    expect(other.consensus.getBlock(other.consensus.sink())!.header.version).toBe(1);
  });


  it('a restarted node replays its block log to the same sink, UTXO set and mempool-free state, then keeps mining', async () => {
    const dir = temporaryDir();
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const first = createDevnetNode(persistedOptions(dir, clock));
    for (let i = 0; i < TEST_COINBASE_MATURITY + 4; i++) await mineInProcess(first, clock);
    const [utxo] = first.consensus
      .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
      .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
    const payment = spend(utxo!, MINER_KEY, wireKey(5).scriptPublicKey);
    await first.rpc.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
    await mineInProcess(first, clock);
    await mineInProcess(first, clock);
    const before = {
      genesis: bytesToHex(first.genesisHash),
      sink: bytesToHex(first.consensus.sink()),
      blocks: first.consensus.blockCount(),
      utxos: utxoSet(first),
      commitment: bytesToHex(first.consensus.virtualUtxoCommitment()),
    };
    expect(first.consensus.getUtxosByScriptPublicKey(wireKey(5).scriptPublicKey)).toHaveLength(1);
    await first.stop();

    clock.now += 60_000;
    const events: string[] = [];
    const second = createDevnetNode({
      ...persistedOptions(dir, clock),
      hashesPerSecond: 20_000,
      onEvent: (event) => events.push(event.type === 'replayed' ? `replayed ${event.blocks}` : event.type),
    });
    cleanups.push(() => second.stop());
    expect(events).toEqual([`replayed ${before.blocks - 1}`]);
    expect(second.restored).toMatchObject({ replayedBlocks: before.blocks - 1, recovery: null });
    expect({
      genesis: bytesToHex(second.genesisHash),
      sink: bytesToHex(second.consensus.sink()),
      blocks: second.consensus.blockCount(),
      utxos: utxoSet(second),
      commitment: bytesToHex(second.consensus.virtualUtxoCommitment()),
    }).toEqual(before);

    const next = await mineInProcess(second, clock);
    expect(bytesToHex(second.consensus.sink())).toBe(next);
  });
});

describe('forced reorganisation', () => {
  let devnet: WireDevnet | undefined;
  afterEach(async () => {
    await devnet?.close();
    devnet = undefined;
  });

  it('mines a heavier side branch, notifies the removed chain blocks, and the new chain accepts their transactions again', async () => {
    devnet = await startWireDevnet();
    for (let i = 0; i < TEST_COINBASE_MATURITY + 4; i++) await devnet.mine();
    const [utxo] = devnet.node.consensus
      .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
      .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
    const payment = spend(utxo!, MINER_KEY, wireKey(6).scriptPublicKey);
    await devnet.client.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
    const carrying = await devnet.mine();
    const accepting = await devnet.mine();
    expect(carrying.block.transactions.map(idHex)).toContain(idHex(payment));
    expect(devnet.node.mempool.has(idHex(payment))).toBe(false);

    const changes: RpcNotifications['VirtualChainChanged'][] = [];
    await devnet.client.subscribe('VirtualChainChanged', { include_accepted_transaction_ids: false }, (change) => changes.push(change));
    const oldChain = (await devnet.client.call('getVirtualChainFromBlock', { startHash: bytesToHex(devnet.node.genesisHash), includeAcceptedTransactionIds: false }))
      .addedChainBlockHashes;

    const reorg = devnet.node.forceReorg({ depth: 3 });
    await settle();
    for (let attempt = 0; attempt < 100 && changes.length === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));

    const removed = oldChain.slice(-3).reverse();
    expect(removed).toEqual([accepting.hash, carrying.hash, oldChain.at(-3)]);
    expect(bytesToHex(reorg.base)).toBe(oldChain.at(-4));
    expect(reorg.change.removedChainBlockHashes.map(bytesToHex)).toEqual(removed);
    expect(bytesToHex(devnet.node.consensus.sink())).toBe(bytesToHex(reorg.blocks.at(-1)!));
    // kaspad notifies every virtual resolution: the side branch's lighter blocks leave the chain as it was.
    expect(changes).toHaveLength(reorg.blocks.length);
    const switched = changes.filter((change) => change.addedChainBlockHashes.length > 0 || change.removedChainBlockHashes.length > 0);
    expect(switched).toEqual([
      { removedChainBlockHashes: removed, addedChainBlockHashes: reorg.blocks.map(bytesToHex), acceptedTransactionIds: [] },
    ]);

    // The virtual merges the old branch, so the payment is not re-admitted to the mempool but accepted again on top.
    expect(devnet.node.mempool.has(idHex(payment))).toBe(false);
    const merging = await devnet.mine();
    const { block } = await devnet.client.call('getBlock', { hash: merging.hash, includeTransactions: false });
    expect(block.verboseData?.mergeSetBluesHashes).toEqual(expect.arrayContaining([carrying.hash, accepting.hash]));
    const chain = await devnet.client.call('getVirtualChainFromBlock', { startHash: bytesToHex(reorg.base), includeAcceptedTransactionIds: true });
    expect(chain.addedChainBlockHashes.at(-1)).toBe(merging.hash);
    expect(chain.acceptedTransactionIds.at(-1)!.acceptedTransactionIds).toContain(idHex(payment));
  });
});

describe('transactionsAccepted', () => {
  it('counts a transaction a reorganisation moves to another chain block once', async () => {
    const devnet = await startWireDevnet();
    cleanups.push(() => devnet.close());
    for (let i = 0; i < TEST_COINBASE_MATURITY + 4; i++) await devnet.mine();
    const [utxo] = devnet.node.consensus
      .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
      .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
    const payment = spend(utxo!, MINER_KEY, wireKey(8).scriptPublicKey);
    await devnet.client.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
    await devnet.mine();
    await devnet.mine();
    expect(devnet.node.stats().transactionsAccepted).toBe(1);

    const reorg = devnet.node.forceReorg({ depth: 3 });
    await settle();
    expect(reorg.change.removedChainBlockHashes.length).toBe(3);
    expect(devnet.node.stats().transactionsAccepted).toBe(0);
    const merging = await devnet.mine();
    const chain = await devnet.client.call('getVirtualChainFromBlock', { startHash: bytesToHex(reorg.base), includeAcceptedTransactionIds: true });
    expect(chain.addedChainBlockHashes.at(-1)).toBe(merging.hash);
    expect(chain.acceptedTransactionIds.at(-1)!.acceptedTransactionIds).toContain(idHex(payment));
    expect(devnet.node.stats().transactionsAccepted).toBe(1);
  });
});

describe('miner partitions', () => {
  it('a miner cut off from the swarm delivers stale blocks that the DAG merges as reds, and the chain reorganises', async () => {
    const node = createDevnetNode({
      seed: 'partition-test',
      miners: 3,
      hashesPerSecond: 600,
      persistence: null,
      params: { ghostdagK: 3, coinbaseMaturity: TEST_COINBASE_MATURITY },
      partitions: { gapMs: { min: 300, max: 300 }, durationMs: { min: 1_500, max: 1_500 } },
    });
    cleanups.push(() => node.stop());
    const arrivedAt = new Map<string, number>();
    node.consensus.events.on('blockAdded', ({ hash }) => arrivedAt.set(bytesToHex(hash), Date.now()));
    let reorganisations = 0;
    node.consensus.events.on('virtualChainChanged', (change) => {
      if (change.removedChainBlockHashes.length > 0) reorganisations++;
    });
    const redsOf = async (hash: string) =>
      (await node.rpc.call('getBlock', { hash, includeTransactions: false })).block.verboseData?.mergeSetRedsHashes ?? [];
    const lateReds = async () => {
      const reds: string[] = [];
      for (const hash of arrivedAt.keys()) reds.push(...(await redsOf(hash)));
      // A withheld block carries the timestamp of the template fetched before the partition.
      return reds.filter((red) => {
        const timestamp = Number(node.consensus.getBlock(hexToBytes(red))!.header.timestamp);
        return arrivedAt.get(red)! - timestamp >= 1_000;
      });
    };

    await node.start();
    let reds: string[] = [];
    for (let attempt = 0; attempt < 160 && (reds.length === 0 || reorganisations === 0); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (node.swarm!.stats().partitions > 0) reds = await lateReds();
    }
    await node.stop();

    const stats = node.swarm!.stats();
    expect(stats.partitions).toBeGreaterThan(0);
    expect(stats.miners.some((miner) => miner.blocksHeld > 0)).toBe(true);
    expect(reds.length).toBeGreaterThan(0);
    expect(reorganisations).toBeGreaterThan(0);
  }, 60_000);
});

describe('forced reorganisation beyond the mergeset limit', () => {
  it('returns transactions of chain blocks the new virtual cannot merge to the mempool', async () => {
    const devnet = await startWireDevnet({ params: { coinbaseMaturity: TEST_COINBASE_MATURITY, mergesetSizeLimit: 3 } });
    cleanups.push(() => devnet.close());
    for (let i = 0; i < TEST_COINBASE_MATURITY + 6; i++) await devnet.mine();
    const [utxo] = devnet.node.consensus
      .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
      .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
    const payment = spend(utxo!, MINER_KEY, wireKey(7).scriptPublicKey);
    await devnet.client.call('submitTransaction', { transaction: transactionToRpc(payment), allowOrphan: false });
    const carrying = await devnet.mine();
    const accepting = await devnet.mine();
    expect(devnet.node.mempool.has(idHex(payment))).toBe(false);

    // The new virtual can merge only the two oldest of the five removed chain blocks, not the payment's.
    const reorg = devnet.node.forceReorg({ depth: 5 });
    await settle();
    expect(reorg.change.removedChainBlockHashes.map(bytesToHex).slice(0, 2)).toEqual([accepting.hash, carrying.hash]);
    const merged = new Set(devnet.node.consensus.getBlocks(reorg.base).map(bytesToHex));
    expect(merged.has(carrying.hash)).toBe(false);
    expect(devnet.node.mempool.has(idHex(payment))).toBe(true);
  });
});

describe('wire robustness', () => {
  it('drops connections sending malformed frames, answers kaspad errors for bad params and unregistered ops, and keeps serving', async () => {
    const devnet = await startWireDevnet();
    cleanups.push(() => devnet.close());
    const sendRaw = async (text: string): Promise<{ closed: boolean; reply?: Record<string, unknown> }> => {
      const socket = new WebSocket(devnet.url);
      await once(socket, 'open');
      const outcome = new Promise<{ closed: boolean; reply?: Record<string, unknown> }>((resolve) => {
        socket.once('message', (data) => resolve({ closed: false, reply: JSON.parse(String(data)) as Record<string, unknown> }));
        socket.once('close', () => resolve({ closed: true }));
      });
      socket.send(text);
      const result = await outcome;
      socket.terminate();
      return result;
    };
    expect(await sendRaw('{"id":1,"method":"getInfo","params":')).toEqual({ closed: true });
    expect(await sendRaw('{"id":1,"method":"noSuchMethod","params":{}}')).toEqual({ closed: true });
    expect(await sendRaw('{"id":1,"method":"getInfo"}')).toEqual({ closed: true });
    expect((await sendRaw('{"id":2,"method":"getBlock","params":{"hash":42}}')).reply).toEqual({
      id: 2,
      method: 'getBlock',
      error: { code: 0, message: 'request deserialization error', data: null },
    });
    expect((await sendRaw('{"id":3,"method":"notifyBlockAdded","params":{}}')).reply).toEqual({
      id: 3,
      method: 'notifyBlockAdded',
      error: { code: 0, message: 'RPC method not found', data: null },
    });
    expect((await sendRaw('{"id":18446744073709551615,"method":"getSink","params":{}}')).reply?.method).toBe('getSink');
    expect(await devnet.client.call('getSink', {})).toEqual({ sink: bytesToHex(devnet.node.genesisHash) });
  });
});

describe('synced rule', () => {
  it('without unsynced mining, an old sink makes submitBlock answer isInIBD and getInfo report not synced', async () => {
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const node = memoryNode(clock);
    const handlers = createRpcHandlers({
      consensus: node.consensus,
      mempool: node.mempool,
      serverVersion: '2.0.1',
      clock: () => clock.now,
      enableUnsyncedMining: false,
    });
    const { block } = await node.rpc.call('getBlockTemplate', { payAddress: MINER_KEY.address, extraData: [] });
    const submission = blockToRpcSubmission(solve(blockFromRpc(block)));
    const context = { connection: { id: 0, remoteAddress: undefined }, signal: new AbortController().signal };
    const decodedInfo = await handlers.getInfo!({}, context);
    expect(decodedInfo.isSynced).toBe(true);

    clock.now += 661_000;
    expect((await handlers.getInfo!({}, context)).isSynced).toBe(false);
    const { requestSchemas } = await import('../rpc/request-schemas');
    const request = requestSchemas.submitBlock.parse(JSON.parse(JSON.stringify({ block: submission, allowNonDaaBlocks: false }, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))));
    expect(await handlers.submitBlock!(request, context)).toEqual({ report: { type: 'reject', reason: 'isInIBD' } });
    expect(node.consensus.blockCount()).toBe(1);
    clock.now -= 1;
    expect((await handlers.getInfo!({}, context)).isSynced).toBe(true);
  });
});

describe('miners and traffic', () => {
  it.each([
    ['Crescendo', FORK_NEVER],
    ['Toccata from genesis', FORK_ALWAYS],
  ])('simulated miners produce blocks and the traffic worker spends the matured rewards they paid to the wallets (%s)', async (_name, toccataActivation) => {
    const clock = { now: Date.now() };
    const node = memoryNode(clock, {
      miners: 2,
      hashesPerSecond: 400,
      txPerSecond: 40,
      wallets: 2,
      // Without the bootstrap the wallets own only the mined rewards, so the traffic proves they mature and spend.
      bootstrap: false,
      params: { coinbaseMaturity: TEST_COINBASE_MATURITY, toccataActivation },
    });
    for (let i = 0; i < TEST_COINBASE_MATURITY + 6; i++) await mineInProcess(node, clock, node.wallets.wallets[i % 2]!.address);
    clock.now = Date.now();
    const realClock = setInterval(() => {
      clock.now = Date.now();
    }, 5);
    cleanups.push(() => clearInterval(realClock));
    const blocksBefore = node.consensus.blockCount();
    await node.start();
    for (let attempt = 0; attempt < 300; attempt++) {
      const accepted = node.traffic!.stats()?.accepted ?? 0;
      if (node.consensus.blockCount() >= blocksBefore + 3 && accepted >= 3 && node.stats().transactionsAccepted > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await node.stop();
    expect(node.consensus.blockCount()).toBeGreaterThanOrEqual(blocksBefore + 3);
    expect(node.swarm!.stats().blocksAccepted).toBeGreaterThan(0);
    expect(node.traffic!.stats()?.accepted).toBeGreaterThanOrEqual(3);
    expect(node.stats().transactionsAccepted).toBeGreaterThan(0);
    const sink = node.consensus.getBlock(node.consensus.sink())!;
    expect(sink.header.version).toBe(toccataActivation === FORK_ALWAYS ? 2 : 1);
    expect(sink.status).toBe('utxoValid');
  }, 15_000);

  it('drops a logged block that replay rejects, with everything after it, so state and block log agree', async () => {
    const dir = temporaryDir();
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const first = createDevnetNode(persistedOptions(dir, clock));
    for (let i = 0; i < 5; i++) await mineInProcess(first, clock);
    const sink = bytesToHex(first.consensus.sink());
    await first.stop();
    const path = join(dir, 'blocks.jsonl');
    const kept = readFileSync(path, 'utf8');

    const strangerClock = { now: Number(GENESIS_TIMESTAMP) };
    const stranger = memoryNode(strangerClock, { hashesPerSecond: 40 });
    await mineInProcess(stranger, strangerClock);
    const foreign = stranger.consensus.getBlock(stranger.consensus.sink())!;
    const garbage = blockLogLine(stringifyJson(blockToRpcSubmission(foreign)));
    appendFileSync(path, garbage + kept.split('\n')[0]! + '\n');

    const lines: string[] = [];
    const second = createDevnetNode({ ...persistedOptions(dir, clock), onEvent: (event) => lines.push(describeNodeEvent(event)) });
    cleanups.push(() => second.stop());
    expect(bytesToHex(second.consensus.sink())).toBe(sink);
    expect(second.restored?.recovery).toMatchObject({ reason: 'rejected', line: 6, keptRecords: 5, droppedRecords: 2 });
    expect(second.restored?.recovery?.detail).toContain(bytesToHex(headerHash(foreign.header)));
    expect(lines[0]).toMatch(/^block log recovered after an unclean stop: dropped 2 record\(s\)/);
    expect(readFileSync(path, 'utf8')).toBe(kept);
  });
});
