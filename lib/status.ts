/**
 * status: the readiness report behind GET /api/status.
 *
 * The node and indexer sections stay null until those stages are wired into the composition root.
 */
export interface StatusReport {
  ready: boolean;
  uptimeSeconds: number;
  node: null;
  indexer: null;
}

export function getStatus(): StatusReport {
  return { ready: false, uptimeSeconds: Math.round(process.uptime()), node: null, indexer: null };
}
