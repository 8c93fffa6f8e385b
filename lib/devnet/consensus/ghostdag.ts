/**
 * GHOSTDAG as rusty-kaspa implements it (consensus/src/processes/ghostdag/protocol.rs, ordering.rs and mergeset.rs;
 * the algorithm is the same at tag v1.0.1 and at HEAD, only `k` stopped being a forked parameter).
 *
 * Blocks are named by `BlockId`, the lowercase hex of their 32-byte hash, so they can key plain Maps and Sets.
 * Lowercase hex strings of equal length sort exactly as their bytes do, so the `(blue work, hash)` order of
 * rusty-kaspa's `SortableBlock` is a string comparison here.
 */
import { bytesToHex } from '../../kaspa/bytes';
import type { Hash } from '../../kaspa/types';

export type BlockId = string;

export function blockIdOf(hash: Hash): BlockId {
  return bytesToHex(hash);
}

/** rusty-kaspa's `blockhash::ORIGIN` (32 bytes of 0xfe): the selected parent recorded for genesis. */
export const ORIGIN_ID: BlockId = 'fe'.repeat(32);

export interface SortableBlock {
  readonly id: BlockId;
  readonly blueWork: bigint;
}

/** Ascending `(blue work, hash)`, the order of rusty-kaspa's `SortableBlock`. */
export function compareSortableBlocks(a: SortableBlock, b: SortableBlock): number {
  if (a.blueWork !== b.blueWork) return a.blueWork < b.blueWork ? -1 : 1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}

export interface GhostdagData {
  readonly blueScore: bigint;
  readonly blueWork: bigint;
  readonly selectedParent: BlockId;
  /** The selected parent first, then the other blues in ascending `(blue work, hash)` order. */
  readonly mergesetBlues: readonly BlockId[];
  /** Ascending `(blue work, hash)` order. */
  readonly mergesetReds: readonly BlockId[];
  /**
   * Blue anticone sizes as seen from this block: its own mergeset blues, plus older blues whose size this block's
   * blues increased. Other blues keep the size found by walking down the selected-parent chain.
   */
  readonly bluesAnticoneSizes: ReadonlyMap<BlockId, number>;
}

/** What GHOSTDAG reads from the node; every block asked about is already stored. */
export interface GhostdagStore {
  parents(block: BlockId): readonly BlockId[];
  ghostdagData(block: BlockId): GhostdagData;
  /** Reflexive: a block is its own ancestor. */
  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean;
}

export interface GhostdagOptions {
  genesis: BlockId;
  k: number;
  store: GhostdagStore;
  /** The block's work, `calcWork(bits)` from lib/kaspa/pow.ts in a node; tests may use constant work. */
  workOf: (block: BlockId) => bigint;
}

type ColoringContext = Pick<GhostdagData, 'selectedParent' | 'mergesetBlues' | 'bluesAnticoneSizes'>;

interface BlueColoring {
  anticoneSize: number;
  /** Blue anticone sizes of the blues in the candidate's anticone, before the candidate joins. */
  peerSizes: Map<BlockId, number>;
}

export class GhostdagManager {
  readonly genesis: BlockId;
  readonly k: number;
  private readonly store: GhostdagStore;
  private readonly workOf: (block: BlockId) => bigint;

  constructor(options: GhostdagOptions) {
    this.genesis = options.genesis;
    this.k = options.k;
    this.store = options.store;
    this.workOf = options.workOf;
  }

  genesisGhostdagData(): GhostdagData {
    return {
      blueScore: 0n,
      blueWork: 0n,
      selectedParent: ORIGIN_ID,
      mergesetBlues: [],
      mergesetReds: [],
      bluesAnticoneSizes: new Map(),
    };
  }

  private sortable(block: BlockId): SortableBlock {
    return { id: block, blueWork: this.store.ghostdagData(block).blueWork };
  }

  /** The parent with the highest `(blue work, hash)`. */
  findSelectedParent(parents: Iterable<BlockId>): BlockId {
    let best: SortableBlock | undefined;
    for (const parent of parents) {
      const candidate = this.sortable(parent);
      if (best === undefined || compareSortableBlocks(candidate, best) > 0) best = candidate;
    }
    if (best === undefined) throw new Error('a block needs at least one parent');
    return best.id;
  }

  /** Ascending `(blue work, hash)`. */
  sortBlocks(blocks: Iterable<BlockId>): BlockId[] {
    return Array.from(blocks, (block) => this.sortable(block))
      .sort(compareSortableBlocks)
      .map((block) => block.id);
  }

  /**
   * past(new block) \ past(selected parent), without the selected parent itself: a breadth-first walk from the
   * other parents that stops at blocks in the selected parent's past. Parents are taken as given (consensus
   * rejects a parent set that is not an antichain before GHOSTDAG runs).
   */
  unorderedMergesetWithoutSelectedParent(selectedParent: BlockId, parents: readonly BlockId[]): Set<BlockId> {
    const queue = parents.filter((parent) => parent !== selectedParent);
    const mergeset = new Set(queue);
    const selectedParentPast = new Set<BlockId>();
    for (let next = 0; next < queue.length; next++) {
      for (const parent of this.store.parents(queue[next]!)) {
        if (mergeset.has(parent) || selectedParentPast.has(parent)) continue;
        if (this.store.isDagAncestorOf(parent, selectedParent)) {
          selectedParentPast.add(parent);
          continue;
        }
        mergeset.add(parent);
        queue.push(parent);
      }
    }
    return mergeset;
  }

