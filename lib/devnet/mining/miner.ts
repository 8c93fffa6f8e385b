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
 *
 * The schedule of partitions is partition-schedule.ts, a template being hashed with its nonce position miner-work.ts,
 * and the counts stats() reports swarm-stats.ts; this file keeps the swarm itself, whose timers, templates and
 * partitions all act on the same per-miner state.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { headerHash, prePowHash } from '../../kaspa/header';
import type { PowMatrixCache } from '../../kaspa/pow';
import type { Hash, Header } from '../../kaspa/types';
import type { RpcAddress, RpcRawBlock } from '../../rpc/types';
import { bitsForExpectedHashesPerBlock, type Block } from '../consensus/genesis';
import { blockToRpcSubmission, headerFromRpc } from '../../rpc/convert-block';
import type { RpcCaller } from '../../rpc/convert-transaction';
import { MinerWork } from './miner-work';
import { nextPartition, type Partition, type PartitionSchedule } from './partition-schedule';
import { newMinerStats, swarmStats, type BlockRejection, type MinerStats, type SwarmStats } from './swarm-stats';

export {
  DEFAULT_PARTITION_DURATION_MS,
  DEFAULT_PARTITION_GAP_MS,
  DEFAULT_PARTITION_MAX_HELD_BLOCKS,
  nextPartition,
  type Partition,
  type PartitionSchedule,
} from './partition-schedule';
export type { BlockRejection, MinerStats, SwarmStats } from './swarm-stats';

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

export type MinerEvent =
  | { type: 'template'; miner: string; at: number; header: Header }
  | { type: 'found'; miner: string; at: number; hash: Hash; block: Block }
  | { type: 'submitted'; miner: string; at: number; hash: Hash; accepted: boolean; rejection?: BlockRejection }
  | { type: 'error'; miner: string; at: number; method: 'getBlockTemplate' | 'submitBlock'; error: unknown }
  | { type: 'partitioned'; miner: string; at: number; durationMs: number }
  | { type: 'reconnected'; miner: string; at: number; heldBlocks: number };

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

interface MinerState {
  readonly config: MinerConfig;
  readonly delay: NetworkDelay;
  readonly stats: MinerStats;
  work: MinerWork | null;
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

const PARTITION_RECHECK_MS = 250;

function requireNonNegative(value: number, what: string): void {
  if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${what} must be a finite number ≥ 0, got ${value}`);
}

function requireRange(range: { min: number; max: number }, what: string): void {
  requireNonNegative(range.min, `${what}.min`);
  requireNonNegative(range.max, `${what}.max`);
  if (range.min > range.max) throw new RangeError(`${what}.min must not exceed ${what}.max`);
}

function requireDelay(delay: NetworkDelay): NetworkDelay {
  requireRange(delay, 'networkDelayMs');
  return { ...delay };
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
      stats: newMinerStats(config.name, config.hashesPerSecond),
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
    return swarmStats(this.isRunning, runningMs, this.miners.map((miner) => miner.stats));
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
    const { done, nonce } = work.hash(count);
    if (nonce !== undefined) this.found(miner, work, nonce, now);
    miner.stats.hashes += done;
    return done;
  }

  /**
   * Like a real miner, keeps hashing the same template until a new one arrives (so a slow network can make it
   * compete with its own block): the configured hash rate is always spent.
   */
  private found(miner: MinerState, work: MinerWork, nonce: bigint, now: number): void {
    const block = work.block(nonce);
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
    if (miner.work?.hasPowInput(header, prePow)) return;
    miner.work = new MinerWork(header, prePow, rpcBlock.transactions, this.random, this.powMatrixCache);
    this.emit({ type: 'template', miner: miner.config.name, at: this.timers.now(), header });
  }
}

export function createMinerSwarm(options: MinerSwarmOptions): MinerSwarm {
  return new Swarm(options);
}
