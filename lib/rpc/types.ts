/**
 * Wire shapes of kaspad's wRPC JSON protocol (rusty-kaspa 2.0: rpc/core/src/model/*.rs, notify/src/scope.rs),
 * exactly as serde_json writes them: camelCase field names (except `is_orphan` and the snake_case scope fields),
 * `Option<T>` as `T | null` (always present on output, may be omitted on input), u64 as bare integers.
 *
 * Integer representation (json.ts, protocol.ts `U64_FIELD_NAMES`): every u64 field decodes as bigint; u8/u16/u32
 * fields are numbers; f64 fields are numbers. Byte strings are lowercase hex unless noted.
 */

import type { GetVirtualChainFromBlockV2Request, GetVirtualChainFromBlockV2Response } from './virtual-chain-v2-types';

export type * from './virtual-chain-v2-types';

/** A u64 on the wire: a bare JSON integer, decoded as bigint. */
export type U64 = bigint;
/** 32 bytes as 64 lowercase hex characters, in natural byte order. */
export type RpcHash = string;
export type RpcTransactionId = RpcHash;
/** Uint192 as 48 zero-padded big-endian hex characters. */
export type RpcBlueWork = string;
/** 20 bytes as 40 hex characters. */
export type RpcSubnetworkId = string;
/** Address with its network prefix, e.g. `kaspadev:qr…`. */
export type RpcAddress = string;
/** Network id with suffix where the network has one: `mainnet`, `testnet-10`, `devnet`, `simnet`. */
export type RpcNetworkId = string;
export type RpcNetworkType = 'mainnet' | 'testnet' | 'devnet' | 'simnet';
/** Lowercase hex bytes (`""` when empty). */
export type HexBytes = string;
/**
 * Script public key as serde writes it: the version as 4 hex characters (big-endian u16) followed by the script
 * hex, e.g. `"000020<xonly>ac"`. kaspad also accepts `{ version, script }` on input.
 */
export type RpcScriptPublicKey = string;
export interface RpcScriptPublicKeyObject {
  version: number;
  script: HexBytes;
}
/** `ScriptClass` has no serde rename: PascalCase variant names. */
export type RpcScriptClass = 'NonStandard' | 'PubKey' | 'PubKeyECDSA' | 'ScriptHash';

export interface RpcRawHeader {
  version: number;
  /** Level 0 first; `[0]` holds the direct parents and, in a template, `[0][0]` is the selected parent. */
  parentsByLevel: RpcHash[][];
  hashMerkleRoot: RpcHash;
  acceptedIdMerkleRoot: RpcHash;
  utxoCommitment: RpcHash;
  /** Milliseconds since the Unix epoch. */
  timestamp: U64;
  bits: number;
  nonce: U64;
  daaScore: U64;
  blueWork: RpcBlueWork;
  blueScore: U64;
  pruningPoint: RpcHash;
}

export interface RpcHeader extends RpcRawHeader {
  /** Serialized first, before `version`. */
  hash: RpcHash;
}

export interface RpcTransactionOutpoint {
  transactionId: RpcTransactionId;
  index: number;
}

/** An empty struct; kaspad always sends `null` for it. */
export type RpcTransactionInputVerboseData = Record<string, never>;

export interface RpcTransactionInput {
  previousOutpoint: RpcTransactionOutpoint;
  signatureScript: HexBytes;
  sequence: U64;
  /** u8, committed by version 0 transactions; 0 in version 1. */
  sigOpCount: number;
  /** u16, committed by version 1 transactions; `#[serde(default)]`, so it may be omitted on input. */
  computeBudget: number;
  verboseData: RpcTransactionInputVerboseData | null;
}

export interface RpcTransactionOutputVerboseData {
  scriptPublicKeyType: RpcScriptClass;
  scriptPublicKeyAddress: RpcAddress;
}

export interface RpcCovenantBinding {
  authorizingInput: number;
  covenantId: RpcHash;
}

export interface RpcTransactionOutput {
  value: U64;
  scriptPublicKey: RpcScriptPublicKey;
  verboseData: RpcTransactionOutputVerboseData | null;
  covenant: RpcCovenantBinding | null;
}

export interface RpcTransactionVerboseData {
  transactionId: RpcTransactionId;
  hash: RpcHash;
  computeMass: U64;
  /** All zero for mempool entries. */
  blockHash: RpcHash;
  /** 0 for mempool entries. */
  blockTime: U64;
}

