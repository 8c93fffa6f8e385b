/**
 * A wRPC JSON client for kaspad (or the devnet), Node only (uses `ws`).
 *
 * - `call` sends `{"id":<u64>,"method":…,"params":…}` and settles on the frame echoing that id, or fails
 *   with a typed RpcError (errors.ts). Responses are trusted to match the types in types.ts, not validated.
 * - Calls made while a connection attempt is under way wait for it; calls made while disconnected between
 *   attempts fail at once with RpcUnreachableError, so callers can answer 503 quickly.
 * - The connection is re-established with exponential backoff and jitter; every subscription is sent again
 *   after each reconnect (kaspad forgets them with the connection).
 * - Several local listeners can share one server subscription. UtxosChanged listeners get only their own
 *   addresses (empty list = all); VirtualChainChanged listeners that did not ask for accepted ids get none.
 *   Payloads are shared between listeners and must not be mutated.
 */
import { WebSocket, type RawData } from 'ws';
import { RpcError, RpcProtocolError, RpcRejectedError, RpcTimeoutError, RpcUnreachableError } from './errors';
import { type JsonValue, stringifyJson } from './json';
import { isJsonObject, isRpcEventName, parseWireMessage } from './protocol';
import type {
  RpcAddress,
  RpcEventName,
  RpcMethodName,
  RpcNotifications,
  RpcRequest,
  RpcResponse,
  RpcScope,
  RpcScopes,
  RpcUtxosByAddressesEntry,
} from './types';

export type RpcConnectionState = 'connecting' | 'open' | 'disconnected' | 'closed';

export interface RpcStateChange {
  state: RpcConnectionState;
  previous: RpcConnectionState;
  /** Why the connection was lost or could not be made. */
  error?: Error;
  /** With `disconnected`: when the next attempt starts. */
  retryInMs?: number;
}

export interface ReconnectOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
  /** Fraction of each delay that is randomized away (0 = none, 1 = full jitter). */
  jitter?: number;
}

export interface RpcClientOptions {
  url: string;
  /** Per-call default; kaspad's own clients use 60 s. */
  requestTimeoutMs?: number;
  /** Limit for the TCP + WebSocket handshake of one attempt. */
  connectTimeoutMs?: number;
  /** `false` disables reconnecting: the first lost connection closes the client. */
  reconnect?: ReconnectOptions | false;
  /** WebSocket ping interval; a connection with no pong by the next ping is dropped. 0 disables. */
  heartbeatIntervalMs?: number;
  maxPayloadBytes?: number;
  onStateChange?: (change: RpcStateChange) => void;
  /** Background failures: resubscription errors, undecodable frames, throwing listeners. */
  onError?: (error: Error) => void;
}

export interface CallOptions {
  timeoutMs?: number;
}

export type Unsubscribe = () => Promise<void>;

export interface RpcClient {
  readonly url: string;
  readonly state: RpcConnectionState;
  call<M extends RpcMethodName>(method: M, params: RpcRequest<M>, options?: CallOptions): Promise<RpcResponse<M>>;
  /**
   * Registers `listener` and makes sure the node sends the event. Resolves once the node accepted the
   * subscription, or at once when the client is disconnected (it is sent on reconnect). Rejects, without
   * registering, when the node rejects it or does not answer in time.
   */
  subscribe<E extends RpcEventName>(
    event: E,
    params: RpcScopes[E],
    listener: (payload: RpcNotifications[E]) => void,
  ): Promise<Unsubscribe>;
  onStateChange(listener: (change: RpcStateChange) => void): () => void;
  close(): Promise<void>;
}

const DEFAULTS = {
  requestTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  heartbeatIntervalMs: 30_000,
  maxPayloadBytes: 128 * 1024 * 1024,
  initialDelayMs: 250,
  maxDelayMs: 15_000,
  factor: 2,
  jitter: 0.5,
} as const;
const CLOSE_GRACE_MS = 1_000;

