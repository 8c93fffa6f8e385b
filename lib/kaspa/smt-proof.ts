/**
 * Active-lanes tree proofs (crypto/smt/src/proof.rs) and the lane proof kaspad's `getSeqCommitLaneProof` returns
 * (rpc/core/src/model/message.rs GetSeqCommitLaneProofResponse, checked as consensus/seq-commit/src/verify.rs does).
 *
 * Wire format: bitmap[32] ‖ terminal tag ‖ terminal payload ‖ siblings[n × 32]. Bit d of the bitmap (byte d / 8, bit
 * d % 8 counted from the least significant) is set when the sibling at depth d is an empty subtree and therefore
 * omitted; the other siblings follow top-down, up to the depth where the walk ended. Terminal tags: 0 Full (the walk
 * reached depth 256 or an empty subtree), 1 Collapsed (depth: the queried lane's single-lane subtree), 2
 * CollapsedOther (depth, lane key, leaf hash: another lane's single-lane subtree, a non-inclusion witness).
 */
import { bytesToHex, concatBytes, equalBytes } from './bytes';
import { HASH_SIZE, ZERO_HASH } from './hashing';
import {
  activeCollapsedHash,
  activeLaneLeafHash,
  activeNodeHash,
  activityRootHash,
  emptySubtreeHash,
  keyBit,
  seqCommit,
  seqStateRoot,
  SMT_DEPTH,
} from './seq-commit';
import type { Hash } from './types';

export const EMPTY_PROOF_BITMAP_BYTES = SMT_DEPTH / 8;

export type SmtProofTerminal =
  | { kind: 'Full' }
  | { kind: 'Collapsed'; depth: number }
  | { kind: 'CollapsedOther'; depth: number; laneKey: Hash; leafHash: Hash };

export interface SmtProof {
  bitmap: Uint8Array;
  /** The non-empty siblings, shallowest first. */
  siblings: Hash[];
  terminal: SmtProofTerminal;
}

export class SmtProofError extends Error {
  override name = 'SmtProofError';
}

const TAG_FULL = 0;
const TAG_COLLAPSED = 1;
const TAG_COLLAPSED_OTHER = 2;

function terminalDepth(terminal: SmtProofTerminal): number {
  return terminal.kind === 'Full' ? SMT_DEPTH : terminal.depth;
}

function siblingIsEmpty(bitmap: Uint8Array, depth: number): boolean {
  return (bitmap[depth >> 3]! & (1 << (depth & 7))) !== 0;
}

function expectedSiblingCount(bitmap: Uint8Array, terminal: SmtProofTerminal): number {
  let count = 0;
  for (let d = 0; d < terminalDepth(terminal); d++) if (!siblingIsEmpty(bitmap, d)) count++;
  return count;
}

export function encodeSmtProof(proof: SmtProof): Uint8Array {
  const { terminal } = proof;
  const head =
    terminal.kind === 'Full'
      ? [TAG_FULL]
      : terminal.kind === 'Collapsed'
        ? [TAG_COLLAPSED, terminal.depth]
        : [TAG_COLLAPSED_OTHER, terminal.depth];
  const other = terminal.kind === 'CollapsedOther' ? [terminal.laneKey, terminal.leafHash] : [];
  return concatBytes(proof.bitmap, Uint8Array.from(head), ...other, ...proof.siblings);
}

/** Parses the wire format; throws SmtProofError when it is truncated or its sibling count disagrees with the bitmap. */
export function decodeSmtProof(bytes: Uint8Array): SmtProof {
  if (bytes.length < EMPTY_PROOF_BITMAP_BYTES + 1) throw new SmtProofError(`an SMT proof needs at least 33 bytes, got ${bytes.length}`);
  const bitmap = bytes.slice(0, EMPTY_PROOF_BITMAP_BYTES);
  const tag = bytes[EMPTY_PROOF_BITMAP_BYTES]!;
  let offset = EMPTY_PROOF_BITMAP_BYTES + 1;
  const take = (length: number) => {
    if (offset + length > bytes.length) throw new SmtProofError('the SMT proof is truncated');
    const part = bytes.slice(offset, offset + length);
    offset += length;
    return part;
  };
  let terminal: SmtProofTerminal;
  if (tag === TAG_FULL) {
    terminal = { kind: 'Full' };
  } else if (tag === TAG_COLLAPSED) {
    terminal = { kind: 'Collapsed', depth: take(1)[0]! };
  } else if (tag === TAG_COLLAPSED_OTHER) {
    const depth = take(1)[0]!;
    terminal = { kind: 'CollapsedOther', depth, laneKey: take(HASH_SIZE), leafHash: take(HASH_SIZE) };
  } else {
    throw new SmtProofError(`unknown SMT proof terminal tag ${tag}`);
  }
  const rest = bytes.length - offset;
  const expected = expectedSiblingCount(bitmap, terminal);
  if (rest !== expected * HASH_SIZE) {
    throw new SmtProofError(`sibling count mismatch: the bitmap implies ${expected} non-empty siblings, got ${rest} bytes`);
  }
  const siblings = Array.from({ length: expected }, () => take(HASH_SIZE));
  return { bitmap, siblings, terminal };
}

