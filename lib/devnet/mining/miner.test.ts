import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import { ZERO_HASH } from '../../kaspa/hashing';
import { headerHash } from '../../kaspa/header';
import { hashMerkleRoot } from '../../kaspa/merkle';
import { calcWork, compactToTarget, MAX_DIFFICULTY_TARGET, PowState } from '../../kaspa/pow';
import { SUBNETWORK_ID_COINBASE, type Hash, type Header, type Transaction } from '../../kaspa/types';
import { parseJson, stringifyJson } from '../../rpc/json';
import { U64_FIELD_NAMES } from '../../rpc/protocol';
import type {
  GetBlockTemplateRequest,
  GetBlockTemplateResponse,
  RpcMethodName,
  RpcRequest,
  RpcResponse,
  SubmitBlockRejectReason,
  SubmitBlockRequest,
  SubmitBlockResponse,
} from '../../rpc/types';
import type { Block } from '../consensus/genesis';
import {
  bitsForExpectedHashes,
  createMinerSwarm,
  expectedHashesPerBlock,
  nextPartition,
  realTimers,
  type MinerConfig,
  type MinerEvent,
  type MinerSwarm,
  type MinerSwarmOptions,
  type SwarmStats,
} from './miner';
import { blockFromRpc, blockToRpcRaw } from '../../rpc/convert-block';
import { FAKE_TIMERS_START as START, FakeTimers, settle } from '../test-support/fake-timers';
import type { RpcCaller } from '../../rpc/convert-transaction';

/** Deterministic uniform [0, 1) (mulberry32). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

function overWire<T>(value: T): T {
  return parseJson(stringifyJson(value), { bigintKeys: U64_FIELD_NAMES }) as T;
}

interface Submission {
  at: number;
  hash: string;
  block: Block;
  payAddress: string;
}

interface Deferred {
  release(): void;
}

/**
 * A node stand-in: templates are real headers over the current tips with a pay-address coinbase and an easy target;
 * submitted blocks are checked for PoW and known parents, then become tips and are announced.
 */
class FakeNode implements RpcCaller {
  readonly genesisHash: string;
  readonly accepted = new Map<string, Header>();
  readonly submissions: Submission[] = [];
  readonly templateRequests: { at: number; payAddress: string; extraData: number[] }[] = [];
  tips: string[];
  onBlockAdded: () => void = () => {};
  rejectWith: SubmitBlockRejectReason | undefined;
  failSubmissions = false;
  failTemplates = 0;
  holdTemplates = false;
  readonly held: Deferred[] = [];

  constructor(
    private readonly timers: FakeTimers,
    private readonly bits: number,
  ) {
    const genesis = this.header([], [], 0n);
    this.genesisHash = bytesToHex(headerHash(genesis));
    this.accepted.set(this.genesisHash, genesis);
    this.tips = [this.genesisHash];
  }

  async call<M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> {
    await Promise.resolve();
    if (method === 'getBlockTemplate') return (await this.template(params as GetBlockTemplateRequest)) as RpcResponse<M>;
    if (method === 'submitBlock') return this.submit(overWire(params as SubmitBlockRequest)) as RpcResponse<M>;
    throw new Error(`the fake node does not serve ${method}`);
  }

  private header(parents: Hash[], transactions: Transaction[], timestamp: bigint): Header {
    return {
      version: 1,
      parentsByLevel: parents.length === 0 ? [] : [parents],
      hashMerkleRoot: hashMerkleRoot(transactions),
      acceptedIdMerkleRoot: ZERO_HASH,
      utxoCommitment: ZERO_HASH,
      timestamp,
      bits: this.bits,
      nonce: 0n,
      daaScore: BigInt(this.accepted.size),
      blueScore: BigInt(this.accepted.size),
      blueWork: 0n,
      pruningPoint: ZERO_HASH,
    };
  }

