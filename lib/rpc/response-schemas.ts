/**
 * Decoders for the responses of kaspad 2.0.1's node-status and history reads, as lib/rpc's JSON parser delivers them
 * (u64 fields as bigint). Objects are strict: a field kaspad does not send, or a missing one, fails the parse, so
 * clients and tests learn at once when a node answers in another shape.
 */
import { z } from 'zod';
import type { RpcCaller } from './convert-transaction';
import { RpcProtocolError } from './errors';
import type { RpcMethodName, RpcRequest, RpcResponse } from './types';

const u64 = z.bigint().nonnegative();
const hash = z.string().regex(/^[0-9a-f]{64}$/);
const uint = z.number().int().nonnegative();

const header = z.strictObject({
  hash,
  version: uint,
  parentsByLevel: z.array(z.array(hash)),
  hashMerkleRoot: hash,
  acceptedIdMerkleRoot: hash,
  utxoCommitment: hash,
  timestamp: u64,
  bits: uint,
  nonce: u64,
  daaScore: u64,
  blueWork: z.string().regex(/^[0-9a-f]+$/),
  blueScore: u64,
  pruningPoint: hash,
});

const processMetrics = z.strictObject({
  residentSetSize: u64,
  virtualMemorySize: u64,
  coreNum: uint,
  cpuUsage: z.number(),
  fdNum: uint,
  diskIoReadBytes: u64,
  diskIoWriteBytes: u64,
  diskIoReadPerSec: z.number(),
  diskIoWritePerSec: z.number(),
});

const connectionMetrics = z.strictObject({
  borshLiveConnections: uint,
  borshConnectionAttempts: u64,
  borshHandshakeFailures: u64,
  jsonLiveConnections: uint,
  jsonConnectionAttempts: u64,
  jsonHandshakeFailures: u64,
  activePeers: uint,
});

const bandwidthMetrics = z.strictObject({
  borshBytesTx: u64,
  borshBytesRx: u64,
  jsonBytesTx: u64,
  jsonBytesRx: u64,
  p2pBytesTx: u64,
  p2pBytesRx: u64,
  grpcBytesTx: u64,
  grpcBytesRx: u64,
});

const consensusMetrics = z.strictObject({
  nodeBlocksSubmittedCount: u64,
  nodeHeadersProcessedCount: u64,
  nodeDependenciesProcessedCount: u64,
  nodeBodiesProcessedCount: u64,
  nodeTransactionsProcessedCount: u64,
  nodeChainBlocksProcessedCount: u64,
  nodeMassProcessedCount: u64,
  nodeDatabaseBlocksCount: u64,
  nodeDatabaseHeadersCount: u64,
  networkMempoolSize: u64,
  networkTipHashesCount: uint,
  networkDifficulty: z.number(),
  networkPastMedianTime: u64,
  networkVirtualParentHashesCount: uint,
  networkVirtualDaaScore: u64,
});

const hexBytes = z.string().regex(/^(?:[0-9a-f]{2})*$/);
const scriptPublicKey = z.string().regex(/^[0-9a-f]{4}(?:[0-9a-f]{2})*$/);
const scriptVerboseData = z.strictObject({
  scriptPublicKeyType: z.enum(['NonStandard', 'PubKey', 'PubKeyECDSA', 'ScriptHash']).nullable(),
  scriptPublicKeyAddress: z.string().nullable(),
});

const optionalHeader = z.strictObject({
  hash: hash.nullable(),
  version: uint.nullable(),
  parentsByLevel: z.array(z.tuple([uint.max(255), z.array(hash)])).nullable(),
  hashMerkleRoot: hash.nullable(),
  acceptedIdMerkleRoot: hash.nullable(),
  utxoCommitment: hash.nullable(),
  timestamp: u64.nullable(),
  bits: uint.nullable(),
  nonce: u64.nullable(),
  daaScore: u64.nullable(),
  blueWork: z.string().regex(/^[0-9a-f]+$/).nullable(),
  blueScore: u64.nullable(),
  pruningPoint: hash.nullable(),
});

const optionalUtxoEntry = z.strictObject({
  amount: u64.nullable(),
  scriptPublicKey: scriptPublicKey.nullable(),
  blockDaaScore: u64.nullable(),
  isCoinbase: z.boolean().nullable(),
  verboseData: scriptVerboseData.nullable(),
  covenantId: hash.nullable(),
});

