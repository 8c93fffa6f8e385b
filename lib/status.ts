/**
 * status: the readiness report behind GET /api/status. The node section comes from the connected node's
 * getBlockDagInfo and getInfo; the indexer section stays null until the indexer is wired into the runtime.
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

export interface StatusReport {
  ready: boolean;
  uptimeSeconds: number;
  node: NodeStatus | null;
  indexer: null;
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

export async function getStatus(runtime: Runtime | null): Promise<StatusReport> {
  const node = runtime ? await nodeStatus(runtime) : null;
  return {
    ready: node !== null && node.connected && node.isSynced,
    uptimeSeconds: Math.round(process.uptime()),
    node,
    indexer: null,
  };
}
