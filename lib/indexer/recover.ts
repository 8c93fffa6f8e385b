/**
 * Finding the way back when the node does not know the checkpoint (a node that lost its newest blocks, was resynced
 * or replaced, or pruned past the index): the newest stored chain block the node still knows.
 *
 * The stored chain blocks the node knows are those below the point where its chain and the index's part (a lost tail,
 * a reorganisation the index never saw), so probing walks back from the checkpoint with doubling steps and then
 * bisects between the last unknown and the first known block: about 2·log2(n) probes for a chain of n stored blocks,
 * never a probe per block.
 */
import { countChainBlocksUpTo, readChainBlockAtDepth, type ChainPosition, type Queryable, type StoredChainBlock } from '../db';
import { bytesToHex } from '../kaspa/bytes';
import { RpcRejectedError, type RpcClient } from '../rpc';

/** Whether the node has the block: any refusal (kaspad's "cannot find header …", a block without its body) is no. */
export async function nodeKnowsBlock(rpc: RpcClient, hash: string): Promise<boolean> {
  try {
    await rpc.call('getBlock', { hash, includeTransactions: false });
    return true;
  } catch (error) {
    if (error instanceof RpcRejectedError) return false;
    throw error;
  }
}

export interface KnownChainBlock {
  block: StoredChainBlock;
  /** Stored chain blocks above it, up to the walk's starting point. */
  depth: number;
}

/** The newest stored chain block at or below `from` that the node knows, or null when it knows none of them. */
export async function newestKnownChainBlock(
  rpc: RpcClient,
  db: Queryable,
  from: ChainPosition,
): Promise<KnownChainBlock | null> {
  const count = await countChainBlocksUpTo(db, from);
  const knownAt = async (depth: number): Promise<StoredChainBlock | null> => {
    const block = await readChainBlockAtDepth(db, from, depth);
    if (block === null) throw new Error(`the stored chain changed while walking it back (depth ${depth})`);
    return (await nodeKnowsBlock(rpc, bytesToHex(block.hash))) ? block : null;
  };
  let unknownDepth = -1;
  let known: KnownChainBlock | null = null;
  for (let step = 1; known === null && unknownDepth < count - 1; step *= 2) {
    const depth = Math.min(unknownDepth + step, count - 1);
    const block = await knownAt(depth);
    if (block === null) unknownDepth = depth;
    else known = { block, depth };
  }
  if (known === null) return null;
  while (known.depth - unknownDepth > 1) {
    const depth: number = unknownDepth + Math.floor((known.depth - unknownDepth) / 2);
    const block = await knownAt(depth);
    if (block === null) unknownDepth = depth;
    else known = { block, depth };
  }
  return known;
}