  private async template(request: GetBlockTemplateRequest): Promise<GetBlockTemplateResponse> {
    this.templateRequests.push({ at: this.timers.now(), ...request });
    if (this.holdTemplates) await new Promise<void>((resolve) => this.held.push({ release: resolve }));
    if (this.failTemplates > 0) {
      this.failTemplates--;
      throw new Error('node is not synced');
    }
    const coinbase: Transaction = {
      version: 0,
      inputs: [],
      outputs: [{ value: 50n, scriptPublicKey: { version: 0, script: utf8ToBytes(request.payAddress) } }],
      lockTime: 0n,
      subnetworkId: SUBNETWORK_ID_COINBASE,
      gas: 0n,
      payload: Uint8Array.from(request.extraData),
      storageMass: 0n,
    };
    const header = this.header(this.tips.map(hexToBytes), [coinbase], BigInt(Math.floor(this.timers.now())));
    return overWire({ block: blockToRpcRaw({ header, transactions: [coinbase] }), isSynced: true });
  }

  private submit(request: SubmitBlockRequest): SubmitBlockResponse {
    const block = blockFromRpc(request.block);
    const hash = bytesToHex(headerHash(block.header));
    const parents = (block.header.parentsByLevel[0] ?? []).map(bytesToHex);
    const payAddress = new TextDecoder().decode(block.transactions[0]!.outputs[0]!.scriptPublicKey.script);
    this.submissions.push({ at: this.timers.now(), hash, block, payAddress });
    if (this.failSubmissions) throw new Error('connection lost');
    if (this.rejectWith) return { report: { type: 'reject', reason: this.rejectWith } };
    const validPow = PowState.fromHeader(block.header).checkPow(block.header.nonce);
    if (!validPow || parents.some((parent) => !this.accepted.has(parent)) || request.allowNonDaaBlocks) {
      return { report: { type: 'reject', reason: 'blockInvalid' } };
    }
    this.accepted.set(hash, block.header);
    this.tips = [...this.tips.filter((tip) => !parents.includes(tip)), hash];
    this.onBlockAdded();
    return { report: { type: 'success' } };
  }
}

interface Harness {
  timers: FakeTimers;
  node: FakeNode;
  swarm: MinerSwarm;
  events: MinerEvent[];
}

function miners(count: number, hashesPerSecond: number): MinerConfig[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `miner-${index}`,
    payAddress: `kaspadev:miner${index}`,
    hashesPerSecond,
  }));
}

function harness(
  expectedHashes: number,
  options: Omit<MinerSwarmOptions, 'rpc' | 'timers' | 'onEvent'>,
): Harness {
  const timers = new FakeTimers();
  const node = new FakeNode(timers, bitsForExpectedHashes(expectedHashes));
  const events: MinerEvent[] = [];
  const swarm = createMinerSwarm({
    random: seededRandom(7),
    tickMs: 50,
    ...options,
    rpc: node,
    timers,
    onEvent: (event) => events.push(event),
  });
  node.onBlockAdded = () => swarm.notifyBlockAdded();
  return { timers, node, swarm, events };
}

function parentsOf(header: Header): string[] {
  return (header.parentsByLevel[0] ?? []).map(bytesToHex);
}

describe('bitsForExpectedHashes', () => {
  it('encodes the target that takes that many hashes on average', () => {
    for (const expected of [3, 64, 1_000, 123_456_789, 2 ** 40]) {
      const bits = bitsForExpectedHashes(expected);
      const target = compactToTarget(bits);
      const exact = (1n << 256n) / BigInt(expected);
      // Compact bits keep the top 15 significant bits of the target, truncating.
      expect(target).toBeLessThanOrEqual(exact);
      expect(Number(((exact - target) * 1_000_000n) / exact)).toBeLessThan(1_000_000 / 2 ** 15);
      expect(Number(calcWork(bits)) / expected).toBeCloseTo(1, 3);
    }
  });

  it('clamps to the largest target, which takes two hashes', () => {
    expect(bitsForExpectedHashes(1)).toBe(bitsForExpectedHashes(2));
    expect(compactToTarget(bitsForExpectedHashes(1))).toBeLessThanOrEqual(MAX_DIFFICULTY_TARGET);
    expect(bitsForExpectedHashes(1n)).toBe(bitsForExpectedHashes(1));
    expect(() => bitsForExpectedHashes(0)).toThrow(RangeError);
  });

  it('sizes the target from the hash rate and the block rate', () => {
    expect(expectedHashesPerBlock(2_000, 10)).toBe(200);
    expect(() => expectedHashesPerBlock(0, 10)).toThrow(RangeError);
  });
});

