/**
 * A wRPC JSON client for kaspad (or the devnet), Node only (uses `ws`), assembled from three parts:
 * - client-connection.ts: the connection, reconnected with exponential backoff and jitter, and its heartbeat;
 * - client-calls.ts: `call`, correlating each request with the response echoing its id, with timeouts; failures are
 *   typed RpcErrors (errors.ts). Responses are trusted to match the types in types.ts, not validated;
 * - client-subscriptions.ts: listeners sharing the node's subscriptions, sent again after each reconnect.
 * This module decodes the frames and routes them: responses to their calls, notifications to the listeners.
 */
import type { RawData } from 'ws';
import { createCalls } from './client-calls';
import { createConnection, type ReconnectOptions, type RpcConnectionState, type RpcStateChange } from './client-connection';
import { createSubscriptions, type Unsubscribe } from './client-subscriptions';
import { RpcProtocolError, RpcUnreachableError } from './errors';
import type { JsonValue } from './json';
import { isJsonObject, isRpcEventName, parseWireMessage } from './protocol';
import type { RpcEventName, RpcMethodName, RpcNotifications, RpcRequest, RpcResponse, RpcScopes } from './types';

export type { ReconnectOptions, RpcConnectionState, RpcStateChange } from './client-connection';
export type { Unsubscribe } from './client-subscriptions';

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

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const url = options.url;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const reportError = (error: unknown) => {
    try {
      options.onError?.(asError(error));
    } catch {
      // A failing error hook must not break the socket's event handling.
    }
  };

  const connection = createConnection({
    url,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? DEFAULTS.heartbeatIntervalMs,
    maxPayloadBytes: options.maxPayloadBytes ?? DEFAULTS.maxPayloadBytes,
    reconnect:
      options.reconnect === false
        ? undefined
        : {
            initialDelayMs: options.reconnect?.initialDelayMs ?? DEFAULTS.initialDelayMs,
            maxDelayMs: options.reconnect?.maxDelayMs ?? DEFAULTS.maxDelayMs,
            factor: options.reconnect?.factor ?? DEFAULTS.factor,
            jitter: options.reconnect?.jitter ?? DEFAULTS.jitter,
          },
    reportError,
    onOpen: () => {
      calls.sendWaiting();
      subscriptions.resubscribeAll();
    },
    onMessage: (data) => receive(data),
    onLost: (cause) => {
      calls.failAll(cause);
      subscriptions.forgetServerScopes();
    },
    onClosed: () => calls.failWaiting(new RpcUnreachableError('the RPC client is closed')),
  });
  if (options.onStateChange) connection.onStateChange(options.onStateChange);
  const calls = createCalls(url, connection);
  const subscriptions = createSubscriptions({ send: calls.send, requestTimeoutMs, state: () => connection.state, reportError });

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
      calls.settle(id, message);
      return;
    }
    const params = message.params;
    if (!isJsonObject(params)) return;
    const [event] = Object.keys(params);
    if (event === undefined || !isRpcEventName(event)) return;
    subscriptions.deliver(event, params[event] as unknown as RpcNotifications[RpcEventName]);
  }

  function call<M extends RpcMethodName>(
    method: M,
    params: RpcRequest<M>,
    callOptions: CallOptions = {},
  ): Promise<RpcResponse<M>> {
    return calls.send(method, params, callOptions.timeoutMs ?? requestTimeoutMs) as Promise<RpcResponse<M>>;
  }

  connection.connect();

  return {
    url,
    get state() {
      return connection.state;
    },
    call,
    subscribe: subscriptions.subscribe,
    onStateChange: connection.onStateChange,
    close: connection.close,
  };
}
