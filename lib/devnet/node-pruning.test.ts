import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '../kaspa/bytes';
import { headerHash } from '../kaspa/header';
import { RpcRejectedError } from '../rpc/errors';
import { decodeSnapshot } from './consensus/consensus-snapshot';
import { createDevnetNode, type DevnetNode, type DevnetNodeEvent } from './node';
import { GENESIS_TIMESTAMP, MINER, PRUNING_TEST_PARAMS, solve } from './test-support/devnet-harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PARAMS = { ...PRUNING_TEST_PARAMS, coinbaseMaturity: 10 };

function persistedNode(dir: string, clock: { now: number }, events: DevnetNodeEvent[] = []): DevnetNode {
  const node = createDevnetNode({
    seed: 'node-pruning',
    miners: 0,
    hashesPerSecond: 20,
    persistence: { dir },
    clock: () => clock.now,
    params: PARAMS,
    partitions: null,
    onEvent: (event) => events.push(event),
  });
  cleanups.push(() => node.stop());
  return node;
}

/** Mines rounds straight into consensus (the node's listeners log and snapshot as for its own miners); every fourth round two parallel blocks. */
function mine(node: DevnetNode, clock: { now: number }, rounds: number): void {
  for (let round = 0; round < rounds; round++) {
    const parallel = round % 4 === 3 ? 2 : 1;
    const blocks = Array.from({ length: parallel }, (_, index) =>
      solve(node.consensus.buildBlockTemplate({ payScriptPublicKey: MINER.scriptPublicKey, extraData: new Uint8Array([index]) }).block),
    );
    for (const block of blocks) expect(node.consensus.validateAndInsertBlock(block)).toEqual({ type: 'success' });
    clock.now += 100;
  }
}

function state(node: DevnetNode) {
  const { consensus } = node;
  return {
    sink: bytesToHex(consensus.sink()),
    tips: consensus.getTips().map(bytesToHex).sort(),
    parents: consensus.virtualParents().map(bytesToHex),
    utxos: consensus.utxoSetSnapshot().size,
    pruningPoint: bytesToHex(consensus.pruningPoint()),
    utxoCommitment: bytesToHex(consensus.virtualUtxoCommitment()),
    daaScore: consensus.virtualDaaScore(),
    supply: consensus.coinSupply().circulatingSompi,
  };
}

describe('a pruning devnet node', () => {
  it('snapshots at each pruning point, compacts its log and restarts from the newest snapshot to the same state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dagboard-prune-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const first = persistedNode(dir, clock);
    mine(first, clock, 200);
    const before = state(first);
    const mined = first.consensus.virtualBlueScore();
    await first.stop();

    const snapshots = readdirSync(join(dir, 'snapshots'));
    expect(snapshots.filter((name) => name.endsWith('.json'))).toHaveLength(2);
    const loggedBlocks = readFileSync(join(dir, 'blocks.jsonl'), 'utf8').trim().split('\n').length;
    expect(loggedBlocks).toBeLessThan(Number(mined) / 2);

    const events: DevnetNodeEvent[] = [];
    const second = persistedNode(dir, clock, events);
    const replayed = events.find((event) => event.type === 'replayed');
    expect(events.some((event) => event.type === 'logRecovered')).toBe(false);
    expect(replayed?.type === 'replayed' && replayed.snapshotBlueScore).toBeGreaterThan(0n);
    expect(state(second)).toEqual(before);
    mine(second, clock, 30);
    expect(second.consensus.virtualBlueScore()).toBeGreaterThan(mined);
  });

  it('falls back to the previous snapshot when the newest is torn, and ignores an unfinished write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dagboard-prune-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const first = persistedNode(dir, clock);
    mine(first, clock, 160);
    const before = state(first);
    await first.stop();

    const files = readdirSync(join(dir, 'snapshots')).filter((name) => name.endsWith('.json')).sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    const newest = join(dir, 'snapshots', files[0]!);
    truncateSync(newest, Math.floor(readFileSync(newest).length / 2));
    writeFileSync(join(dir, 'snapshots', 'snapshot-999999.json.tmp'), '{"format":1');

    const events: DevnetNodeEvent[] = [];
    const second = persistedNode(dir, clock, events);
    expect(events.filter((event) => event.type === 'error').map((event) => event.type === 'error' && event.source)).toEqual([`snapshot:${newest}`]);
    const olderBlueScore = BigInt(/snapshot-(\d+)/.exec(files[1]!)![1]!);
    expect(events.find((event) => event.type === 'replayed')).toMatchObject({ snapshotBlueScore: olderBlueScore });
    expect(events.some((event) => event.type === 'logRecovered')).toBe(false);
    expect(state(second)).toEqual(before);
    // The pruning point it reached again is snapshotted anew, replacing the torn file.
    expect(decodeSnapshot(readFileSync(newest, 'utf8')).pruningPoint).toEqual(second.consensus.pruningPoint());
  });

  it('answers clients as a pruned kaspad: the pruning point moves, pruned blocks are not found, listing starts at the pruning point', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dagboard-prune-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const clock = { now: Number(GENESIS_TIMESTAMP) };
    const node = persistedNode(dir, clock);
    const genesis = bytesToHex(node.genesisHash);
    const early = bytesToHex(headerHash(node.consensus.buildBlockTemplate({ payScriptPublicKey: MINER.scriptPublicKey }).block.header));
    mine(node, clock, 3);
    const firstChild = bytesToHex(node.consensus.getBlocks()[1]!);
    mine(node, clock, 120);

    const info = await node.rpc.call('getBlockDagInfo', {});
    expect(info.pruningPointHash).toBe(bytesToHex(node.consensus.pruningPoint()));
    expect(info.pruningPointHash).not.toBe(genesis);
    await expect(node.rpc.call('getBlock', { hash: genesis, includeTransactions: false })).rejects.toThrow(RpcRejectedError);
    await expect(node.rpc.call('getBlock', { hash: genesis, includeTransactions: false })).rejects.toThrow(`cannot find header ${genesis}`);
    await expect(node.rpc.call('getBlock', { hash: firstChild, includeTransactions: true })).rejects.toThrow(`cannot find header ${firstChild}`);
    await expect(node.rpc.call('getBlocks', { lowHash: firstChild, includeBlocks: false, includeTransactions: false })).rejects.toThrow(
      `cannot find header ${firstChild}`,
    );
    for (const lowHash of [null, genesis]) {
      const listed = await node.rpc.call('getBlocks', { lowHash, includeBlocks: true, includeTransactions: false });
      expect(listed.blockHashes[0]).toBe(info.pruningPointHash);
      expect(listed.blocks[0]!.verboseData?.hash).toBe(info.pruningPointHash);
    }
    expect(early).not.toBe(info.pruningPointHash);
  });
});
