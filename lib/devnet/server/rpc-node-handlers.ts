/**
 * The devnet's answers to kaspad 2.0.1's node-status and history reads (rpc/service/src/service.rs): sync status,
 * peers (a devnet has none), metrics, DAA-score timestamp estimates, block reward info and sequencing-commitment lane
 * proofs, hash-rate estimates. getHeaders and getSubnetwork answer "Not implemented", as kaspad does.
 */
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import type { Hash } from '../../kaspa/types';
import type {
  GetBlockRewardInfoResponse,
  GetMetricsResponse,
  GetSeqCommitLaneProofResponse,
  RpcConsensusMetrics,
} from '../../rpc/types';
import { headerToRpc } from '../../rpc/convert-block';
import { calcWork } from '../../kaspa/pow';
import type { BlockInfo, Consensus } from '../consensus/consensus';
import { DifficultyManager, type BlockWindow, type DaaStore } from '../consensus/difficulty';
import { blockIdOf, GhostdagManager } from '../consensus/ghostdag';
import type { Mempool } from '../mempool/mempool';
import { systemInfo, type ProcessSampler } from './process-metrics';
import type { WrpcCounters, WrpcHandlers } from './wrpc-server';

/** What getMetrics' consensus section counts since the node started (kaspad's ProcessingCounters). */
export interface ProcessingCounters {
  blocksSubmitted: number;
  blocksProcessed: number;
  transactionsProcessed: number;
  chainBlocksProcessed: number;
}

/**
 * KIP-21 lane proofs come from consensus' sequencing-commitment tree, which checks what kaspad checks (not genesis,
 * on the selected chain, not below the pruning point, Toccata active) with kaspad's texts; the handler only resolves
 * the block.
 */
export interface SeqCommitLaneProver {
  laneProof(blockHash: Hash, laneKey: Hash): GetSeqCommitLaneProofResponse;
}

/** For handlers built without a consensus that proves lanes: kaspad's answer for a block without Toccata. */
export const PRE_TOCCATA_LANE_PROVER: SeqCommitLaneProver = {
  laneProof(blockHash) {
    throw new RpcNodeError(`toccata is not active at block ${bytesToHex(blockHash)}`);
  },
};

export class RpcNodeError extends Error {
  override name = 'RpcNodeError';
}

/** Consensus `HeaderNotFound`, as kaspad writes it for a block it does not know. */
export const headerNotFound = (hash: string) => new RpcNodeError(`cannot find header ${hash}`);

/** rpc/core's MAX_SAFE_WINDOW_SIZE and the difficulty manager's minimum window for hash-rate estimates. */
const MAX_SAFE_WINDOW_SIZE = 10_000;
const MIN_ESTIMATE_WINDOW_SIZE = 1_000;
/** Golang kaspad's name for the virtual, still accepted as `startHash`. */
const LEGACY_VIRTUAL = 'ff'.repeat(32);

/**
 * `internal_estimate_network_hashes_per_second`: blue work gained across the window over its timestamp span in
 * whole seconds. Throws kaspad's difficulty errors for a window too small or without a time span.
 */
export function estimateHashesPerSecond(window: BlockWindow, store: Pick<DaaStore, 'timestamp'>): bigint {
  if (window.length < MIN_ESTIMATE_WINDOW_SIZE) {
    throw new RpcNodeError(`difficulty error: under min allowed window size (${window.length} < ${MIN_ESTIMATE_WINDOW_SIZE})`);
  }
  const timestamps = window.map((block) => store.timestamp(block.id));
  const works = window.map((block) => block.blueWork);
  const min = (values: bigint[]) => values.reduce((a, b) => (b < a ? b : a));
  const max = (values: bigint[]) => values.reduce((a, b) => (b > a ? b : a));
  const [minTime, maxTime] = [min(timestamps), max(timestamps)];
  if (minTime === maxTime) throw new RpcNodeError('difficulty error: min window timestamp is equal to the max window timestamp');
  const seconds = (maxTime - minTime) / 1000n;
  if (seconds === 0n) return 0n;
  return (max(works) - min(works)) / seconds;
}

