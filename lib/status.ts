/**
 * status: the readiness report behind GET /api/status. The node section comes from the connected node's
 * getBlockDagInfo and getInfo; the indexer section reports this process's indexer or, when this process does not
 * index (INDEXER_MODE=off, or another process holds the indexer lock), the shared indexer's checkpoint as read from
 * the database (phase `shared`, ready while its lag is within HEALTH_MAX_LAG_SECONDS). Ready needs a synced node and
 * a ready indexer section.
 */
import { basename } from 'node:path';
import { readRetentionBound, type IndexGap, type Queryable, type RetentionPolicy } from './db';
import type { DevnetRestoreReport } from './devnet/node';
import { retentionPolicyFor } from './indexer/history-pruner';
import { bytesToHex } from './kaspa/bytes';
import type { Runtime } from './runtime';

export interface NodeStatus {
  kind: Runtime['nodeKind'];
  connected: boolean;
  network: string | null;
  isSynced: boolean;
  serverVersion: string | null;
  virtualDaaScore: string | null;
  blockCount: string | null;
  error: string | null;
}

export interface IndexerStatusReport {
  /** embedded: this process indexes; off (INDEXER_MODE=off) and elsewhere (another process holds the lock): shared. */
  role: Runtime['indexer']['role'];
  ready: boolean;
  phase: string;
  /** Decimal strings; null until known. */
  nodeVirtualDaaScore: string | null;
  indexedDaaScore: string | null;
  lagSeconds: number | null;
  /** ISO 8601: when the checkpoint last moved. */
  lastBatchAt: string | null;
  error: string | null;
  /** Times the node did not know the checkpoint and the index walked back to a chain block it knows. */
  recoveries: number;
  /** Stretches of the chain the index lacks, oldest first (hashes hex, scores decimal strings). */
  gaps: IndexGapReport[];
  /** The last recovery or gap in words, with the remedy; null when there is nothing to say. */
  notice: string | null;
}

export interface IndexGapReport {
  reason: IndexGap['reason'];
  lostCheckpointHash: string;
  lostCheckpointDaaScore: string;
  lastKeptHash: string | null;
  lastKeptDaaScore: string | null;
  resumedHash: string;
  resumedDaaScore: string;
  replacedChainBlocks: number;
  /** ISO 8601. */
  detectedAt: string;
}

/** The embedded devnet's start from its block log; absent with an external node or without persistence. */
export interface DevnetRestoreStatus {
  replayedBlocks: number;
  replaySeconds: number;
  /**
   * Set when the start dropped a torn, corrupt or rejected tail of the block log (after an unclean stop); `savedTo` is
   * the file name under DATA_DIR/devnet, never a path.
   */
  recovery: DevnetRestoreReport['recovery'];
}

/**
 * History retention: the index holds history from `fromDaaScore` (block time `fromTime`, ISO 8601) up; both null
 * while nothing was deleted. `policy` is the one that set the bound, or this instance's configuration before any.
 */
export interface RetentionStatus {
  fromDaaScore: string | null;
  fromTime: string | null;
  policy: RetentionPolicy;
  prunedBlocks: string;
  prunedTransactions: string;
}

export interface StatusReport {
  ready: boolean;
  uptimeSeconds: number;
  node: NodeStatus | null;
  indexer: IndexerStatusReport | null;
  retention: RetentionStatus | null;
  devnet: DevnetRestoreStatus | null;
}

const NODE_STATUS_TIMEOUT_MS = 2_000;

