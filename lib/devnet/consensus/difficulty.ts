/**
 * DAA score, sampled block windows, difficulty adjustment and past median time of the Crescendo era
 * (KIP-4 sampled windows): rusty-kaspa consensus/src/processes/window.rs (`SampledWindowManager`), difficulty.rs
 * (`SampledDifficultyManager`) and past_median_time.rs (`SampledPastMedianTimeManager`). Tag v1.0.1 adds only
 * the transition from pre-Crescendo blocks, which a network with Crescendo active from genesis never takes.
 */
import { compactToTarget, targetToCompact } from '../../kaspa/pow';
import {
  compareSortableBlocks,
  descendingMergesetWithoutSelectedParent,
  mergesetSize,
  type BlockId,
  type GhostdagData,
  type GhostdagStore,
  type SortableBlock,
} from './ghostdag';
import type { ConsensusParams } from './params';

/** What the window code reads from the node about stored blocks. */
export interface DaaStore extends Pick<GhostdagStore, 'ghostdagData'> {
  /** Header timestamp, milliseconds. */
  timestamp(block: BlockId): bigint;
  bits(block: BlockId): number;
  daaScore(block: BlockId): bigint;
  /** False for a block whose GHOSTDAG data or mergeset was pruned: a window walk ends above it. Stores that never prune omit it. */
  hasWindowData?(block: BlockId): boolean;
}

/** `{ size }` is rusty-kaspa's `VaryingWindow`: that many blocks, every DAA block sampled, not cached. */
export type WindowKind = 'difficulty' | 'pastMedianTime' | { size: number };

/** Window blocks in descending `(blue work, hash)` order. */
export type BlockWindow = readonly SortableBlock[];

export interface PinnedWindows {
  difficulty: BlockWindow;
  pastMedianTime: BlockWindow;
}

export interface DaaWindow {
  window: BlockWindow;
  daaScore: bigint;
  /** Mergeset blocks too deep (blue score below `lowestDaaBlueScore`) to count toward the DAA score. */
  mergesetNonDaa: ReadonlySet<BlockId>;
}

export type DaaParams = Pick<
  ConsensusParams,
  | 'targetTimePerBlock'
  | 'difficultyWindowSize'
  | 'minDifficultyWindowSize'
  | 'difficultySampleRate'
  | 'pastMedianTimeWindowSize'
  | 'pastMedianTimeSampleRate'
  | 'maxDifficultyTarget'
>;

export interface DifficultyManagerOptions {
  params: DaaParams;
  genesis: { id: BlockId; bits: number };
  store: DaaStore;
  /** Windows kept per kind, keyed by block (rusty-kaspa's `BASELINE_BLOCK_WINDOW_CACHE_SIZE` is 2,000). */
  windowCacheCapacity?: number;
}

export interface DifficultyBlock {
  block: SortableBlock;
  timestamp: bigint;
  bits: number;
}

/**
 * The sampled-window difficulty of `SampledDifficultyManager::calculate_difficulty_bits`, for a window already
 * large enough: drop the earliest block (ties by `(blue work, hash)`), average the remaining targets (floor), and
 * scale by the window's timestamp span over the expected span of that many samples.
 */
export function difficultyBitsFromWindow(
  blocks: readonly DifficultyBlock[],
  params: Pick<DaaParams, 'targetTimePerBlock' | 'difficultySampleRate' | 'maxDifficultyTarget'>,
): number {
  if (blocks.length < 2) throw new Error('a difficulty window needs at least two blocks');
  const isEarlier = (a: DifficultyBlock, b: DifficultyBlock): boolean =>
    a.timestamp !== b.timestamp ? a.timestamp < b.timestamp : compareSortableBlocks(a.block, b.block) < 0;
  let earliest = blocks[0]!;
  let latest = blocks[0]!;
  for (const block of blocks) {
    if (isEarlier(block, earliest)) earliest = block;
    if (isEarlier(latest, block)) latest = block;
  }

  let targetSum = 0n;
  for (const block of blocks) if (block !== earliest) targetSum += compactToTarget(block.bits);
  const count = BigInt(blocks.length - 1);
  const averageTarget = targetSum / count;
  const span = latest.timestamp - earliest.timestamp;
  const measuredDuration = span > 1n ? span : 1n;
  const expectedDuration = BigInt(params.targetTimePerBlock) * BigInt(params.difficultySampleRate) * count;
  const newTarget = (averageTarget * measuredDuration) / expectedDuration;
  return targetToCompact(newTarget < params.maxDifficultyTarget ? newTarget : params.maxDifficultyTarget);
}

