/**
 * KIP-21 sequencing-commitment hashes (consensus/seq-commit/src/hashing.rs). From Toccata on, a header's
 * accepted_id_merkle_root holds seqCommit(parent's commitment, state root), where
 *   stateRoot = H_seq(activityRoot ‖ payloadAndContextDigest),
 *   payloadAndContextDigest = H_seq(contextHash ‖ payloadRoot),
 *   activityRoot = SeqCommitActivityRoot(inactivityShortcut ‖ lanesRoot).
 * The lanes root is the root of the active-lanes sparse merkle tree (lanes-tree.ts), whose node hashes are defined
 * here (crypto/smt/src/lib.rs, tree.rs); a whole block's commitment is computed in seq-commit-block.ts.
 */
import { ByteWriter, concatBytes, hexToBytes } from './bytes';
import { blake3Keyed, ZERO_HASH } from './hashing';
import { blueWorkToBytes } from './header';
import { merkleRoot } from './merkle';
import { payloadDigest } from './transaction';
import type { Hash } from './types';

/** H_seq: the BLAKE3 "SeqCommitmentMerkleBranchHash" node hash used by every seq-commit merkle tree. */
export function seqCommitBranchHash(left: Hash, right: Hash): Hash {
  return blake3Keyed('SeqCommitmentMerkleBranchHash', concatBytes(left, right));
}

/** The sparse-merkle-tree key of a lane (a 20-byte subnetwork id). */
export function laneKey(laneId: Uint8Array): Hash {
  return blake3Keyed('SeqCommitLaneKey', laneId);
}

/** `mergeIndex` counts accepted transactions across the whole mergeset (selected parent first). */
export function activityLeaf(txId: Hash, txVersion: number, mergeIndex: number): Hash {
  return blake3Keyed('SeqCommitActivityLeaf', new ByteWriter().bytes(txId).u16(txVersion).u32(mergeIndex).finish());
}

export function laneActivityDigest(activityLeaves: readonly Hash[]): Hash {
  return merkleRoot(activityLeaves, seqCommitBranchHash);
}

export interface LaneTipInput {
  /** The lane's previous tip, or the parent's seq commitment for a new or reactivated lane. */
  parentRef: Hash;
  laneKey: Hash;
  activityDigest: Hash;
  contextHash: Hash;
}

export function laneTipNext(input: LaneTipInput): Hash {
  return blake3Keyed(
    'SeqCommitLaneTip',
    concatBytes(input.parentRef, input.laneKey, input.activityDigest, input.contextHash),
  );
}

/** lane_key(SUBNETWORK_ID_COINBASE): the lane every chain block touches with its accepted coinbase transactions. */
export const COINBASE_LANE_KEY: Hash = hexToBytes('8aa78027db66a16cb69692ee0af5cb76738ef80ad14c9d13920d7fa3cc40b9e4');

/** The context a chain block commits to (recompute_seq_commit in consensus/src/pipeline/virtual_processor/utxo_validation.rs). */
export interface MergesetContext {
  /** The selected parent's timestamp (not the block's own). */
  timestamp: bigint;
  /** The block's DAA score. */
  daaScore: bigint;
  /** The block's blue score. */
  blueScore: bigint;
}

export function mergesetContextHash(context: MergesetContext): Hash {
  return blake3Keyed(
    'SeqCommitMergesetContext',
    new ByteWriter().u64(context.timestamp).u64(context.daaScore).u64(context.blueScore).finish(),
  );
}

export function activityRootHash(inactivityShortcut: Hash, lanesRoot: Hash): Hash {
  return blake3Keyed('SeqCommitActivityRoot', concatBytes(inactivityShortcut, lanesRoot));
}

export interface MinerPayloadLeafInput {
  blockHash: Hash;
  blueWork: bigint;
  coinbasePayload: Uint8Array;
}

export function minerPayloadLeaf(input: MinerPayloadLeafInput): Hash {
  const preimage = new ByteWriter()
    .bytes(input.blockHash)
    .varBytes(blueWorkToBytes(input.blueWork))
    .bytes(payloadDigest(input.coinbasePayload))
    .finish();
  return blake3Keyed('SeqCommitMinerPayloadLeaf', preimage);
}

/** One leaf per merged block, in mergeset order. */
export function minerPayloadRoot(leaves: readonly Hash[]): Hash {
  return merkleRoot(leaves, seqCommitBranchHash);
}

/** The value stored in the active-lanes sparse merkle tree for a lane. */
export function activeLaneLeafHash(laneTip: Hash, blueScore: bigint): Hash {
  return blake3Keyed('SeqCommitActiveLeaf', new ByteWriter().bytes(laneTip).u64(blueScore).finish());
}

export function payloadAndContextDigest(contextHash: Hash, payloadRoot: Hash): Hash {
  return seqCommitBranchHash(contextHash, payloadRoot);
}

export function seqStateRoot(activityRoot: Hash, payloadAndContext: Hash): Hash {
  return seqCommitBranchHash(activityRoot, payloadAndContext);
}

export function seqCommit(parentSeqCommit: Hash, stateRoot: Hash): Hash {
  return seqCommitBranchHash(parentSeqCommit, stateRoot);
}

/** Depth of the active-lanes sparse merkle tree: keys are 256-bit lane keys, split most significant bit first. */
export const SMT_DEPTH = 256;

/** An inner node of the active-lanes tree: SeqCommitActiveNode(left ‖ right). */
export function activeNodeHash(left: Hash, right: Hash): Hash {
  return blake3Keyed('SeqCommitActiveNode', concatBytes(left, right));
}

/** A subtree holding exactly one lane, at any height: SeqCommitActiveCollapsedNode(lane key ‖ leaf hash). */
export function activeCollapsedHash(laneKey: Hash, leafHash: Hash): Hash {
  return blake3Keyed('SeqCommitActiveCollapsedNode', concatBytes(laneKey, leafHash));
}

let emptySubtreeHashes: Hash[] | undefined;

/** The hash of an empty subtree of `height` levels: ZERO_HASH at 0, activeNodeHash(e, e) of the level below above it. */
export function emptySubtreeHash(height: number): Hash {
  if (!emptySubtreeHashes) {
    emptySubtreeHashes = [ZERO_HASH];
    for (let i = 1; i <= SMT_DEPTH; i++) emptySubtreeHashes.push(activeNodeHash(emptySubtreeHashes[i - 1]!, emptySubtreeHashes[i - 1]!));
  }
  const hash = emptySubtreeHashes[height];
  if (!hash) throw new RangeError(`no empty subtree of height ${height}`);
  return hash;
}

/** Bit `depth` of a 256-bit key, most significant bit of byte 0 first (crypto/smt `bit_at`). */
export function keyBit(key: Hash, depth: number): boolean {
  return (key[depth >> 3]! & (0x80 >> (depth & 7))) !== 0;
}
