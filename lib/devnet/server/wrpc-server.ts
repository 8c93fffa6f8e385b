/**
 * A WebSocket server speaking kaspad's wRPC JSON protocol (rpc/wrpc/server on workflow-rpc 0.18), so any kaspad
 * client (ours, the Rust/WASM SDK) can talk to the devnet.
 *
 * Behaviour copied from kaspad, per connection:
 *   - requests are handled one at a time in arrival order (kaspad sets `enable_async_handling = false`);
 *   - `id` is a u64 echoed verbatim; a request without id (or id null) gets no reply at all;
 *   - a frame that is not JSON, names no `RpcApiOps` variant, has a non-u64 id or lacks `params` drops the TCP
 *     connection without an error or close frame (`MalformedMessage` in workflow-websocket);
 *   - a known op without a handler answers "RPC method not found"; params serde would reject answer
 *     "request deserialization error"; a handler failure answers its message, always with code 0 and data null;
 *   - binary frames are read as UTF-8 text (tungstenite `into_text`);
 *   - subscribe/unsubscribe take an externally tagged Scope and follow kaspad's per-listener state machine
 *     (UtxosChanged: empty list = all addresses, non-empty lists accumulate; VirtualChainChanged: latest flag wins).
 * Added here: a bound on each socket's send buffer; a slow consumer above it is disconnected.
 */
import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { type JsonValue, stringifyJson } from '../../rpc/json';
import {
  isJsonObject,
  isRpcApiOp,
  isU64,
  notificationMethod,
  parseWireMessage,
  WRPC_ERROR_MESSAGES,
} from '../../rpc/protocol';
import { type DecodedRequest, decodeScope, type HandledMethodName, requestSchemas } from '../../rpc/request-schemas';
import type {
  RpcEventName,
  RpcNotifications,
  RpcResponse,
  RpcScope,
  RpcUtxosByAddressesEntry,
} from '../../rpc/types';

export interface WrpcConnectionInfo {
  /** Sequential from 0, like kaspad's connection ids; also the `id` of subscribe responses. */
  readonly id: number;
  readonly remoteAddress: string | undefined;
}

export interface WrpcRequestContext {
  readonly connection: WrpcConnectionInfo;
  /** Aborted when the connection closes. */
  readonly signal: AbortSignal;
}

export type WrpcHandler<M extends HandledMethodName> = (
  params: DecodedRequest<M>,
  context: WrpcRequestContext,
) => RpcResponse<M> | Promise<RpcResponse<M>>;

export type WrpcHandlers = { [M in HandledMethodName]?: WrpcHandler<M> };

/** Thrown by a handler for params serde would have rejected (e.g. an address with a bad checksum). */
export class RequestDeserializationError extends Error {
  constructor(detail?: string) {
    super(detail ?? WRPC_ERROR_MESSAGES.requestDeserialization);
    this.name = 'RequestDeserializationError';
  }
}

export interface WrpcServerOptions {
  handlers: WrpcHandlers;
  /** Listen on a new HTTP server (default 127.0.0.1, port 0 = any free port)… */
  host?: string;
  port?: number;
  /** …or attach to an existing one; then only upgrades to `path` (when given) are taken. */
  server?: HttpServer;
  path?: string;
  /** Largest accepted frame; kaspad's MAX_WRPC_MESSAGE_SIZE is 128 MiB. */
  maxPayloadBytes?: number;
  /** A connection whose unsent data exceeds this is disconnected. */
  maxBufferedBytes?: number;
  /** Diagnostics: dropped connections, handler failures, slow consumers. Never called with secrets. */
  onEvent?: (event: WrpcServerEvent) => void;
}

export type WrpcServerEvent =
  | { type: 'connected'; connection: WrpcConnectionInfo }
  | { type: 'disconnected'; connection: WrpcConnectionInfo }
  | { type: 'malformed'; connection: WrpcConnectionInfo; reason: string }
  | { type: 'slow-consumer'; connection: WrpcConnectionInfo; bufferedBytes: number }
  | { type: 'handler-error'; connection: WrpcConnectionInfo; method: string; error: unknown }
  | { type: 'socket-error'; connection: WrpcConnectionInfo; error: Error }
  | { type: 'server-error'; error: Error };

