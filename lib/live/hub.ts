/**
 * The live hub: one process-wide source of the explorer's live events, fed by a single BlockAdded and a single
 * VirtualChainChanged subscription on the runtime's node connection and by sampling getBlockDagInfo and
 * getSinkBlueScore (every `dagIntervalMs`) and getInfo + getFeeEstimate (every `mempoolIntervalMs`). Each browser
 * connection is a `LiveClient` with a bounded queue: a client that falls `maxQueued` events behind is dropped (its
 * EventSource reconnects), never buffered without limit.
 *
 * Events (all JSON-safe: u64 values as decimal strings):
 *   block    a block the node added: header figures, direct parents, selected parent, chain membership and colour
 *            as known at that moment (a new sink is a chain block, hence blue; other colours arrive with `chain`)
 *   chain    virtual chain change: removed / added chain blocks, and the merge-set blues / reds of the added ones
 *            (the colours the virtual gives those blocks)
 *   dag      sampled DAG figures plus rates over the trailing `rateWindowMs` of blocks received
 *   mempool  sampled mempool size and the fee estimate buckets
 * A new client first receives the latest `dag` and `mempool` and the blocks of the last `recentWindowMs` with their
 * current chain status and colour, so a page reconnecting after a gap catches up without another request.
 */
import { dagInfoToNode, feeEstimateToNode } from '../api/endpoints/node-format';
import type { RpcClient, Unsubscribe } from '../rpc/client';
import type { RpcBlock, RpcNotifications } from '../rpc/types';
import type { BlockColor, LiveBlock, LiveDag, LiveEvent, LiveMempool, LiveSnapshot, LiveTransaction } from '../web/live-types';

export type LiveCloseReason = 'closed' | 'slow' | 'hub-closed';

export interface LiveClient {
  /** The next event; 'idle' when none came within `timeoutMs`; null once the client is closed. */
  next(timeoutMs: number): Promise<LiveEvent | 'idle' | null>;
  close(): void;
  readonly closeReason: LiveCloseReason | undefined;
}

export interface LiveHub {
  /** Resolves once both node subscriptions are in place. */
  readonly ready: Promise<void>;
  readonly clientCount: number;
  connect(options?: { maxQueued?: number }): LiveClient;
  snapshot(): LiveSnapshot;
  close(): Promise<void>;
}

export interface LiveHubOptions {
  rpc: Pick<RpcClient, 'call' | 'subscribe'>;
  dagIntervalMs?: number;
  mempoolIntervalMs?: number;
  rateWindowMs?: number;
  recentWindowMs?: number;
  maxRecentBlocks?: number;
  now?: () => number;
  onError?: (error: Error) => void;
}

export const MAX_LISTED_TRANSACTIONS = 20;
const DEFAULTS = {
  dagIntervalMs: 1_000,
  mempoolIntervalMs: 2_000,
  rateWindowMs: 10_000,
  recentWindowMs: 60_000,
  maxRecentBlocks: 1_200,
  maxQueued: 512,
} as const;

