/**
 * The indexer's loop: it subscribes to the node (BlockAdded and VirtualChainChanged, before catching up; duplicates
 * are idempotent), catches up from the checkpoint, then applies each queued batch of notifications: the blocks first,
 * then the chain changes as steps with one checkpoint. A notification that does not continue the stored chain, a
 * reconnect, or a node whose sink moves while nothing arrives triggers another catch-up; a failed round retries with
 * backoff. Its parts: known-blocks.ts (what is stored), block-writer.ts (batches), chain-follower.ts (the chain),
 * checkpoint-recovery.ts (where to start and how to find the way back), index-writes.ts (transaction, events,
 * progress). Invariant: one round runs at a time, and status() reads only committed progress.
 */
import { readCheckpoint, readIndexGaps, type Db, type IndexGap, DEFAULT_CHECKPOINT_NAME } from '../db';
import type { AddressPrefix } from '../kaspa/address';
import { bytesToHex } from '../kaspa/bytes';
import type { RpcBlock, RpcClient, RpcNotifications, Unsubscribe } from '../rpc';
import { createBlockWriter } from './block-writer';
import { acceptedByBlock, createChainFollower, type ChainStep } from './chain-follower';
import { createCheckpointRecovery } from './checkpoint-recovery';
import { addressPrefixOf } from './convert';
import { createIndexWrites } from './index-writes';
import { createKnownBlocks } from './known-blocks';
import { createInputResolver } from './resolve';

export interface IndexerBatchSettings {
  /** Blocks written per database transaction. */
  maxBlocks: number;
  /**
   * Batches committing at once, each on its own connection: while PostgreSQL writes one, the next is converted and
   * sent. Block rows carry no checkpoint, so their commit order is free; the checkpoint moves only after all commit.
   */
  parallelWrites: number;
  /**
   * PostgreSQL only: commit batches with `synchronous_commit = off`. Safe for the index: a batch and its checkpoint
   * commit together, so a crash loses at most the last batches, which the next start fetches again.
   */
  asynchronousCommit: boolean;
}

export interface IndexerOptions {
  rpc: RpcClient;
  db: Db;
  log?: (line: string) => void;
  /** Milliseconds since the Unix epoch (lastBatchAt). */
  clock?: () => number;
  batch?: Partial<IndexerBatchSettings>;
  /** How often the node's virtual DAA score and sink are polled for the lag. */
  nodePollIntervalMs?: number;
  /** Wait after a failed round before catching up again; doubles with each further failure, up to 30 s. */
  retryDelayMs?: number;
  /** Several indexes could share one database under different names (tests use this). */
  checkpointName?: string;
  /** Called after each batch of blocks commits, with their hashes (hex); bench/indexer.ts measures lag with it. */
  onBlocksStored?: (hashes: string[]) => void;
  /**
   * The stream event log (stream-announcer.ts): changes to blocks younger than this many ms are announced; null
   * announces nothing. One hour unless set.
   */
  streamEventWindowMs?: number | null;
  /** Called after a transaction that wrote stream events commits (in-process subscribers poll at once). */
  onStreamEvents?: () => void;
}

export interface IndexerStatus {
  /** Caught up with the node and following its notifications. */
  ready: boolean;
  phase: 'stopped' | 'starting' | 'catching-up' | 'following' | 'retrying';
  nodeVirtualDaaScore: bigint | null;
  /** DAA score of the last chain block whose acceptance is stored (the checkpoint). */
  indexedDaaScore: bigint | null;
  /** Node sink's timestamp minus the checkpoint block's timestamp, in seconds; null until both are known. */
  lagSeconds: number | null;
  /** Milliseconds since the Unix epoch. */
  lastBatchAt: number | null;
  lastError: string | null;
  /** Times the node did not know the checkpoint and the index walked back to a chain block it knows. */
  recoveries: number;
  /** Stretches of the chain the index lacks (the node knew none of the stored chain), oldest first. */
  gaps: IndexGap[];
  /** What the operator should know about the last recovery or gap, with the remedy; null when there is nothing. */
  notice: string | null;
}

export interface Indexer {
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): IndexerStatus;
  /** Resolves once the indexer has caught up (or rejects after `timeoutMs`). */
  whenReady(timeoutMs?: number): Promise<void>;
}

export const DEFAULT_STREAM_EVENT_WINDOW_MS = 3_600_000;

/** Blocks requested ahead of the batch being stored during a catch-up. */
const FETCH_AHEAD = 100;

const DEFAULTS = {
  maxBlocks: 100,
  parallelWrites: 2,
  nodePollIntervalMs: 2_000,
  retryDelayMs: 1_000,
  maxRetryDelayMs: 30_000,
  knownBlocks: 50_000,
  /** A catch-up that keeps finding chain blocks it has not stored gives up after this many rounds and retries. */
  maxCatchUpRounds: 20,
} as const;

