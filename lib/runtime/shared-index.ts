/**
 * The index's lag as a process that does not index sees it (INDEXER_MODE=off, or another process holds the indexer
 * lock): the shared indexer's checkpoint read from the database, against the node this process is connected to,
 * measured as the indexer measures its own (node sink's timestamp minus the checkpoint block's timestamp), so a load
 * balancer can route around an instance whose database has gone stale.
 */
import { DEFAULT_CHECKPOINT_NAME, readCheckpointProgress, readIndexGaps, type IndexGap, type Queryable } from '../db';
import type { RpcClient } from '../rpc';

export interface IndexLag {
  /** this-process: the figures of this process's indexer; database: the shared checkpoint read from the database. */
  source: 'this-process' | 'database';
  nodeVirtualDaaScore: bigint | null;
  indexedDaaScore: bigint | null;
  lagSeconds: number | null;
  /** When the checkpoint last moved, ms since the Unix epoch; null until known. */
  checkpointMovedAt: number | null;
  error: string | null;
  /** Stretches of the chain the index lacks (lib/indexer records them), oldest first. */
  gaps: readonly IndexGap[];
}

/** Before the first reading. */
export const UNKNOWN_SHARED_LAG: Readonly<IndexLag> = Object.freeze({
  source: 'database',
  nodeVirtualDaaScore: null,
  indexedDaaScore: null,
  lagSeconds: null,
  checkpointMovedAt: null,
  error: null,
  gaps: Object.freeze([]),
});

export interface SharedIndexWatch {
  lag(): IndexLag;
  /** One reading now (the watch also reads every `intervalMs`). */
  poll(): Promise<void>;
  stop(): void;
}

export interface SharedIndexWatchOptions {
  db: Queryable;
  rpc: Pick<RpcClient, 'call'>;
  intervalMs?: number;
  checkpointName?: string;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function watchSharedIndex(options: SharedIndexWatchOptions): SharedIndexWatch {
  const { db, rpc } = options;
  const checkpointName = options.checkpointName ?? DEFAULT_CHECKPOINT_NAME;
  let lag: IndexLag = UNKNOWN_SHARED_LAG;

  const readNode = async () => {
    const dag = await rpc.call('getBlockDagInfo', {});
    const { block } = await rpc.call('getBlock', { hash: dag.sink, includeTransactions: false });
    return { virtualDaaScore: dag.virtualDaaScore, sinkTimestamp: block.header.timestamp };
  };

  let polling: Promise<void> | undefined;
  const poll = (): Promise<void> => {
    polling ??= (async () => {
      const [progress, node, gaps] = await Promise.allSettled([
        readCheckpointProgress(db, checkpointName),
        readNode(),
        readIndexGaps(db, checkpointName),
      ]);
      const checkpoint = progress.status === 'fulfilled' ? progress.value : null;
      const nodeNow = node.status === 'fulfilled' ? node.value : null;
      const errors = [
        progress.status === 'rejected' ? `database: ${describe(progress.reason)}` : null,
        node.status === 'rejected' ? `node: ${describe(node.reason)}` : null,
        progress.status === 'fulfilled' && checkpoint === null ? 'no indexer has stored a checkpoint in this database yet' : null,
      ].filter((text) => text !== null);
      const blockTimestamp = checkpoint?.blockTimestamp ?? null;
      lag = {
        source: 'database',
        nodeVirtualDaaScore: nodeNow?.virtualDaaScore ?? lag.nodeVirtualDaaScore,
        indexedDaaScore: checkpoint?.daaScore ?? (progress.status === 'fulfilled' ? null : lag.indexedDaaScore),
        lagSeconds:
          nodeNow !== null && blockTimestamp !== null
            ? Math.max(0, Number(nodeNow.sinkTimestamp - blockTimestamp)) / 1000
            : null,
        checkpointMovedAt: checkpoint?.updatedAt ?? null,
        error: errors.length === 0 ? null : errors.join('; '),
        gaps: gaps.status === 'fulfilled' ? gaps.value : lag.gaps,
      };
    })().finally(() => {
      polling = undefined;
    });
    return polling;
  };

  const timer = setInterval(() => void poll(), options.intervalMs ?? 2_000);
  timer.unref();
  void poll();
  return {
    lag: () => lag,
    poll,
    stop: () => clearInterval(timer),
  };
}
