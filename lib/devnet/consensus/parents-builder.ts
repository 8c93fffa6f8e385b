/**
 * Parents by level (consensus/src/processes/parents_builder.rs, `calc_block_parents`). Level 0 holds the direct
 * parents; level L > 0 holds the antichain of the closest level-≥L blocks in the past, found from the direct parents'
 * own level-L parents. The list stops before the first level above 0 whose parents are just genesis.
 *
 * The devnet never prunes. For stores that do know pruned blocks (the rusty-kaspa test vector), a pruned grandparent
 * is kept only when it comes from the first parent, as in rusty-kaspa, but is never compared with later candidates
 * (rusty-kaspa compares through the children of ORIGIN instead, which needs pruning-point anticone data the devnet
 * never has). Within a level the order follows rusty-kaspa's insertion order; kaspad compares levels as sets once
 * Crescendo is active, so the order carries no consensus meaning.
 */
import type { BlockId } from './ghostdag';

export interface ParentsStore {
  /** The header's parents by level; genesis has none. */
  parentsByLevel(block: BlockId): readonly (readonly BlockId[])[];
  /** The block level from its PoW; genesis sits at the maximum level. */
  blockLevel(block: BlockId): number;
  /** Reflexive. Only asked about blocks that have reachability data. */
  isDagAncestorOf(ancestor: BlockId, block: BlockId): boolean;
  /** False for pruned blocks; every block of a store that never prunes has reachability data. */
  hasReachabilityData?(block: BlockId): boolean;
}

export function parentsAtLevel(store: ParentsStore, genesis: BlockId, block: BlockId, level: number): readonly BlockId[] {
  const levels = store.parentsByLevel(block);
  if (levels.length === 0) return [];
  return levels[level] ?? [genesis];
}

/** Expects at least one direct parent in the future of `pruningPoint` (inclusive); it is processed first. */
export function calcBlockParents(
  store: ParentsStore,
  genesis: BlockId,
  maxBlockLevel: number,
  pruningPoint: BlockId,
  givenParents: readonly BlockId[],
): BlockId[][] {
  const hasReachabilityData = (block: BlockId) => store.hasReachabilityData?.(block) ?? true;
  const firstInFuture = givenParents.findIndex((parent) => store.isDagAncestorOf(pruningPoint, parent));
  if (firstInFuture < 0) throw new Error('no parent is in the future of the pruning point');
  const directParents = [...givenParents];
  [directParents[0], directParents[firstInFuture]] = [directParents[firstInFuture]!, directParents[0]!];
  const first = directParents[0]!;
  const parents: BlockId[][] = [];
  for (let level = 0; level <= maxBlockLevel; level++) {
    const candidates = directParents.filter((parent) => store.blockLevel(parent) >= level);
    let grandparents: BlockId[];
    let firstParentMarker = 0;
    if (candidates.length === 0) {
      const ordered = new Set(parentsAtLevel(store, genesis, first, level));
      firstParentMarker = ordered.size;
      for (const parent of directParents.slice(1)) {
        for (const grandparent of parentsAtLevel(store, genesis, parent, level)) ordered.add(grandparent);
      }
      grandparents = [...ordered];
    } else {
      const ordered = new Set<BlockId>();
      for (const parent of directParents) {
        if (level <= store.blockLevel(parent)) continue;
        for (const grandparent of parentsAtLevel(store, genesis, parent, level)) ordered.add(grandparent);
      }
      grandparents = [...ordered];
    }

    let levelParents: BlockId[];
    if (candidates.length === 0 && firstParentMarker === grandparents.length) {
      levelParents = grandparents;
    } else {
      let current = candidates;
      grandparents.forEach((parent, index) => {
        if (index < firstParentMarker) {
          if (!current.includes(parent)) current.push(parent);
          return;
        }
        if (!hasReachabilityData(parent)) return;
        const comparable = (candidate: BlockId) => hasReachabilityData(candidate);
        const kept = current.filter((candidate) => !comparable(candidate) || !store.isDagAncestorOf(candidate, parent));
        const anyCandidateAncestor = kept.length < current.length;
        current = kept;
        if (anyCandidateAncestor || !current.some((candidate) => comparable(candidate) && store.isDagAncestorOf(parent, candidate))) {
          if (!current.includes(parent)) current.push(parent);
        }
      });
      levelParents = current;
    }

    if (level > 0 && levelParents.length === 1 && levelParents[0] === genesis) break;
    parents.push(levelParents);
  }
  return parents;
}