type IndexerEvent =
  | { kind: 'block'; block: RpcBlock }
  | { kind: 'chain'; change: RpcNotifications['VirtualChainChanged']; received: number }
  | { kind: 'resync' };

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createIndexer(options: IndexerOptions): Indexer {
  const { rpc, db } = options;
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? Date.now;
  const maxBlocks = options.batch?.maxBlocks ?? DEFAULTS.maxBlocks;
  const checkpointName = options.checkpointName ?? DEFAULT_CHECKPOINT_NAME;
  const resolver = createInputResolver();
  const writes = createIndexWrites({
    db,
    asynchronousCommit: options.batch?.asynchronousCommit ?? true,
    clock,
    eventWindowMs: options.streamEventWindowMs === undefined ? DEFAULT_STREAM_EVENT_WINDOW_MS : options.streamEventWindowMs,
    onStreamEvents: options.onStreamEvents,
  });
  const { progress } = writes;
  const known = createKnownBlocks(db, DEFAULTS.knownBlocks);
  let prefix: AddressPrefix | undefined;
  const prefixOf = () => prefix!;
  const writer = createBlockWriter({
    db,
    writes,
    known,
    resolver,
    maxBlocks,
    parallelWrites: options.batch?.parallelWrites ?? DEFAULTS.parallelWrites,
    prefix: prefixOf,
    onBlocksStored: options.onBlocksStored,
  });
  const recovery = createCheckpointRecovery({ rpc, db, writes, known, resolver, checkpointName, prefix: prefixOf, clock, log });
  /** Count of chain notifications received; a catch-up covers those received before its last chain request. */
  let chainNotifications = 0;
  const follower = createChainFollower({
    rpc,
    writes,
    known,
    writer,
    recovery,
    checkpointName,
    maxBlocks,
    fetchAhead: FETCH_AHEAD,
    maxRounds: DEFAULTS.maxCatchUpRounds,
    notificationsReceived: () => chainNotifications,
  });

  let nodeVirtualDaaScore: bigint | null = null;
  let nodeSinkTimestamp: bigint | null = null;
  let lastError: string | null = null;
  let phase: IndexerStatus['phase'] = 'stopped';
  let caughtUp = false;

  let running = false;
  let queue: IndexerEvent[] = [];
  let wake: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let unsubscribes: Unsubscribe[] = [];
  let stopStateListener: (() => void) | undefined;
  const readyWaiters = new Set<() => void>();

  const push = (event: IndexerEvent) => {
    queue.push(event);
    wake?.();
  };

  const catchUp = async (): Promise<void> => {
    phase = 'catching-up';
    await follower.catchUp();
    caughtUp = true;
    phase = 'following';
    for (const resolve of readyWaiters) resolve();
    readyWaiters.clear();
  };

  /** Live batches: the blocks of every queued BlockAdded, then the queued chain changes with one checkpoint. */
  const processEvents = async (events: readonly IndexerEvent[]): Promise<void> => {
    try {
      await writer.store(events.flatMap((event) => (event.kind === 'block' ? [event.block] : [])));
    } finally {
      await writer.flush();
    }
    if (events.some((event) => event.kind === 'resync')) {
      await catchUp();
      return;
    }
    const steps: ChainStep[] = [];
    let tip = bytesToHex(progress.checkpoint!.blockHash);
    for (const event of events) {
      if (event.kind !== 'chain' || event.received <= follower.coveredNotifications()) continue;
      const { change } = event;
      // kaspad notifies every virtual resolution, also one that left the selected chain as it was.
      if (change.addedChainBlockHashes.length === 0 && change.removedChainBlockHashes.length === 0) continue;
      if (change.addedChainBlockHashes.at(-1) === tip) continue;
      const added = await follower.applicablePrefix(change.addedChainBlockHashes);
      if (added.length < change.addedChainBlockHashes.length || !(await follower.continues(change, tip))) {
        await follower.apply(steps);
        await catchUp();
        return;
      }
      steps.push({ removed: change.removedChainBlockHashes, added, accepted: acceptedByBlock(change) });
      tip = added.at(-1)!;
    }
    await follower.apply(steps);
  };

  /** The checkpoint at the previous poll, while the node's sink was elsewhere. */
  let stalledAt: string | undefined;

  /**
   * Polls the node for the lag. A node whose sink moves on while the checkpoint stays put over a whole poll interval
   * with nothing queued is not notifying this indexer (a lost subscription): it catches up instead.
   */
  const pollNode = async (): Promise<void> => {
    try {
      const dag = await rpc.call('getBlockDagInfo', {});
      nodeVirtualDaaScore = dag.virtualDaaScore;
      const current = progress.checkpoint && bytesToHex(progress.checkpoint.blockHash);
      const behind = caughtUp && queue.length === 0 && current !== null && current !== dag.sink;
      if (behind && stalledAt === current) {
        log(`indexer: no notification moved the index past ${current} while the node's sink moved; catching up`);
        push({ kind: 'resync' });
      }
      stalledAt = behind ? (current ?? undefined) : undefined;
      const { block } = await rpc.call('getBlock', { hash: dag.sink, includeTransactions: false });
      nodeSinkTimestamp = block.header.timestamp;
    } catch (error) {
      lastError = describe(error);
    }
  };

  const observeBlock = (block: RpcBlock) => {
    if (nodeVirtualDaaScore === null || block.header.daaScore > nodeVirtualDaaScore) {
      nodeVirtualDaaScore = block.header.daaScore;
    }
    if (nodeSinkTimestamp === null || block.header.timestamp > nodeSinkTimestamp) {
      nodeSinkTimestamp = block.header.timestamp;
    }
  };

  /** Ends a retry wait early; only stop() does (notifications must not cut the backoff short). */
  let interruptSleep: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      interruptSleep = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** Consecutive failed rounds (e.g. a node that does not know the checkpoint: another network, or pruned past it). */
  let failures = 0;

  const run = async (): Promise<void> => {
    while (running) {
      if (queue.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      const events = queue;
      queue = [];
      try {
        await processEvents(events);
        lastError = null;
        failures = 0;
      } catch (error) {
        if (!running) return;
        lastError = describe(error);
        caughtUp = false;
        phase = 'retrying';
        const delay = Math.min(
          (options.retryDelayMs ?? DEFAULTS.retryDelayMs) * 2 ** failures,
          DEFAULTS.maxRetryDelayMs,
        );
        failures += 1;
        log(`indexer: ${lastError}; catching up again in ${delay} ms`);
        await sleep(delay);
        interruptSleep = undefined;
        queue.unshift({ kind: 'resync' });
      }
    }
  };

  const start = async (): Promise<void> => {
    if (running) return;
    running = true;
    phase = 'starting';
    try {
      const dag = await rpc.call('getBlockDagInfo', {});
      prefix = addressPrefixOf(dag.network);
      nodeVirtualDaaScore = dag.virtualDaaScore;
      stopStateListener = rpc.onStateChange((change) => {
        if (change.state === 'open' && change.previous !== 'open') push({ kind: 'resync' });
        if (change.state !== 'open') caughtUp = false;
      });
      unsubscribes = await Promise.all([
        rpc.subscribe('BlockAdded', {}, ({ block }) => {
          observeBlock(block);
          push({ kind: 'block', block });
        }),
        rpc.subscribe('VirtualChainChanged', { include_accepted_transaction_ids: true }, (change) =>
          push({ kind: 'chain', change, received: ++chainNotifications }),
        ),
      ]);
      progress.checkpoint = await readCheckpoint(db, checkpointName);
      progress.gaps = await readIndexGaps(db, checkpointName);
      if (progress.checkpoint === null) await recovery.bootstrap();
      else {
        const hash = bytesToHex(progress.checkpoint.blockHash);
        progress.checkpointTimestamp = (await known.lookUp([hash])).get(hash)?.timestamp ?? null;
      }
    } catch (error) {
      await stop();
      throw error;
    }
    queue.unshift({ kind: 'resync' });
    await pollNode();
    pollTimer = setInterval(() => void pollNode(), options.nodePollIntervalMs ?? DEFAULTS.nodePollIntervalMs);
    pollTimer.unref();
    loop = run();
  };

  const stop = async (): Promise<void> => {
    running = false;
    phase = 'stopped';
    caughtUp = false;
    clearInterval(pollTimer);
    stopStateListener?.();
    stopStateListener = undefined;
    const pending = unsubscribes;
    unsubscribes = [];
    await Promise.all(pending.map((unsubscribe) => unsubscribe().catch(() => undefined)));
    wake?.();
    interruptSleep?.();
    await loop;
    loop = undefined;
    queue = [];
  };

  const status = (): IndexerStatus => {
    const { checkpoint, checkpointTimestamp, lastBatchAt, recoveries, gaps, notice } = progress;
    const lag =
      nodeSinkTimestamp !== null && checkpointTimestamp !== null
        ? Math.max(0, Number(nodeSinkTimestamp - checkpointTimestamp)) / 1000
        : null;
    return {
      ready: running && caughtUp && rpc.state === 'open',
      phase,
      nodeVirtualDaaScore,
      indexedDaaScore: checkpoint?.daaScore ?? null,
      lagSeconds: lag,
      lastBatchAt,
      lastError,
      recoveries,
      gaps,
      notice,
    };
  };

  return {
    start,
    stop,
    status,
    whenReady(timeoutMs = 30_000) {
      if (caughtUp) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          readyWaiters.delete(done);
          reject(new Error(`the indexer did not catch up within ${timeoutMs} ms (${lastError ?? phase})`));
        }, timeoutMs);
        readyWaiters.add(done);
      });
    },
  };
}
