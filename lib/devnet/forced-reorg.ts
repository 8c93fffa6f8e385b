/**
 * A reorganisation on demand (DevnetNode.forceReorg): a side branch mined on the node's own thread from a chain block
 * `depth` selected parents below the sink until it overtakes the selected chain.
 *
 * Invariant: the branch's blocks go through the same validateAndInsertBlock as any submitted block, so the chain
 * change, the notifications, the block log and the mempool's returned transactions follow from them exactly as they
 * would from blocks of miners that had been partitioned.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { bytesToHex, hexToBytes } from '../kaspa/bytes';
import { headerHash } from '../kaspa/header';
import { PowState } from '../kaspa/pow';
import type { Hash, ScriptPublicKey } from '../kaspa/types';
import type { Block, Consensus, VirtualChainChange } from './consensus/consensus';

export interface ForcedReorg {
  /** The chain block the side branch grew from (`depth` selected parents below the sink). */
  base: Hash;
  /** The side branch, oldest first; its last block is the new sink. */
  blocks: Hash[];
  /** The chain change the last side block caused. */
  change: VirtualChainChange;
}

function solveBlock(block: Block, random: () => number): Block {
  const pow = PowState.fromHeader(block.header);
  let low = Math.floor(random() * 0x1_0000_0000);
  const high = Math.floor(random() * 0x1_0000_0000);
  while (!pow.checkPowWords(low, high)) low = (low + 1) >>> 0;
  return { ...block, header: { ...block.header, nonce: (BigInt(high) << 32n) | BigInt(low) } };
}

export interface ForcedReorgOptions {
  depth: number;
  /** Pays the side branch's coinbases. */
  payScriptPublicKey: ScriptPublicKey;
  /** Prefixes the side branch's coinbase extra data. */
  serverVersion: string;
  /** Uniform in [0, 1): where each block's nonce search starts. */
  random: () => number;
}

export function forceReorg(consensus: Consensus, { depth, payScriptPublicKey, serverVersion, random }: ForcedReorgOptions): ForcedReorg {
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`depth must be a positive integer, got ${depth}`);
  let base = consensus.sink();
  for (let step = 0; step < depth; step++) {
    const info = consensus.getBlock(base)!;
    if (info.header.parentsByLevel.length === 0) throw new RangeError(`the selected chain is shorter than ${depth} blocks`);
    base = hexToBytes(info.ghostdag.selectedParent);
  }
  let change: VirtualChainChange | undefined;
  const stopWatching = consensus.events.on('virtualChainChanged', (observed) => {
    if (observed.removedChainBlockHashes.length > 0) change = observed;
  });
  const blocks: Hash[] = [];
  const extraData = utf8ToBytes(`${serverVersion}/dagboard-reorg`);
  const maxBlocks = 20 * depth + 100;
  try {
    let tip = base;
    while (change === undefined || bytesToHex(consensus.sink()) !== bytesToHex(tip)) {
      if (blocks.length >= maxBlocks) throw new Error(`the side branch did not overtake the chain within ${maxBlocks} blocks`);
      const template = consensus.buildBlockTemplate({ payScriptPublicKey, extraData, parents: [tip] }).block;
      const block = solveBlock(template, random);
      const result = consensus.validateAndInsertBlock(block, { allowNonDaaBlocks: true });
      if (result.type !== 'success') throw new Error(`side-branch block rejected: ${result.message}`);
      tip = headerHash(block.header);
      blocks.push(tip);
    }
  } finally {
    stopWatching();
  }
  return { base, blocks, change };
}
