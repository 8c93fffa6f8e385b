import type { Hash, Header, Outpoint, ScriptPublicKey } from '../kaspa/types';

/** What the indexer writes and the API reads. Hashes are 32-byte Uint8Array, u64 quantities bigint. */

export interface BlockRecord {
  hash: Hash;
  header: Header;
  /** Null only for genesis. */
  selectedParentHash: Hash | null;
  mergeSetBlues: Hash[];
  mergeSetReds: Hash[];
  difficulty: number;
  isChainBlock: boolean;
  /** In block order. */
  transactionIds: Hash[];
}

export interface OutputRecord {
  amount: bigint;
  scriptPublicKey: ScriptPublicKey;
  /** Null for scripts without an address form. */
  address: string | null;
  /** The script class name, e.g. `pubkey`, `scripthash`, `nonstandard`. */
  scriptType: string;
  /** KIP-20: the covenant the output is bound to (what its UTXO entry carries); null when unbound. */
  covenantId: Hash | null;
}

/** An output as its transaction carries it: with the binding's authorizing input (null exactly when unbound). */
export interface CreatedOutputRecord extends OutputRecord {
  authorizingInput: number | null;
}

export interface InputRecord {
  previousOutpoint: Outpoint;
  signatureScript: Uint8Array;
  sequence: bigint;
  sigOpCount: number;
  /** Committed by version 1 transactions (u16); 0 for version 0 inputs, as kaspad reports them. */
  computeBudget: number;
  /** The spent output; null while it is unknown (e.g. created before the indexed history starts). */
  previousOutput: OutputRecord | null;
}

export interface TransactionRecord {
  transactionId: Hash;
  hash: Hash;
  version: number;
  lockTime: bigint;
  subnetworkId: Uint8Array;
  gas: bigint;
  payload: Uint8Array;
  /** The spec's `mass`: the node's compute mass where it reported one, else the storage mass. */
  mass: bigint;
  /** The committed storage mass (hashed); null only for rows indexed before migration 6. */
  storageMass: bigint | null;
  /** The node's verbose compute mass; null when the node sent no verbose data or before migration 6. */
  computeMass: bigint | null;
  /** Milliseconds; the earliest timestamp among the containing blocks stored (lowered when an earlier one arrives). */
  blockTime: bigint;
  inputs: InputRecord[];
  outputs: CreatedOutputRecord[];
}

export interface ChainBlockAcceptance {
  acceptingBlockHash: Hash;
  acceptedTransactionIds: Hash[];
}

export interface VirtualChainChange {
  removedChainBlockHashes: Hash[];
  /** In chain order (oldest first). */
  added: ChainBlockAcceptance[];
}

/** The checkpoint the chain indexer writes and serving instances read its progress from. */
export const DEFAULT_CHECKPOINT_NAME = 'virtual-chain';

export interface Checkpoint {
  name: string;
  blockHash: Hash;
  blueScore: bigint;
  daaScore: bigint;
}

export interface IndexedTransaction extends Omit<TransactionRecord, 'payload'> {
  /** Null when the payload was not requested. */
  payload: Uint8Array | null;
  blockHashes: Hash[];
  acceptingBlockHash: Hash | null;
  /** Null when not accepted or when the accepting block is not stored. */
  acceptingBlockBlueScore: bigint | null;
}

export interface AddressTransaction extends IndexedTransaction {
  amountSent: bigint;
  amountReceived: bigint;
  /** amountReceived − amountSent (negative when the address paid). */
  balanceChange: bigint;
  /** Inputs minus outputs; zero without inputs (coinbase); null while a spent output is unknown. */
  fee: bigint | null;
}

export interface IndexedBlock extends BlockRecord {
  childrenHashes: Hash[];
}

export interface AddressPage {
  transactions: AddressTransaction[];
  /** More items exist beyond this page in the direction of travel. */
  hasMore: boolean;
}

export function isAccepted(transaction: IndexedTransaction): boolean {
  return transaction.acceptingBlockHash !== null;
}

/** Virtual blue score minus the accepting block's blue score; zero when not accepted. */
export function confirmations(transaction: IndexedTransaction, virtualBlueScore: bigint): number {
  if (transaction.acceptingBlockBlueScore === null) return 0;
  const difference = virtualBlueScore - transaction.acceptingBlockBlueScore;
  return difference > 0n ? Number(difference) : 0;
}