const AVERAGE_FRAME_SIZE = 11;

/**
 * `SampledPastMedianTimeManager::calc_past_median_time` for a non-empty window: the rounded average of the (up to)
 * 11 sorted timestamps around the middle, taking the later frame when two are equally central.
 */
export function pastMedianTimeFromTimestamps(timestamps: readonly bigint[]): bigint {
  if (timestamps.length === 0) throw new Error('the past median time of an empty window is undefined');
  const sorted = [...timestamps].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const frame = Math.min(sorted.length, AVERAGE_FRAME_SIZE);
  const end = Math.ceil((sorted.length + frame) / 2);
  let sum = 0n;
  for (const timestamp of sorted.slice(end - frame, end)) sum += timestamp;
  return (sum + BigInt(Math.floor(frame / 2))) / BigInt(frame);
}

/**
 * The `size` largest `(blue work, hash)` blocks pushed so far, in descending order (`BoundedSizeBlockHeap`). A
 * window started from a cached one copies it only on the first change.
 */
class BoundedWindow {
  private changed: SortableBlock[] | undefined;

  constructor(
    private readonly size: number,
    private readonly initial: BlockWindow = [],
  ) {}

  get blocks(): BlockWindow {
    return this.changed ?? this.initial;
  }

  private editable(): SortableBlock[] {
    return (this.changed ??= [...this.initial]);
  }

  private smallest(): SortableBlock | undefined {
    return this.blocks.length === this.size ? this.blocks.at(-1) : undefined;
  }

  canPush(block: SortableBlock): boolean {
    const smallest = this.smallest();
    return smallest === undefined || compareSortableBlocks(smallest, block) <= 0;
  }

  tryPush(block: SortableBlock): boolean {
    const smallest = this.smallest();
    if (smallest !== undefined && compareSortableBlocks(smallest, block) > 0) return false;
    const blocks = this.editable();
    if (smallest !== undefined) blocks.pop();
    let low = 0;
    let high = blocks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareSortableBlocks(blocks[middle]!, block) > 0) low = middle + 1;
      else high = middle;
    }
    blocks.splice(low, 0, block);
    return true;
  }

  /** Merges the window of an ancestor, whose blocks are all distinct from the ones held. */
  mergeAncestorWindow(ancestorWindow: BlockWindow): void {
    const merged = [...this.blocks, ...ancestorWindow].sort((a, b) => compareSortableBlocks(b, a));
    this.changed = merged.slice(0, this.size);
  }
}

class WindowCache {
  private readonly windows = new Map<BlockId, BlockWindow>();
  /** The pruning point's window: never evicted, since the blocks below it that built it may be gone. */
  private pinned: { block: BlockId; window: BlockWindow } | undefined;

  constructor(private readonly capacity: number) {}

  get(block: BlockId): BlockWindow | undefined {
    return this.pinned?.block === block ? this.pinned.window : this.windows.get(block);
  }

  pin(block: BlockId, window: BlockWindow): void {
    this.pinned = { block, window };
  }

  set(block: BlockId, window: BlockWindow): void {
    this.windows.delete(block);
    this.windows.set(block, window);
    if (this.windows.size > this.capacity) this.windows.delete(this.windows.keys().next().value!);
  }
}

type NonDaaSink = (block: BlockId) => void;

const ignoreNonDaa: NonDaaSink = () => {};

export class DifficultyManager {
  private readonly params: DaaParams;
  private readonly genesis: { id: BlockId; bits: number };
  private readonly store: DaaStore;
  private readonly caches: Record<'difficulty' | 'pastMedianTime', WindowCache>;