const optionalTransaction = z.strictObject({
  version: uint.nullable(),
  inputs: z.array(
    z.strictObject({
      previousOutpoint: z.strictObject({ transactionId: hash.nullable(), index: uint.nullable() }).nullable(),
      signatureScript: hexBytes.nullable(),
      sequence: u64.nullable(),
      sigOpCount: uint.nullable(),
      computeBudget: uint.nullable(),
      verboseData: z.strictObject({ utxoEntry: optionalUtxoEntry.nullable() }).nullable(),
    }),
  ),
  outputs: z.array(
    z.strictObject({
      value: u64.nullable(),
      scriptPublicKey: scriptPublicKey.nullable(),
      verboseData: scriptVerboseData.nullable(),
      covenant: z.strictObject({ authorizingInput: uint, covenantId: hash }).nullable(),
    }),
  ),
  lockTime: u64.nullable(),
  subnetworkId: z.string().regex(/^[0-9a-f]{40}$/).nullable(),
  gas: u64.nullable(),
  payload: hexBytes.nullable(),
  storageMass: u64.nullable(),
  mass: u64.nullable(),
  verboseData: z
    .strictObject({
      transactionId: hash.nullable(),
      hash: hash.nullable(),
      computeMass: u64.nullable(),
      blockHash: hash.nullable(),
      blockTime: u64.nullable(),
    })
    .nullable(),
});

export const responseSchemas = {
  getSyncStatus: z.strictObject({ isSynced: z.boolean() }),
  getHeaders: z.strictObject({ headers: z.array(header) }),
  getSubnetwork: z.strictObject({ gasLimit: u64 }),
  getConnectedPeerInfo: z.strictObject({ peerInfo: z.array(z.unknown()) }),
  getPeerAddresses: z.strictObject({ knownAddresses: z.array(z.unknown()), bannedAddresses: z.array(z.unknown()) }),
  getDaaScoreTimestampEstimate: z.strictObject({ timestamps: z.array(u64) }),
  getMetrics: z.strictObject({
    serverTime: u64,
    processMetrics: processMetrics.nullable(),
    connectionMetrics: connectionMetrics.nullable(),
    bandwidthMetrics: bandwidthMetrics.nullable(),
    consensusMetrics: consensusMetrics.nullable(),
    storageMetrics: z.strictObject({ storageSizeBytes: u64 }).nullable(),
    customMetrics: z.record(z.string(), z.unknown()).nullable(),
  }),
  getBlockRewardInfo: z.strictObject({
    header,
    blockColor: z.enum(['unknown', 'blue', 'red']),
    confirmationCount: u64.nullable(),
    mergingChainBlockHash: hash.nullable(),
    rewardAmount: u64.nullable(),
  }),
  getConnections: z.strictObject({
    clients: uint,
    peers: uint,
    profileData: z.strictObject({ cpuUsage: z.number(), memoryUsage: u64 }).nullable(),
  }),
  getSystemInfo: z.strictObject({
    version: z.string(),
    systemId: z.array(uint).nullable(),
    gitHash: z.array(uint).nullable(),
    cpuPhysicalCores: uint,
    totalMemory: u64,
    fdLimit: uint,
    proxySocketLimitPerCpuCore: uint.nullable(),
  }),
  getCurrentBlockColor: z.strictObject({ blue: z.boolean() }),
  estimateNetworkHashesPerSecond: z.strictObject({ networkHashesPerSecond: u64 }),
  getSeqCommitLaneProof: z.strictObject({
    smtProof: z.array(z.number().int().min(0).max(255)),
    lane: z.strictObject({ tip: hash, blueScore: u64 }).nullable(),
    payloadAndCtxDigest: hash,
    parentSeqCommit: hash,
    inactivityShortcut: hash,
  }),
  getVirtualChainFromBlockV2: z.strictObject({
    removedChainBlockHashes: z.array(hash),
    addedChainBlockHashes: z.array(hash),
    chainBlockAcceptedTransactions: z.array(
      z.strictObject({ chainBlockHeader: optionalHeader, acceptedTransactions: z.array(optionalTransaction) }),
    ),
  }),
} satisfies Partial<Record<RpcMethodName, z.ZodType>>;

export type CheckedMethodName = keyof typeof responseSchemas;

/** Calls a node-status or history read and checks the answer's shape; a mismatch is an RpcProtocolError. */
export async function callChecked<M extends CheckedMethodName>(
  caller: RpcCaller,
  method: M,
  params: RpcRequest<M>,
): Promise<RpcResponse<M>> {
  const response = await caller.call(method, params);
  const parsed = responseSchemas[method].safeParse(response);
  if (!parsed.success) {
    throw new RpcProtocolError(`${method} answered in an unexpected shape: ${z.prettifyError(parsed.error)}`, method);
  }
  return response;
}