describe('createMinerSwarm', () => {
  it('mines blocks whose kHeavyHash meets the target of their bits', async () => {
    const { timers, node, swarm, events } = harness(64, {
      miners: miners(2, 1_000),
      networkDelayMs: { min: 10, max: 30 },
    });
    swarm.start();
    await timers.advance(1_500);
    await swarm.stop();

    expect(node.submissions.length).toBeGreaterThan(10);
    for (const { block } of node.submissions) {
      const pow = PowState.fromHeader(block.header).calculatePow(block.header.nonce);
      expect(pow).toBeLessThanOrEqual(compactToTarget(block.header.bits));
      expect(block.header.nonce).not.toBe(0n);
    }
    const stats = swarm.stats();
    expect(stats.blocksAccepted).toBe(node.submissions.length);
    expect(stats.blocksRejected).toEqual({});
    expect(stats.blocksFound).toBe(events.filter((event) => event.type === 'found').length);
    // Each template is a fresh, memoryless search: about 64 hashes per block (2 σ ≈ 25 % over ~40 blocks).
    expect(stats.hashes / stats.blocksFound).toBeGreaterThan(40);
    expect(stats.hashes / stats.blocksFound).toBeLessThan(100);
    // Finding a block costs no hashing time: the miner goes on with its template until the next one arrives. Short of
    // 2,000/s only by the first tick (no template yet) and the backlog left undone at stop.
    expect(stats.measuredHashesPerSecond).toBeGreaterThan(1_850);
    for (const miner of stats.miners) {
      expect(miner.blocksFound).toBeGreaterThan(0);
      const paid = node.submissions.filter((submission) => submission.payAddress === `kaspadev:${miner.name.replace('-', '')}`);
      expect(paid.length).toBe(miner.blocksAccepted);
    }
  });

  it('submits each found block after exactly its miner’s network delay', async () => {
    const { timers, node, swarm, events } = harness(64, {
      miners: [...miners(1, 1_000), { ...miners(2, 1_000)[1]!, networkDelayMs: { min: 120, max: 120 } }],
      networkDelayMs: { min: 300, max: 300 },
    });
    swarm.start();
    await timers.advance(1_000);
    await swarm.stop();

    const found = events.filter((event) => event.type === 'found');
    const expectedDelay: Record<string, number> = { 'miner-0': 300, 'miner-1': 120 };
    for (const name of Object.keys(expectedDelay)) {
      expect(node.submissions.some((submission) => submission.payAddress === `kaspadev:${name.replace('-', '')}`)).toBe(true);
    }
    for (const submission of node.submissions) {
      const event = found.find((candidate) => bytesToHex(candidate.hash) === submission.hash);
      expect(event).toBeDefined();
      expect(submission.at - event!.at).toBe(expectedDelay[event!.miner]);
    }
    const due = found.filter((event) => event.at + expectedDelay[event.miner]! <= timers.now());
    expect(node.submissions.length).toBe(due.length);
  });

  it('draws delays from the configured range', async () => {
    const { timers, node, swarm, events } = harness(64, { miners: miners(3, 1_000), networkDelayMs: { min: 100, max: 200 } });
    swarm.start();
    await timers.advance(1_000);
    await swarm.stop();

    const foundAt = new Map(
      events.flatMap((event) => (event.type === 'found' ? [[bytesToHex(event.hash), event.at] as const] : [])),
    );
    const delays = node.submissions.map((submission) => submission.at - foundAt.get(submission.hash)!);
    expect(delays.length).toBeGreaterThan(5);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(100);
      expect(delay).toBeLessThanOrEqual(200);
    }
    expect(new Set(delays.map(Math.round)).size).toBeGreaterThan(1);
  });

  it('lets a miner learn of another miner’s block only after its own network delay', async () => {
    const { timers, node, swarm } = harness(100, {
      miners: [
        { name: 'finder', payAddress: 'kaspadev:finder', hashesPerSecond: 2_000 },
        { name: 'watcher', payAddress: 'kaspadev:watcher', hashesPerSecond: 1 },
      ],
      networkDelayMs: { min: 250, max: 250 },
      templateRefreshMs: 60_000,
    });
    swarm.start();
    await timers.advance(1_000);
    await swarm.stop();

    expect(swarm.stats().miners[1]!.blocksFound).toBe(0);
    const accepted = node.submissions.map((submission) => submission.at);
    const watcherRequests = node.templateRequests
      .filter((request) => request.payAddress === 'kaspadev:watcher' && request.at > START)
      .map((request) => request.at);
    expect(accepted.length).toBeGreaterThan(0);
    expect(watcherRequests[0]).toBe(accepted[0]! + 250);
    for (const at of watcherRequests) expect(accepted.some((acceptedAt) => at === acceptedAt + 250)).toBe(true);
  });

  it('produces parallel blocks and merges when miners work on stale templates', async () => {
    const { timers, node, swarm } = harness(64, { miners: miners(3, 1_000), networkDelayMs: { min: 200, max: 400 } });
    swarm.start();
    await timers.advance(2_000);
    await swarm.stop();

    const accepted = node.submissions.filter((submission) => node.accepted.has(submission.hash));
    const byParents = new Map<string, number>();
    for (const { block } of accepted) {
      const key = parentsOf(block.header).sort().join(',');
      byParents.set(key, (byParents.get(key) ?? 0) + 1);
    }
    expect(Math.max(...byParents.values())).toBeGreaterThan(1);
    expect(accepted.some(({ block }) => parentsOf(block.header).length > 1)).toBe(true);
  });

  it('builds a single chain when one miner hears of every block at once', async () => {
    const { timers, node, swarm } = harness(64, { miners: miners(1, 1_000), networkDelayMs: { min: 0, max: 0 } });
    swarm.start();
    await timers.advance(1_000);
    await swarm.stop();

    expect(node.submissions.length).toBeGreaterThan(5);
    let previous = node.genesisHash;
    for (const submission of node.submissions) {
      expect(parentsOf(submission.block.header)).toEqual([previous]);
      previous = submission.hash;
    }
  });

  it('hashes at the configured rate over a fake clock', async () => {
    const { timers, swarm } = harness(1e15, {
      miners: [
        { name: 'fast', payAddress: 'kaspadev:fast', hashesPerSecond: 1_500 },
        { name: 'slow', payAddress: 'kaspadev:slow', hashesPerSecond: 500 },
      ],
    });
    swarm.start();
    await timers.advance(10_000);
    const stats = swarm.stats();
    await swarm.stop();

    const [fast, slow] = stats.miners;
    // The first tick's budget is lost while the first templates arrive: at most one tick (50 ms) per miner.
    expect(fast!.hashes).toBeGreaterThanOrEqual(15_000 - 75);
    expect(fast!.hashes).toBeLessThanOrEqual(15_000);
    expect(slow!.hashes).toBeGreaterThanOrEqual(5_000 - 25);
    expect(slow!.hashes).toBeLessThanOrEqual(5_000);
    expect(stats.runningMs).toBe(10_000);
    expect(stats.measuredHashesPerSecond).toBeGreaterThan(1_985);
    expect(stats.measuredHashesPerSecond).toBeLessThanOrEqual(2_000);
    expect(stats.blocksFound).toBe(0);
    expect(fast!.hashesDropped + slow!.hashesDropped).toBe(0);
  });

  it('never hashes more than maxHashesPerTick in one tick, making up a late timer’s backlog up to maxBacklogMs', async () => {
    const { timers, swarm } = harness(1e15, { miners: miners(2, 1_000), maxHashesPerTick: 150, maxBacklogMs: 1_000 });
    swarm.start();
    await timers.advance(1_000);
    const before = swarm.stats();
    timers.jump(3_000);
    await timers.advance(0);
    const late = swarm.stats();
    const dropped = (stats: SwarmStats): number => stats.miners.reduce((sum, miner) => sum + miner.hashesDropped, 0);

    expect(late.hashes - before.hashes).toBeLessThanOrEqual(150);
    expect(late.hashes - before.hashes).toBeGreaterThan(140);
    // 3 s late: each miner keeps 1 s of backlog and gives up the other 2 s.
    expect(dropped(late)).toBeGreaterThanOrEqual(2 * 2_000 - 2);
    expect(dropped(late)).toBeLessThanOrEqual(2 * 2_000);

    // 150 per 50 ms tick against 100 earned: the 2,000-hash backlog drains in 40 ticks.
    await timers.advance(2_500);
    const drained = swarm.stats();
    await swarm.stop();
    expect(dropped(drained)).toBe(dropped(late));
    const earned = 2 * 1_000 * 6.5;
    expect(drained.hashes + dropped(drained)).toBeGreaterThan(earned - 2 * 50 - 4);
    expect(drained.hashes + dropped(drained)).toBeLessThanOrEqual(earned);
  });

  it('refuses a hash rate the per-tick budget cannot carry, and bad options', () => {
    const rpc: RpcCaller = { call: () => Promise.reject(new Error('unused')) };
    expect(() => createMinerSwarm({ rpc, miners: miners(2, 3_000), tickMs: 50, maxHashesPerTick: 250 })).toThrow(
      /maxHashesPerTick/,
    );
    expect(() => createMinerSwarm({ rpc, miners: miners(1, 0) })).toThrow(RangeError);
    expect(() => createMinerSwarm({ rpc, miners: [...miners(1, 10), ...miners(1, 10)] })).toThrow(/duplicate/);
    expect(() => createMinerSwarm({ rpc, miners: miners(1, 10), networkDelayMs: { min: 5, max: 1 } })).toThrow(RangeError);
  });

  it('stop() cancels pending work and resolves only once in-flight calls have settled', async () => {
    const { timers, node, swarm } = harness(64, {
      miners: miners(2, 1_000),
      networkDelayMs: { min: 100, max: 100 },
      templateRefreshMs: 200,
    });
    swarm.start();
    await timers.advance(500);
    node.holdTemplates = true;
    await timers.advance(300);
    expect(node.held.length).toBeGreaterThan(0);

    let stopped = false;
    const stopping = swarm.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    for (const deferred of node.held) deferred.release();
    await stopping;
    expect(stopped).toBe(true);
    expect(swarm.running).toBe(false);
    expect(timers.pending()).toBe(0);

    const stats = swarm.stats();
    const calls = node.templateRequests.length + node.submissions.length;
    await timers.advance(5_000);
    expect(swarm.stats().hashes).toBe(stats.hashes);
    expect(swarm.stats().runningMs).toBe(stats.runningMs);
    expect(node.templateRequests.length + node.submissions.length).toBe(calls);
  });

  it('mines again after a restart', async () => {
    const { timers, node, swarm } = harness(64, { miners: miners(1, 1_000), networkDelayMs: { min: 0, max: 0 } });
    swarm.start();
    await timers.advance(1_000);
    await swarm.stop();
    const before = node.submissions.length;
    expect(before).toBeGreaterThan(0);
    await timers.advance(1_000);
    expect(node.submissions.length).toBe(before);
    swarm.start();
    await timers.advance(1_000);
    await swarm.stop();
    expect(node.submissions.length).toBeGreaterThan(before);
    expect(swarm.stats().runningMs).toBe(2_000);
  });

  it('tallies rejections by reason and recovers from template errors', async () => {
    const { timers, node, swarm, events } = harness(64, {
      miners: miners(1, 1_000),
      networkDelayMs: { min: 0, max: 0 },
      templateRefreshMs: 100,
    });
    node.failTemplates = 1;
    node.rejectWith = 'isInIBD';
    swarm.start();
    await timers.advance(600);
    node.rejectWith = undefined;
    node.failSubmissions = true;
    await timers.advance(600);
    await swarm.stop();

    const stats = swarm.stats();
    expect(stats.miners[0]!.templateErrors).toBe(1);
    expect(stats.blocksAccepted).toBe(0);
    expect(stats.blocksRejected.isInIBD).toBeGreaterThan(0);
    expect(stats.blocksRejected.rpcError).toBeGreaterThan(0);
    expect((stats.blocksRejected.isInIBD ?? 0) + (stats.blocksRejected.rpcError ?? 0)).toBe(stats.blocksFound);
    expect(events.filter((event) => event.type === 'error').map((event) => event.type === 'error' && event.method)).toContain(
      'getBlockTemplate',
    );
  });

  it('requests templates with its pay address and the extra data as byte values', async () => {
    const { timers, node, swarm } = harness(1e15, { miners: miners(1, 100), extraData: 'dagboard' });
    swarm.start();
    await timers.advance(100);
    await swarm.stop();
    expect(node.templateRequests[0]).toEqual({
      at: START,
      payAddress: 'kaspadev:miner0',
      extraData: Array.from(utf8ToBytes('dagboard')),
    });
  });
});

