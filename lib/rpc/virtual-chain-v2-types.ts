/**
 * getVirtualChainFromBlockV2's wire shapes (rusty-kaspa 2.0.1 rpc/core/src/model/message.rs, model/optional/*.rs,
 * model/verbosity.rs). None of the optional structs skips a field: every key is always written, `null` where the
 * verbosity level leaves the value out. What each level includes is decided by rpc/core/src/convert/verbosity.rs.
 */
import type {
  RpcAddress,
  RpcBlueWork,
  RpcCovenantBinding,
  RpcHash,
  RpcScriptClass,
  RpcScriptPublicKey,
  RpcSubnetworkId,
  RpcTransactionId,
  HexBytes,
  U64,
} from './types';

/** `RpcDataVerbosityLevel` has no serde rename: its variant names are the JSON strings. */
export type RpcDataVerbosityLevel = 'None' | 'Low' | 'High' | 'Full';
export const RPC_DATA_VERBOSITY_LEVELS = ['None', 'Low', 'High', 'Full'] as const satisfies readonly RpcDataVerbosityLevel[];

/**
 * `CompressedParents`: a run-length list of `[cumulative level count, parents]`, e.g. `[[3, [A]], [5, [B]]]` for levels
 * 0–2 with parents [A] and 3–4 with [B]. Unlike RpcHeader's expanded `parentsByLevel`.
 */
export type RpcCompressedParents = [number, RpcHash[]][];

export interface RpcOptionalHeader {
  /** Every level. */
  hash: RpcHash | null;
  version: number | null;
  /** High. */
  parentsByLevel: RpcCompressedParents | null;
  hashMerkleRoot: RpcHash | null;
  acceptedIdMerkleRoot: RpcHash | null;
  /** Full. */
  utxoCommitment: RpcHash | null;
  timestamp: U64 | null;
  bits: number | null;
  nonce: U64 | null;
  daaScore: U64 | null;
  blueWork: RpcBlueWork | null;
  blueScore: U64 | null;
  /** Full. */
  pruningPoint: RpcHash | null;
}

export interface RpcOptionalUtxoEntryVerboseData {
  scriptPublicKeyType: RpcScriptClass | null;
  scriptPublicKeyAddress: RpcAddress | null;
}

export interface RpcOptionalUtxoEntry {
  amount: U64 | null;
  scriptPublicKey: RpcScriptPublicKey | null;
  blockDaaScore: U64 | null;
  isCoinbase: boolean | null;
  verboseData: RpcOptionalUtxoEntryVerboseData | null;
  /** Written at every level: kaspad copies the entry's covenant id regardless of verbosity. */
  covenantId: RpcHash | null;
}

export interface RpcOptionalTransactionOutpoint {
  transactionId: RpcTransactionId | null;
  index: number | null;
}

export interface RpcOptionalTransactionInput {
  previousOutpoint: RpcOptionalTransactionOutpoint | null;
  signatureScript: HexBytes | null;
  sequence: U64 | null;
  sigOpCount: number | null;
  /** Included with `sigOpCount` (High): 0 for version 0 inputs, as the sig-op count is 0 for version 1 ones. */
  computeBudget: number | null;
  verboseData: { utxoEntry: RpcOptionalUtxoEntry | null } | null;
}

export interface RpcOptionalTransactionOutput {
  value: U64 | null;
  scriptPublicKey: RpcScriptPublicKey | null;
  verboseData: RpcOptionalUtxoEntryVerboseData | null;
  /** `Option<RpcNullableCovenantBinding>`: null both when left out and when the output has no binding. */
  covenant: RpcCovenantBinding | null;
}

export interface RpcOptionalTransactionVerboseData {
  transactionId: RpcTransactionId | null;
  hash: RpcHash | null;
  computeMass: U64 | null;
  /** The merged block that carried the transaction. */
  blockHash: RpcHash | null;
  blockTime: U64 | null;
}

/** Field order as serialized; `mass` is the deprecated alias of `storageMass`. */
export interface RpcOptionalTransaction {
  version: number | null;
  inputs: RpcOptionalTransactionInput[];
  outputs: RpcOptionalTransactionOutput[];
  lockTime: U64 | null;
  subnetworkId: RpcSubnetworkId | null;
  gas: U64 | null;
  payload: HexBytes | null;
  storageMass: U64 | null;
  mass: U64 | null;
  verboseData: RpcOptionalTransactionVerboseData | null;
}

export interface RpcChainBlockAcceptedTransactions {
  chainBlockHeader: RpcOptionalHeader;
  /** Each merged block's accepted transactions, mergeset in consensus order, block order within. */
  acceptedTransactions: RpcOptionalTransaction[];
}

export interface GetVirtualChainFromBlockV2Request {
  startHash: RpcHash;
  /** Null or omitted means Full. */
  dataVerbosityLevel?: RpcDataVerbosityLevel | null;
  minConfirmationCount?: U64 | null;
}

export interface GetVirtualChainFromBlockV2Response {
  removedChainBlockHashes: RpcHash[];
  addedChainBlockHashes: RpcHash[];
  /** One per added chain block, in the same order. */
  chainBlockAcceptedTransactions: RpcChainBlockAcceptedTransactions[];
}