/** Field order as serialized. kaspad emits `storageMass` and its deprecated alias `mass` with the same value. */
export interface RpcTransaction {
  version: number;
  inputs: RpcTransactionInput[];
  outputs: RpcTransactionOutput[];
  lockTime: U64;
  subnetworkId: RpcSubnetworkId;
  gas: U64;
  payload: HexBytes;
  storageMass: U64;
  mass: U64;
  verboseData: RpcTransactionVerboseData | null;
}

/**
 * What kaspad accepts as a transaction: `computeBudget` may be omitted, the script public key may be an object,
 * and either `storageMass` or `mass` is required (both must agree when both are given).
 */
export type RpcTransactionInputInput = Omit<RpcTransactionInput, 'computeBudget' | 'verboseData'> & {
  computeBudget?: number;
  verboseData?: RpcTransactionInputVerboseData | null;
};
export type RpcTransactionOutputInput = Omit<RpcTransactionOutput, 'scriptPublicKey' | 'verboseData' | 'covenant'> & {
  scriptPublicKey: RpcScriptPublicKey | RpcScriptPublicKeyObject;
  verboseData?: RpcTransactionOutputVerboseData | null;
  covenant?: RpcCovenantBinding | null;
};
export type RpcTransactionInputForm = Omit<
  RpcTransaction,
  'inputs' | 'outputs' | 'storageMass' | 'mass' | 'verboseData'
> & {
  inputs: RpcTransactionInputInput[];
  outputs: RpcTransactionOutputInput[];
  verboseData?: RpcTransactionVerboseData | null;
} & ({ storageMass: U64; mass?: U64 } | { storageMass?: U64; mass: U64 });

export interface RpcBlockVerboseData {
  hash: RpcHash;
  difficulty: number;
  selectedParentHash: RpcHash;
  /** Filled even when the block's transactions are not included. */
  transactionIds: RpcTransactionId[];
  isHeaderOnly: boolean;
  blueScore: U64;
  childrenHashes: RpcHash[];
  mergeSetBluesHashes: RpcHash[];
  mergeSetRedsHashes: RpcHash[];
  isChainBlock: boolean;
}

export interface RpcBlock {
  header: RpcHeader;
  transactions: RpcTransaction[];
  verboseData: RpcBlockVerboseData | null;
}

/** Used by getBlockTemplate and submitBlock: no header hash, no verbose data. */
export interface RpcRawBlock {
  header: RpcRawHeader;
  transactions: RpcTransaction[];
}

export interface RpcRawBlockInputForm {
  /** A `hash` sent here is ignored by kaspad as an unknown field. */
  header: RpcRawHeader;
  transactions: RpcTransactionInputForm[];
}

export interface RpcUtxoEntry {
  amount: U64;
  scriptPublicKey: RpcScriptPublicKey;
  blockDaaScore: U64;
  isCoinbase: boolean;
  covenantId: RpcHash | null;
}

export interface RpcUtxosByAddressesEntry {
  /** `null` only when the script public key has no address form. */
  address: RpcAddress | null;
  outpoint: RpcTransactionOutpoint;
  utxoEntry: RpcUtxoEntry;
}

export interface RpcBalancesByAddressesEntry {
  address: RpcAddress;
  balance: U64 | null;
}

/** `RpcMempoolEntry` has no rename_all: the orphan flag is `is_orphan` on the wire. */
export interface RpcMempoolEntry {
  /** 0 for orphans. */
  fee: U64;
  transaction: RpcTransaction;
  is_orphan: boolean;
}

export interface RpcMempoolEntryByAddress {
  address: RpcAddress;
  sending: RpcMempoolEntry[];
  receiving: RpcMempoolEntry[];
}

export interface RpcAcceptedTransactionIds {
  acceptingBlockHash: RpcHash;
  acceptedTransactionIds: RpcTransactionId[];
}

export interface RpcFeerateBucket {
  /** sompi per gram of mass. */
  feerate: number;
  estimatedSeconds: number;
}

export interface RpcFeeEstimate {
  priorityBucket: RpcFeerateBucket;
  normalBuckets: RpcFeerateBucket[];
  lowBuckets: RpcFeerateBucket[];
}