async function nodeStatus(runtime: Runtime): Promise<NodeStatus> {
  try {
    const [dag, info] = await Promise.all([
      runtime.rpc.call('getBlockDagInfo', {}, { timeoutMs: NODE_STATUS_TIMEOUT_MS }),
      runtime.rpc.call('getInfo', {}, { timeoutMs: NODE_STATUS_TIMEOUT_MS }),
    ]);
    return {
      kind: runtime.nodeKind,
      connected: true,
      network: dag.network,
      isSynced: info.isSynced,
      serverVersion: info.serverVersion,
      virtualDaaScore: dag.virtualDaaScore.toString(),
      blockCount: dag.blockCount.toString(),
      error: null,
    };
  } catch (error) {
    return {
      kind: runtime.nodeKind,
      connected: false,
      network: null,
      isSynced: false,
      serverVersion: null,
      virtualDaaScore: null,
      blockCount: null,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const gapReport = (gap: IndexGap): IndexGapReport => ({
  reason: gap.reason,
  lostCheckpointHash: bytesToHex(gap.lostCheckpointHash),
  lostCheckpointDaaScore: gap.lostCheckpointDaaScore.toString(),
  lastKeptHash: gap.lastKeptHash && bytesToHex(gap.lastKeptHash),
  lastKeptDaaScore: gap.lastKeptDaaScore?.toString() ?? null,
  resumedHash: bytesToHex(gap.resumedHash),
  resumedDaaScore: gap.resumedDaaScore.toString(),
  replacedChainBlocks: gap.replacedChainBlocks,
  detectedAt: new Date(gap.detectedAt).toISOString(),
});

function indexerStatus(runtime: Runtime): IndexerStatusReport {
  const { role } = runtime.indexer;
  const status = runtime.indexer.status();
  if (status === null) {
    const lag = runtime.indexer.lag();
    return {
      role,
      ready: lag.lagSeconds !== null && lag.lagSeconds <= runtime.env.HEALTH_MAX_LAG_SECONDS,
      phase: 'shared',
      nodeVirtualDaaScore: lag.nodeVirtualDaaScore?.toString() ?? null,
      indexedDaaScore: lag.indexedDaaScore?.toString() ?? null,
      lagSeconds: lag.lagSeconds,
      lastBatchAt: isoOrNull(lag.checkpointMovedAt),
      error: lag.error,
      recoveries: 0,
      gaps: lag.gaps.map(gapReport),
      notice: null,
    };
  }
  return {
    role,
    ready: status.ready,
    phase: status.phase,
    nodeVirtualDaaScore: status.nodeVirtualDaaScore?.toString() ?? null,
    indexedDaaScore: status.indexedDaaScore?.toString() ?? null,
    lagSeconds: status.lagSeconds,
    lastBatchAt: isoOrNull(status.lastBatchAt),
    error: status.lastError,
    recoveries: status.recoveries,
    gaps: status.gaps.map(gapReport),
    notice: status.notice,
  };
}

function devnetStatus(restored: DevnetRestoreReport | null): DevnetRestoreStatus | null {
  if (restored === null) return null;
  return {
    replayedBlocks: restored.replayedBlocks,
    replaySeconds: Math.round(restored.milliseconds) / 1000,
    recovery: restored.recovery && { ...restored.recovery, savedTo: basename(restored.recovery.savedTo) },
  };
}

/** The recorded retention bound, or `configured` (this instance's policy) with no bound while nothing was deleted. */
export async function retentionStatus(db: Queryable, configured: RetentionPolicy): Promise<RetentionStatus> {
  const bound = await readRetentionBound(db);
  if (bound === null) {
    return { fromDaaScore: null, fromTime: null, policy: configured, prunedBlocks: '0', prunedTransactions: '0' };
  }
  return {
    fromDaaScore: bound.fromDaaScore.toString(),
    fromTime: new Date(Number(bound.fromTime)).toISOString(),
    policy: bound.policy,
    prunedBlocks: bound.prunedBlocks.toString(),
    prunedTransactions: bound.prunedTransactions.toString(),
  };
}

const configuredRetention = (runtime: Runtime) =>
  retentionPolicyFor({
    days: runtime.env.HISTORY_RETENTION_DAYS,
    gigabytes: runtime.env.HISTORY_RETENTION_GB,
    embeddedDevnet: runtime.nodeKind === 'embedded-devnet',
  });

export async function getStatus(runtime: Runtime | null): Promise<StatusReport> {
  const [node, retention] = runtime
    ? await Promise.all([nodeStatus(runtime), retentionStatus(runtime.db, configuredRetention(runtime)).catch(() => null)])
    : [null, null];
  const indexer = runtime ? indexerStatus(runtime) : null;
  return {
    ready: node !== null && node.connected && node.isSynced && indexer?.ready === true,
    uptimeSeconds: Math.round(process.uptime()),
    node,
    indexer,
    retention,
    devnet: devnetStatus(runtime?.devnetRestored ?? null),
  };
}
