/**
 * The wRPC JSON envelope (workflow-rpc 0.18 `JsonClientMessage` / `JSONServerMessage`, as instantiated by kaspad
 * with `Id64`) and the protocol constants both the client and the devnet server need.
 *
 *   request       {"id":<u64>,"method":"getBlock","params":{…}}            (no id or id null: no reply at all)
 *   success       {"id":<u64>,"method":"getBlock","params":{…}}
 *   error         {"id":<u64>,"method":"getBlock","error":{"code":0,"message":"…","data":null}}
 *   notification  {"method":"blockAddedNotification","params":{"BlockAdded":{…}}}
 */
import { type JsonObject, type JsonValue, parseJson } from './json';
import type { RpcEventName } from './types';

/** Every `RpcApiOps` variant in camelCase (rpc/core/src/api/ops.rs). A frame naming anything else is malformed. */
export const RPC_API_OPS = [
  'noOp',
  'connect',
  'disconnect',
  'subscribe',
  'unsubscribe',
  'notifyBlockAdded',
  'notifyNewBlockTemplate',
  'notifyUtxosChanged',
  'notifyPruningPointUtxoSetOverride',
  'notifyFinalityConflict',
  'notifyFinalityConflictResolved',
  'notifyVirtualDaaScoreChanged',
  'notifyVirtualChainChanged',
  'notifySinkBlueScoreChanged',
  'blockAddedNotification',
  'virtualChainChangedNotification',
  'finalityConflictNotification',
  'finalityConflictResolvedNotification',
  'utxosChangedNotification',
  'sinkBlueScoreChangedNotification',
  'virtualDaaScoreChangedNotification',
  'pruningPointUtxoSetOverrideNotification',
  'newBlockTemplateNotification',
  'ping',
  'getMetrics',
  'getSystemInfo',
  'getConnections',
  'getServerInfo',
  'getSyncStatus',
  'getCurrentNetwork',
  'submitBlock',
  'getBlockTemplate',
  'getPeerAddresses',
  'getSink',
  'getMempoolEntry',
  'getMempoolEntries',
  'getConnectedPeerInfo',
  'addPeer',
  'submitTransaction',
  'getBlock',
  'getSubnetwork',
  'getVirtualChainFromBlock',
  'getBlocks',
  'getBlockCount',
  'getBlockDagInfo',
  'resolveFinalityConflict',
  'shutdown',
  'getHeaders',
  'getUtxosByAddresses',
  'getBalanceByAddress',
  'getBalancesByAddresses',
  'getSinkBlueScore',
  'ban',
  'unban',
  'getInfo',
  'estimateNetworkHashesPerSecond',
  'getMempoolEntriesByAddresses',
  'getCoinSupply',
  'getDaaScoreTimestampEstimate',
  'submitTransactionReplacement',
  'getFeeEstimate',
  'getFeeEstimateExperimental',
  'getCurrentBlockColor',
  'getUtxoReturnAddress',
  'getVirtualChainFromBlockV2',
  'getBlockRewardInfo',
  'getSeqCommitLaneProof',
] as const;

export type RpcApiOp = (typeof RPC_API_OPS)[number];

const RPC_API_OP_SET: ReadonlySet<string> = new Set(RPC_API_OPS);

export function isRpcApiOp(method: string): method is RpcApiOp {
  return RPC_API_OP_SET.has(method);
}

/** `kaspa_notify::scope::Scope` variants, in declaration order. */
export const RPC_EVENT_NAMES = [
  'BlockAdded',
  'VirtualChainChanged',
  'FinalityConflict',
  'FinalityConflictResolved',
  'UtxosChanged',
  'SinkBlueScoreChanged',
  'VirtualDaaScoreChanged',
  'PruningPointUtxoSetOverride',
  'NewBlockTemplate',
] as const satisfies readonly RpcEventName[];

const RPC_EVENT_NAME_SET: ReadonlySet<string> = new Set(RPC_EVENT_NAMES);