export type SubmitBlockRejectReason = 'blockInvalid' | 'isInIBD' | 'routeIsFull';
/** `#[serde(rename_all = "lowercase", tag = "type", content = "reason")]`. */
export type SubmitBlockReport = { type: 'success' } | { type: 'reject'; reason: SubmitBlockRejectReason };

/** Request structs with no fields still need `{}` as params. */
export type EmptyRequest = Record<string, never>;
export type EmptyResponse = Record<string, never>;

export interface GetInfoResponse {
  p2pId: string;
  /** Transaction pool only, orphans excluded. */
  mempoolSize: U64;
  serverVersion: string;
  isUtxoIndexed: boolean;
  isSynced: boolean;
  hasNotifyCommand: boolean;
  hasMessageId: boolean;
}

export interface GetServerInfoResponse {
  /** Still 1 (revision 0) on 2.0 nodes; use `serverVersion` to tell versions apart. */
  rpcApiVersion: number;
  rpcApiRevision: number;
  serverVersion: string;
  networkId: RpcNetworkId;
  hasUtxoIndex: boolean;
  isSynced: boolean;
  virtualDaaScore: U64;
}

export interface GetCurrentNetworkResponse {
  network: RpcNetworkType;
}

export interface GetBlockDagInfoResponse {
  network: RpcNetworkId;
  blockCount: U64;
  headerCount: U64;
  tipHashes: RpcHash[];
  difficulty: number;
  pastMedianTime: U64;
  virtualParentHashes: RpcHash[];
  pruningPointHash: RpcHash;
  virtualDaaScore: U64;
  sink: RpcHash;
}

export interface GetBlockRequest {
  hash: RpcHash;
  includeTransactions: boolean;
}

export interface GetBlockResponse {
  block: RpcBlock;
}

export interface GetBlocksRequest {
  /** Omitted or null means genesis. */
  lowHash?: RpcHash | null;
  includeBlocks: boolean;
  includeTransactions: boolean;
}

export interface GetBlocksResponse {
  blockHashes: RpcHash[];
  blocks: RpcBlock[];
}

export interface GetBlockCountResponse {
  headerCount: U64;
  blockCount: U64;
}

export interface GetSinkResponse {
  sink: RpcHash;
}

export interface GetSinkBlueScoreResponse {
  blueScore: U64;
}

export interface GetVirtualChainFromBlockRequest {
  startHash: RpcHash;
  includeAcceptedTransactionIds: boolean;
  /** Added in 1.1; optional. */
  minConfirmationCount?: U64 | null;
}

export interface GetVirtualChainFromBlockResponse {
  removedChainBlockHashes: RpcHash[];
  addedChainBlockHashes: RpcHash[];
  acceptedTransactionIds: RpcAcceptedTransactionIds[];
}

export interface GetMempoolEntryRequest {
  transactionId: RpcTransactionId;
  includeOrphanPool: boolean;
  filterTransactionPool: boolean;
}

export interface GetMempoolEntryResponse {
  mempoolEntry: RpcMempoolEntry;
}

export interface GetMempoolEntriesRequest {
  includeOrphanPool: boolean;
  filterTransactionPool: boolean;
}

export interface GetMempoolEntriesResponse {
  mempoolEntries: RpcMempoolEntry[];
}

export interface GetMempoolEntriesByAddressesRequest {
  addresses: RpcAddress[];
  includeOrphanPool: boolean;
  filterTransactionPool: boolean;
}

export interface GetMempoolEntriesByAddressesResponse {
  entries: RpcMempoolEntryByAddress[];
}

export interface AddressesRequest {
  addresses: RpcAddress[];
}

export interface GetUtxosByAddressesResponse {
  entries: RpcUtxosByAddressesEntry[];
}

export interface GetBalanceByAddressRequest {
  address: RpcAddress;
}

export interface GetBalanceByAddressResponse {
  balance: U64;
}

export interface GetBalancesByAddressesResponse {
  entries: RpcBalancesByAddressesEntry[];
}

export interface GetCoinSupplyResponse {
  maxSompi: U64;
  circulatingSompi: U64;
}

export interface GetFeeEstimateResponse {
  estimate: RpcFeeEstimate;
}

export interface SubmitTransactionRequest {
  transaction: RpcTransactionInputForm;
  allowOrphan: boolean;
}

export interface SubmitTransactionResponse {
  transactionId: RpcTransactionId;
}

export interface SubmitTransactionReplacementRequest {
  transaction: RpcTransactionInputForm;
}