  constructor(options: DifficultyManagerOptions) {
    this.params = options.params;
    this.genesis = options.genesis;
    this.store = options.store;
    const capacity = options.windowCacheCapacity ?? 2_000;
    this.caches = { difficulty: new WindowCache(capacity), pastMedianTime: new WindowCache(capacity) };
  }

  /**
   * The pruning point's difficulty and past-median-time windows, computed now (while its past is stored) and pinned, so
   * windows of blocks above it stop there instead of walking into pruned blocks.
   */
  pinPruningPointWindows(block: BlockId): PinnedWindows {
    const windows = {
      difficulty: this.cachedBlockWindow(block, 'difficulty', this.caches.difficulty),
      pastMedianTime: this.cachedBlockWindow(block, 'pastMedianTime', this.caches.pastMedianTime),
    };
    this.restorePinnedWindows(block, windows);
    return windows;
  }

  /** Pins windows saved by pinPruningPointWindows (a restart from a snapshot). */
  restorePinnedWindows(block: BlockId, windows: PinnedWindows): void {
    this.caches.difficulty.pin(block, windows.difficulty);
    this.caches.pastMedianTime.pin(block, windows.pastMedianTime);
  }

  /** Blocks with a lower blue score fall outside the full (unsampled) difficulty window of this block. */
  lowestDaaBlueScore(data: GhostdagData): bigint {
    const fullWindow = BigInt(this.params.difficultyWindowSize) * BigInt(this.params.difficultySampleRate);
    return data.blueScore > fullWindow ? data.blueScore - fullWindow : 0n;
  }

  /** The sampled window of a block with this GHOSTDAG data (`WindowManager::block_window`). */
  blockWindow(data: GhostdagData, kind: WindowKind): BlockWindow {
    return this.buildBlockWindow(data, kind, ignoreNonDaa, true);
  }

  /**
   * The difficulty window and DAA score (`block_daa_window`): the selected parent's DAA score plus the mergeset
   * size, minus mergeset blocks below the lowest DAA blue score. Genesis itself never counts.
   */
  blockDaaWindow(data: GhostdagData): DaaWindow {
    const mergesetNonDaa = new Set<BlockId>();
    const window = this.buildBlockWindow(data, 'difficulty', (block) => mergesetNonDaa.add(block), true);
    const daaScore = this.store.daaScore(data.selectedParent) + BigInt(mergesetSize(data) - mergesetNonDaa.size);
    return { window, daaScore, mergesetNonDaa };
  }

  /** The bits a block with this GHOSTDAG data and difficulty window must carry. */
  calculateDifficultyBits(data: GhostdagData, window: BlockWindow): number {
    // consensus/src/consensus/services.rs caps the minimum at the window size.
    const minimumSize = Math.min(this.params.minDifficultyWindowSize, this.params.difficultyWindowSize);
    if (window.length < minimumSize) {
      if (data.selectedParent === this.genesis.id) return this.genesis.bits;
      return this.store.bits(data.selectedParent);
    }
    const blocks = window.map((block) => ({
      block,
      timestamp: this.store.timestamp(block.id),
      bits: this.store.bits(block.id),
    }));
    return difficultyBitsFromWindow(blocks, this.params);
  }

  /** A block's timestamp must exceed this (`calc_past_median_time`); milliseconds. */
  pastMedianTime(data: GhostdagData): bigint {
    const window = this.blockWindow(data, 'pastMedianTime');
    if (window.length === 0) return this.store.timestamp(data.selectedParent);
    return pastMedianTimeFromTimestamps(window.map((block) => this.store.timestamp(block.id)));
  }

  private windowShape(kind: WindowKind): { size: number; sampleRate: number; cache: WindowCache | undefined } {
    if (kind === 'difficulty') {
      return {
        size: this.params.difficultyWindowSize,
        sampleRate: this.params.difficultySampleRate,
        cache: this.caches.difficulty,
      };
    }
    if (kind === 'pastMedianTime') {
      return {
        size: this.params.pastMedianTimeWindowSize,
        sampleRate: this.params.pastMedianTimeSampleRate,
        cache: this.caches.pastMedianTime,
      };
    }
    return { size: kind.size, sampleRate: 1, cache: undefined };
  }

