/**
 * The live hub: one process-wide source of the explorer's live events, fed with blocks and chain changes by a feed
 * (the stream event log's `block` and `chain` events in the runtime, the node's BlockAdded and VirtualChainChanged
 * notifications where nothing indexes) and by sampling getBlockDagInfo and getSinkBlueScore (every `dagIntervalMs`)
 * and getInfo + getFeeEstimate (every `mempoolIntervalMs`). Each browser
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
 *
 * The recent blocks and their rates are kept in recent-blocks.ts, each connection's queue in live-client.ts; this
 * module wires the node's subscriptions and samplers to them and broadcasts to the connected clients.
 */
import { dagInfoToNode, feeEstimateToNode } from '../api/endpoints/node-format';
import type { RpcClient } from '../rpc/client';
import type { StreamHub } from '../stream/hub';
import type { RpcNotifications } from '../rpc/types';
import type { LiveDag, LiveEvent, LiveMempool, LiveSnapshot } from '../web/live-types';
import { createLiveClient, type HubClient, type LiveClient } from './live-client';
import { createRecentBlocks, recentBlockOfEvent, recentBlockOfRpc, type ChainChange, type LoggedBlockEvent, type RecentBlock } from './recent-blocks';

export type { LiveClient, LiveCloseReason } from './live-client';
export { blockActivity, MAX_LISTED_TRANSACTIONS } from './recent-blocks';

export interface LiveHub {
  /** Resolves once both node subscriptions are in place. */
  readonly ready: Promise<void>;
  readonly clientCount: number;
  connect(options?: { maxQueued?: number }): LiveClient;
  snapshot(): LiveSnapshot;
  close(): Promise<void>;
}

/** Where the hub hears of blocks and chain changes. */
export interface LiveBlockFeed {
  /** Starts delivering to the handlers; resolves with the stop once delivery runs. */
  start(handlers: { block(entry: RecentBlock): void; chain(change: ChainChange): void }): Promise<() => Promise<void>>;
}

/** The node's own BlockAdded and VirtualChainChanged notifications. */
export function nodeBlockFeed(rpc: Pick<RpcClient, 'subscribe'>, now: () => number = Date.now): LiveBlockFeed {
  return {
    async start(handlers) {
      const handles = await Promise.all([
        rpc.subscribe('BlockAdded', {}, (payload: RpcNotifications['BlockAdded']) => handlers.block(recentBlockOfRpc(payload.block, now()))),
        rpc.subscribe('VirtualChainChanged', { include_accepted_transaction_ids: false }, (payload: RpcNotifications['VirtualChainChanged']) =>
          handlers.chain({ removed: payload.removedChainBlockHashes, added: payload.addedChainBlockHashes }),
        ),
      ]);
      return async () => void (await Promise.all(handles.map((unsubscribe) => unsubscribe())));
    },
  };
}

/**
 * The stream event log's `block` and `chain` events, as every /v1 subscriber gets them: the explorer rides the same
 * log as the API's streams, and an instance that does not index needs no node subscription of its own.
 */
export function logBlockFeed(hub: StreamHub, now: () => number = Date.now): LiveBlockFeed {
  return {
    async start(handlers) {
      await hub.ready;
      const subscription = hub.subscribe(null, { topics: new Set(['block', 'chain']), addresses: null });
      let running = true;
      const reading = (async () => {
        while (running) {
          const batch = await subscription.next(15_000);
          if (batch.kind === 'closed') return;
          // Too far behind to resume (the process stalled past the retention window): follow from the head.
          if (batch.kind === 'resync') subscription.moveTo(hub.head);
          if (batch.kind !== 'events') continue;
          for (const event of batch.events) {
            if (event.topic === 'block') handlers.block(recentBlockOfEvent(JSON.parse(event.data) as LoggedBlockEvent, now()));
            else {
              const change = JSON.parse(event.data) as { removed: string[]; added: { hash: string }[] };
              handlers.chain({ removed: change.removed, added: change.added.map((added) => added.hash) });
            }
          }
        }
      })();
      return async () => {
        running = false;
        subscription.close();
        await reading;
      };
    },
  };
}

export interface LiveHubOptions {
  rpc: Pick<RpcClient, 'call' | 'subscribe'>;
  /** Where blocks and chain changes come from; the node's notifications when absent. */
  feed?: LiveBlockFeed;
  dagIntervalMs?: number;
  mempoolIntervalMs?: number;
  rateWindowMs?: number;
  recentWindowMs?: number;
  maxRecentBlocks?: number;
  now?: () => number;
  onError?: (error: Error) => void;
}

const DEFAULTS = {
  dagIntervalMs: 1_000,
  mempoolIntervalMs: 2_000,
  rateWindowMs: 10_000,
  recentWindowMs: 60_000,
  maxRecentBlocks: 1_200,
  maxQueued: 512,
} as const;

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export function createLiveHub(options: LiveHubOptions): LiveHub {
  const { rpc } = options;
  const now = options.now ?? Date.now;
  const dagIntervalMs = options.dagIntervalMs ?? DEFAULTS.dagIntervalMs;
  const mempoolIntervalMs = options.mempoolIntervalMs ?? DEFAULTS.mempoolIntervalMs;
  const reportError = (error: unknown) => options.onError?.(asError(error));
  const recent = createRecentBlocks({
    rateWindowMs: options.rateWindowMs ?? DEFAULTS.rateWindowMs,
    recentWindowMs: options.recentWindowMs ?? DEFAULTS.recentWindowMs,
    maxRecentBlocks: options.maxRecentBlocks ?? DEFAULTS.maxRecentBlocks,
    startedAt: now(),
  });

  const clients = new Set<HubClient>();
  let latestDag: LiveDag | undefined;
  let latestMempool: LiveMempool | undefined;
  let closed = false;
  let stopFeed: (() => Promise<void>) | undefined;

  function broadcast(event: LiveEvent): void {
    for (const client of [...clients]) client.push(event);
  }

  function onBlock(entry: RecentBlock): void {
    broadcast({ type: 'block', data: recent.add(entry) });
  }

  function onChain(change: ChainChange): void {
    const { blues, reds } = recent.applyChainChange(change);
    broadcast({ type: 'chain', data: { removed: [...change.removed], added: [...change.added], blues, reds } });
  }

  async function sampleDag(): Promise<void> {
    const [info, sink] = await Promise.all([rpc.call('getBlockDagInfo', {}), rpc.call('getSinkBlueScore', {})]);
    const at = now();
    const rate = recent.rates(at);
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

  const ready = (options.feed ?? nodeBlockFeed(rpc, now)).start({ block: onBlock, chain: onChain }).then(async (stop) => {
    if (closed) await stop();
    else stopFeed = stop;
  });
  ready.catch(reportError);
  const samplers = [every(dagIntervalMs, sampleDag), every(mempoolIntervalMs, sampleMempool)];

  function snapshot(): LiveSnapshot {
    return { dag: latestDag, mempool: latestMempool, blocks: recent.within(now()) };
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
      const client = createLiveClient(connectOptions.maxQueued ?? DEFAULTS.maxQueued, replay, (finished) => clients.delete(finished));
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
      await stopFeed?.();
    },
  };
}