export interface SubmitTransactionReplacementResponse {
  transactionId: RpcTransactionId;
  /** The replaced transaction in its plain form (`verboseData: null`). */
  replacedTransaction: RpcTransaction;
}

export interface GetBlockTemplateRequest {
  payAddress: RpcAddress;
  /** A plain `Vec<u8>`: a JSON array of byte values, not hex. */
  extraData: number[];
}

export interface GetBlockTemplateResponse {
  block: RpcRawBlock;
  isSynced: boolean;
}

export interface SubmitBlockRequest {
  block: RpcRawBlockInputForm;
  /** Serialized as `allowNonDaaBlocks`; kaspad also accepts the alias `allowNonDAABlocks`. */
  allowNonDaaBlocks: boolean;
}

export interface SubmitBlockResponse {
  report: SubmitBlockReport;
}

export interface GetSyncStatusResponse {
  isSynced: boolean;
}

/** kaspad answers "Not implemented" for getHeaders and getSubnetwork; the shapes are still part of the API. */
export interface GetHeadersRequest {
  startHash: RpcHash;
  limit: U64;
  isAscending: boolean;
}

export interface GetHeadersResponse {
  headers: RpcHeader[];
}

export interface GetSubnetworkRequest {
  subnetworkId: HexBytes;
}

export interface GetSubnetworkResponse {
  gasLimit: U64;
}

export interface GetConnectedPeerInfoResponse {
  peerInfo: unknown[];
}

export interface GetPeerAddressesResponse {
  knownAddresses: unknown[];
  bannedAddresses: unknown[];
}

export interface GetDaaScoreTimestampEstimateRequest {
  daaScores: U64[];
}

export interface GetDaaScoreTimestampEstimateResponse {
  /** Milliseconds, one per requested DAA score, in request order. */
  timestamps: U64[];
}

export interface GetMetricsRequest {
  processMetrics: boolean;
  connectionMetrics: boolean;
  bandwidthMetrics: boolean;
  consensusMetrics: boolean;
  storageMetrics: boolean;
  customMetrics: boolean;
}

export interface RpcProcessMetrics {
  residentSetSize: U64;
  virtualMemorySize: U64;
  coreNum: number;
  cpuUsage: number;
  fdNum: number;
  diskIoReadBytes: U64;
  diskIoWriteBytes: U64;
  diskIoReadPerSec: number;
  diskIoWritePerSec: number;
}

export interface RpcConnectionMetrics {
  borshLiveConnections: number;
  borshConnectionAttempts: U64;
  borshHandshakeFailures: U64;
  jsonLiveConnections: number;
  jsonConnectionAttempts: U64;
  jsonHandshakeFailures: U64;
  activePeers: number;
}

export interface RpcBandwidthMetrics {
  borshBytesTx: U64;
  borshBytesRx: U64;
  jsonBytesTx: U64;
  jsonBytesRx: U64;
  p2pBytesTx: U64;
  p2pBytesRx: U64;
  grpcBytesTx: U64;
  grpcBytesRx: U64;
}

export interface RpcConsensusMetrics {
  nodeBlocksSubmittedCount: U64;
  nodeHeadersProcessedCount: U64;
  nodeDependenciesProcessedCount: U64;
  nodeBodiesProcessedCount: U64;
  nodeTransactionsProcessedCount: U64;
  nodeChainBlocksProcessedCount: U64;
  nodeMassProcessedCount: U64;
  nodeDatabaseBlocksCount: U64;
  nodeDatabaseHeadersCount: U64;
  networkMempoolSize: U64;
  networkTipHashesCount: number;
  networkDifficulty: number;
  networkPastMedianTime: U64;
  networkVirtualParentHashesCount: number;
  networkVirtualDaaScore: U64;
}

export interface RpcStorageMetrics {
  storageSizeBytes: U64;
}

/** Each section is null unless requested; `customMetrics` is always null (a placeholder in kaspad 2.0.1). */
export interface GetMetricsResponse {
  serverTime: U64;
  processMetrics: RpcProcessMetrics | null;
  connectionMetrics: RpcConnectionMetrics | null;
  bandwidthMetrics: RpcBandwidthMetrics | null;
  consensusMetrics: RpcConsensusMetrics | null;
  storageMetrics: RpcStorageMetrics | null;
  customMetrics: null;
}