interface PendingCall {
  readonly method: string;
  readonly resolve: (value: JsonValue) => void;
  readonly reject: (error: RpcError) => void;
  readonly timer: NodeJS.Timeout;
}

interface ListenerEntry {
  readonly event: RpcEventName;
  readonly callback: (payload: never) => void;
  /** UtxosChanged: the addresses this listener wants; empty = all. */
  readonly addresses: ReadonlySet<RpcAddress>;
  /** VirtualChainChanged: whether this listener wants accepted transaction ids. */
  readonly includeAcceptedTransactionIds: boolean;
}

type UtxosScope = { kind: 'all' } | { kind: 'selected'; addresses: ReadonlySet<RpcAddress> };

/** What the node currently sends this connection, per event; absent = nothing. */
type ServerScopes = {
  generic: Set<RpcEventName>;
  virtualChainChanged: { include: boolean } | undefined;
  utxosChanged: UtxosScope | undefined;
};

interface ScopeStep {
  method: 'subscribe' | 'unsubscribe';
  scope: RpcScope;
  apply: () => void;
}

const U64_MASK = (1n << 64n) - 1n;

/**
 * Request ids count up, wrapping at 2^64, from a random start at or past 2^63: unique among in-flight calls, and
 * past 2^53, so every id takes the exact-integer path that a node's own large ids need. One random draw per client,
 * not per call (a draw costs about 8 µs, as much as the rest of sending a call).
 */