/**
 * The lanes root `proof` implies for `laneKey` holding `leafHash` (null: absent), as `SmtProof::compute_root` does.
 * Throws SmtProofError when the sibling count disagrees with the bitmap.
 */
export function smtProofRoot(proof: SmtProof, laneKey: Hash, leafHash: Hash | null): Hash {
  const { bitmap, siblings, terminal } = proof;
  const expected = expectedSiblingCount(bitmap, terminal);
  if (siblings.length !== expected) {
    throw new SmtProofError(`sibling count mismatch: the bitmap implies ${expected} non-empty siblings, got ${siblings.length}`);
  }
  let current: Hash;
  if (leafHash) {
    current = activeCollapsedHash(laneKey, leafHash);
  } else if (terminal.kind === 'CollapsedOther' && !equalBytes(terminal.laneKey, laneKey)) {
    current = activeCollapsedHash(terminal.laneKey, terminal.leafHash);
  } else {
    current = ZERO_HASH;
  }
  let next = siblings.length;
  for (let d = terminalDepth(terminal) - 1; d >= 0; d--) {
    const sibling = siblingIsEmpty(bitmap, d) ? emptySubtreeHash(SMT_DEPTH - 1 - d) : siblings[--next]!;
    current = keyBit(laneKey, d) ? activeNodeHash(sibling, current) : activeNodeHash(current, sibling);
  }
  return current;
}

export function verifySmtProof(proof: SmtProof, laneKey: Hash, leafHash: Hash | null, root: Hash): boolean {
  return equalBytes(smtProofRoot(proof, laneKey, leafHash), root);
}

/** What `getSeqCommitLaneProof` returns for a chain block and a lane key. */
export interface SeqCommitLaneProof {
  /** The wire-format SMT proof. */
  smtProof: Uint8Array;
  /** The lane's state at the block, or null (the proof is then a non-inclusion proof). */
  lane: { tip: Hash; blueScore: bigint } | null;
  payloadAndContextDigest: Hash;
  parentSeqCommit: Hash;
  inactivityShortcut: Hash;
}

export type LaneProofVerdict =
  | { valid: true; lanesRoot: Hash }
  | { valid: false; reason: 'ParentSeqCommitMismatch' | 'SeqCommitMismatch' | 'MalformedProof'; detail: string };

/**
 * Checks a lane proof against the block's seq commit (its header's accepted_id_merkle_root) and, when given, the
 * selected parent's: the proof's lanes root folds with the other components into exactly `expectedSeqCommit`.
 */
export function verifySeqCommitLaneProof(
  laneKey: Hash,
  proof: SeqCommitLaneProof,
  expectedSeqCommit: Hash,
  expectedParentSeqCommit?: Hash,
): LaneProofVerdict {
  if (expectedParentSeqCommit && !equalBytes(expectedParentSeqCommit, proof.parentSeqCommit)) {
    return {
      valid: false,
      reason: 'ParentSeqCommitMismatch',
      detail: `parent_seq_commit mismatch: expected ${bytesToHex(expectedParentSeqCommit)}, got ${bytesToHex(proof.parentSeqCommit)}`,
    };
  }
  let lanesRoot: Hash;
  try {
    const leafHash = proof.lane ? activeLaneLeafHash(proof.lane.tip, proof.lane.blueScore) : null;
    lanesRoot = smtProofRoot(decodeSmtProof(proof.smtProof), laneKey, leafHash);
  } catch (error) {
    if (error instanceof SmtProofError) return { valid: false, reason: 'MalformedProof', detail: error.message };
    throw error;
  }
  const activityRoot = activityRootHash(proof.inactivityShortcut, lanesRoot);
  const computed = seqCommit(proof.parentSeqCommit, seqStateRoot(activityRoot, proof.payloadAndContextDigest));
  if (!equalBytes(computed, expectedSeqCommit)) {
    return {
      valid: false,
      reason: 'SeqCommitMismatch',
      detail: `seq_commit mismatch: expected ${bytesToHex(expectedSeqCommit)}, computed ${bytesToHex(computed)}`,
    };
  }
  return { valid: true, lanesRoot };
}
