/**
 * Request/response correlation for the RPC client: each call sends `{"id":<u64>,"method":…,"params":…}` and settles
 * on the frame echoing that id, on its timeout, or when the connection goes; a call made while a connection attempt
 * is under way waits for it, one made while disconnected between attempts fails at once (callers can answer 503).
 *
 * Invariants: a call settles once: its timer, its response and the connection's loss each first take it out of
 * `inFlight` (or out of the waiting sets, before it was sent). A response nobody waits for any more (timed out, or
 * sent before a reconnect) is dropped, since ids are never reused among calls in flight.
 */
import { WebSocket } from 'ws';
import type { Connection } from './client-connection';
import { RpcError, RpcProtocolError, RpcRejectedError, RpcTimeoutError, RpcUnreachableError } from './errors';
import { type JsonObject, type JsonValue, stringifyJson } from './json';
import { isJsonObject } from './protocol';

interface PendingCall {
  readonly method: string;
  readonly resolve: (value: JsonValue) => void;
  readonly reject: (error: RpcError) => void;
  readonly timer: NodeJS.Timeout;
}

export interface Calls {
  send(method: string, params: unknown, timeoutMs: number): Promise<JsonValue>;
  /** Settles the call a response frame (one with an `id`) answers, if it is still in flight. */
  settle(id: JsonValue, message: JsonObject): void;
  /** The connection opened: sends the calls waiting for it. */
  sendWaiting(): void;
  /** The connection was lost (`cause` why): fails every call in flight or waiting. */
  failAll(cause: Error | undefined): void;
  /** Fails the calls waiting for a connection. */
  failWaiting(error: RpcError): void;
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

export function createCalls(url: string, connection: Connection): Calls {
  const inFlight = new Map<bigint, PendingCall>();
  const nextRequestId = requestIdCounter();
  const waitingForOpen = new Set<() => void>();
  const waitingFailures = new Map<() => void, (error: RpcError) => void>();

  function send(method: string, params: unknown, timeoutMs: number): Promise<JsonValue> {
    return new Promise<JsonValue>((resolve, reject) => {
      if (connection.state === 'closed') return reject(new RpcUnreachableError('the RPC client is closed', method));
      if (connection.state === 'disconnected') return reject(connection.unreachable(method));
      let sent = false;
      const timer = setTimeout(() => {
        if (sent) inFlight.delete(id);
        else forget();
        reject(new RpcTimeoutError(method, timeoutMs));
      }, timeoutMs);
      const id = nextRequestId();
      const transmit = () => {
        forget();
        const ws = connection.socket;
        if (ws === undefined || ws.readyState !== WebSocket.OPEN) {
          clearTimeout(timer);
          reject(connection.unreachable(method));
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
      if (connection.state === 'open') {
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

  function settle(id: JsonValue, message: JsonObject): void {
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
  }

  function failWaiting(error: RpcError): void {
    for (const fail of waitingFailures.values()) fail(error);
  }

  return {
    send,
    settle,
    sendWaiting() {
      for (const transmit of [...waitingForOpen]) transmit();
    },
    failAll(cause) {
      for (const [id, call] of inFlight) {
        clearTimeout(call.timer);
        inFlight.delete(id);
        call.reject(new RpcUnreachableError(`connection to ${url} lost`, call.method, { cause }));
      }
      for (const fail of waitingFailures.values()) fail(connection.unreachable());
    },
    failWaiting,
  };
}