export interface WrpcServer {
  /** ws:// URL clients can use (for an attached server, built from its address). */
  readonly url: string;
  readonly port: number;
  connectionCount(): number;
  /** Since the server started: what getMetrics reports as the wRPC JSON counters. */
  counters(): WrpcCounters;
  /**
   * Sends a notification to every connection subscribed to `event` (and accepted by `filter`); returns how many
   * were sent. UtxosChanged is cut down to each subscriber's addresses and skipped when nothing is left;
   * VirtualChainChanged subscribers without accepted ids get an empty `acceptedTransactionIds`.
   */
  notify<E extends RpcEventName>(
    event: E,
    payload: RpcNotifications[E],
    filter?: (connection: WrpcConnectionInfo) => boolean,
  ): number;
  close(): Promise<void>;
}

export interface WrpcCounters {
  liveConnections: number;
  connectionAttempts: number;
  /** Frame payload bytes, as kaspad's counters measure them. */
  bytesSent: number;
  bytesReceived: number;
}

const DEFAULT_MAX_PAYLOAD_BYTES = 128 * 1024 * 1024;
const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
const CLOSE_GRACE_MS = 1_000;
/**
 * kaspad reads a connection's next frame only after answering the previous one; here reading pauses once this
 * many requests wait, which bounds memory the same way.
 */
const MAX_QUEUED_REQUESTS = 64;
const CLOSE_CODE_GOING_AWAY = 1001;
const RESPONSE_SERIALIZATION_ERROR = 'response serialization error';

type UtxosSubscription = { kind: 'all' } | { kind: 'selected'; addresses: Set<string> };

interface Connection {
  readonly info: WrpcConnectionInfo;
  readonly socket: WebSocket;
  readonly abort: AbortController;
  queue: Promise<void>;
  queued: number;
  readonly events: Set<RpcEventName>;
  includeAcceptedTransactionIds: boolean;
  utxos: UtxosSubscription | undefined;
}

/** A protocol-level error answer (not a handler failure). */
class Rejection extends Error {}

/** Text frames arrive UTF-8-validated by ws; binary ones are checked here, as tungstenite's `into_text` does. */
function frameText(data: RawData, isBinary: boolean): string {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data;
  if (isBinary && !isUtf8(bytes)) throw new Error('binary frame is not UTF-8');
  return bytes.toString('utf8');
}

