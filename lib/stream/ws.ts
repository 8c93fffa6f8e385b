/**
 * GET /v1/ws: the event log over WebSocket (RFC 6455, the `ws` library), for `npm start` (server.mjs hands it the
 * HTTP upgrades of /v1/ws). The key is checked, the connection slot taken and the connection charged before the
 * upgrade; a refusal is the plain HTTP problem response. `?since=<event id>` resumes after that event.
 *
 * Client → server (JSON text frames):
 *   {"op":"subscribe","id":"s1","topic":"address","addresses":["kaspa:…"]}   any topic; `addresses` narrow the
 *       address topic, `covenants` (ids) the covenant topic, `tickers` the token topic
 *   {"op":"unsubscribe","id":"s1"}
 *   {"op":"ping"}
 * Server → client:
 *   {"type":"ack","op":"subscribe"|"unsubscribe","id":"s1","cursor":"…"}
 *   {"type":"event","id":"<event id>","topic":"…","subscriptions":["s1"],"data":{…}}   in id order
 *   {"type":"error","id":"s1"|null,"error":<the problem shape>}   a refused frame; the connection stays open
 *   {"type":"resync_required",…}  {"type":"heartbeat","cursor":"…"}  {"type":"pong"}
 *   {"type":"dropped","reason":"slow","cursor":"…"} then close 4008; the 402 error then close 4402
 * Events flow from the first subscription on; the cursor is the connection's, shared by its subscriptions.
 */
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import { requestIdOf } from '../api/wrapper/endpoint';
import { ApiError, fromZodError, problemBody, toApiError } from '../api/http/errors';
import type { ApiRequest } from '../api/http/http';
import { API_KEY_HEADER } from '../api/keys/keys';
import { STREAM_TOPICS, type StreamEvent, type StreamTopic } from '../db';
import type { StreamFilter, Subscription } from './hub';
import { matches } from './hub';
import { filterOf, KEYED_TOPICS, parseCursor, parseFilterKeys, streamQuery, type FilterKeys } from './protocol';
import { nextDelivery, resyncBody, type Admission, type Resync, type StreamService } from './service';

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

const ROUTE = 'GET /v1/ws';
export const WS_PATH = '/v1/ws';
const MAX_FRAME_BYTES = 64 * 1024;
export const CLOSE_SLOW = 4008;
export const CLOSE_EXHAUSTED = 4402;

const message = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('subscribe'),
    id: z.string().min(1).max(64),
    topic: z.enum(STREAM_TOPICS),
    addresses: z.array(z.string()).optional(),
    covenants: z.array(z.string()).optional(),
    tickers: z.array(z.string()).optional(),
  }),
  z.object({ op: z.literal('unsubscribe'), id: z.string().min(1).max(64) }),
  z.object({ op: z.literal('ping') }),
]);

interface Wanted {
  topic: StreamTopic;
  /** The filter of its keyed topic (addresses, covenant ids or tickers); null: every event of the topic. */
  keys: readonly string[] | null;
}

const keyNameOf = (topic: StreamTopic) => (Object.keys(KEYED_TOPICS) as (keyof FilterKeys)[]).find((name) => KEYED_TOPICS[name] === topic);

function filterOfWanted(entry: Wanted): StreamFilter {
  const name = keyNameOf(entry.topic);
  return filterOf([entry.topic], name === undefined ? {} : { [name]: entry.keys });
}

