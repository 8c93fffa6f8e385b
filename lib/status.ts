/**
 * status: the readiness report behind GET /api/status. The node section comes from the connected node's
 * getBlockDagInfo and getInfo; the indexer section reports this process's indexer (null when it does not index:
 * INDEXER_MODE=off, or another process holds the indexer lock). Ready needs a synced node and, when this process
 * indexes, an indexer that has caught up and is following the node.
 */
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
  ready: boolean;
  phase: string;
  /** Decimal strings; null until known. */
  nodeVirtualDaaScore: string | null;
  indexedDaaScore: string | null;
  lagSeconds: number | null;
  /** ISO 8601. */
  lastBatchAt: string | null;
  error: string | null;
}

export interface StatusReport {
  ready: boolean;
  uptimeSeconds: number;
  node: NodeStatus | null;
  indexer: IndexerStatusReport | null;
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

function indexerStatus(runtime: Runtime): IndexerStatusReport | null {
  const status = runtime.indexer.status();
  if (status === null) return null;
  return {
    ready: status.ready,
    phase: status.phase,
    nodeVirtualDaaScore: status.nodeVirtualDaaScore?.toString() ?? null,
    indexedDaaScore: status.indexedDaaScore?.toString() ?? null,
    lagSeconds: status.lagSeconds,
    lastBatchAt: status.lastBatchAt === null ? null : new Date(status.lastBatchAt).toISOString(),
    error: status.lastError,
  };
}

export async function getStatus(runtime: Runtime | null): Promise<StatusReport> {
  const node = runtime ? await nodeStatus(runtime) : null;
  const indexer = runtime ? indexerStatus(runtime) : null;
  const indexerReady = runtime?.indexer.role !== 'embedded' || indexer?.ready === true;
  return {
    ready: node !== null && node.connected && node.isSynced && indexerReady,
    uptimeSeconds: Math.round(process.uptime()),
    node,
    indexer,
  };
}