function errorFrame(id: bigint, method: string, message: string): string {
  return stringifyJson({ id, method, error: { code: 0, message, data: null } });
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

export async function createWrpcServer(options: WrpcServerOptions): Promise<WrpcServer> {
  const handlers = options.handlers;
  const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const report = (event: WrpcServerEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A failing diagnostics hook must not take the server down.
    }
  };
  const connections = new Set<Connection>();
  let nextConnectionId = 0;
  let bytesSent = 0;
  let bytesReceived = 0;
  let closing = false;

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES,
    perMessageDeflate: false,
  });

  const ownsHttpServer = options.server === undefined;
  const httpServer =
    options.server ??
    createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket upgrade required\n');
    });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (options.path !== undefined && pathOf(request) !== options.path) {
      if (ownsHttpServer) socket.destroy();
      return;
    }
    if (closing) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request));
  };
  httpServer.on('upgrade', onUpgrade);

  function send(connection: Connection, text: string): boolean {
    const socket = connection.socket;
    if (socket.readyState !== WebSocket.OPEN) return false;
    if (socket.bufferedAmount > maxBufferedBytes) {
      report({ type: 'slow-consumer', connection: connection.info, bufferedBytes: socket.bufferedAmount });
      socket.terminate();
      return false;
    }
    socket.send(text);
    bytesSent += Buffer.byteLength(text);
    return true;
  }

  function drop(connection: Connection, reason: string): void {
    report({ type: 'malformed', connection: connection.info, reason });
    connection.socket.terminate();
  }

  function accept(socket: WebSocket, request: IncomingMessage): void {
    if (closing) {
      socket.terminate();
      return;
    }
    const connection: Connection = {
      info: { id: nextConnectionId++, remoteAddress: request.socket.remoteAddress },
      socket,
      abort: new AbortController(),
      queue: Promise.resolve(),
      queued: 0,
      events: new Set(),
      includeAcceptedTransactionIds: false,
      utxos: undefined,
    };
    connections.add(connection);
    report({ type: 'connected', connection: connection.info });
    socket.on('error', (error) => report({ type: 'socket-error', connection: connection.info, error }));
    socket.on('close', () => {
      if (!connections.delete(connection)) return;
      connection.abort.abort();
      report({ type: 'disconnected', connection: connection.info });
    });
    socket.on('message', (data, isBinary) => receive(connection, data, isBinary));
  }

  function receive(connection: Connection, data: RawData, isBinary: boolean): void {
    let message: JsonValue;
    try {
      const text = frameText(data, isBinary);
      bytesReceived += Buffer.byteLength(text);
      message = parseWireMessage(text);
    } catch (error) {
      drop(connection, `not JSON: ${errorMessage(error)}`);
      return;
    }
    if (!isJsonObject(message)) return drop(connection, 'not a JSON object');
    const { id, method, params } = message;
    if (typeof method !== 'string' || !isRpcApiOp(method)) return drop(connection, 'unknown method');
    if (!(id === undefined || id === null || isU64(id))) return drop(connection, 'id is not a u64');
    if (params === undefined) return drop(connection, 'params missing');
    if (id === undefined || id === null) return;
    connection.queued++;
    if (connection.queued >= MAX_QUEUED_REQUESTS) connection.socket.pause();
    connection.queue = connection.queue.then(async () => {
      try {
        await respond(connection, id, method, params);
      } catch (error) {
        report({ type: 'handler-error', connection: connection.info, method, error });
      } finally {
        connection.queued--;
        if (connection.socket.isPaused && connection.queued < MAX_QUEUED_REQUESTS) connection.socket.resume();
      }
    });
  }

  async function respond(connection: Connection, id: bigint, method: string, params: JsonValue): Promise<void> {
    if (connection.socket.readyState !== WebSocket.OPEN) return;
    let result: unknown;
    try {
      result = await dispatch(connection, method, params);
    } catch (error) {
      let message: string;
      if (error instanceof Rejection) message = error.message;
      else if (error instanceof RequestDeserializationError) message = WRPC_ERROR_MESSAGES.requestDeserialization;
      else {
        report({ type: 'handler-error', connection: connection.info, method, error });
        message = errorMessage(error);
      }
      send(connection, errorFrame(id, method, message));
      return;
    }
    let frame: string;
    try {
      frame = stringifyJson({ id, method, params: result });
    } catch (error) {
      report({ type: 'handler-error', connection: connection.info, method, error });
      frame = errorFrame(id, method, RESPONSE_SERIALIZATION_ERROR);
    }
    send(connection, frame);
  }

  async function dispatch(connection: Connection, method: string, params: JsonValue): Promise<unknown> {
    if (method === 'subscribe' || method === 'unsubscribe') {
      const scope = decodeScope(params);
      if (scope === undefined) throw new Rejection(WRPC_ERROR_MESSAGES.requestDeserialization);
      if (method === 'subscribe') {
        startNotify(connection, scope);
        return { id: connection.info.id };
      }
      stopNotify(connection, scope);
      return {};
    }
    if (!Object.hasOwn(requestSchemas, method) || typeof handlers[method as HandledMethodName] !== 'function') {
      throw new Rejection(WRPC_ERROR_MESSAGES.methodNotFound);
    }
    const decoded = requestSchemas[method as HandledMethodName].safeParse(params);
    if (!decoded.success) throw new Rejection(WRPC_ERROR_MESSAGES.requestDeserialization);
    const context: WrpcRequestContext = { connection: connection.info, signal: connection.abort.signal };
    return (handlers as Record<string, (params: unknown, context: WrpcRequestContext) => unknown>)[method]!(
      decoded.data,
      context,
    );
  }

  function startNotify(connection: Connection, scope: RpcScope): void {
    if ('UtxosChanged' in scope) {
      const addresses = scope.UtxosChanged.addresses;
      if (addresses.length === 0) connection.utxos = { kind: 'all' };
      else if (connection.utxos?.kind === 'selected') for (const address of addresses) connection.utxos.addresses.add(address);
      else connection.utxos = { kind: 'selected', addresses: new Set(addresses) };
      return;
    }
    if ('VirtualChainChanged' in scope) {
      connection.includeAcceptedTransactionIds = scope.VirtualChainChanged.include_accepted_transaction_ids;
    }
    connection.events.add(Object.keys(scope)[0] as RpcEventName);
  }

  function stopNotify(connection: Connection, scope: RpcScope): void {
    if ('UtxosChanged' in scope) {
      const addresses = scope.UtxosChanged.addresses;
      if (addresses.length === 0) connection.utxos = undefined;
      else if (connection.utxos?.kind === 'selected') {
        for (const address of addresses) connection.utxos.addresses.delete(address);
        if (connection.utxos.addresses.size === 0) connection.utxos = undefined;
      }
      return;
    }
    connection.events.delete(Object.keys(scope)[0] as RpcEventName);
  }

  function notificationFrame(event: RpcEventName, payload: unknown): string {
    return `{"method":"${notificationMethod(event)}","params":{"${event}":${stringifyJson(payload)}}}`;
  }

  function utxosFor(
    subscription: { addresses: Set<string> },
    payload: RpcNotifications['UtxosChanged'],
  ): RpcNotifications['UtxosChanged'] | undefined {
    const watched = (entry: RpcUtxosByAddressesEntry) =>
      entry.address !== null && subscription.addresses.has(entry.address);
    const added = payload.added.filter(watched);
    const removed = payload.removed.filter(watched);
    return added.length === 0 && removed.length === 0 ? undefined : { added, removed };
  }

  function notify<E extends RpcEventName>(
    event: E,
    payload: RpcNotifications[E],
    filter?: (connection: WrpcConnectionInfo) => boolean,
  ): number {
    let full: string | undefined;
    let withoutAcceptedIds: string | undefined;
    let sent = 0;
    for (const connection of connections) {
      let frame: string;
      if (event === 'UtxosChanged') {
        const subscription = connection.utxos;
        if (subscription === undefined || (filter && !filter(connection.info))) continue;
        if (subscription.kind === 'all') {
          frame = full ??= notificationFrame(event, payload);
        } else {
          const filtered = utxosFor(subscription, payload as RpcNotifications['UtxosChanged']);
          if (filtered === undefined) continue;
          frame = notificationFrame(event, filtered);
        }
      } else {
        if (!connection.events.has(event) || (filter && !filter(connection.info))) continue;
        if (event === 'VirtualChainChanged' && !connection.includeAcceptedTransactionIds) {
          frame = withoutAcceptedIds ??= notificationFrame(event, { ...payload, acceptedTransactionIds: [] });
        } else {
          frame = full ??= notificationFrame(event, payload);
        }
      }
      if (send(connection, frame)) sent++;
    }
    return sent;
  }

  if (ownsHttpServer) {
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        httpServer.off('error', reject);
        httpServer.on('error', (error) => report({ type: 'server-error', error }));
        resolve();
      });
    });
  }

  const address = httpServer.address();
  if (address === null || typeof address === 'string') {
    httpServer.off('upgrade', onUpgrade);
    throw new Error('The HTTP server is not listening on a TCP port');
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `ws://${host}:${address.port}${options.path ?? ''}`;

  async function close(): Promise<void> {
    if (closing) return;
    closing = true;
    httpServer.off('upgrade', onUpgrade);
    const open = [...connections];
    for (const connection of open) connection.socket.close(CLOSE_CODE_GOING_AWAY, 'server closing');
    await Promise.all(
      open.map(
        (connection) =>
          new Promise<void>((resolve) => {
            if (connection.socket.readyState === WebSocket.CLOSED) return resolve();
            const timer = setTimeout(() => connection.socket.terminate(), CLOSE_GRACE_MS);
            connection.socket.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    if (ownsHttpServer) {
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    }
  }

  return {
    url,
    port: address.port,
    connectionCount: () => connections.size,
    counters: () => ({ liveConnections: connections.size, connectionAttempts: nextConnectionId, bytesSent, bytesReceived }),
    notify,
    close,
  };
}