export interface EstimateNetworkHashesPerSecondRequest {
  /** u32; above 10,000 only with --unsaferpc, never above the pruning depth. */
  windowSize: number;
  /** Omitted, null (or 64 `f`s) for the virtual. */
  startHash?: RpcHash | null;
}

export interface EstimateNetworkHashesPerSecondResponse {
  networkHashesPerSecond: U64;
}

export interface GetConnectionsRequest {
  includeProfileData: boolean;
}

export interface GetConnectionsResponse {
  /** wRPC clients (borsh and JSON) connected now; u32. */
  clients: number;
  /** u16. */
  peers: number;
  profileData: { cpuUsage: number; memoryUsage: U64 } | null;
}

export interface GetSystemInfoResponse {
  version: string;
  /** `Option<Vec<u8>>`: an array of byte values. */
  systemId: number[] | null;
  gitHash: number[] | null;
  cpuPhysicalCores: number;
  totalMemory: U64;
  fdLimit: number;
  proxySocketLimitPerCpuCore: number | null;
}

export interface GetCurrentBlockColorRequest {
  hash: RpcHash;
}

export interface GetCurrentBlockColorResponse {
  blue: boolean;
}

export interface GetBlockRewardInfoRequest {
  hash: RpcHash;
}

/** `RpcBlockColor`, serialized lowercase. */
export type RpcBlockColor = 'unknown' | 'blue' | 'red';

export interface GetBlockRewardInfoResponse {
  header: RpcHeader;
  blockColor: RpcBlockColor;
  /** Null (with the next two) while no chain block has merged the block. */
  confirmationCount: U64 | null;
  mergingChainBlockHash: RpcHash | null;
  /** Sompi paid for the block by its merging chain block's coinbase; null for red blocks. */
  rewardAmount: U64 | null;
}

export interface GetSeqCommitLaneProofRequest {
  blockHash: RpcHash;
  laneKey: RpcHash;
}

export interface RpcLaneEntry {
  tip: RpcHash;
  blueScore: U64;
}

export interface GetSeqCommitLaneProofResponse {
  /** A plain `Vec<u8>`: a JSON array of byte values. */
  smtProof: number[];
  lane: RpcLaneEntry | null;
  payloadAndCtxDigest: RpcHash;
  parentSeqCommit: RpcHash;
  inactivityShortcut: RpcHash;
}

/** Subscription scopes: `kaspa_notify::scope::Scope`, externally tagged, inner fields snake_case. */
export interface RpcScopes {
  BlockAdded: EmptyRequest;
  VirtualChainChanged: { include_accepted_transaction_ids: boolean };
  FinalityConflict: EmptyRequest;
  FinalityConflictResolved: EmptyRequest;
  /** Empty means every address. Non-empty lists are cumulative across subscribe calls. */
  UtxosChanged: { addresses: RpcAddress[] };
  SinkBlueScoreChanged: EmptyRequest;
  VirtualDaaScoreChanged: EmptyRequest;
  PruningPointUtxoSetOverride: EmptyRequest;
  NewBlockTemplate: EmptyRequest;
}

export type RpcEventName = keyof RpcScopes;
export type RpcScope = { [E in RpcEventName]: { [K in E]: RpcScopes[E] } }[RpcEventName];

export interface SubscribeResponse {
  /** The server-side connection id (sequential from 0); clients ignore it. */
  id: U64;
}

/** Notification payloads, found under `params.<EventName>` of a `<eventName>Notification` message. */
export interface RpcNotifications {
  BlockAdded: { block: RpcBlock };
  VirtualChainChanged: {
    removedChainBlockHashes: RpcHash[];
    addedChainBlockHashes: RpcHash[];
    /** Empty for subscribers that asked for `include_accepted_transaction_ids: false`. */
    acceptedTransactionIds: RpcAcceptedTransactionIds[];
  };
  FinalityConflict: { violatingBlockHash: RpcHash };
  FinalityConflictResolved: { finalityBlockHash: RpcHash };
  UtxosChanged: { added: RpcUtxosByAddressesEntry[]; removed: RpcUtxosByAddressesEntry[] };
  SinkBlueScoreChanged: { sinkBlueScore: U64 };
  VirtualDaaScoreChanged: { virtualDaaScore: U64 };
  PruningPointUtxoSetOverride: EmptyResponse;
  NewBlockTemplate: EmptyResponse;
}