export interface NodeHandlersOptions {
  consensus: Consensus;
  mempool: Mempool;
  isSynced: () => boolean;
  /** Milliseconds since the Unix epoch (getMetrics' serverTime). */
  clock: () => number;
  processSampler: ProcessSampler;
  /** The wRPC JSON server's counters, once it listens. */
  wrpcCounters?: () => WrpcCounters | undefined;
  processingCounters?: () => ProcessingCounters;
  laneProver?: SeqCommitLaneProver;
  /** [--unsaferpc]: lifts the window limit of estimateNetworkHashesPerSecond. */
  unsafeRpc: boolean;
  /** getSystemInfo's `version`. */
  serverVersion: string;
}

const NOT_IMPLEMENTED = 'Not implemented';
const ZERO_COUNTERS: WrpcCounters = { liveConnections: 0, connectionAttempts: 0, bytesSent: 0, bytesReceived: 0 };
const ZERO_PROCESSING: ProcessingCounters = {
  blocksSubmitted: 0,
  blocksProcessed: 0,
  transactionsProcessed: 0,
  chainBlocksProcessed: 0,
};

interface DaaScoreTimestamp {
  daaScore: bigint;
  timestamp: bigint;
}

export function createNodeHandlers(options: NodeHandlersOptions): WrpcHandlers {
  const { consensus, mempool, clock } = options;
  const laneProver = options.laneProver ?? PRE_TOCCATA_LANE_PROVER;
  const genesisHex = () => bytesToHex(consensus.genesisHash());
  const genesisId = blockIdOf(consensus.genesisHash());
  const ghostdagManager = new GhostdagManager({
    genesis: genesisId,
    k: consensus.params.ghostdagK,
    store: consensus,
    workOf: (block) => calcWork(consensus.bits(block)),
  });
  const difficultyManager = new DifficultyManager({
    params: consensus.params,
    genesis: { id: genesisId, bits: consensus.bits(genesisId) },
    store: consensus,
    windowCacheCapacity: 0,
  });

  const estimateNetworkHashesPerSecond = (windowSize: number, startHash: string | null): bigint => {
    if (!options.unsafeRpc && windowSize > MAX_SAFE_WINDOW_SIZE) {
      throw new RpcNodeError(`Requested window size ${windowSize} is larger than max ${MAX_SAFE_WINDOW_SIZE} allowed in RPC safe mode.`);
    }
    const pruningDepth = consensus.params.pruningDepth;
    if (windowSize > pruningDepth) {
      throw new RpcNodeError(`Requested window size ${windowSize} is larger than pruning point depth ${pruningDepth}.`);
    }
    const start = startHash === LEGACY_VIRTUAL ? null : startHash;
    const ghostdag =
      start === null
        ? ghostdagManager.ghostdag(consensus.virtualParents().map(blockIdOf))
        : consensus.ghostdagData(blockIdOf(blockInfo(start).hash));
    const window = difficultyManager.blockWindow(ghostdag, { size: windowSize });
    return estimateHashesPerSecond(window, consensus);
  };

  const blockInfo = (hash: string): BlockInfo => {
    const info = consensus.getBlock(hexToBytes(hash));
    if (info === undefined) throw headerNotFound(hash);
    return info;
  };

  /** Pruning points from genesis to the current one, then a few selected-chain blocks up to the sink. */
  const chainBlockSamples = (): DaaScoreTimestamp[] => {
    const pruningPoints: BlockInfo[] = [];
    for (let info = consensus.getBlock(consensus.pruningPoint()); info !== undefined; ) {
      pruningPoints.unshift(info);
      if (bytesToHex(info.hash) === genesisHex()) break;
      info = consensus.getBlock(info.header.pruningPoint);
    }
    const samples = pruningPoints.map(({ header }) => ({ daaScore: header.daaScore, timestamp: header.timestamp }));
    const chain = consensus.getVirtualChainFromBlock(consensus.pruningPoint(), false).addedChainBlockHashes;
    const stepDivisor = 3;
    const step = Math.max(Math.floor(chain.length / stepDivisor), 1);
    const indices = new Set<number>();
    for (let index = step; index <= chain.length; index += step) indices.add(index);
    if (chain.length > 0) indices.add(chain.length);
    for (const index of indices) {
      const { header } = consensus.getBlock(chain[index - 1]!)!;
      samples.push({ daaScore: header.daaScore, timestamp: header.timestamp });
    }
    return samples;
  };

  const consensusMetrics = (): RpcConsensusMetrics => {
    const counters = options.processingCounters?.() ?? ZERO_PROCESSING;
    const blocks = BigInt(consensus.blockCount());
    return {
      nodeBlocksSubmittedCount: BigInt(counters.blocksSubmitted),
      nodeHeadersProcessedCount: BigInt(counters.blocksProcessed),
      nodeDependenciesProcessedCount: 0n,
      nodeBodiesProcessedCount: BigInt(counters.blocksProcessed),
      nodeTransactionsProcessedCount: BigInt(counters.transactionsProcessed),
      nodeChainBlocksProcessedCount: BigInt(counters.chainBlocksProcessed),
      nodeMassProcessedCount: 0n,
      nodeDatabaseBlocksCount: blocks,
      nodeDatabaseHeadersCount: blocks,
      networkMempoolSize: BigInt(mempool.transactionCount('transactions')),
      networkTipHashesCount: consensus.getTips().length,
      networkDifficulty: consensus.difficulty(),
      networkPastMedianTime: consensus.pastMedianTime(),
      networkVirtualParentHashesCount: consensus.virtualParents().length,
      networkVirtualDaaScore: consensus.virtualDaaScore(),
    };
  };

  /**
   * `get_merged_block_context`: the first chain block whose mergeset holds the block (the lowest chain block reached
   * through its children) and the block's colour there; undefined while no chain block merged it.
   */
  const mergedBlockContext = (info: BlockInfo): { merging: BlockInfo; isBlue: boolean } | undefined => {
    let merging: BlockInfo | undefined;
    const seen = new Set<string>();
    const queue = [...info.children];
    while (queue.length > 0) {
      const child = consensus.getBlock(queue.shift()!);
      if (child === undefined || seen.has(bytesToHex(child.hash))) continue;
      seen.add(bytesToHex(child.hash));
      if (child.isChainBlock) {
        if (merging === undefined || child.ghostdag.blueScore < merging.ghostdag.blueScore) merging = child;
      } else {
        queue.push(...child.children);
      }
    }
    if (merging === undefined) return undefined;
    const id = bytesToHex(info.hash);
    if (merging.ghostdag.mergesetBlues.includes(id)) return { merging, isBlue: true };
    return merging.ghostdag.mergesetReds.includes(id) ? { merging, isBlue: false } : undefined;
  };

  const blockRewardInfo = (hash: string): GetBlockRewardInfoResponse => {
    const info = blockInfo(hash);
    const header = headerToRpc(info.header, info.hash);
    const context = mergedBlockContext(info);
    if (context === undefined) {
      return { header, blockColor: 'unknown', confirmationCount: null, mergingChainBlockHash: null, rewardAmount: null };
    }
    const { merging, isBlue } = context;
    const mergingHash = bytesToHex(merging.hash);
    const sinkBlueScore = consensus.sinkBlueScore();
    const confirmationCount = sinkBlueScore > merging.header.blueScore ? sinkBlueScore - merging.header.blueScore : 0n;
    if (!isBlue) {
      return { header, blockColor: 'red', confirmationCount, mergingChainBlockHash: mergingHash, rewardAmount: null };
    }
    const blueIndex = merging.ghostdag.mergesetBlues.indexOf(hash);
    const output = merging.transactions[0]!.outputs[blueIndex];
    if (output === undefined) throw new RpcNodeError(`missing reward output ${blueIndex} in merging chain block ${mergingHash}`);
    let rewardAmount = output.value;
    if (merging.ghostdag.selectedParent === hash) {
      const ownOutputs = info.transactions[0]!.outputs;
      if (ownOutputs.length === info.ghostdag.mergesetBlues.length + 1) rewardAmount += ownOutputs.at(-1)!.value;
    }
    return { header, blockColor: 'blue', confirmationCount, mergingChainBlockHash: mergingHash, rewardAmount };
  };

  return {
    getSyncStatus: () => ({ isSynced: options.isSynced() }),

    getConnectedPeerInfo: () => ({ peerInfo: [] }),

    getPeerAddresses: () => ({ knownAddresses: [], bannedAddresses: [] }),

    getHeaders: () => {
      throw new RpcNodeError(NOT_IMPLEMENTED);
    },

    getSubnetwork: () => {
      throw new RpcNodeError(NOT_IMPLEMENTED);
    },

    getMetrics: (request): GetMetricsResponse => {
      const wrpc = options.wrpcCounters?.() ?? ZERO_COUNTERS;
      return {
        serverTime: BigInt(clock()),
        processMetrics: request.processMetrics ? options.processSampler() : null,
        connectionMetrics: request.connectionMetrics
          ? {
              borshLiveConnections: 0,
              borshConnectionAttempts: 0n,
              borshHandshakeFailures: 0n,
              jsonLiveConnections: wrpc.liveConnections,
              jsonConnectionAttempts: BigInt(wrpc.connectionAttempts),
              jsonHandshakeFailures: 0n,
              activePeers: 0,
            }
          : null,
        bandwidthMetrics: request.bandwidthMetrics
          ? {
              borshBytesTx: 0n,
              borshBytesRx: 0n,
              jsonBytesTx: BigInt(wrpc.bytesSent),
              jsonBytesRx: BigInt(wrpc.bytesReceived),
              p2pBytesTx: 0n,
              p2pBytesRx: 0n,
              grpcBytesTx: 0n,
              grpcBytesRx: 0n,
            }
          : null,
        consensusMetrics: request.consensusMetrics ? consensusMetrics() : null,
        storageMetrics: request.storageMetrics ? { storageSizeBytes: 0n } : null,
        customMetrics: null,
      };
    },

    getDaaScoreTimestampEstimate: ({ daaScores }) => {
      const samples = chainBlockSamples().reverse();
      const requested = [...daaScores].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
      const estimates = new Map<bigint, bigint>();
      let sampleIndex = 0;
      let requestIndex = 0;
      while (sampleIndex < samples.length && requestIndex < requested.length) {
        const sample = samples[sampleIndex]!;
        const daaScore = requested[requestIndex]!;
        if (sample.daaScore > daaScore) {
          sampleIndex++;
          continue;
        }
        let adjustment: bigint;
        if (sampleIndex === 0) {
          adjustment = (daaScore - sample.daaScore) * BigInt(consensus.params.targetTimePerBlock);
        } else {
          const next = samples[sampleIndex - 1]!;
          const between = next.timestamp > sample.timestamp ? next.timestamp - sample.timestamp : 0n;
          const fraction = Number(daaScore - sample.daaScore) / Number(next.daaScore - sample.daaScore);
          // Rust's `f64 as u64` turns NaN (two samples at one score) into 0.
          const estimate = Number(between) * fraction;
          adjustment = Number.isFinite(estimate) ? BigInt(Math.trunc(estimate)) : 0n;
        }
        estimates.set(daaScore, sample.timestamp + adjustment);
        requestIndex++;
      }
      // Genesis is the earliest sample; a score below it (none on this devnet) gets genesis' time.
      const earliest = samples.at(-1)!.timestamp;
      return { timestamps: daaScores.map((daaScore) => estimates.get(daaScore) ?? earliest) };
    },

    getBlockRewardInfo: ({ hash }) => blockRewardInfo(hash),

    getCurrentBlockColor: ({ hash }) => {
      const info = consensus.getBlock(hexToBytes(hash));
      const context = info === undefined ? undefined : mergedBlockContext(info);
      if (context === undefined) throw new RpcNodeError(`Block ${hash} doesn't have any merger block.`);
      return { blue: context.isBlue };
    },

    getConnections: ({ includeProfileData }) => {
      const profile = includeProfileData ? options.processSampler() : undefined;
      return {
        clients: options.wrpcCounters?.()?.liveConnections ?? 0,
        peers: 0,
        profileData: profile === undefined ? null : { cpuUsage: profile.cpuUsage, memoryUsage: profile.residentSetSize },
      };
    },

    getSystemInfo: () => systemInfo(options.serverVersion),

    estimateNetworkHashesPerSecond: ({ windowSize, startHash }) => ({
      networkHashesPerSecond: estimateNetworkHashesPerSecond(windowSize, startHash),
    }),

    getSeqCommitLaneProof: ({ blockHash, laneKey }) => laneProver.laneProof(blockInfo(blockHash).hash, hexToBytes(laneKey)),
  };
}
