/**
 * Simulated miners for the devnet: each mines real blocks with real kHeavyHash against the node's block templates,
 * at a configured hash rate, over the same RPC methods an external miner uses (getBlockTemplate, submitBlock).
 *
 * Block rate. A target that takes E hashes on average to meet, hashed at a total of H hashes per second, yields
 * H / E blocks per second: hashrate = blocksPerSecond × expectedHashesPerBlock. For the Crescendo rate of 10 blocks/s
 * the node sets the genesis bits to `bitsForExpectedHashes(expectedHashesPerBlock(totalHashesPerSecond, 10))`; from
 * then on the difficulty adjustment keeps the rate whatever the swarm really delivers.
 *
 * Network. A miner hears of a new block (`notifyBlockAdded`) only after its own network delay, and its solved blocks
 * reach the node only after another such delay. Until it fetches a fresh template it keeps hashing the stale one, so
 * miners whose knowledge lags produce parallel blocks, which later templates merge. Like kaspad's template cache
 * (mining/src/cache.rs, 1 s lifetime), each miner also refetches at least every `templateRefreshMs`.
 *
 * CPU. One swarm timer ticks every `tickMs`; each miner earns hashesPerSecond × elapsed hashes per tick, and a tick
 * never hashes more than `maxHashesPerTick` in total, so it blocks the event loop for at most that many hashes (about
 * 15–20 µs each). Work a late or capped tick leaves undone is made up by later ticks, up to `maxBacklogMs` of it per
 * miner; beyond that it is dropped and counted. The total rate must fit maxHashesPerTick per tickMs (checked), with
 * headroom so a backlog can drain. CPU use is proportional to the configured rate; timers are unref'd and a swarm
 * without templates does no work.
 *
 * Partitions. With GHOSTDAG k = 124 at 10 blocks/s, ordinary delays of a fraction of a second never make a block red:
 * a block is red only when more than k blue blocks are in its anticone, about 12 s of other miners' work. An optional
 * seeded schedule (`partitions`) therefore cuts one miner off now and then: while dark it hears of no new block and
 * fetches no template, keeps hashing its stale template at its normal rate, and holds the blocks it finds; when it
 * reconnects it submits them all (each after one network delay) and fetches a fresh template. Its held blocks then
 * carry an anticone of everything mined meanwhile and are merged as reds. Meanwhile the connected miners share its
 * hash rate, so the node keeps seeing the configured block rate. `minBlocksMissed` stretches a partition until that
 * many blocks went by, so reds come even when the block rate sags; `maxHeldBlocks` caps how many of its finds a dark
 * miner delivers: once it holds that many it stops hashing.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { equalBytes } from '../../kaspa/bytes';
import { headerHash, prePowHash } from '../../kaspa/header';
import { PowState, type PowMatrixCache } from '../../kaspa/pow';
import type { Hash, Header, Transaction } from '../../kaspa/types';
import type { RpcAddress, RpcRawBlock, SubmitBlockRejectReason } from '../../rpc/types';
import { bitsForExpectedHashesPerBlock, type Block } from '../consensus/genesis';
import { blockToRpcSubmission, headerFromRpc } from '../../rpc/convert-block';
import { transactionFromRpc, type RpcCaller } from '../../rpc/convert-transaction';

/**
 * Compact bits whose target takes `expectedHashesPerBlock` hashes on average: target = 2^256 / expected − 1, clamped
 * to the largest target (2^255 − 1), so 1 and 2 expected hashes give the same, easiest bits.
 */
export function bitsForExpectedHashes(expectedHashesPerBlock: number | bigint): number {
  const expected =
    typeof expectedHashesPerBlock === 'bigint' ? expectedHashesPerBlock : BigInt(Math.round(expectedHashesPerBlock));
  return bitsForExpectedHashesPerBlock(expected);
}

/** hashrate = blocksPerSecond × expectedHashesPerBlock, solved for the expected hashes. */
export function expectedHashesPerBlock(totalHashesPerSecond: number, blocksPerSecond: number): number {
  if (!(totalHashesPerSecond > 0) || !(blocksPerSecond > 0)) {
    throw new RangeError('the hash rate and the block rate must be positive');
  }
  return totalHashesPerSecond / blocksPerSecond;
}

