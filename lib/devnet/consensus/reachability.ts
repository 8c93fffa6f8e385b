/**
 * Ancestor queries on a growing block DAG.
 *
 * Same split as rusty-kaspa (consensus/src/processes/reachability/inquirer.rs), different chain index:
 * - Chain queries run on the selected-parent tree. Instead of rusty-kaspa's reindexed interval tree, every block
 *   keeps its height and one skew-binary jump pointer (Myers' scheme), set once when the block is added: finding
 *   the ancestor of a block at a given height takes O(log height) steps, and nothing is ever rebalanced.
 * - DAG queries add future covering sets: every block that merges `m` (has it in its mergeset, not as selected
 *   parent) is recorded in FCS(m). If `a ∈ past(b)`, going down b's chain there is a first chain block whose past
 *   holds `a`; that block either has `a` as its selected parent (a chain ancestor of b) or merged it (in FCS(a)).
 *   So `a` is a DAG ancestor of `b` iff `a` or a member of FCS(a) is a chain ancestor of `b`.
 *
 * Cost: addBlock is O(1 + |mergeset|); isChainAncestorOf is O(log h) for chain height h; isDagAncestorOf is
 * O((1 + |FCS(a)|) · log h), where |FCS(a)| counts the blocks that merged `a`, a handful on a DAG of width 3–5.
 * Memory: three 32-bit integers per block plus one per (merging block, merged block) pair.
 */
import type { BlockId } from './ghostdag';

const INITIAL_CAPACITY = 1024;

export class Reachability {
  private readonly indexById = new Map<BlockId, number>();
  private selectedParent: Int32Array = new Int32Array(INITIAL_CAPACITY);
  private jump: Int32Array = new Int32Array(INITIAL_CAPACITY);
  private height: Int32Array = new Int32Array(INITIAL_CAPACITY);
  private readonly futureCoveringSets: (number[] | undefined)[] = [];

  /** Starts the tree at genesis, height 0. */
  constructor(genesis: BlockId) {
    this.indexById.set(genesis, 0);
  }

  get size(): number {
    return this.indexById.size;
  }

  has(block: BlockId): boolean {
    return this.indexById.has(block);
  }

  /** Registers a block whose selected parent and merged blocks are already known. */
  addBlock(block: BlockId, selectedParent: BlockId, mergesetWithoutSelectedParent: Iterable<BlockId>): void {
    if (this.indexById.has(block)) throw new Error(`block ${block} is already in the reachability index`);
    const parent = this.indexOf(selectedParent);
    const index = this.indexById.size;
    this.ensureCapacity(index + 1);

    const parentJump = this.jump[parent]!;
    const parentJumpJump = this.jump[parentJump]!;
    const parentHeight = this.height[parent]!;
    const jumpHeight = this.height[parentJump]!;
    this.selectedParent[index] = parent;
    this.height[index] = parentHeight + 1;
    this.jump[index] = parentHeight - jumpHeight === jumpHeight - this.height[parentJumpJump]! ? parentJumpJump : parent;

    const merged = Array.from(mergesetWithoutSelectedParent, (id) => this.indexOf(id));
    this.indexById.set(block, index);
    for (const mergedIndex of merged) (this.futureCoveringSets[mergedIndex] ??= []).push(index);
  }

  /** `ancestor ∈ chain(block) ∪ {block}`, following selected parents. */
  isChainAncestorOf(ancestor: BlockId, block: BlockId): boolean {
    return this.isChainAncestorIndex(this.indexOf(ancestor), this.indexOf(block));
  }

  /** `ancestor ∈ past(block) ∪ {block}`. */
  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean {
    const ancestorIndex = this.indexOf(ancestor);
    const blockIndex = this.indexOf(block);
    if (this.isChainAncestorIndex(ancestorIndex, blockIndex)) return true;
    const coveringSet = this.futureCoveringSets[ancestorIndex];
    if (coveringSet === undefined) return false;
    for (const covering of coveringSet) {
      if (this.isChainAncestorIndex(covering, blockIndex)) return true;
    }
    return false;
  }

  private isChainAncestorIndex(ancestor: number, block: number): boolean {
    const targetHeight = this.height[ancestor]!;
    let current = block;
    let currentHeight = this.height[current]!;
    if (currentHeight < targetHeight) return false;
    while (currentHeight > targetHeight) {
      const jump = this.jump[current]!;
      const jumpHeight = this.height[jump]!;
      if (jumpHeight >= targetHeight) {
        current = jump;
        currentHeight = jumpHeight;
      } else {
        current = this.selectedParent[current]!;
        currentHeight -= 1;
      }
    }
    return current === ancestor;
  }

  private indexOf(block: BlockId): number {
    const index = this.indexById.get(block);
    if (index === undefined) throw new Error(`block ${block} is not in the reachability index`);
    return index;
  }

  private ensureCapacity(needed: number): void {
    if (needed <= this.height.length) return;
    const capacity = this.height.length * 2;
    const grow = (array: Int32Array): Int32Array => {
      const next = new Int32Array(capacity);
      next.set(array);
      return next;
    };
    this.selectedParent = grow(this.selectedParent);
    this.jump = grow(this.jump);
    this.height = grow(this.height);
  }
}
