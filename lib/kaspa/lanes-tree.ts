/**
 * The KIP-21 active-lanes sparse merkle tree (crypto/smt/src/tree.rs), kept as a persistent binary trie: every update
 * returns a new tree that shares all untouched nodes with the old one, so a caller can hold on to the state of each
 * recent chain block and revert by going back to it, or by applying a block's changes inversely.
 *
 * Hash semantics (identical to rusty-kaspa's store-backed tree): a subtree with no lanes hashes to
 * emptySubtreeHash(height); a subtree with exactly one lane, at any height, to activeCollapsedHash(lane key, leaf hash);
 * any other subtree to activeNodeHash(left, right). The trie stores only the nodes where both sides hold lanes; the
 * single-sided levels above such a node are folded in on demand (and memoised), so an update costs O(depth) hashes.
 *
 * Each node also carries the lowest blue score below it, which finds the lanes to expire in time proportional to them.
 */
import { equalBytes } from './bytes';
import { activeCollapsedHash, activeLaneLeafHash, activeNodeHash, emptySubtreeHash, keyBit, SMT_DEPTH } from './seq-commit';
import { EMPTY_PROOF_BITMAP_BYTES, type SmtProof } from './smt-proof';
import type { Hash } from './types';

/** A lane's state: its tip hash and the blue score of the chain block that last touched it. */
export interface LaneEntry {
  tip: Hash;
  blueScore: bigint;
}

export interface LaneRecord {
  laneKey: Hash;
  entry: LaneEntry;
}

/** One lane's transition in a block: `before` and `after` are null where the lane is absent (new, or expired). */
export interface LaneChange {
  laneKey: Hash;
  before: LaneEntry | null;
  after: LaneEntry | null;
}

interface Leaf {
  readonly kind: 'leaf';
  readonly key: Hash;
  readonly entry: LaneEntry;
  readonly leafHash: Hash;
  /** The subtree hash: activeCollapsedHash(key, leafHash). */
  readonly hash: Hash;
  readonly minBlueScore: bigint;
  readonly size: number;
}

interface Branch {
  readonly kind: 'branch';
  /** The first bit where the two sides differ; both sides share bits [0, split) with `key`. */
  readonly split: number;
  readonly left: TrieNode;
  readonly right: TrieNode;
  /** A key below this node (its leftmost lane's). */
  readonly key: Hash;
  /** The hash of this subtree at depth `split`. */
  readonly hash: Hash;
  readonly minBlueScore: bigint;
  readonly size: number;
  /** The hash last folded up to a shallower depth (the parent's split + 1). */
  memo?: { depth: number; hash: Hash };
}

type TrieNode = Leaf | Branch;

/** Blue scores are u64. */
const ABOVE_ANY_BLUE_SCORE = 1n << 64n;

/** The first bit where `a` and `b` differ, or SMT_DEPTH when they are equal. */
function firstDifferingBit(a: Hash, b: Hash): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! ^ b[i]!;
    if (x !== 0) return i * 8 + Math.clz32(x) - 24;
  }
  return SMT_DEPTH;
}

/** The hash `node`'s subtree contributes at `depth` (at most the node's own depth). */
function hashAt(node: TrieNode, depth: number): Hash {
  if (node.kind === 'leaf' || depth === node.split) return node.hash;
  if (node.memo?.depth === depth) return node.memo.hash;
  let hash = node.hash;
  for (let level = node.split - 1; level >= depth; level--) {
    const empty = emptySubtreeHash(SMT_DEPTH - 1 - level);
    hash = keyBit(node.key, level) ? activeNodeHash(empty, hash) : activeNodeHash(hash, empty);
  }
  node.memo = { depth, hash };
  return hash;
}

function makeLeaf(key: Hash, entry: LaneEntry): Leaf {
  if (key.length !== 32) throw new RangeError(`a lane key is 32 bytes, got ${key.length}`);
  const leafHash = activeLaneLeafHash(entry.tip, entry.blueScore);
  return { kind: 'leaf', key, entry, leafHash, hash: activeCollapsedHash(key, leafHash), minBlueScore: entry.blueScore, size: 1 };
}

function makeBranch(split: number, a: TrieNode, b: TrieNode): Branch {
  const [left, right] = keyBit(a.key, split) ? [b, a] : [a, b];
  return {
    kind: 'branch',
    split,
    left,
    right,
    key: left.key,
    hash: activeNodeHash(hashAt(left, split + 1), hashAt(right, split + 1)),
    minBlueScore: left.minBlueScore < right.minBlueScore ? left.minBlueScore : right.minBlueScore,
    size: left.size + right.size,
  };
}

function insert(node: TrieNode | null, leaf: Leaf): TrieNode {
  if (!node) return leaf;
  const diff = firstDifferingBit(node.key, leaf.key);
  if (node.kind === 'leaf') return diff === SMT_DEPTH ? leaf : makeBranch(diff, node, leaf);
  if (diff < node.split) return makeBranch(diff, node, leaf);
  return keyBit(leaf.key, node.split)
    ? makeBranch(node.split, node.left, insert(node.right, leaf))
    : makeBranch(node.split, insert(node.left, leaf), node.right);
}

function remove(node: TrieNode | null, key: Hash): TrieNode | null {
  if (!node) return null;
  if (node.kind === 'leaf') return equalBytes(node.key, key) ? null : node;
  if (firstDifferingBit(node.key, key) < node.split) return node;
  const goesRight = keyBit(key, node.split);
  const child = goesRight ? node.right : node.left;
  const updated = remove(child, key);
  if (updated === child) return node;
  const other = goesRight ? node.left : node.right;
  if (!updated) return other;
  return goesRight ? makeBranch(node.split, node.left, updated) : makeBranch(node.split, updated, node.right);
}