describe('partitions', () => {
  it('draws a seeded schedule within the configured ranges', () => {
    const schedule = (seed: number) => ({
      gapMs: { min: 1_000, max: 5_000 },
      durationMs: { min: 200, max: 400 },
      random: seededRandom(seed),
    });
    const first = schedule(3);
    const drawn = Array.from({ length: 50 }, () => nextPartition(first, 4));
    const again = schedule(3);
    expect(Array.from({ length: 50 }, () => nextPartition(again, 4))).toEqual(drawn);
    for (const partition of drawn) {
      expect(partition.startsAfterMs).toBeGreaterThanOrEqual(1_000);
      expect(partition.startsAfterMs).toBeLessThanOrEqual(5_000);
      expect(partition.durationMs).toBeGreaterThanOrEqual(200);
      expect(partition.durationMs).toBeLessThanOrEqual(400);
    }
    expect(new Set(drawn.map((partition) => partition.miner))).toEqual(new Set([0, 1, 2, 3]));
  });

  it('keeps a dark miner hashing its stale template and submits its held blocks only when it reconnects', async () => {
    const { timers, node, swarm, events } = harness(64, {
      miners: miners(2, 1_000),
      networkDelayMs: { min: 10, max: 10 },
      partitions: { gapMs: { min: 500, max: 500 }, durationMs: { min: 2_000, max: 2_000 }, random: seededRandom(11) },
    });
    swarm.start();
    await timers.advance(2_600);
    const darkStats = swarm.stats();
    await timers.advance(1_000);
    const stats = swarm.stats();
    await swarm.stop();

    const partitioned = events.find((event) => event.type === 'partitioned');
    const reconnected = events.find((event) => event.type === 'reconnected');
    expect(partitioned).toMatchObject({ at: START + 500, durationMs: 2_000 });
    expect(reconnected).toMatchObject({ miner: partitioned!.miner, at: START + 2_500 });
    const dark = partitioned!.miner;
    const darkIndex = Number(dark.split('-')[1]);
    const payAddress = `kaspadev:miner${darkIndex}`;
    const darkFrom = START + 500;
    const darkTo = START + 2_500;

    // No template requests and no submissions while dark; hashing goes on at the normal rate.
    expect(node.templateRequests.filter((request) => request.payAddress === payAddress && request.at > darkFrom && request.at < darkTo)).toEqual([]);
    const submittedByDark = node.submissions.filter((submission) => submission.payAddress === payAddress);
    expect(submittedByDark.filter((submission) => submission.at > darkFrom + 10 && submission.at < darkTo)).toEqual([]);
    const hashesWhileDark = darkStats.miners[darkIndex]!.hashes;
    expect(hashesWhileDark).toBeGreaterThan(2_000);

    // Blocks found in the dark share the stale template's parents and reach the node one network delay after reconnecting.
    const foundInDark = events
      .slice(events.indexOf(partitioned!), events.indexOf(reconnected!))
      .filter((event): event is Extract<MinerEvent, { type: 'found' }> => event.type === 'found' && event.miner === dark);
    expect(foundInDark.length).toBeGreaterThan(2);
    expect(reconnected).toMatchObject({ heldBlocks: foundInDark.length });
    expect(darkStats.miners[darkIndex]!.blocksHeld).toBe(foundInDark.length);
    expect(darkStats.partitions).toBe(1);
    // The schedule goes on: the next partition starts one gap after the reconnection.
    expect(stats.partitions).toBe(2);
    const heldHashes = new Set(foundInDark.map((event) => bytesToHex(event.hash)));
    const delivered = submittedByDark.filter((submission) => heldHashes.has(submission.hash));
    expect(delivered).toHaveLength(foundInDark.length);
    for (const submission of delivered) expect(submission.at).toBe(darkTo + 10);
    expect(new Set(delivered.map((submission) => parentsOf(submission.block.header).sort().join(','))).size).toBe(1);
    const staleParents = parentsOf(delivered[0]!.block.header);
    const acceptedMeanwhile = node.submissions.filter((submission) => submission.at > darkFrom && submission.at < darkTo);
    expect(acceptedMeanwhile.length).toBeGreaterThan(0);
    for (const submission of acceptedMeanwhile) expect(staleParents).not.toContain(submission.hash);

    // After reconnecting it fetches a fresh template that builds on the others' blocks again.
    const afterRequests = node.templateRequests.filter((request) => request.payAddress === payAddress && request.at >= darkTo);
    expect(afterRequests.length).toBeGreaterThan(0);
  });
  it('stretches a partition until the node has announced minBlocksMissed blocks, and holds at most maxHeldBlocks', async () => {
    const { timers, node, swarm, events } = harness(64, {
      miners: miners(2, 1_000),
      networkDelayMs: { min: 10, max: 10 },
      partitions: { gapMs: { min: 300, max: 300 }, durationMs: { min: 200, max: 200 }, minBlocksMissed: 5, maxHeldBlocks: 2, random: seededRandom(5) },
    });
    swarm.start();
    await timers.advance(3_000);
    await swarm.stop();

    const partitioned = events.find((event) => event.type === 'partitioned')!;
    const reconnected = events.find((event) => event.type === 'reconnected')!;
    const announced = node.submissions.filter(
      (submission) => node.accepted.has(submission.hash) && submission.at >= partitioned.at && submission.at <= reconnected.at,
    );
    expect(reconnected.at - partitioned.at).toBeGreaterThan(200);
    expect(reconnected.at - partitioned.at).toBeLessThan(600);
    expect(announced.length).toBeGreaterThanOrEqual(5);
    const dark = swarm.stats().miners.find((miner) => miner.name === partitioned.miner)!;
    expect(reconnected).toMatchObject({ heldBlocks: 2 });
    expect(dark.blocksHeld).toBe(2);
    expect(dark.blocksDiscarded).toBe(0);
  });

  it('lets the connected miners take over a dark miner’s hash rate, and stops a dark miner holding maxHeldBlocks', async () => {
    // A hard target: finds are rare, so no hashing time goes to waiting for templates. maxHeldBlocks 0: holding nothing
    // is holding all a dark miner may deliver.
    const { timers, swarm, events } = harness(1 << 16, {
      miners: miners(2, 1_000),
      networkDelayMs: { min: 10, max: 10 },
      partitions: { gapMs: { min: 500, max: 500 }, durationMs: { min: 2_000, max: 2_000 }, maxHeldBlocks: 0, random: seededRandom(11) },
    });
    swarm.start();
    await timers.advance(700);
    const early = swarm.stats();
    await timers.advance(1_600);
    const late = swarm.stats();
    await swarm.stop();

    const partitioned = events.find((event) => event.type === 'partitioned')!;
    expect(partitioned.at).toBe(START + 500);
    expect(events.some((event) => event.type === 'reconnected')).toBe(false);
    const hashedMeanwhile = (name: string) =>
      late.miners.find((miner) => miner.name === name)!.hashes - early.miners.find((miner) => miner.name === name)!.hashes;
    const connected = early.miners.find((miner) => miner.name !== partitioned.miner)!.name;
    // 1.6 s at the two miners' total of 2,000 hashes/s, all of it on the connected side.
    expect(hashedMeanwhile(connected)).toBeGreaterThan(3_100);
    expect(hashedMeanwhile(connected)).toBeLessThan(3_300);
    expect(hashedMeanwhile(partitioned.miner)).toBe(0);
    expect(late.miners.find((miner) => miner.name === partitioned.miner)!.blocksDiscarded).toBe(0);
  });
});

describe('realTimers', () => {
  it('does not keep the process alive', () => {
    const handle = realTimers.setTimeout(() => {}, 60_000) as NodeJS.Timeout;
    expect(handle.hasRef()).toBe(false);
    realTimers.clearTimeout(handle);
  });
});
