import { afterEach, describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import { headerHash } from '../../kaspa/header';
import { laneKey as laneKeyOf } from '../../kaspa/seq-commit';
import { verifySeqCommitLaneProof } from '../../kaspa/smt-proof';
import { SUBNETWORK_ID_COINBASE } from '../../kaspa/types';
import { callChecked } from '../../rpc/response-schemas';
import { MINER_KEY, rejection, startWireDevnet, TEST_COINBASE_MATURITY, wireKey, type WireDevnet } from '../test-support/wire-devnet';
import { createRpcHandlers } from './rpc-handlers';
import { FORK_ALWAYS } from '../consensus/params';
import { estimateHashesPerSecond } from './rpc-node-handlers';
import { createInProcessRpcCaller, DEVNET_SERVER_VERSION } from '../node';

let devnet: WireDevnet | undefined;
afterEach(async () => {
  await devnet?.close();
  devnet = undefined;
});

async function start(): Promise<WireDevnet> {
  devnet = await startWireDevnet();
  return devnet;
}

const ALL_METRICS = {
  processMetrics: true,
  connectionMetrics: true,
  bandwidthMetrics: true,
  consensusMetrics: true,
  storageMetrics: true,
  customMetrics: true,
};

describe('node-status reads over wRPC', () => {
  it('reports kaspad 2.0.1, whose policy the devnet applies, in getServerInfo, getInfo and its coinbases', async () => {
    const wire = await start();
    expect(DEVNET_SERVER_VERSION).toBe('2.0.1');
    expect((await wire.client.call('getServerInfo', {})).serverVersion).toBe('2.0.1');
    expect((await wire.client.call('getInfo', {})).serverVersion).toBe('2.0.1');
    const { block } = await wire.mine();
    const payload = new TextDecoder().decode(block.transactions[0]!.payload);
    expect(payload).toContain('2.0.1/');
  });

  it('answers sync status and empty peer lists, and "Not implemented" for getHeaders and getSubnetwork as kaspad 2.0.1 does', async () => {
    const wire = await start();
    expect(await callChecked(wire.client, 'getSyncStatus', {})).toEqual({ isSynced: true });
    expect(await callChecked(wire.client, 'getConnectedPeerInfo', {})).toEqual({ peerInfo: [] });
    expect(await callChecked(wire.client, 'getPeerAddresses', {})).toEqual({ knownAddresses: [], bannedAddresses: [] });

    const genesis = bytesToHex(wire.node.genesisHash);
    expect(await wire.raw('getHeaders', { startHash: genesis, limit: 10, isAscending: true })).toEqual({
      id: 1,
      method: 'getHeaders',
      error: { code: 0, message: 'Not implemented', data: null },
    });
    expect(await wire.raw('getSubnetwork', { subnetworkId: '00'.repeat(20) })).toEqual({
      id: 2,
      method: 'getSubnetwork',
      error: { code: 0, message: 'Not implemented', data: null },
    });
    expect(await wire.raw('getSubnetwork', { subnetworkId: '00' })).toMatchObject({ error: { message: 'request deserialization error' } });
  });

  it('getMetrics fills the sections asked for with kaspad’s field names and what the devnet can count, and nulls the rest', async () => {
    const wire = await start();
    await wire.mine();
    await wire.mine();
    const metrics = await callChecked(wire.client, 'getMetrics', ALL_METRICS);
    const { blockCount } = await wire.client.call('getBlockCount', {});
    const dag = await wire.client.call('getBlockDagInfo', {});
    expect(metrics.serverTime).toBe(BigInt(wire.now()));
    expect(metrics.customMetrics).toBeNull();
    expect(metrics.storageMetrics).toEqual({ storageSizeBytes: 0n });
    expect(metrics.processMetrics!.residentSetSize).toBeGreaterThan(0n);
    expect(metrics.processMetrics!.coreNum).toBeGreaterThan(0);
    // The lib/rpc client and the harness' raw socket.
    expect(metrics.connectionMetrics).toMatchObject({ jsonLiveConnections: 2, jsonConnectionAttempts: 2n, activePeers: 0, borshLiveConnections: 0 });
    expect(metrics.bandwidthMetrics!.jsonBytesRx).toBeGreaterThan(0n);
    expect(metrics.bandwidthMetrics!.jsonBytesTx).toBeGreaterThan(0n);
    const later = await callChecked(wire.client, 'getMetrics', ALL_METRICS);
    expect(later.bandwidthMetrics!.jsonBytesRx).toBeGreaterThan(metrics.bandwidthMetrics!.jsonBytesRx);
    expect(later.bandwidthMetrics!.jsonBytesTx).toBeGreaterThan(metrics.bandwidthMetrics!.jsonBytesTx);
    expect(metrics.consensusMetrics).toMatchObject({
      nodeBlocksSubmittedCount: 2n,
      nodeBodiesProcessedCount: 2n,
      nodeTransactionsProcessedCount: 2n,
      nodeChainBlocksProcessedCount: 2n,
      nodeDatabaseBlocksCount: blockCount,
      networkTipHashesCount: dag.tipHashes.length,
      networkVirtualParentHashesCount: dag.virtualParentHashes.length,
      networkVirtualDaaScore: dag.virtualDaaScore,
      networkPastMedianTime: dag.pastMedianTime,
      networkMempoolSize: 0n,
    });

    const none = await wire.raw('getMetrics', { ...ALL_METRICS, processMetrics: false, connectionMetrics: false, bandwidthMetrics: false, consensusMetrics: false, storageMetrics: false, customMetrics: false });
    expect(Object.keys(none.params as object)).toEqual([
      'serverTime',
      'processMetrics',
      'connectionMetrics',
      'bandwidthMetrics',
      'consensusMetrics',
      'storageMetrics',
      'customMetrics',
    ]);
    expect(none.params).toMatchObject({ processMetrics: null, consensusMetrics: null, storageMetrics: null, customMetrics: null });
    expect(await wire.raw('getMetrics', {})).toMatchObject({ error: { message: 'request deserialization error' } });
  });

  it('estimates timestamps of DAA scores from genesis, the chain samples and the target block time, in request order', async () => {
    const wire = await start();
    for (let count = 0; count < 6; count++) {
      wire.advance(400);
      await wire.mine();
    }
    const sink = (await wire.client.call('getBlock', { hash: bytesToHex(wire.node.consensus.sink()), includeTransactions: false })).block.header;
    const genesis = (await wire.client.call('getBlock', { hash: bytesToHex(wire.node.genesisHash), includeTransactions: false })).block.header;
    const target = BigInt(wire.node.consensus.params.targetTimePerBlock);
    const { timestamps } = await callChecked(wire.client, 'getDaaScoreTimestampEstimate', {
      daaScores: [sink.daaScore + 5n, genesis.daaScore, sink.daaScore],
    });
    expect(timestamps).toEqual([sink.timestamp + 5n * target, genesis.timestamp, sink.timestamp]);
    const [middle] = (await callChecked(wire.client, 'getDaaScoreTimestampEstimate', { daaScores: [sink.daaScore - 1n] })).timestamps;
    expect(middle).toBeGreaterThanOrEqual(genesis.timestamp);
    expect(middle).toBeLessThanOrEqual(sink.timestamp);
  });
});

describe('connections, system and block colour', () => {
  it('getConnections counts wRPC clients, getSystemInfo describes the machine, getCurrentBlockColor reads the merger', async () => {
    const wire = await start();
    expect(await callChecked(wire.client, 'getConnections', { includeProfileData: false })).toEqual({ clients: 2, peers: 0, profileData: null });
    const profiled = await callChecked(wire.client, 'getConnections', { includeProfileData: true });
    expect(profiled.profileData!.memoryUsage).toBeGreaterThan(0n);

    const system = await callChecked(wire.client, 'getSystemInfo', {});
    expect(system).toMatchObject({ version: '2.0.1', systemId: null, gitHash: null, proxySocketLimitPerCpuCore: null });
    expect(system.totalMemory).toBeGreaterThan(0n);
    expect(system.cpuPhysicalCores).toBeGreaterThan(0);

    const first = await wire.mine();
    await wire.mine();
    expect(await callChecked(wire.client, 'getCurrentBlockColor', { hash: first.hash })).toEqual({ blue: true });
    const sink = bytesToHex(wire.node.consensus.sink());
    expect(await rejection(wire.client.call('getCurrentBlockColor', { hash: sink }))).toBe(`Block ${sink} doesn't have any merger block.`);
    const missing = 'cd'.repeat(32);
    expect(await rejection(wire.client.call('getCurrentBlockColor', { hash: missing }))).toBe(`Block ${missing} doesn't have any merger block.`);
  });
});

describe('getBlockRewardInfo', () => {
  it('reports a merged blue block’s merging chain block, confirmations and the coinbase output paying it; unmerged blocks are unknown', async () => {
    const wire = await start();
    const first = await wire.mine();
    const second = await wire.mine();
    await wire.mine();
    const info = await callChecked(wire.client, 'getBlockRewardInfo', { hash: first.hash });
    const merging = (await wire.client.call('getBlock', { hash: second.hash, includeTransactions: false })).block.header;
    const { blueScore } = await wire.client.call('getSinkBlueScore', {});
    expect(info.header.hash).toBe(first.hash);
    expect(info).toMatchObject({
      blockColor: 'blue',
      mergingChainBlockHash: second.hash,
      confirmationCount: blueScore - merging.blueScore,
      rewardAmount: second.block.transactions[0]!.outputs[0]!.value,
    });
    expect(info.rewardAmount).toBeGreaterThan(0n);

    const sink = bytesToHex(wire.node.consensus.sink());
    expect(await callChecked(wire.client, 'getBlockRewardInfo', { hash: sink })).toMatchObject({
      blockColor: 'unknown',
      confirmationCount: null,
      mergingChainBlockHash: null,
      rewardAmount: null,
    });
    const missing = 'ab'.repeat(32);
    expect(await rejection(wire.client.call('getBlockRewardInfo', { hash: missing }))).toBe(`cannot find header ${missing}`);
  });
});

describe('getSeqCommitLaneProof', () => {
  it('checks the block as kaspad does, and before Toccata answers kaspad’s error', async () => {
    const wire = await start();
    await wire.mine();
    const parallel = await wire.template(wireKey(3).address);
    const { hash } = await wire.mine(MINER_KEY.address);
    expect((await wire.submit(parallel)).type).toBe('success');
    const sink = bytesToHex(wire.node.consensus.sink());
    const sideBlock = [hash, bytesToHex(headerHash(parallel.header))].find((candidate) => candidate !== sink)!;
    const laneKey = '11'.repeat(32);
    const genesis = bytesToHex(wire.node.genesisHash);

    expect(await rejection(wire.client.call('getSeqCommitLaneProof', { blockHash: sink, laneKey }))).toBe(`toccata is not active at block ${sink}`);
    expect(await rejection(wire.client.call('getSeqCommitLaneProof', { blockHash: genesis, laneKey }))).toBe(
      `block ${genesis} is genesis and has no selected parent`,
    );
    expect(await rejection(wire.client.call('getSeqCommitLaneProof', { blockHash: sideBlock, laneKey }))).toBe(
      `block ${sideBlock} is not in the selected parent chain`,
    );
  });

  it('under Toccata answers the node’s own proof, which verifies against the block’s sequencing commitment', async () => {
    devnet = await startWireDevnet({ params: { coinbaseMaturity: TEST_COINBASE_MATURITY, toccataActivation: FORK_ALWAYS } });
    await devnet.mine();
    const { hash } = await devnet.mine();
    const laneKey = laneKeyOf(SUBNETWORK_ID_COINBASE);
    const answer = await callChecked(devnet.client, 'getSeqCommitLaneProof', { blockHash: hash, laneKey: bytesToHex(laneKey) });
    expect(answer.lane).not.toBeNull();
    const proof = {
      smtProof: Uint8Array.from(answer.smtProof),
      lane: answer.lane && { tip: hexToBytes(answer.lane.tip), blueScore: answer.lane.blueScore },
      payloadAndContextDigest: hexToBytes(answer.payloadAndCtxDigest),
      parentSeqCommit: hexToBytes(answer.parentSeqCommit),
      inactivityShortcut: hexToBytes(answer.inactivityShortcut),
    };
    const block = devnet.node.consensus.getBlock(hexToBytes(hash))!;
    expect(verifySeqCommitLaneProof(laneKey, proof, block.header.acceptedIdMerkleRoot).valid).toBe(true);
    const otherLane = new Uint8Array(32).fill(0x11);
    expect(verifySeqCommitLaneProof(otherLane, proof, block.header.acceptedIdMerkleRoot).valid).toBe(false);
  });

  it('answers the proof a lane prover gives, in v2.0.1’s shape', async () => {
    const wire = await start();
    const { hash } = await wire.mine();
    const proof = {
      smtProof: [1, 2, 255],
      lane: { tip: 'cd'.repeat(32), blueScore: 7n },
      payloadAndCtxDigest: '01'.repeat(32),
      parentSeqCommit: '02'.repeat(32),
      inactivityShortcut: '03'.repeat(32),
    };
    const asked: string[] = [];
    const caller = createInProcessRpcCaller(
      createRpcHandlers({
        consensus: wire.node.consensus,
        mempool: wire.node.mempool,
        serverVersion: '2.0.1',
        clock: wire.now,
        laneProver: {
          laneProof(blockHash, laneKey) {
            asked.push(`${bytesToHex(blockHash)}/${bytesToHex(laneKey)}`);
            return proof;
          },
        },
      }),
    );
    expect(await callChecked(caller, 'getSeqCommitLaneProof', { blockHash: hash, laneKey: 'ef'.repeat(32) })).toEqual(proof);
    expect(asked).toEqual([`${hash}/${'ef'.repeat(32)}`]);
  });
});

describe('estimateNetworkHashesPerSecond', () => {
  it('divides the blue work gained across the window by its time span in whole seconds', () => {
    const window = Array.from({ length: 1000 }, (_, index) => ({ id: `b${index}`, blueWork: 5_000n + BigInt(index) * 1_000n }));
    const times = new Map(window.map((block, index) => [block.id, 1_000_000n + BigInt(index) * 100n]));
    const store = { timestamp: (id: string) => times.get(id)! };
    // 999,000 work over 99.9 s, truncated to 99 s.
    expect(estimateHashesPerSecond(window, store)).toBe(999_000n / 99n);
    expect(() => estimateHashesPerSecond(window.slice(1), store)).toThrow('difficulty error: under min allowed window size (999 < 1000)');
    expect(() => estimateHashesPerSecond(window, { timestamp: () => 7n })).toThrow(
      'difficulty error: min window timestamp is equal to the max window timestamp',
    );
    expect(estimateHashesPerSecond(window, { timestamp: (id) => (id === 'b0' ? 0n : 999n) })).toBe(0n);
  });

  it('answers kaspad’s errors over wRPC for short windows, oversized windows and unknown start blocks', async () => {
    const wire = await start();
    for (let count = 0; count < 4; count++) await wire.mine();
    const short = 'difficulty error: under min allowed window size (4 < 1000)';
    expect(await rejection(wire.client.call('estimateNetworkHashesPerSecond', { windowSize: 1000 }))).toBe(short);
    expect(await rejection(wire.client.call('estimateNetworkHashesPerSecond', { windowSize: 1000, startHash: 'f'.repeat(64) }))).toBe(short);
    const sink = bytesToHex(wire.node.consensus.sink());
    expect(await rejection(wire.client.call('estimateNetworkHashesPerSecond', { windowSize: 1000, startHash: sink }))).toBe(
      'difficulty error: under min allowed window size (3 < 1000)',
    );
    const depth = wire.node.consensus.params.pruningDepth;
    expect(await rejection(wire.client.call('estimateNetworkHashesPerSecond', { windowSize: depth + 1 }))).toBe(
      `Requested window size ${depth + 1} is larger than pruning point depth ${depth}.`,
    );
    const missing = 'ab'.repeat(32);
    expect(await rejection(wire.client.call('estimateNetworkHashesPerSecond', { windowSize: 1000, startHash: missing }))).toBe(
      `cannot find header ${missing}`,
    );
  });
});