function requestIdCounter(): () => bigint {
  let next = crypto.getRandomValues(new BigUint64Array(1))[0]! | (1n << 63n);
  return () => {
    const id = next;
    next = (next + 1n) & U64_MASK;
    return id;
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function difference<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): T[] {
  return [...a].filter((item) => !b.has(item));
}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const url = options.url;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? DEFAULTS.heartbeatIntervalMs;
  const reconnect =
    options.reconnect === false
      ? undefined
      : {
          initialDelayMs: options.reconnect?.initialDelayMs ?? DEFAULTS.initialDelayMs,
          maxDelayMs: options.reconnect?.maxDelayMs ?? DEFAULTS.maxDelayMs,
          factor: options.reconnect?.factor ?? DEFAULTS.factor,
          jitter: options.reconnect?.jitter ?? DEFAULTS.jitter,
        };
  const reportError = (error: unknown) => {
    try {
      options.onError?.(asError(error));
    } catch {
      // A failing error hook must not break the socket's event handling.
    }
  };

  let state: RpcConnectionState = 'connecting';
  let socket: WebSocket | undefined;
  let lastError: Error | undefined;
  let failedAttempts = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let awaitingPong = false;
  const stateListeners = new Set<(change: RpcStateChange) => void>();
  if (options.onStateChange) stateListeners.add(options.onStateChange);

  const inFlight = new Map<bigint, PendingCall>();
  const nextRequestId = requestIdCounter();
  const waitingForOpen = new Set<() => void>();
  const waitingFailures = new Map<() => void, (error: RpcError) => void>();

  const listeners = new Map<RpcEventName, Set<ListenerEntry>>();
  let server: ServerScopes = { generic: new Set(), virtualChainChanged: undefined, utxosChanged: undefined };
  const scopeQueues = new Map<RpcEventName, Promise<void>>();

  function setState(next: RpcConnectionState, details: Omit<RpcStateChange, 'state' | 'previous'> = {}): void {
    const previous = state;
    state = next;
    for (const listener of stateListeners) {
      try {
        listener({ state: next, previous, ...details });
      } catch (error) {
        reportError(error);
      }
    }
  }

  function unreachable(method?: string): RpcUnreachableError {
    const reason = lastError ? `: ${lastError.message}` : '';
    return new RpcUnreachableError(`not connected to ${url}${reason}`, method, { cause: lastError });
  }

  function connect(): void {
    reconnectTimer = undefined;
    setState('connecting');
    const ws = new WebSocket(url, {
      handshakeTimeout: connectTimeoutMs,
      maxPayload: options.maxPayloadBytes ?? DEFAULTS.maxPayloadBytes,
      perMessageDeflate: false,
    });
    socket = ws;
    ws.on('open', () => {
      if (socket !== ws) return;
      failedAttempts = 0;
      lastError = undefined;
      startHeartbeat(ws);
      setState('open');
      for (const send of [...waitingForOpen]) send();
      for (const event of listeners.keys()) reconcile(event).catch(reportError);
    });
    ws.on('message', (data) => {
      if (socket === ws) receive(data);
    });
    ws.on('pong', () => {
      awaitingPong = false;
    });
    ws.on('error', (error) => {
      lastError = error;
    });
    ws.on('close', (code, reason) => {
      if (socket !== ws) return;
      lost(ws, code, reason.toString());
    });
  }

  function startHeartbeat(ws: WebSocket): void {
    if (heartbeatIntervalMs <= 0) return;
    awaitingPong = false;
    heartbeatTimer = setInterval(() => {
      if (awaitingPong) {
        lastError = new Error(`no pong from ${url} within ${heartbeatIntervalMs} ms`);
        ws.terminate();
        return;
      }
      awaitingPong = true;
      ws.ping();
    }, heartbeatIntervalMs);
    heartbeatTimer.unref();
  }

  function lost(ws: WebSocket, code: number, reason: string): void {
    socket = undefined;
    clearInterval(heartbeatTimer);
    const wasOpen = state === 'open';
    if (wasOpen && lastError === undefined) {
      lastError = new Error(`connection closed (${code}${reason ? ` ${reason}` : ''})`);
    }
    for (const [id, call] of inFlight) {
      clearTimeout(call.timer);
      inFlight.delete(id);
      call.reject(new RpcUnreachableError(`connection to ${url} lost`, call.method, { cause: lastError }));
    }
    for (const fail of waitingFailures.values()) fail(unreachable());
    server = { generic: new Set(), virtualChainChanged: undefined, utxosChanged: undefined };
    if (state === 'closed') return;
    if (reconnect === undefined) {
      setState('closed', lastError ? { error: lastError } : {});
      return;
    }
    failedAttempts = wasOpen ? 1 : failedAttempts + 1;
    const base = Math.min(reconnect.maxDelayMs, reconnect.initialDelayMs * reconnect.factor ** (failedAttempts - 1));
    const delay = Math.round(base * (1 - reconnect.jitter * Math.random()));
    reconnectTimer = setTimeout(connect, delay);
    setState('disconnected', { retryInMs: delay, ...(lastError ? { error: lastError } : {}) });
  }

  function receive(data: RawData): void {
    let message: JsonValue;
    try {
      message = parseWireMessage(frameText(data));
    } catch (error) {
      reportError(new RpcProtocolError(`undecodable frame from ${url}: ${asError(error).message}`));
      return;
    }
    if (!isJsonObject(message)) {
      reportError(new RpcProtocolError(`frame from ${url} is not a JSON object`));
      return;
    }
    const id = message.id;
    if (id !== undefined && id !== null) {
      const call = typeof id === 'bigint' ? inFlight.get(id) : undefined;
      if (call === undefined) return;
      inFlight.delete(id as bigint);
      clearTimeout(call.timer);
      const error = message.error;
      if (isJsonObject(error)) {
        const text = typeof error.message === 'string' ? error.message : stringifyJson(error);
        const code = typeof error.code === 'number' ? error.code : Number(error.code ?? 0);
        call.reject(new RpcRejectedError(call.method, text, code, error.data ?? null));
      } else if (message.params !== undefined) {
        call.resolve(message.params);
      } else {
        call.reject(new RpcProtocolError(`response to ${call.method} carries neither params nor error`, call.method));
      }
      return;
    }
    const params = message.params;
    if (!isJsonObject(params)) return;
    const [event] = Object.keys(params);
    if (event === undefined || !isRpcEventName(event)) return;
    deliver(event, params[event] as unknown as RpcNotifications[RpcEventName]);
  }

  function deliver<E extends RpcEventName>(event: E, payload: RpcNotifications[E]): void {
    const entries = listeners.get(event);
    if (entries === undefined) return;
    for (const entry of [...entries]) {
      const view = viewFor(entry, payload);
      if (view === undefined) continue;
      try {
        (entry.callback as (payload: RpcNotifications[E]) => void)(view);
      } catch (error) {
        reportError(error);
      }
    }
  }

  function viewFor<E extends RpcEventName>(entry: ListenerEntry, payload: RpcNotifications[E]) {
    if (entry.event === 'UtxosChanged' && entry.addresses.size > 0) {
      const utxos = payload as RpcNotifications['UtxosChanged'];
      const watched = (item: RpcUtxosByAddressesEntry) => item.address !== null && entry.addresses.has(item.address);
      const added = utxos.added.filter(watched);
      const removed = utxos.removed.filter(watched);
      if (added.length === 0 && removed.length === 0) return undefined;
      return { added, removed } as RpcNotifications[E];
    }
    if (entry.event === 'VirtualChainChanged' && !entry.includeAcceptedTransactionIds) {
      const chain = payload as RpcNotifications['VirtualChainChanged'];
      if (chain.acceptedTransactionIds.length > 0) {
        return { ...chain, acceptedTransactionIds: [] } as unknown as RpcNotifications[E];
      }
    }
    return payload;
  }

  function send(method: string, params: unknown, timeoutMs: number): Promise<JsonValue> {
    return new Promise<JsonValue>((resolve, reject) => {
      if (state === 'closed') return reject(new RpcUnreachableError('the RPC client is closed', method));
      if (state === 'disconnected') return reject(unreachable(method));
      let sent = false;
      const timer = setTimeout(() => {
        if (sent) inFlight.delete(id);
        else forget();
        reject(new RpcTimeoutError(method, timeoutMs));
      }, timeoutMs);
      const id = nextRequestId();
      const transmit = () => {
        forget();
        const ws = socket;
        if (ws === undefined || ws.readyState !== WebSocket.OPEN) {
          clearTimeout(timer);
          reject(unreachable(method));
          return;
        }
        let frame: string;
        try {
          frame = stringifyJson({ id, method, params });
        } catch (error) {
          clearTimeout(timer);
          reject(error);
          return;
        }
        sent = true;
        inFlight.set(id, { method, resolve, reject, timer });
        ws.send(frame);
      };
      const forget = () => {
        waitingForOpen.delete(transmit);
        waitingFailures.delete(transmit);
      };
      if (state === 'open') {
        transmit();
        return;
      }
      waitingForOpen.add(transmit);
      waitingFailures.set(transmit, (error) => {
        forget();
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  function call<M extends RpcMethodName>(
    method: M,
    params: RpcRequest<M>,
    callOptions: CallOptions = {},
  ): Promise<RpcResponse<M>> {
    return send(method, params, callOptions.timeoutMs ?? requestTimeoutMs) as Promise<RpcResponse<M>>;
  }

  function desiredUtxos(entries: ReadonlySet<ListenerEntry>): UtxosScope | undefined {
    if (entries.size === 0) return undefined;
    const addresses = new Set<RpcAddress>();
    for (const entry of entries) {
      if (entry.addresses.size === 0) return { kind: 'all' };
      for (const address of entry.addresses) addresses.add(address);
    }
    return { kind: 'selected', addresses };
  }

  /** The next subscribe/unsubscribe that brings the node's scope for `event` closer to what listeners need. */
  function nextStep(event: RpcEventName): ScopeStep | undefined {
    const entries = listeners.get(event) ?? new Set<ListenerEntry>();
    if (event === 'UtxosChanged') {
      const current = server.utxosChanged;
      const wanted = desiredUtxos(entries);
      const step = (method: ScopeStep['method'], addresses: RpcAddress[], next: UtxosScope | undefined): ScopeStep => ({
        method,
        scope: { UtxosChanged: { addresses } },
        apply: () => {
          server.utxosChanged = next;
        },
      });
      if (wanted === undefined) return current === undefined ? undefined : step('unsubscribe', [], undefined);
      if (wanted.kind === 'all') return current?.kind === 'all' ? undefined : step('subscribe', [], wanted);
      if (current?.kind !== 'selected') return step('subscribe', [...wanted.addresses], wanted);
      const added = difference(wanted.addresses, current.addresses);
      if (added.length > 0) return step('subscribe', added, { kind: 'selected', addresses: new Set([...current.addresses, ...added]) });
      const removed = difference(current.addresses, wanted.addresses);
      if (removed.length > 0) return step('unsubscribe', removed, wanted);
      return undefined;
    }
    if (event === 'VirtualChainChanged') {
      const current = server.virtualChainChanged;
      if (entries.size === 0) {
        if (current === undefined) return undefined;
        return {
          method: 'unsubscribe',
          scope: { VirtualChainChanged: { include_accepted_transaction_ids: current.include } },
          apply: () => {
            server.virtualChainChanged = undefined;
          },
        };
      }
      const include = [...entries].some((entry) => entry.includeAcceptedTransactionIds);
      if (current?.include === include) return undefined;
      return {
        method: 'subscribe',
        scope: { VirtualChainChanged: { include_accepted_transaction_ids: include } },
        apply: () => {
          server.virtualChainChanged = { include };
        },
      };
    }
    const active = server.generic.has(event);
    if (active === entries.size > 0) return undefined;
    return {
      method: active ? 'unsubscribe' : 'subscribe',
      scope: { [event]: {} } as RpcScope,
      apply: () => {
        if (active) server.generic.delete(event);
        else server.generic.add(event);
      },
    };
  }

  /** Runs after any earlier reconciliation of the same event, so steps never interleave. */
  function reconcile(event: RpcEventName): Promise<void> {
    const run = async () => {
      for (let step = nextStep(event); step !== undefined; step = nextStep(event)) {
        const scopes = server;
        await send(step.method, step.scope, requestTimeoutMs);
        if (scopes === server) step.apply();
      }
    };
    const previous = scopeQueues.get(event) ?? Promise.resolve();
    const next = previous.then(run, run);
    scopeQueues.set(
      event,
      next.catch(() => {}),
    );
    return next;
  }

  async function subscribe<E extends RpcEventName>(
    event: E,
    params: RpcScopes[E],
    listener: (payload: RpcNotifications[E]) => void,
  ): Promise<Unsubscribe> {
    const scope = params as Partial<RpcScopes['UtxosChanged'] & RpcScopes['VirtualChainChanged']>;
    const entry: ListenerEntry = {
      event,
      callback: listener as (payload: never) => void,
      addresses: new Set(scope.addresses ?? []),
      includeAcceptedTransactionIds: scope.include_accepted_transaction_ids ?? false,
    };
    const entries = listeners.get(event) ?? new Set<ListenerEntry>();
    listeners.set(event, entries);
    entries.add(entry);
    try {
      await reconcile(event);
    } catch (error) {
      if (!(error instanceof RpcUnreachableError) || state === 'closed') {
        entries.delete(entry);
        reconcile(event).catch(reportError);
        throw error;
      }
    }
    let removed = false;
    return async () => {
      if (removed) return;
      removed = true;
      entries.delete(entry);
      await reconcile(event).catch((error) => {
        if (!(error instanceof RpcUnreachableError)) reportError(error);
      });
    };
  }

  async function close(): Promise<void> {
    if (state === 'closed') return;
    clearTimeout(reconnectTimer);
    clearInterval(heartbeatTimer);
    lastError = new Error('the RPC client is closed');
    setState('closed');
    for (const fail of waitingFailures.values()) fail(new RpcUnreachableError('the RPC client is closed'));
    const ws = socket;
    if (ws === undefined) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000);
    });
  }

  connect();

  return {
    url,
    get state() {
      return state;
    },
    call,
    subscribe,
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close,
  };
}
