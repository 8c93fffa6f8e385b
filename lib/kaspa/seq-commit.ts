/**
 * KIP-21 sequencing-commitment hashes (consensus/seq-commit/src/hashing.rs). From Toccata on, a header's
 * accepted_id_merkle_root holds seqCommit(parent's commitment, state root), where
 *   stateRoot = H_seq(activityRoot ‖ payloadAndContextDigest),
 *   payloadAndContextDigest = H_seq(contextHash ‖ payloadRoot),
 *   activityRoot = SeqCommitActivityRoot(inactivityShortcut ‖ lanesRoot).
 * The lanes root is a sparse merkle tree over active lanes and is not computed here.
 */
import { ByteWriter, concatBytes } from './bytes';
import { blake3Keyed } from './hashing';
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

export interface MergesetContext {
  /** The selected parent's timestamp. */
  timestamp: bigint;
  daaScore: bigint;
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
