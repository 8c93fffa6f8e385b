/**
 * The RPC client's WebSocket connection and its state machine: `connecting` → `open` → `disconnected` → (after an
 * exponential backoff with jitter) `connecting` again, until `closed` for good; a ping heartbeat drops a connection
 * that stops answering.
 *
 * Invariants: one socket at a time is current, and events of a superseded one are ignored, so a late frame or close
 * of an old connection never reaches the new one. What a lost connection takes with it (calls in flight, the node's
 * subscriptions) is given up in `onLost` before the state changes, so a state listener never sees it still pending.
 */
import { WebSocket, type RawData } from 'ws';
import { RpcUnreachableError } from './errors';

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

export interface ConnectionOptions {
  url: string;
  connectTimeoutMs: number;
  heartbeatIntervalMs: number;
  maxPayloadBytes: number;
  /** Undefined: the first lost connection closes the client. */
  reconnect: Required<ReconnectOptions> | undefined;
  reportError: (error: unknown) => void;
  /** The connection just opened. */
  onOpen: () => void;
  onMessage: (data: RawData) => void;
  /** The current connection was lost; `cause` is why, if known. */
  onLost: (cause: Error | undefined) => void;
  /** The client was closed; the socket, if any, is closing. */
  onClosed: () => void;
}

export interface Connection {
  readonly state: RpcConnectionState;
  /** The current socket, open or not. */
  readonly socket: WebSocket | undefined;
  /** The failure of a call that cannot be sent while disconnected. */
  unreachable(method?: string): RpcUnreachableError;
  onStateChange(listener: (change: RpcStateChange) => void): () => void;
  /** Makes the first attempt. */
  connect(): void;
  close(): Promise<void>;
}

const CLOSE_GRACE_MS = 1_000;

export function createConnection(options: ConnectionOptions): Connection {
  const { url, heartbeatIntervalMs, reconnect, reportError } = options;
  let state: RpcConnectionState = 'connecting';
  let socket: WebSocket | undefined;
  let lastError: Error | undefined;
  let failedAttempts = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let awaitingPong = false;
  const stateListeners = new Set<(change: RpcStateChange) => void>();

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
      handshakeTimeout: options.connectTimeoutMs,
      maxPayload: options.maxPayloadBytes,
      perMessageDeflate: false,
    });
    socket = ws;
    ws.on('open', () => {
      if (socket !== ws) return;
      failedAttempts = 0;
      lastError = undefined;
      startHeartbeat(ws);
      setState('open');
      options.onOpen();
    });
    ws.on('message', (data) => {
      if (socket === ws) options.onMessage(data);
    });
    ws.on('pong', () => {
      awaitingPong = false;
    });
    ws.on('error', (error) => {
      lastError = error;
    });
    ws.on('close', (code, reason) => {
      if (socket !== ws) return;
      lost(code, reason.toString());
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

  function lost(code: number, reason: string): void {
    socket = undefined;
    clearInterval(heartbeatTimer);
    const wasOpen = state === 'open';
    if (wasOpen && lastError === undefined) {
      lastError = new Error(`connection closed (${code}${reason ? ` ${reason}` : ''})`);
    }
    options.onLost(lastError);
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

  async function close(): Promise<void> {
    if (state === 'closed') return;
    clearTimeout(reconnectTimer);
    clearInterval(heartbeatTimer);
    lastError = new Error('the RPC client is closed');
    setState('closed');
    options.onClosed();
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

  return {
    get state() {
      return state;
    },
    get socket() {
      return socket;
    },
    unreachable,
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    connect,
    close,
  };
}