  /** The mergeset without the selected parent, ascending `(blue work, hash)`: a topological order. */
  orderedMergesetWithoutSelectedParent(selectedParent: BlockId, parents: readonly BlockId[]): BlockId[] {
    return this.sortBlocks(this.unorderedMergesetWithoutSelectedParent(selectedParent, parents));
  }

  /** GHOSTDAG data of a new block with these direct parents (all already stored). */
  ghostdag(parents: readonly BlockId[]): GhostdagData {
    const selectedParent = this.findSelectedParent(parents);
    const mergesetBlues: BlockId[] = [selectedParent];
    const mergesetReds: BlockId[] = [];
    const bluesAnticoneSizes = new Map<BlockId, number>([[selectedParent, 0]]);
    const context: ColoringContext = { selectedParent, mergesetBlues, bluesAnticoneSizes };

    for (const candidate of this.orderedMergesetWithoutSelectedParent(selectedParent, parents)) {
      const coloring = this.checkBlueCandidate(context, candidate);
      if (coloring === undefined) {
        mergesetReds.push(candidate);
        continue;
      }
      mergesetBlues.push(candidate);
      bluesAnticoneSizes.set(candidate, coloring.anticoneSize);
      for (const [blue, size] of coloring.peerSizes) bluesAnticoneSizes.set(blue, size + 1);
    }

    const selectedParentData = this.store.ghostdagData(selectedParent);
    let blueWork = selectedParentData.blueWork;
    for (const blue of mergesetBlues) blueWork += this.workOf(blue);
    return {
      blueScore: selectedParentData.blueScore + BigInt(mergesetBlues.length),
      blueWork,
      selectedParent,
      mergesetBlues,
      mergesetReds,
      bluesAnticoneSizes,
    };
  }

  /**
   * Walks the new block's chain (the new block itself, then its selected parent, …) and counts the blues in the
   * candidate's anticone until reaching a chain block in the candidate's past, whose whole blue past is then in
   * the candidate's past too. Red as soon as the candidate would see more than k blues in its anticone, or would
   * push some blue's anticone past k. `undefined` means red.
   */
  private checkBlueCandidate(newBlock: ColoringContext, candidate: BlockId): BlueColoring | undefined {
    const k = this.k;
    if (newBlock.mergesetBlues.length === k + 1) return undefined;

    const peerSizes = new Map<BlockId, number>();
    let anticoneSize = 0;
    let chainBlock: BlockId | undefined;
    let chainData: ColoringContext = newBlock;
    for (;;) {
      if (chainBlock !== undefined && this.store.isDagAncestorOf(chainBlock, candidate)) {
        return { anticoneSize, peerSizes };
      }
      // Blues processed so far are never in the candidate's future: the mergeset is visited in topological order.
      for (const peer of chainData.mergesetBlues) {
        if (this.store.isDagAncestorOf(peer, candidate)) continue;
        const peerSize = this.blueAnticoneSize(peer, newBlock);
        peerSizes.set(peer, peerSize);
        anticoneSize += 1;
        if (anticoneSize > k) return undefined;
        if (peerSize === k) return undefined;
        if (peerSize > k) throw new Error(`blue ${peer} has a blue anticone larger than k`);
      }
      chainBlock = chainData.selectedParent;
      chainData = this.store.ghostdagData(chainBlock);
    }
  }

  /** The blue anticone size of `block` (a blue of `context`) as `context` sees it. */
  private blueAnticoneSize(block: BlockId, context: ColoringContext): number {
    let sizes = context.bluesAnticoneSizes;
    let selectedParent = context.selectedParent;
    for (;;) {
      const size = sizes.get(block);
      if (size !== undefined) return size;
      if (selectedParent === this.genesis || selectedParent === ORIGIN_ID) {
        throw new Error(`block ${block} is not in the blue set of the given context`);
      }
      const data = this.store.ghostdagData(selectedParent);
      sizes = data.bluesAnticoneSizes;
      selectedParent = data.selectedParent;
    }
  }
}

export function mergesetSize(data: GhostdagData): number {
  return data.mergesetBlues.length + data.mergesetReds.length;
}

/** The mergeset without the selected parent, ascending `(blue work, hash)`. */
export function ascendingMergesetWithoutSelectedParent(
  data: GhostdagData,
  store: Pick<GhostdagStore, 'ghostdagData'>,
): SortableBlock[] {
  const blocks = [...data.mergesetBlues.slice(1), ...data.mergesetReds].map((id) => ({
    id,
    blueWork: store.ghostdagData(id).blueWork,
  }));
  return blocks.sort(compareSortableBlocks);
}

/** The mergeset without the selected parent, descending `(blue work, hash)`. */
export function descendingMergesetWithoutSelectedParent(
  data: GhostdagData,
  store: Pick<GhostdagStore, 'ghostdagData'>,
): SortableBlock[] {
  return ascendingMergesetWithoutSelectedParent(data, store).reverse();
}

/** The selected parent, then the rest of the mergeset ascending: the order in which a chain block accepts blocks. */
export function consensusOrderedMergeset(data: GhostdagData, store: Pick<GhostdagStore, 'ghostdagData'>): BlockId[] {
  return [data.selectedParent, ...ascendingMergesetWithoutSelectedParent(data, store).map((block) => block.id)];
}
