/**
 * Walks over the stored DAG that answer sync queries (kaspad's sync/mod.rs and traversal_manager.rs).
 *
 * Invariant: they only read the store, so answering a peer can never disturb consensus state.
 */
import type { Hash } from '../../kaspa/types';
import type { ConsensusStore } from './consensus-store';
import { blockIdOf, consensusOrderedMergeset, mergesetSize, type BlockId } from './ghostdag';

/**
 * rpc/service get_blocks_call over consensus `get_hashes_between` (sync/mod.rs `antipast_hashes_between`): `low`,
 * then each chain block's mergeset in consensus order from the common chain ancestor up to the sink (blocks in
 * past(low) left out), the sink, then the sink's anticone as seen from the virtual's parents. Without `low`, or
 * from genesis once it is pruned, the walk starts at the pruning point, the oldest block a pruned node can list.
 */
export function blocksFrom(store: ConsensusStore, lowHash: Hash | undefined, virtualParents: readonly BlockId[], maxBlocks: number): Hash[] {
  const requested = lowHash === undefined ? store.genesisId : blockIdOf(lowHash);
  const low = requested === store.genesisId && store.pastPruningPoint.has(requested) ? store.pruningPointId : requested;
  if (store.unprunedRecord(low) === undefined) throw new Error(`unknown block ${low}`);
  let common = low;
  while (!store.isChainAncestorOf(common, store.sinkId)) common = store.record(common).ghostdag.selectedParent;
  const between: BlockId[] = [];
  let highestReached = common;
  for (const current of store.forwardChain(common, store.sinkId)) {
    const ghostdag = store.record(current).ghostdag;
    if (between.length + mergesetSize(ghostdag) > maxBlocks) break;
    for (const block of consensusOrderedMergeset(ghostdag, store)) {
      if (!store.isDagAncestorOf(block, low)) between.push(block);
    }
    highestReached = current;
  }
  if (highestReached !== common) between.push(highestReached);
  const anticone = highestReached === store.sinkId ? anticoneOf(store, store.sinkId, virtualParents) : [];
  return [low, ...between, ...anticone].map((id) => store.record(id).hash);
}

/** traversal_manager.rs `anticone`: a breadth-first walk down from the virtual's parents, skipping past(block). */
function anticoneOf(store: ConsensusStore, block: BlockId, virtualParents: readonly BlockId[]): BlockId[] {
  const queue = [...virtualParents];
  const visited = new Set(queue);
  const output: BlockId[] = [];
  for (let next = 0; next < queue.length; next++) {
    const current = queue[next]!;
    if (store.isDagAncestorOf(current, block)) continue;
    if (!store.isDagAncestorOf(block, current)) output.push(current);
    for (const parent of store.record(current).parents) {
      if (!visited.has(parent)) {
        visited.add(parent);
        queue.push(parent);
      }
    }
  }
  return output;
}