  /**
   * `build_block_window`. With a cache, the window extends the selected parent's window by this block's mergeset
   * samples; the selected parent's window is computed and cached when missing (`fillCache`), once per chain block.
   * Without one, it walks down the selected chain pushing each chain block's mergeset samples until the window is
   * full and the next selected parent could no longer enter it.
   */
  private buildBlockWindow(data: GhostdagData, kind: WindowKind, nonDaa: NonDaaSink, fillCache: boolean): BlockWindow {
    const { size, sampleRate, cache } = this.windowShape(kind);
    if (size === 0) return [];
    // Genesis never enters a window (its timestamp is fixed by the network, not mined).
    if (data.selectedParent === this.genesis.id) {
      nonDaa(this.genesis.id);
      return [];
    }
    const selectedParentBlueWork = this.store.ghostdagData(data.selectedParent).blueWork;

    const selectedParentWindow =
      cache === undefined
        ? undefined
        : fillCache
          ? this.cachedBlockWindow(data.selectedParent, kind, cache)
          : cache.get(data.selectedParent);
    if (selectedParentWindow !== undefined) {
      const window = new BoundedWindow(size, selectedParentWindow);
      this.pushMergeset(window, sampleRate, data, selectedParentBlueWork, nonDaa);
      return window.blocks;
    }

    const window = new BoundedWindow(size);
    this.pushMergeset(window, sampleRate, data, selectedParentBlueWork, nonDaa);
    let currentId = data.selectedParent;
    let current = this.store.ghostdagData(currentId);
    while (current.selectedParent !== this.genesis.id && this.store.hasWindowData?.(currentId) !== false) {
      const parent = this.store.ghostdagData(current.selectedParent);
      // Everything further down has lower blue work than this selected parent.
      if (!window.canPush({ id: current.selectedParent, blueWork: parent.blueWork })) break;
      this.pushMergeset(window, sampleRate, current, parent.blueWork, undefined);
      const ancestorWindow = cache?.get(current.selectedParent);
      if (ancestorWindow !== undefined) {
        window.mergeAncestorWindow(ancestorWindow);
        break;
      }
      currentId = current.selectedParent;
      current = parent;
    }
    return window.blocks;
  }

  private cachedBlockWindow(block: BlockId, kind: WindowKind, cache: WindowCache): BlockWindow {
    const cached = cache.get(block);
    if (cached !== undefined) return cached;
    const window = this.buildBlockWindow(this.store.ghostdagData(block), kind, ignoreNonDaa, false);
    cache.set(block, window);
    return window;
  }

  /**
   * Pushes the samples of one mergeset (`sampled_mergeset_iterator`): the selected parent, then the rest in
   * descending `(blue work, hash)`. Blocks below the lowest DAA blue score are skipped (and reported to `nonDaa`);
   * the n-th remaining block is a sample when `(selected parent's DAA score + n)` is a multiple of the sample
   * rate. Without a `nonDaa` sink the first rejected sample ends the push, as no later one can enter.
   */
  private pushMergeset(
    window: BoundedWindow,
    sampleRate: number,
    data: GhostdagData,
    selectedParentBlueWork: bigint,
    nonDaa: NonDaaSink | undefined,
  ): void {
    const rate = BigInt(sampleRate);
    const selectedParentDaaScore = this.store.daaScore(data.selectedParent);
    const lowestDaaBlueScore = this.lowestDaaBlueScore(data);
    const blocks = [
      { id: data.selectedParent, blueWork: selectedParentBlueWork },
      ...descendingMergesetWithoutSelectedParent(data, this.store),
    ];
    let index = 0n;
    for (const block of blocks) {
      if (this.store.ghostdagData(block.id).blueScore < lowestDaaBlueScore) {
        nonDaa?.(block.id);
        continue;
      }
      index += 1n;
      if ((selectedParentDaaScore + index) % rate !== 0n) continue;
      if (!window.tryPush(block) && nonDaa === undefined) return;
    }
  }
}
