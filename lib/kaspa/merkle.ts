/**
 * Kaspa merkle trees (crypto/merkle/src/lib.rs, consensus/core/src/merkle.rs) and the header roots built on them.
 * Shape: leaves are paired left to right; an odd node at the end of a level is paired with ZERO_HASH (never
 * duplicated), and a subtree with no leaves at all contributes nothing. 0 leaves give ZERO_HASH, 1 leaf is the root.
 */
import { compareBytes, concatBytes } from './bytes';
import { blake2bKeyed, ZERO_HASH } from './hashing';
import { serializeTransaction, transactionHash } from './transaction';
import type { Hash, Transaction } from './types';

export type MerkleBranchHasher = (left: Hash, right: Hash) => Hash;

export function merkleBranchHash(left: Hash, right: Hash): Hash {
  return blake2bKeyed('MerkleBranchHash', concatBytes(left, right));
}

export function merkleRoot(leaves: readonly Hash[], branchHash: MerkleBranchHasher = merkleBranchHash): Hash {
  if (leaves.length === 0) return ZERO_HASH;
  let level = leaves;
  while (level.length > 1) {
    const next: Hash[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(branchHash(level[i]!, level[i + 1] ?? ZERO_HASH));
    level = next;
  }
  return level[0]!;
}

/** The header's hash_merkle_root: transaction hashes (mass commitment included) in block order. */
export function hashMerkleRoot(transactions: readonly Transaction[]): Hash {
  return merkleRoot(transactions.map(transactionHash));
}

/** Before Crescendo the leaves were transaction hashes without the storage-mass commitment. */
export function hashMerkleRootPreCrescendo(transactions: readonly Transaction[]): Hash {
  return merkleRoot(
    transactions.map((tx) => blake2bKeyed('TransactionHash', serializeTransaction(tx, { excludeMassCommit: true }))),
  );
}

/** Pre-Crescendo accepted_id_merkle_root: the merkle root of the accepted transaction ids sorted by bytes. */
export function acceptedIdMerkleRootPreCrescendo(acceptedTxIds: readonly Hash[]): Hash {
  return merkleRoot([...acceptedTxIds].sort(compareBytes));
}

/**
 * Crescendo-era (KIP-15, until Toccata) accepted_id_merkle_root: chains the selected parent's root with the merkle
 * root of the accepted ids in consensus mergeset order (v1.0.1 / v2.0.1
 * consensus/src/pipeline/virtual_processor/utxo_validation.rs::calc_accepted_id_merkle_root).
 */
export function acceptedIdMerkleRoot(
  selectedParentAcceptedIdMerkleRoot: Hash,
  acceptedTxIdsInMergesetOrder: readonly Hash[],
): Hash {
  return merkleBranchHash(selectedParentAcceptedIdMerkleRoot, merkleRoot(acceptedTxIdsInMergesetOrder));
}