function apiRequestOf(request: IncomingMessage): ApiRequest {
  return {
    method: request.method ?? 'GET',
    target: request.url ?? '/',
    header: (name) => {
      const value = request.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
    body: null,
  };
}

function refuseUpgrade(socket: Duplex, error: ApiError, requestId: string): void {
  const body = JSON.stringify(problemBody(error, requestId));
  const headers = {
    ...error.headers,
    'content-type': 'application/problem+json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** The union of a connection's subscriptions, as one filter. */
function unionFilter(wanted: Iterable<Wanted>): StreamFilter {
  const topics = new Set<StreamTopic>();
  const keys: Partial<Record<keyof FilterKeys, Set<string> | null>> = {};
  for (const entry of wanted) {
    topics.add(entry.topic);
    const name = keyNameOf(entry.topic);
    if (name === undefined) continue;
    const union = keys[name];
    if (entry.keys === null || union === null) keys[name] = null;
    else keys[name] = new Set([...(union ?? []), ...entry.keys]);
  }
  const listed = (set: Set<string> | null | undefined) => (set === undefined ? [] : set === null ? null : [...set]);
  return filterOf([...topics], { addresses: listed(keys.addresses), covenants: listed(keys.covenants), tickers: listed(keys.tickers) });
}

export function createWsUpgradeHandler(getService: () => Promise<StreamService>): UpgradeHandler {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  return (request, socket, head) => {
    const apiRequest = apiRequestOf(request);
    const requestId = requestIdOf(apiRequest);
    void (async () => {
      let service: StreamService | undefined;
      let admission: Admission | undefined;
      try {
        service = await getService();
        const target = apiRequest.target;
        const queryStart = target.indexOf('?');
        const query = streamQuery(new URLSearchParams(queryStart < 0 ? '' : target.slice(queryStart + 1)), ['since']);
        const since = query.has('since') ? parseCursor(query.get('since')!, 'query.since') : null;
        admission = await service.admit(apiRequest.header(API_KEY_HEADER));
        const admitted = admission;
        const ready = service;
        server.handleUpgrade(request, socket, head, (ws) => serveConnection(ready, admitted, ws, since, requestId));
      } catch (error) {
        admission?.release();
        const logger = service?.api.logger ?? { error: (text: string, entry: unknown) => console.error(text, entry) };
        refuseUpgrade(socket, toApiError(error, { logger, requestId, route: ROUTE }), requestId);
      }
    })();
  };
}

function serveConnection(service: StreamService, admission: Admission, ws: WebSocket, since: bigint | null, requestId: string): void {
  const { limits } = service;
  const wanted = new Map<string, Wanted>();
  let subscription: Subscription | null = null;
  let opening: Promise<void> | null = null;
  let closed = false;

  const send = (value: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  };
  const sendError = (id: string | null, error: ApiError) => send({ type: 'error', id, error: problemBody(error, requestId) });
  const finish = () => {
    if (closed) return;
    closed = true;
    subscription?.close();
    admission.release();
  };
  ws.on('close', finish);
  ws.on('error', finish);

  const sendEvents = (events: readonly StreamEvent[]) => {
    for (const event of events) {
      const ids = [...wanted].filter(([, entry]) => matches(event, filterOfWanted(entry)));
      const names = JSON.stringify(ids.map(([id]) => id));
      send(`{"type":"event","id":"${event.id}","topic":"${event.topic}","subscriptions":${names},"data":${event.data}}`);
    }
  };

  /** Waits while more than `maxBufferedBytes` wait to be sent; false when the client took longer than `slowClientMs`. */
  const drained = async (): Promise<boolean> => {
    const deadline = Date.now() + limits.slowClientMs;
    while (ws.bufferedAmount > limits.maxBufferedBytes) {
      if (closed) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return true;
  };

  const sendResync = (resync: Resync) => send({ type: 'resync_required', ...resyncBody(resync, unionFilter(wanted.values())) });

  const pump = async (current: Subscription) => {
    while (!closed) {
      const delivery = await nextDelivery(service, admission.key, current, limits.heartbeatMs, () => !closed && ws.readyState === ws.OPEN);
      if (closed) return;
      switch (delivery.kind) {
        case 'events':
          sendEvents(delivery.events);
          break;
        case 'idle':
          send({ type: 'heartbeat', cursor: current.cursor.toString() });
          break;
        case 'resync':
          sendResync(delivery.resync);
          break;
        case 'exhausted':
          sendEvents(delivery.events);
          sendError(null, delivery.problem);
          ws.close(CLOSE_EXHAUSTED, 'allowance exhausted');
          finish();
          return;
        case 'closed':
          ws.close(1001, 'going away');
          return;
      }
      if (!(await drained())) {
        send({ type: 'dropped', reason: 'slow', cursor: current.cursor.toString() });
        ws.close(CLOSE_SLOW, 'slow consumer');
        finish();
        return;
      }
    }
  };

  const start = async () => {
    const opened = await service.open(since, unionFilter(wanted.values()));
    if (closed) {
      opened.subscription.close();
      return;
    }
    subscription = opened.subscription;
    subscription.filter = unionFilter(wanted.values());
    if (opened.resync !== null) sendResync(opened.resync);
    pump(subscription).catch((error: unknown) => {
      sendError(null, toApiError(error, { logger: service.api.logger, requestId, route: ROUTE }));
      ws.close(1011, 'internal error');
      finish();
    });
  };

  const handle = async (text: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw ApiError.invalidJson('the frame is not valid JSON');
    }
    const result = message.safeParse(parsed);
    const id = typeof (parsed as { id?: unknown } | null)?.id === 'string' ? (parsed as { id: string }).id : null;
    if (!result.success) return sendError(id, fromZodError('message', result.error));
    const frame = result.data;
    if (frame.op === 'ping') return send({ type: 'pong' });
    if (frame.op === 'unsubscribe') {
      if (!wanted.delete(frame.id)) {
        const detail = `no subscription ${frame.id} on this connection`;
        return sendError(frame.id, ApiError.invalidRequest(detail, [{ path: 'message.id', message: detail }]));
      }
      if (subscription !== null) subscription.filter = unionFilter(wanted.values());
      return send({ type: 'ack', op: 'unsubscribe', id: frame.id, cursor: subscription?.cursor.toString() ?? null });
    }
    if (wanted.has(frame.id)) {
      const detail = `subscription ${frame.id} exists; unsubscribe it first or use another id`;
      return sendError(frame.id, ApiError.invalidRequest(detail, [{ path: 'message.id', message: detail }]));
    }
    if (wanted.size >= limits.maxSubscriptions) {
      return sendError(frame.id, ApiError.limitExceeded('message', `at most ${limits.maxSubscriptions} subscriptions per connection`));
    }
    let keys: string[] | null = null;
    for (const name of Object.keys(KEYED_TOPICS) as (keyof FilterKeys)[]) {
      const given = frame[name];
      if (given === undefined) continue;
      if (frame.topic !== KEYED_TOPICS[name]) {
        const detail = `${name} filter the ${KEYED_TOPICS[name]} topic only`;
        return sendError(frame.id, ApiError.invalidRequest(detail, [{ path: `message.${name}`, message: detail }]));
      }
      try {
        keys = await parseFilterKeys(name, given, `message.${name}`, {
          addressPrefix: () => service.api.addressPrefix(),
          max: limits.maxAddresses,
        });
      } catch (error) {
        return sendError(frame.id, toApiError(error, { logger: service.api.logger, requestId, route: ROUTE }));
      }
    }
    wanted.set(frame.id, { topic: frame.topic, keys });
    if (subscription !== null) subscription.filter = unionFilter(wanted.values());
    opening ??= start();
    await opening;
    send({ type: 'ack', op: 'subscribe', id: frame.id, cursor: subscription?.cursor.toString() ?? null });
  };

  let queue = Promise.resolve();
  ws.on('message', (data: RawData, isBinary: boolean) => {
    queue = queue.then(async () => {
      if (closed) return;
      try {
        if (isBinary) throw ApiError.invalidRequest('frames must be JSON text, not binary');
        await handle(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'));
      } catch (error) {
        sendError(null, toApiError(error, { logger: service.api.logger, requestId, route: ROUTE }));
      }
    });
  });
  send({ type: 'ready', cursor: since === null ? null : since.toString() });
}
