/**
 * Consensus data types. Byte fields are Uint8Array (hashes are 32 bytes in natural order, as rusty-kaspa
 * prints them) and u64 quantities are bigint, so nothing is ever rounded.
 */

export type Hash = Uint8Array;

export interface Outpoint {
  transactionId: Hash;
  index: number;
}

export interface TransactionInput {
  previousOutpoint: Outpoint;
  signatureScript: Uint8Array;
  sequence: bigint;
  /** Version 0 inputs commit to a sig-op count (u8). */
  sigOpCount: number;
  /** Version 1 inputs commit to a compute budget (u16) instead. */
  computeBudget?: number;
}

export interface ScriptPublicKey {
  version: number;
  script: Uint8Array;
}

export interface Covenant {
  authorizingInput: number;
  covenantId: Hash;
}

export interface TransactionOutput {
  value: bigint;
  scriptPublicKey: ScriptPublicKey;
  covenant?: Covenant | null;
}

export interface Transaction {
  version: number;
  inputs: TransactionInput[];
  outputs: TransactionOutput[];
  lockTime: bigint;
  subnetworkId: Uint8Array;
  gas: bigint;
  payload: Uint8Array;
  /** The storage-mass commitment (formerly `mass`). */
  storageMass: bigint;
}

export interface Header {
  version: number;
  /** Expanded parents, level 0 first; level 0 holds the direct parents. */
  parentsByLevel: Hash[][];
  hashMerkleRoot: Hash;
  acceptedIdMerkleRoot: Hash;
  utxoCommitment: Hash;
  /** Milliseconds since the Unix epoch. */
  timestamp: bigint;
  bits: number;
  nonce: bigint;
  daaScore: bigint;
  blueScore: bigint;
  /** Unsigned 192-bit value. */
  blueWork: bigint;
  pruningPoint: Hash;
}

/** A block as consensus sees it: the header and its transactions, coinbase first. */
export interface Block {
  header: Header;
  transactions: Transaction[];
}

export interface UtxoEntry {
  amount: bigint;
  scriptPublicKey: ScriptPublicKey;
  blockDaaScore: bigint;
  isCoinbase: boolean;
  /** Post-Toccata: the covenant the output was bound to, if any (part of the MuHash element and the storage plurality). */
  covenantId?: Hash | null;
}

export const SUBNETWORK_ID_SIZE = 20;
export const SUBNETWORK_ID_NATIVE = new Uint8Array(SUBNETWORK_ID_SIZE);
export const SUBNETWORK_ID_COINBASE = (() => {
  const id = new Uint8Array(SUBNETWORK_ID_SIZE);
  id[0] = 1;
  return id;
})();
