'use client';

import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { LiveDag, LiveEvent, LiveMempool } from '@/lib/web/live-types';
import { createBlockStore, type BlockSnapshot, type BlockStore } from './block-store';
import { resourceKey, resources } from '@/lib/web/resources';
import { LIVE_STREAM_PATH } from '@/lib/web/urls';

/**
 * One EventSource per page (mounted once in the root layout, so it survives client-side navigation). It reconnects by
 * itself with exponential backoff, also when the connection goes quiet (the server samples the DAG every second, so
 * 10 s of silence means a dead connection), and it writes what it hears into React Query: `dagInfo` and `feeEstimate`
 * under their resource keys, the hub's extra figures under LIVE_DAG_KEY / LIVE_MEMPOOL_KEY. Components that want
 * the block and chain events subscribe with `useLiveEvents`; `useRecentBlocks` reads the blocks it has heard so far
 * (the server replays its recent blocks on every connect), so a view opened later draws them at once.
 */

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';
type Listener = (event: LiveEvent) => void;

export const LIVE_DAG_KEY = ['live', 'dag'] as const;
export const LIVE_MEMPOOL_KEY = ['live', 'mempool'] as const;

const EVENT_TYPES = ['block', 'chain', 'dag', 'mempool'] as const satisfies readonly LiveEvent['type'][];
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 15_000;
const SILENCE_LIMIT_MS = 10_000;

interface LiveConnection {
  readonly recentBlocks: BlockStore;
  start(): void;
  stop(): void;
  subscribe(listener: Listener): () => void;
  status(): LiveStatus;
  onStatus(listener: () => void): () => void;
}

function applyToCache(client: QueryClient, event: LiveEvent): void {
  if (event.type === 'dag') {
    client.setQueryData(LIVE_DAG_KEY, event.data);
    client.setQueryData(resourceKey(resources.dagInfo, {}), event.data.info);
  } else if (event.type === 'mempool') {
    client.setQueryData(LIVE_MEMPOOL_KEY, event.data);
    client.setQueryData(resourceKey(resources.feeEstimate, {}), { estimate: event.data.feeEstimate });
  }
}

/** Created idle (also during server rendering); the EventSource exists only between start() and stop(). */
function createLiveConnection(queryClient: QueryClient): LiveConnection {
  const listeners = new Set<Listener>();
  const recentBlocks = createBlockStore([]);
  const statusListeners = new Set<() => void>();
  let status: LiveStatus = 'connecting';
  let source: EventSource | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let closed = true;

  const setStatus = (next: LiveStatus) => {
    if (status === next) return;
    status = next;
    for (const listener of statusListeners) listener();
  };

  const watchSilence = () => {
    clearTimeout(silenceTimer);
    silenceTimer = setTimeout(() => reconnect(), SILENCE_LIMIT_MS);
  };

  const receive = (type: LiveEvent['type'], message: MessageEvent<string>) => {
    watchSilence();
    failures = 0;
    setStatus('live');
    const event = { type, data: JSON.parse(message.data) as unknown } as LiveEvent;
    applyToCache(queryClient, event);
    recentBlocks.apply(event);
    for (const listener of listeners) listener(event);
  };

  const reconnect = () => {
    source?.close();
    source = undefined;
    clearTimeout(silenceTimer);
    if (closed) return;
    setStatus('reconnecting');
    const base = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** failures);
    failures += 1;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, Math.round(base * (0.5 + Math.random() / 2)));
  };

  function connect(): void {
    if (closed) return;
    const next = new EventSource(LIVE_STREAM_PATH);
    source = next;
    next.onopen = () => {
      watchSilence();
      setStatus('live');
    };
    next.onerror = () => {
      if (source === next) reconnect();
    };
    for (const type of EVENT_TYPES) next.addEventListener(type, (message) => receive(type, message));
    next.addEventListener('dropped', () => {
      if (source === next) reconnect();
    });
    watchSilence();
  }

  return {
    recentBlocks,
    start() {
      if (!closed) return;
      closed = false;
      failures = 0;
      connect();
    },
    stop() {
      closed = true;
      clearTimeout(retryTimer);
      clearTimeout(silenceTimer);
      source?.close();
      source = undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
  };
}

const LiveContext = createContext<LiveConnection | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [connection] = useState(() => createLiveConnection(queryClient));
  useEffect(() => {
    connection.start();
    return () => connection.stop();
  }, [connection]);
  return <LiveContext.Provider value={connection}>{children}</LiveContext.Provider>;
}

const noop = () => () => {};

export function useLiveStatus(): LiveStatus {
  const connection = useContext(LiveContext);
  return useSyncExternalStore(
    connection?.onStatus ?? noop,
    () => connection?.status() ?? 'connecting',
    () => 'connecting',
  );
}

/** Calls `listener` for every live event while mounted; the latest listener is used without resubscribing. */
export function useLiveEvents(listener: Listener): void {
  const connection = useContext(LiveContext);
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => connection?.subscribe((event) => latest.current(event)), [connection]);
}

const NO_BLOCKS: BlockSnapshot = { blocks: [], newest: 0, received: 0 };

/** The blocks the live stream has delivered, newest last; none while rendering on the server or hydrating. */
export function useRecentBlocks(): BlockSnapshot {
  const store = useContext(LiveContext)?.recentBlocks;
  return useSyncExternalStore(
    store?.subscribe ?? noop,
    () => store?.getSnapshot() ?? NO_BLOCKS,
    () => NO_BLOCKS,
  );
}

function useCached<T>(key: readonly unknown[], initial: T | undefined): T | undefined {
  const queryClient = useQueryClient();
  const { data } = useQuery<T | null>({
    queryKey: key,
    queryFn: () => queryClient.getQueryData<T>(key) ?? null,
    initialData: initial,
    staleTime: Infinity,
    enabled: false,
  });
  return data ?? undefined;
}

export function useLiveDag(initial?: LiveDag): LiveDag | undefined {
  return useCached(LIVE_DAG_KEY, initial);
}

export function useLiveMempool(initial?: LiveMempool): LiveMempool | undefined {
  return useCached(LIVE_MEMPOOL_KEY, initial);
}

const STATUS_TEXT: Record<LiveStatus, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
};

/** The stream's state in words with a coloured dot; announced politely to screen readers when it changes. */
export function LiveStatusBadge() {
  const status = useLiveStatus();
  const dot =
    status === 'live' ? 'bg-emerald-500' : status === 'reconnecting' ? 'animate-pulse bg-amber-500' : 'bg-slate-400';
  return (
    <span
      role="status"
      aria-live="polite"
      data-live-status={status}
      className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 px-2 py-0.5 text-xs whitespace-nowrap text-slate-700 dark:border-slate-700 dark:text-slate-300"
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${dot}`} />
      {STATUS_TEXT[status]}
    </span>
  );
}