export type TimerHandle = unknown;

export interface MinerTimers {
  /** Milliseconds; only differences are used. */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Wall-clock timers that never keep the process alive. */
export const realTimers: MinerTimers = {
  now: () => performance.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface MinerConfig {
  name: string;
  /** A function is asked again for every template request (e.g. to rotate the rewards over several wallets). */
  payAddress: RpcAddress | (() => RpcAddress);
  hashesPerSecond: number;
  /** This miner's link to the node, in place of the swarm's `networkDelayMs`. */
  networkDelayMs?: NetworkDelay;
}

export interface NetworkDelay {
  /** Milliseconds; each delay is drawn uniformly from [min, max]. */
  min: number;
  max: number;
}

export type BlockRejection = SubmitBlockRejectReason | 'rpcError';

export type MinerEvent =
  | { type: 'template'; miner: string; at: number; header: Header }
  | { type: 'found'; miner: string; at: number; hash: Hash; block: Block }
  | { type: 'submitted'; miner: string; at: number; hash: Hash; accepted: boolean; rejection?: BlockRejection }
  | { type: 'error'; miner: string; at: number; method: 'getBlockTemplate' | 'submitBlock'; error: unknown }
  | { type: 'partitioned'; miner: string; at: number; durationMs: number }
  | { type: 'reconnected'; miner: string; at: number; heldBlocks: number };

export interface PartitionSchedule {
  /** Milliseconds from the start (or the previous partition's end) to the next partition, drawn uniformly. */
  gapMs: { min: number; max: number };
  /** How long a partition lasts, drawn uniformly. */
  durationMs: { min: number; max: number };
  /**
   * A partition also lasts until the node has announced this many blocks meanwhile (up to three times its drawn
   * duration), so its blocks get an anticone larger than k even when blocks come slower than planned. Default 0.
   */
  minBlocksMissed?: number;
  /**
   * Blocks a dark miner keeps for delivery; later finds are discarded (stale work, as a real miner's blocks on a
   * superseded template are). All held blocks share the stale template's parents, so a cap keeps the burst of reds
   * a partition causes plausible. Default: no cap.
   */
  maxHeldBlocks?: number;
  /** Uniform in [0, 1): the gaps, the durations and which miner goes dark; seed it for a reproducible schedule. */
  random: () => number;
}

export interface Partition {
  /** Index into the swarm's miners. */
  miner: number;
  /** Milliseconds after the previous partition ended (or the swarm started). */
  startsAfterMs: number;
  durationMs: number;
}

/**
 * About once a minute, one miner dark for 15–25 s: long enough for its blocks to be red at k = 124 and 10 blocks/s
 * (more than k blues in their anticone), short and rare enough that the rate lost meanwhile is a few percent, which
 * the difficulty adjustment makes up.
 */
export const DEFAULT_PARTITION_GAP_MS: Readonly<{ min: number; max: number }> = Object.freeze({ min: 30_000, max: 90_000 });
export const DEFAULT_PARTITION_DURATION_MS: Readonly<{ min: number; max: number }> = Object.freeze({ min: 15_000, max: 25_000 });
/** Room in one parent list of the template that merges them (maxBlockParents is 16; the other tips need some too). */
export const DEFAULT_PARTITION_MAX_HELD_BLOCKS = 12;

function requireRange(range: { min: number; max: number }, what: string): void {
  requireNonNegative(range.min, `${what}.min`);
  requireNonNegative(range.max, `${what}.max`);
  if (range.min > range.max) throw new RangeError(`${what}.min must not exceed ${what}.max`);
}

/** The next partition of a schedule over `minerCount` miners (draws three numbers from the schedule's random). */
export function nextPartition(schedule: PartitionSchedule, minerCount: number): Partition {
  const { gapMs, durationMs, random } = schedule;
  const startsAfterMs = gapMs.min + random() * (gapMs.max - gapMs.min);
  const duration = durationMs.min + random() * (durationMs.max - durationMs.min);
  const miner = Math.min(minerCount - 1, Math.floor(random() * minerCount));
  return { miner, startsAfterMs, durationMs: duration };
}

export interface MinerSwarmOptions {
  rpc: RpcCaller;
  miners: readonly MinerConfig[];
  networkDelayMs?: NetworkDelay;
  /** Uniform in [0, 1): nonce starts and network delays. */
  random?: () => number;
  timers?: MinerTimers;
  /** Sent with every template request; kaspad prefixes it with its version and a slash in the coinbase. */
  extraData?: Uint8Array | string;
  tickMs?: number;
  templateRefreshMs?: number;
  maxHashesPerTick?: number;
  /** Hashes a late or capped tick leaves undone are made up later, up to this many milliseconds' worth per miner. */
  maxBacklogMs?: number;
  /** Occasional partitions of single miners (see the header); none when omitted. */
  partitions?: PartitionSchedule;
  /** Shared with the consensus that validates the miners' blocks, so a solved block's matrix is not generated twice. */
  powMatrixCache?: PowMatrixCache;
  onEvent?: (event: MinerEvent) => void;
}

export interface MinerStats {
  name: string;
  hashesPerSecond: number;
  hashes: number;
  /** Budgeted hashes given up because the backlog exceeded `maxBacklogMs` (the timer ran late or CPU fell short). */
  hashesDropped: number;
  templates: number;
  templateErrors: number;
  blocksFound: number;
  blocksAccepted: number;
  blocksRejected: Partial<Record<BlockRejection, number>>;
  /** Partitions this miner went through (the current one included). */
  partitions: number;
  /** Blocks found while partitioned and submitted on reconnecting. */
  blocksHeld: number;
  /** Blocks found while partitioned beyond `maxHeldBlocks`, never submitted. */
  blocksDiscarded: number;
}

export interface SwarmStats {
  running: boolean;
  /** Time spent running, over all start/stop cycles. */
  runningMs: number;
  hashes: number;
  measuredHashesPerSecond: number;
  blocksFound: number;
  blocksAccepted: number;
  blocksRejected: Partial<Record<BlockRejection, number>>;
  partitions: number;
  miners: MinerStats[];
}

export interface MinerSwarm {
  readonly running: boolean;
  start(): void;
  /** Cancels timers and pending submissions; resolves once in-flight RPC calls have settled. */
  stop(): Promise<void>;
  /** A block was added to the node: every miner refetches its template after its own network delay. */
  notifyBlockAdded(): void;
  stats(): SwarmStats;
}

export const DEFAULT_NETWORK_DELAY_MS: Readonly<NetworkDelay> = Object.freeze({ min: 20, max: 150 });
export const DEFAULT_TICK_MS = 25;
export const DEFAULT_TEMPLATE_REFRESH_MS = 1_000;
export const DEFAULT_MAX_HASHES_PER_TICK = 250;
export const DEFAULT_MAX_BACKLOG_MS = 1_000;

interface Work {
  header: Header;
  /** The template's transactions, decoded only when a block is found: most templates are superseded unsolved. */
  transactions: () => Transaction[];
  prePowHash: Hash;
  pow: PowState;
  nonceLow: number;
  nonceHigh: number;
}

interface MinerState {
  readonly config: MinerConfig;
  readonly delay: NetworkDelay;
  readonly stats: MinerStats;
  work: Work | null;
  /** Hashes earned and not yet done (fractional; at most maxBacklogMs worth). */
  budget: number;
  fetching: boolean;
  refetchRequested: boolean;
  refreshTimer: TimerHandle | undefined;
  noticeTimer: TimerHandle | undefined;
  /** Partitioned: no notices, no templates, found blocks held until it reconnects. */
  dark: boolean;
  held: { block: Block; hash: Hash }[];
  /** Blocks announced while dark. */
  missed: number;
}

const U32 = 0x1_0000_0000;
const PARTITION_RECHECK_MS = 250;

function requireNonNegative(value: number, what: string): void {
  if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${what} must be a finite number ≥ 0, got ${value}`);
}

function requireDelay(delay: NetworkDelay): NetworkDelay {
  requireNonNegative(delay.min, 'networkDelayMs.min');
  requireNonNegative(delay.max, 'networkDelayMs.max');
  if (delay.min > delay.max) throw new RangeError('networkDelayMs.min must not exceed networkDelayMs.max');
  return { ...delay };
}

function addTally(into: Partial<Record<BlockRejection, number>>, from: Partial<Record<BlockRejection, number>>): void {
  for (const [reason, count] of Object.entries(from) as [BlockRejection, number][]) {
    into[reason] = (into[reason] ?? 0) + count;
  }
}

class Swarm implements MinerSwarm {
  private readonly rpc: RpcCaller;
  private readonly miners: MinerState[];
  private readonly random: () => number;
  private readonly timers: MinerTimers;
  private readonly extraData: number[];
  private readonly tickMs: number;
  private readonly templateRefreshMs: number;
  private readonly maxHashesPerTick: number;
  private readonly maxBacklogMs: number;
  private readonly onEvent: ((event: MinerEvent) => void) | undefined;
  private readonly powMatrixCache: PowMatrixCache | undefined;
  private readonly partitions: PartitionSchedule | undefined;
  private partitionTimer: TimerHandle | undefined;

  private isRunning = false;
  /** Bumped by every start and stop, so callbacks of an earlier run do nothing. */
  private generation = 0;
  private startedAt = 0;
  private runningMsBefore = 0;
  private lastTickAt = 0;
  private tickTimer: TimerHandle | undefined;
  private readonly submitTimers = new Set<TimerHandle>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(options: MinerSwarmOptions) {
    this.rpc = options.rpc;
    this.random = options.random ?? Math.random;
    this.timers = options.timers ?? realTimers;
    const extraData = options.extraData ?? new Uint8Array(0);
    this.extraData = Array.from(typeof extraData === 'string' ? utf8ToBytes(extraData) : extraData);
    this.tickMs = options.tickMs ?? DEFAULT_TICK_MS;
    this.templateRefreshMs = options.templateRefreshMs ?? DEFAULT_TEMPLATE_REFRESH_MS;
    this.maxHashesPerTick = options.maxHashesPerTick ?? DEFAULT_MAX_HASHES_PER_TICK;
    this.maxBacklogMs = options.maxBacklogMs ?? DEFAULT_MAX_BACKLOG_MS;
    this.onEvent = options.onEvent;
    this.powMatrixCache = options.powMatrixCache;
    this.partitions = options.partitions;
    if (this.partitions) {
      requireRange(this.partitions.gapMs, 'partitions.gapMs');
      requireRange(this.partitions.durationMs, 'partitions.durationMs');
      requireNonNegative(this.partitions.minBlocksMissed ?? 0, 'partitions.minBlocksMissed');
      requireNonNegative(this.partitions.maxHeldBlocks ?? 0, 'partitions.maxHeldBlocks');
    }

    requireNonNegative(this.maxBacklogMs, 'maxBacklogMs');
    if (!(this.tickMs > 0) || !(this.templateRefreshMs > 0) || !(this.maxHashesPerTick >= 1)) {
      throw new RangeError('tickMs and templateRefreshMs must be positive and maxHashesPerTick at least 1');
    }
    const names = new Set<string>();
    let totalRate = 0;
    for (const miner of options.miners) {
      if (names.has(miner.name)) throw new RangeError(`duplicate miner name "${miner.name}"`);
      names.add(miner.name);
      if (!(Number.isFinite(miner.hashesPerSecond) && miner.hashesPerSecond > 0)) {
        throw new RangeError(`miner "${miner.name}" needs a positive hash rate, got ${miner.hashesPerSecond}`);
      }
      totalRate += miner.hashesPerSecond;
    }
    const swarmDelay = options.networkDelayMs ?? DEFAULT_NETWORK_DELAY_MS;
    const ticksPerSecond = 1000 / this.tickMs;
    if (totalRate > this.maxHashesPerTick * ticksPerSecond) {
      throw new RangeError(
        `a total of ${totalRate} hashes/s needs more than maxHashesPerTick (${this.maxHashesPerTick}) every ${this.tickMs} ms`,
      );
    }
    this.miners = options.miners.map((config) => ({
      config: { ...config },
      delay: requireDelay(config.networkDelayMs ?? swarmDelay),
      stats: {
        name: config.name,
        hashesPerSecond: config.hashesPerSecond,
        hashes: 0,
        hashesDropped: 0,
        templates: 0,
        templateErrors: 0,
        blocksFound: 0,
        blocksAccepted: 0,
        blocksRejected: {},
        partitions: 0,
        blocksHeld: 0,
        blocksDiscarded: 0,
      },
      work: null,
      budget: 0,
      fetching: false,
      refetchRequested: false,
      refreshTimer: undefined,
      noticeTimer: undefined,
      dark: false,
      held: [],
      missed: 0,
    }));
  }

  get running(): boolean {
    return this.isRunning;
  }

  start(): void {
    if (this.isRunning) return;
    this.isRunning = true;
    this.generation++;
    this.startedAt = this.timers.now();
    this.lastTickAt = this.startedAt;
    for (const miner of this.miners) this.fetchTemplate(miner);
    this.scheduleTick();
    this.schedulePartition();
  }

  async stop(): Promise<void> {
    if (this.isRunning) {
      this.isRunning = false;
      this.generation++;
      this.runningMsBefore += this.timers.now() - this.startedAt;
      this.cancel(this.tickTimer);
      this.tickTimer = undefined;
      this.cancel(this.partitionTimer);
      this.partitionTimer = undefined;
      for (const timer of this.submitTimers) this.cancel(timer);
      this.submitTimers.clear();
      for (const miner of this.miners) {
        this.cancel(miner.refreshTimer);
        this.cancel(miner.noticeTimer);
        miner.refreshTimer = undefined;
        miner.noticeTimer = undefined;
        miner.work = null;
        miner.budget = 0;
        miner.refetchRequested = false;
        miner.dark = false;
        miner.held = [];
      }
    }
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  notifyBlockAdded(): void {
    if (!this.isRunning) return;
    for (const miner of this.miners) {
      if (miner.dark) miner.missed++;
      if (miner.noticeTimer !== undefined || miner.dark) continue;
      miner.noticeTimer = this.timers.setTimeout(() => {
        miner.noticeTimer = undefined;
        this.fetchTemplate(miner);
      }, this.networkDelay(miner));
    }
  }

  stats(): SwarmStats {
    const runningMs = this.runningMsBefore + (this.isRunning ? this.timers.now() - this.startedAt : 0);
    const miners = this.miners.map((miner) => ({ ...miner.stats, blocksRejected: { ...miner.stats.blocksRejected } }));
    const blocksRejected: Partial<Record<BlockRejection, number>> = {};
    let hashes = 0;
    let blocksFound = 0;
    let blocksAccepted = 0;
    let partitions = 0;
    for (const miner of miners) {
      partitions += miner.partitions;
      hashes += miner.hashes;
      blocksFound += miner.blocksFound;
      blocksAccepted += miner.blocksAccepted;
      addTally(blocksRejected, miner.blocksRejected);
    }
    return {
      running: this.isRunning,
      runningMs,
      hashes,
      measuredHashesPerSecond: runningMs > 0 ? (hashes * 1000) / runningMs : 0,
      blocksFound,
      blocksAccepted,
      blocksRejected,
      partitions,
      miners,
    };
  }

  private networkDelay(miner: MinerState): number {
    return miner.delay.min + this.random() * (miner.delay.max - miner.delay.min);
  }

  private cancel(handle: TimerHandle | undefined): void {
    if (handle !== undefined) this.timers.clearTimeout(handle);
  }

  private emit(event: MinerEvent): void {
    this.onEvent?.(event);
  }

  private track(operation: Promise<void>): void {
    this.inFlight.add(operation);
    void operation.finally(() => this.inFlight.delete(operation));
  }

  private schedulePartition(): void {
    const schedule = this.partitions;
    if (!schedule || this.miners.length === 0) return;
    const partition = nextPartition(schedule, this.miners.length);
    this.partitionTimer = this.timers.setTimeout(() => this.partition(partition), partition.startsAfterMs);
  }

  private partition({ miner: index, durationMs }: Partition): void {
    const miner = this.miners[index]!;
    miner.dark = true;
    miner.missed = 0;
    miner.stats.partitions++;
    this.cancel(miner.noticeTimer);
    this.cancel(miner.refreshTimer);
    miner.noticeTimer = undefined;
    miner.refreshTimer = undefined;
    miner.refetchRequested = false;
    this.emit({ type: 'partitioned', miner: miner.config.name, at: this.timers.now(), durationMs });
    const startedAt = this.timers.now();
    const minBlocksMissed = this.partitions?.minBlocksMissed ?? 0;
    const latest = startedAt + 3 * durationMs;
    const endOrWait = () => {
      const now = this.timers.now();
      if (miner.missed >= minBlocksMissed || now >= latest) {
        this.reconnect(miner);
        return;
      }
      this.partitionTimer = this.timers.setTimeout(endOrWait, Math.min(PARTITION_RECHECK_MS, latest - now));
    };
    this.partitionTimer = this.timers.setTimeout(endOrWait, durationMs);
  }

  private reconnect(miner: MinerState): void {
    const held = miner.held;
    miner.dark = false;
    miner.held = [];
    this.emit({ type: 'reconnected', miner: miner.config.name, at: this.timers.now(), heldBlocks: held.length });
    for (const { block, hash } of held) this.scheduleSubmission(miner, block, hash);
    this.fetchTemplate(miner);
    this.schedulePartition();
  }

  private scheduleTick(): void {
    this.tickTimer = this.timers.setTimeout(() => this.tick(), this.tickMs);
  }

  private tick(): void {
    const now = this.timers.now();
    const elapsedMs = Math.max(0, now - this.lastTickAt);
    this.lastTickAt = now;
    const boost = this.connectedBoost();
    let wanted = 0;
    for (const miner of this.miners) {
      if (miner.work === null || this.heldInFull(miner)) {
        miner.budget = 0;
        continue;
      }
      const rate = miner.config.hashesPerSecond * (miner.dark ? 1 : boost);
      miner.budget += (rate * elapsedMs) / 1000;
      const backlogLimit = (rate * this.maxBacklogMs) / 1000 + 1;
      if (miner.budget > backlogLimit) {
        miner.stats.hashesDropped += Math.floor(miner.budget - backlogLimit);
        miner.budget = backlogLimit;
      }
      wanted += Math.floor(miner.budget);
    }
    const scale = wanted > this.maxHashesPerTick ? this.maxHashesPerTick / wanted : 1;
    for (const miner of this.miners) {
      const count = Math.floor(Math.floor(miner.budget) * scale);
      if (count > 0) miner.budget -= this.hash(miner, count, now);
    }
    this.scheduleTick();
  }

  /**
   * While a miner is dark the connected ones share its hash rate, so the network the node sees keeps the configured
   * block rate (kaspad's difficulty adjustment would restore it too, but its Crescendo window spans about 44 minutes).
   */
  private connectedBoost(): number {
    let total = 0;
    let connected = 0;
    for (const miner of this.miners) {
      total += miner.config.hashesPerSecond;
      if (!miner.dark) connected += miner.config.hashesPerSecond;
    }
    return connected > 0 ? total / connected : 1;
  }

  /** A dark miner holding `maxHeldBlocks` stops: whatever else it found would be discarded. */
  private heldInFull(miner: MinerState): boolean {
    return miner.dark && miner.held.length >= (this.partitions?.maxHeldBlocks ?? Number.POSITIVE_INFINITY);
  }

  /** Hashes up to `count` nonces and returns how many it did: a miner stops for the tick when it finds a block. */
  private hash(miner: MinerState, count: number, now: number): number {
    const work = miner.work;
    if (work === null) return 0;
    const pow = work.pow;
    let low = work.nonceLow;
    let high = work.nonceHigh;
    let done = 0;
    let found = false;
    while (done < count && !found) {
      found = pow.checkPowWords(low, high);
      done++;
      if (found) this.found(miner, work, (BigInt(high) << 32n) | BigInt(low), now);
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    miner.stats.hashes += done;
    work.nonceLow = low;
    work.nonceHigh = high;
    return done;
  }

  /**
   * Like a real miner, keeps hashing the same template until a new one arrives (so a slow network can make it
   * compete with its own block): the configured hash rate is always spent.
   */
  private found(miner: MinerState, work: Work, nonce: bigint, now: number): void {
    const block: Block = { header: { ...work.header, nonce }, transactions: work.transactions() };
    const hash = headerHash(block.header);
    miner.stats.blocksFound++;
    this.emit({ type: 'found', miner: miner.config.name, at: now, hash, block });
    if (miner.dark) {
      if (miner.held.length < (this.partitions?.maxHeldBlocks ?? Number.POSITIVE_INFINITY)) {
        miner.stats.blocksHeld++;
        miner.held.push({ block, hash });
      } else {
        miner.stats.blocksDiscarded++;
      }
      return;
    }
    this.scheduleSubmission(miner, block, hash);
  }

  private scheduleSubmission(miner: MinerState, block: Block, hash: Hash): void {
    const timer = this.timers.setTimeout(() => {
      this.submitTimers.delete(timer);
      this.track(this.submit(miner, block, hash));
    }, this.networkDelay(miner));
    this.submitTimers.add(timer);
  }

  private async submit(miner: MinerState, block: Block, hash: Hash): Promise<void> {
    const generation = this.generation;
    const name = miner.config.name;
    let rejection: BlockRejection | undefined;
    try {
      const { report } = await this.rpc.call('submitBlock', {
        block: blockToRpcSubmission(block),
        allowNonDaaBlocks: false,
      });
      if (report.type === 'reject') rejection = report.reason;
    } catch (error) {
      rejection = 'rpcError';
      this.emit({ type: 'error', miner: name, at: this.timers.now(), method: 'submitBlock', error });
    }
    if (rejection === undefined) miner.stats.blocksAccepted++;
    else miner.stats.blocksRejected[rejection] = (miner.stats.blocksRejected[rejection] ?? 0) + 1;
    this.emit({
      type: 'submitted',
      miner: name,
      at: this.timers.now(),
      hash,
      accepted: rejection === undefined,
      ...(rejection === undefined ? {} : { rejection }),
    });
    if (generation === this.generation) this.fetchTemplate(miner);
  }

  /** One request at a time per miner; a request made meanwhile is served by one more fetch right after. */
  private fetchTemplate(miner: MinerState): void {
    if (miner.dark) return;
    if (miner.fetching) {
      miner.refetchRequested = true;
      return;
    }
    miner.fetching = true;
    this.cancel(miner.refreshTimer);
    miner.refreshTimer = undefined;
    this.track(this.fetchTemplates(miner, this.generation));
  }

  private async fetchTemplates(miner: MinerState, generation: number): Promise<void> {
    try {
      do {
        miner.refetchRequested = false;
        const response = await this.rpc.call('getBlockTemplate', {
          payAddress: typeof miner.config.payAddress === 'function' ? miner.config.payAddress() : miner.config.payAddress,
          extraData: this.extraData,
        });
        if (generation !== this.generation || miner.dark) break;
        this.install(miner, response.block);
      } while (miner.refetchRequested);
    } catch (error) {
      if (generation === this.generation) {
        miner.stats.templateErrors++;
        this.emit({ type: 'error', miner: miner.config.name, at: this.timers.now(), method: 'getBlockTemplate', error });
      }
    }
    miner.fetching = false;
    if (miner.dark) return;
    if (generation === this.generation) {
      miner.refreshTimer = this.timers.setTimeout(() => {
        miner.refreshTimer = undefined;
        this.fetchTemplate(miner);
      }, this.templateRefreshMs);
    } else if (this.isRunning && miner.refetchRequested) {
      this.fetchTemplate(miner);
    }
  }

  /** Keeps hashing (and the nonce position) when the template's PoW input is unchanged. */
  private install(miner: MinerState, rpcBlock: RpcRawBlock): void {
    const header = headerFromRpc(rpcBlock.header);
    const prePow = prePowHash(header);
    miner.stats.templates++;
    const current = miner.work;
    if (
      current !== null &&
      equalBytes(current.prePowHash, prePow) &&
      current.header.timestamp === header.timestamp
    ) {
      return;
    }
    let transactions: Transaction[] | undefined;
    miner.work = {
      header,
      transactions: () => (transactions ??= rpcBlock.transactions.map(transactionFromRpc)),
      prePowHash: prePow,
      pow: new PowState({ prePowHash: prePow, timestamp: header.timestamp, bits: header.bits, matrixCache: this.powMatrixCache }),
      nonceLow: Math.floor(this.random() * U32) >>> 0,
      nonceHigh: Math.floor(this.random() * U32) >>> 0,
    };
    this.emit({ type: 'template', miner: miner.config.name, at: this.timers.now(), header });
  }
}

export function createMinerSwarm(options: MinerSwarmOptions): MinerSwarm {
  return new Swarm(options);
}