export function isRpcEventName(name: string): name is RpcEventName {
  return RPC_EVENT_NAME_SET.has(name);
}

/** `BlockAdded` → `blockAddedNotification`, the `method` of a server notification frame. */
export function notificationMethod(event: RpcEventName): RpcApiOp {
  return `${event.charAt(0).toLowerCase()}${event.slice(1)}Notification` as RpcApiOp;
}

/**
 * camelCase names of the u64 fields of the RPC model (plus the envelope `id`). Integers under these keys always
 * decode as bigint. No name in rpc/core/src/model is a u64 in one struct and a narrower integer or f64 in another.
 */
export const U64_FIELD_NAMES: ReadonlySet<string> = new Set([
  'id',
  'acceptingBlockDaaScore',
  'amount',
  'balance',
  'blockCount',
  'blockDaaScore',
  'blockTime',
  'blueScore',
  'borshBytesRx',
  'borshBytesTx',
  'borshConnectionAttempts',
  'borshHandshakeFailures',
  'circulatingSompi',
  'computeMass',
  'confirmationCount',
  'daaScore',
  'daaScores',
  'diskIoReadBytes',
  'diskIoWriteBytes',
  'fee',
  'gas',
  'gasLimit',
  'grpcBytesRx',
  'grpcBytesTx',
  'headerCount',
  'jsonBytesRx',
  'jsonBytesTx',
  'jsonConnectionAttempts',
  'jsonHandshakeFailures',
  'limit',
  'lockTime',
  'mass',
  'maxSompi',
  'memoryUsage',
  'mempoolReadyTransactionsCount',
  'mempoolReadyTransactionsTotalMass',
  'mempoolSize',
  'minConfirmationCount',
  'networkHashesPerSecond',
  'networkMassPerSecond',
  'networkMempoolSize',
  'networkPastMedianTime',
  'networkVirtualDaaScore',
  'nodeBlocksSubmittedCount',
  'nodeBodiesProcessedCount',
  'nodeChainBlocksProcessedCount',
  'nodeDatabaseBlocksCount',
  'nodeDatabaseHeadersCount',
  'nodeDependenciesProcessedCount',
  'nodeHeadersProcessedCount',
  'nodeMassProcessedCount',
  'nodeTransactionsProcessedCount',
  'nonce',
  'p2pBytesRx',
  'p2pBytesTx',
  'pastMedianTime',
  'residentSetSize',
  'rewardAmount',
  'sequence',
  'serverTime',
  'sinkBlueScore',
  'storageMass',
  'storageSizeBytes',
  'timestamp',
  'timestamps',
  'totalMemory',
  'value',
  'virtualDaaScore',
  'virtualMemorySize',
]);

export const U64_MAX = (1n << 64n) - 1n;

/** workflow-rpc `ServerError` display strings that reach the wire. */
export const WRPC_ERROR_MESSAGES = {
  /** The op exists in `RpcApiOps` but has no registered handler. */
  methodNotFound: 'RPC method not found',
  /** `params` did not deserialize into the request struct; serde's detail is not sent. */
  requestDeserialization: 'request deserialization error',
} as const;

export interface WireError {
  /** Always 0 from kaspad. */
  code: number;
  message: string;
  /** Always null from kaspad. */
  data: JsonValue;
}

export interface WireRequest {
  id?: bigint | null;
  method: string;
  params: JsonValue;
}

export interface WireResponse {
  id: bigint;
  method?: string;
  params?: JsonValue;
  error?: WireError;
}

export interface WireNotification {
  method: string;
  params: JsonObject;
}

/** Parses one frame with u64 fields as bigint. Throws JsonParseError on invalid JSON. */
export function parseWireMessage(text: string): JsonValue {
  return parseJson(text, { bigintKeys: U64_FIELD_NAMES });
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A valid u64 JSON integer as parsed by `parseWireMessage` under the `id` key. */
export function isU64(value: JsonValue | undefined): value is bigint {
  return typeof value === 'bigint' && value >= 0n && value <= U64_MAX;
}