function find(node: TrieNode | null, key: Hash): Leaf | null {
  while (node?.kind === 'branch') node = keyBit(key, node.split) ? node.right : node.left;
  return node && equalBytes(node.key, key) ? node : null;
}

function sameEntry(a: LaneEntry | null, b: LaneEntry | null): boolean {
  if (!a || !b) return a === b;
  return a.blueScore === b.blueScore && equalBytes(a.tip, b.tip);
}

export class LaneChangeMismatchError extends Error {
  override name = 'LaneChangeMismatchError';
}

export class LanesTree {
  private rootHashMemo?: Hash;

  private constructor(private readonly top: TrieNode | null) {}

  static readonly EMPTY = new LanesTree(null);

  static fromRecords(records: Iterable<LaneRecord>): LanesTree {
    let top: TrieNode | null = null;
    for (const { laneKey, entry } of records) top = insert(top, makeLeaf(laneKey, entry));
    return new LanesTree(top);
  }

  /** The number of active lanes. */
  get size(): number {
    return this.top?.size ?? 0;
  }

  /** The lanes root committed in activity_root. */
  get root(): Hash {
    return (this.rootHashMemo ??= this.top ? hashAt(this.top, 0) : emptySubtreeHash(SMT_DEPTH));
  }

  get(laneKey: Hash): LaneEntry | null {
    return find(this.top, laneKey)?.entry ?? null;
  }

  set(laneKey: Hash, entry: LaneEntry): LanesTree {
    return new LanesTree(insert(this.top, makeLeaf(laneKey, entry)));
  }

  delete(laneKey: Hash): LanesTree {
    const top = remove(this.top, laneKey);
    return top === this.top ? this : new LanesTree(top);
  }

  /** Applies each change's `after`, checking that the lane currently holds its `before` (LaneChangeMismatchError). */
  apply(changes: readonly LaneChange[]): LanesTree {
    return this.transition(changes, (change) => [change.before, change.after]);
  }

  /** Undoes `changes` (as returned for the block that produced this tree): restores each lane's `before`. */
  revert(changes: readonly LaneChange[]): LanesTree {
    return this.transition([...changes].reverse(), (change) => [change.after, change.before]);
  }

  private transition(changes: readonly LaneChange[], ends: (change: LaneChange) => [LaneEntry | null, LaneEntry | null]): LanesTree {
    let top = this.top;
    for (const change of changes) {
      const [from, to] = ends(change);
      if (!sameEntry(find(top, change.laneKey)?.entry ?? null, from)) {
        throw new LaneChangeMismatchError('a lane change does not start from the lane state it was computed against');
      }
      top = to ? insert(top, makeLeaf(change.laneKey, to)) : remove(top, change.laneKey);
    }
    return new LanesTree(top);
  }

  /** The lanes last touched below `blueScore`, in key order. */
  lanesBelow(blueScore: bigint): LaneRecord[] {
    const found: LaneRecord[] = [];
    const visit = (node: TrieNode | null) => {
      if (!node || node.minBlueScore >= blueScore) return;
      if (node.kind === 'leaf') {
        found.push({ laneKey: node.key, entry: node.entry });
        return;
      }
      visit(node.left);
      visit(node.right);
    };
    visit(this.top);
    return found;
  }

  /** Every lane in key order. */
  records(): LaneRecord[] {
    return this.lanesBelow(ABOVE_ANY_BLUE_SCORE);
  }

  /**
   * The inclusion or non-inclusion proof of `laneKey`, exactly as rusty-kaspa's `SparseMerkleTree::prove` (and so
   * `getSeqCommitLaneProof`) returns it: one bitmap bit per depth whose sibling is an empty subtree, the other siblings
   * top-down, and where the walk ended.
   */
  prove(laneKey: Hash): SmtProof {
    const bitmap = new Uint8Array(EMPTY_PROOF_BITMAP_BYTES);
    const siblings: Hash[] = [];
    const markEmptyFrom = (depth: number) => {
      for (let d = depth; d < SMT_DEPTH; d++) bitmap[d >> 3]! |= 1 << (d & 7);
    };
    let node = this.top;
    let depth = 0;
    while (node?.kind === 'branch') {
      const diff = firstDifferingBit(node.key, laneKey);
      for (let level = depth; level < node.split; level++) {
        if (level === diff) {
          siblings.push(hashAt(node, level + 1));
          markEmptyFrom(level + 1);
          return { bitmap, siblings, terminal: { kind: 'Full' } };
        }
        bitmap[level >> 3]! |= 1 << (level & 7);
      }
      const goesRight = keyBit(laneKey, node.split);
      siblings.push(hashAt(goesRight ? node.left : node.right, node.split + 1));
      depth = node.split + 1;
      node = goesRight ? node.right : node.left;
    }
    if (!node || depth === SMT_DEPTH) {
      markEmptyFrom(depth);
      return { bitmap, siblings, terminal: { kind: 'Full' } };
    }
    markEmptyFrom(depth);
    const terminal: SmtProof['terminal'] = equalBytes(node.key, laneKey)
      ? { kind: 'Collapsed', depth }
      : { kind: 'CollapsedOther', depth, laneKey: node.key, leafHash: node.leafHash };
    return { bitmap, siblings, terminal };
  }
}