/** Method name (camelCase `RpcApiOps` variant) → params sent and params received. */
export interface RpcMethods {
  ping: { request: EmptyRequest; response: EmptyResponse };
  getInfo: { request: EmptyRequest; response: GetInfoResponse };
  getServerInfo: { request: EmptyRequest; response: GetServerInfoResponse };
  getCurrentNetwork: { request: EmptyRequest; response: GetCurrentNetworkResponse };
  getBlockDagInfo: { request: EmptyRequest; response: GetBlockDagInfoResponse };
  getBlock: { request: GetBlockRequest; response: GetBlockResponse };
  getBlocks: { request: GetBlocksRequest; response: GetBlocksResponse };
  getBlockCount: { request: EmptyRequest; response: GetBlockCountResponse };
  getSink: { request: EmptyRequest; response: GetSinkResponse };
  getSinkBlueScore: { request: EmptyRequest; response: GetSinkBlueScoreResponse };
  getVirtualChainFromBlock: { request: GetVirtualChainFromBlockRequest; response: GetVirtualChainFromBlockResponse };
  getVirtualChainFromBlockV2: { request: GetVirtualChainFromBlockV2Request; response: GetVirtualChainFromBlockV2Response };
  getMempoolEntry: { request: GetMempoolEntryRequest; response: GetMempoolEntryResponse };
  getMempoolEntries: { request: GetMempoolEntriesRequest; response: GetMempoolEntriesResponse };
  getMempoolEntriesByAddresses: {
    request: GetMempoolEntriesByAddressesRequest;
    response: GetMempoolEntriesByAddressesResponse;
  };
  getUtxosByAddresses: { request: AddressesRequest; response: GetUtxosByAddressesResponse };
  getBalanceByAddress: { request: GetBalanceByAddressRequest; response: GetBalanceByAddressResponse };
  getBalancesByAddresses: { request: AddressesRequest; response: GetBalancesByAddressesResponse };
  getCoinSupply: { request: EmptyRequest; response: GetCoinSupplyResponse };
  getFeeEstimate: { request: EmptyRequest; response: GetFeeEstimateResponse };
  submitTransaction: { request: SubmitTransactionRequest; response: SubmitTransactionResponse };
  submitTransactionReplacement: {
    request: SubmitTransactionReplacementRequest;
    response: SubmitTransactionReplacementResponse;
  };
  getBlockTemplate: { request: GetBlockTemplateRequest; response: GetBlockTemplateResponse };
  submitBlock: { request: SubmitBlockRequest; response: SubmitBlockResponse };
  getSyncStatus: { request: EmptyRequest; response: GetSyncStatusResponse };
  getHeaders: { request: GetHeadersRequest; response: GetHeadersResponse };
  getSubnetwork: { request: GetSubnetworkRequest; response: GetSubnetworkResponse };
  getConnectedPeerInfo: { request: EmptyRequest; response: GetConnectedPeerInfoResponse };
  getPeerAddresses: { request: EmptyRequest; response: GetPeerAddressesResponse };
  getDaaScoreTimestampEstimate: {
    request: GetDaaScoreTimestampEstimateRequest;
    response: GetDaaScoreTimestampEstimateResponse;
  };
  getMetrics: { request: GetMetricsRequest; response: GetMetricsResponse };
  getBlockRewardInfo: { request: GetBlockRewardInfoRequest; response: GetBlockRewardInfoResponse };
  getConnections: { request: GetConnectionsRequest; response: GetConnectionsResponse };
  getSystemInfo: { request: EmptyRequest; response: GetSystemInfoResponse };
  getCurrentBlockColor: { request: GetCurrentBlockColorRequest; response: GetCurrentBlockColorResponse };
  estimateNetworkHashesPerSecond: {
    request: EstimateNetworkHashesPerSecondRequest;
    response: EstimateNetworkHashesPerSecondResponse;
  };
  getSeqCommitLaneProof: { request: GetSeqCommitLaneProofRequest; response: GetSeqCommitLaneProofResponse };
  subscribe: { request: RpcScope; response: SubscribeResponse };
  unsubscribe: { request: RpcScope; response: EmptyResponse };
}

export type RpcMethodName = keyof RpcMethods;
export type RpcRequest<M extends RpcMethodName> = RpcMethods[M]['request'];
export type RpcResponse<M extends RpcMethodName> = RpcMethods[M]['response'];