interface RecentBlock {
  block: LiveBlock;
  blues: string[];
  reds: string[];
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The Toccata activity of a block's non-coinbase transactions, for the dashboard's share and covenant figures. */
export function blockActivity(transactions: RpcBlock['transactions']): { versionOneTransactions: number; covenantTransactions: number } {
  let versionOneTransactions = 0;
  let covenantTransactions = 0;
  for (const transaction of transactions.slice(1)) {
    if (transaction.version >= 1) versionOneTransactions += 1;
    if (transaction.outputs.some((output) => output.covenant !== null)) covenantTransactions += 1;
  }
  return { versionOneTransactions, covenantTransactions };
}

function liveBlock(block: RpcBlock, receivedAt: number): { block: LiveBlock; blues: string[]; reds: string[] } {
  const verbose = block.verboseData;
  const transactions: LiveTransaction[] = [];
  for (const transaction of block.transactions.slice(1, MAX_LISTED_TRANSACTIONS + 1)) {
    const id = transaction.verboseData?.transactionId;
    if (id === undefined) continue;
    const output = transaction.outputs.reduce((sum, item) => sum + BigInt(item.value), 0n);
    transactions.push({ id, outputSompi: output.toString() });
  }
  const isChainBlock = verbose?.isChainBlock ?? null;
  return {
    block: {
      hash: block.header.hash,
      daaScore: block.header.daaScore.toString(),
      blueScore: block.header.blueScore.toString(),
      timestamp: Number(block.header.timestamp),
      txCount: block.transactions.length,
      parents: [...(block.header.parentsByLevel[0] ?? [])],
      selectedParent: verbose?.selectedParentHash ?? null,
      isChainBlock,
      color: isChainBlock === true ? 'blue' : null,
      transactions,
      ...blockActivity(block.transactions),
      receivedAt,
    },
    blues: [...(verbose?.mergeSetBluesHashes ?? [])],
    reds: [...(verbose?.mergeSetRedsHashes ?? [])],
  };
}

export function createLiveHub(options: LiveHubOptions): LiveHub {
  const { rpc } = options;
  const now = options.now ?? Date.now;
  const dagIntervalMs = options.dagIntervalMs ?? DEFAULTS.dagIntervalMs;
  const mempoolIntervalMs = options.mempoolIntervalMs ?? DEFAULTS.mempoolIntervalMs;
  const rateWindowMs = options.rateWindowMs ?? DEFAULTS.rateWindowMs;
  const recentWindowMs = options.recentWindowMs ?? DEFAULTS.recentWindowMs;
  const maxRecentBlocks = options.maxRecentBlocks ?? DEFAULTS.maxRecentBlocks;
  const reportError = (error: unknown) => options.onError?.(asError(error));
  const startedAt = now();

  const clients = new Set<ClientState>();
  /** Insertion-ordered by arrival, so the oldest is first. */
  const recent = new Map<string, RecentBlock>();
  let latestDag: LiveDag | undefined;
  let latestMempool: LiveMempool | undefined;
  let closed = false;
  const unsubscribes: Unsubscribe[] = [];

  class ClientState implements LiveClient {
    readonly replay: LiveEvent[];
    readonly queue: LiveEvent[] = [];
    closeReason: LiveCloseReason | undefined;
    waiter: ((event: LiveEvent | 'idle' | null) => void) | undefined;

    constructor(
      readonly maxQueued: number,
      replay: LiveEvent[],
    ) {
      this.replay = replay;
    }

    push(event: LiveEvent): void {
      if (this.waiter !== undefined) {
        const waiter = this.waiter;
        this.waiter = undefined;
        waiter(event);
        return;
      }
      if (this.queue.length >= this.maxQueued) {
        this.finish('slow');
        return;
      }
      this.queue.push(event);
    }

    next(timeoutMs: number): Promise<LiveEvent | 'idle' | null> {
      const ready = this.replay.shift() ?? this.queue.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      if (this.closeReason !== undefined) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          this.waiter = undefined;
          resolve('idle');
        }, timeoutMs);
        this.waiter = (event) => {
          clearTimeout(timer);
          resolve(event);
        };
      });
    }

    finish(reason: LiveCloseReason): void {
      if (this.closeReason !== undefined) return;
      this.closeReason = reason;
      this.replay.length = 0;
      this.queue.length = 0;
      clients.delete(this);
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter?.(null);
    }

    close(): void {
      this.finish('closed');
    }
  }

  function broadcast(event: LiveEvent): void {
    for (const client of [...clients]) client.push(event);
  }

  function prune(at: number): void {
    for (const [hash, entry] of recent) {
      if (recent.size <= maxRecentBlocks && at - entry.block.receivedAt <= Math.max(recentWindowMs, rateWindowMs)) break;
      recent.delete(hash);
    }
  }

  function onBlockAdded(payload: RpcNotifications['BlockAdded']): void {
    const at = now();
    const entry = liveBlock(payload.block, at);
    recent.set(entry.block.hash, entry);
    prune(at);
    broadcast({ type: 'block', data: { ...entry.block } });
  }

  function onChainChanged(payload: RpcNotifications['VirtualChainChanged']): void {
    const blues: string[] = [];
    const reds: string[] = [];
    const setColor = (hash: string, color: BlockColor) => {
      const entry = recent.get(hash);
      if (entry !== undefined) entry.block.color = color;
    };
    for (const hash of payload.removedChainBlockHashes) {
      const entry = recent.get(hash);
      if (entry !== undefined) entry.block.isChainBlock = false;
    }
    for (const hash of payload.addedChainBlockHashes) {
      const entry = recent.get(hash);
      if (entry === undefined) continue;
      entry.block.isChainBlock = true;
      entry.block.color = 'blue';
      for (const blue of entry.blues) {
        blues.push(blue);
        setColor(blue, 'blue');
      }
      for (const red of entry.reds) {
        reds.push(red);
        setColor(red, 'red');
      }
    }
    broadcast({
      type: 'chain',
      data: {
        removed: [...payload.removedChainBlockHashes],
        added: [...payload.addedChainBlockHashes],
        blues,
        reds,
      },
    });
  }

  function rates(at: number): Pick<LiveDag, 'blocksPerSecond' | 'txPerSecond' | 'versionOneShare' | 'covenantTxPerMinute' | 'windowSeconds'> {
    const windowMs = Math.max(1_000, Math.min(rateWindowMs, at - startedAt));
    let blocks = 0;
    let transactions = 0;
    let versionOne = 0;
    let covenant = 0;
    for (const { block } of recent.values()) {
      if (at - block.receivedAt > windowMs) continue;
      blocks += 1;
      transactions += Math.max(0, block.txCount - 1);
      versionOne += block.versionOneTransactions;
      covenant += block.covenantTransactions;
    }
    const seconds = windowMs / 1_000;
    return {
      blocksPerSecond: blocks / seconds,
      txPerSecond: transactions / seconds,
      versionOneShare: transactions === 0 ? null : versionOne / transactions,
      covenantTxPerMinute: (covenant / seconds) * 60,
      windowSeconds: seconds,
    };
  }

  async function sampleDag(): Promise<void> {
    const [info, sink] = await Promise.all([rpc.call('getBlockDagInfo', {}), rpc.call('getSinkBlueScore', {})]);
    const at = now();
    const rate = rates(at);
    latestDag = {
      info: dagInfoToNode(info),
      blueScore: sink.blueScore.toString(),
      hashrate: 2 * info.difficulty * rate.blocksPerSecond,
      ...rate,
      sampledAt: at,
    };
    broadcast({ type: 'dag', data: latestDag });
  }

  async function sampleMempool(): Promise<void> {
    const [info, fees] = await Promise.all([rpc.call('getInfo', {}), rpc.call('getFeeEstimate', {})]);
    latestMempool = { size: Number(info.mempoolSize), feeEstimate: feeEstimateToNode(fees.estimate), sampledAt: now() };
    broadcast({ type: 'mempool', data: latestMempool });
  }

  /** Samples on a self-rescheduling timer, so a slow node never gets overlapping calls. */
  function every(intervalMs: number, sample: () => Promise<void>): { stop(): void } {
    let timer: NodeJS.Timeout | undefined;
    const run = () => {
      sample()
        .catch((error: unknown) => {
          if (!closed) reportError(error);
        })
        .finally(() => {
          if (!closed) timer = setTimeout(run, intervalMs).unref();
        });
    };
    run();
    return { stop: () => clearTimeout(timer) };
  }

  const ready = Promise.all([
    rpc.subscribe('BlockAdded', {}, onBlockAdded),
    rpc.subscribe('VirtualChainChanged', { include_accepted_transaction_ids: false }, onChainChanged),
  ]).then(async (handles) => {
    if (closed) await Promise.all(handles.map((unsubscribe) => unsubscribe()));
    else unsubscribes.push(...handles);
  });
  ready.catch(reportError);
  const samplers = [every(dagIntervalMs, sampleDag), every(mempoolIntervalMs, sampleMempool)];

  function snapshot(): LiveSnapshot {
    const at = now();
    const blocks: LiveBlock[] = [];
    for (const { block } of recent.values()) {
      if (at - block.receivedAt <= recentWindowMs) blocks.push({ ...block });
    }
    return { dag: latestDag, mempool: latestMempool, blocks };
  }

  return {
    ready,
    get clientCount() {
      return clients.size;
    },
    connect(connectOptions = {}) {
      const state = snapshot();
      const replay: LiveEvent[] = [];
      if (state.dag !== undefined) replay.push({ type: 'dag', data: state.dag });
      if (state.mempool !== undefined) replay.push({ type: 'mempool', data: state.mempool });
      for (const block of state.blocks) replay.push({ type: 'block', data: block });
      const client = new ClientState(connectOptions.maxQueued ?? DEFAULTS.maxQueued, replay);
      if (closed) client.finish('hub-closed');
      else clients.add(client);
      return client;
    },
    snapshot,
    async close() {
      if (closed) return;
      closed = true;
      for (const sampler of samplers) sampler.stop();
      for (const client of [...clients]) client.finish('hub-closed');
      await ready.catch(() => {});
      await Promise.all(unsubscribes.map((unsubscribe) => unsubscribe()));
    },
  };
}
