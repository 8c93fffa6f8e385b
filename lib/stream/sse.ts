/**
 * GET /v1/stream: the event log as Server-Sent Events. Query: `topics` (comma-separated: block, chain, address,
 * covenant, fees, token), `addresses`, `covenants`, `tickers` (comma-separated, each narrowing its topic: address,
 * covenant, token), `since` (an event id); a `Last-Event-ID` header (an
 * EventSource reconnecting) takes precedence over `since`. Messages:
 *   `id: <event id>` `event: <topic>` `data: <event JSON>`  one per event, in id order
 *   `event: ready`            first: the cursor the stream continues after
 *   `event: resync_required`  the cursor cannot be resumed (pruned, or not of this log); carries what to re-read and
 *                             an `id` so a reconnect does not repeat it
 *   `event: dropped`          the client read nothing for `slowClientMs` while events waited; then the stream ends
 *   `event: error`            the problem (402 allowance_exhausted) after the last paid event; then the stream ends
 *   `: heartbeat`             a comment whenever nothing was sent for `heartbeatMs`
 * The body is pulled: nothing is produced while the client does not read, so the server holds at most one message
 * per connection beyond the socket's own buffer.
 */
import { corsHeaders, requestIdOf } from '../api/wrapper/endpoint';
import { ApiError, problemBody, problemResponse, toApiError } from '../api/http/errors';
import { API_KEY_HEADER } from '../api/keys/keys';
import type { StreamEvent } from '../db';
import type { StreamFilter } from './hub';
import { parseTopics } from '../api/endpoints/event-filters';
import { filterOf, KEYED_TOPICS, listParameter, parseCursor, parseFilterKeys, streamQuery, type FilterKeys } from './protocol';
import { nextDelivery, resyncBody, type Admission, type StreamService } from './service';

const ROUTE = 'GET /v1/stream';
const RETRY_MS = 2_000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
} as const;

function eventMessages(events: readonly StreamEvent[]): string {
  let text = '';
  for (const event of events) text += `id: ${event.id}\nevent: ${event.topic}\ndata: ${event.data}\n\n`;
  return text;
}

/** Topics, address filter and cursor of a stream request; throws the 400 to answer. */
export async function parseStreamRequest(
  service: StreamService,
  search: URLSearchParams,
  lastEventId: string | null,
): Promise<{ filter: StreamFilter; since: bigint | null }> {
  const query = streamQuery(search, ['topics', 'addresses', 'covenants', 'tickers', 'since']);
  const topics = parseTopics(listParameter(query.get('topics') ?? null), 'query.topics');
  for (const [name, topic] of Object.entries(KEYED_TOPICS)) {
    if (query.has(name) && !topics.includes(topic)) {
      const message = `${name} filter the ${topic} topic; add ${topic} to topics`;
      throw ApiError.invalidRequest(message, [{ path: `query.${name}`, message }]);
    }
  }
  const keys: FilterKeys = {};
  for (const name of Object.keys(KEYED_TOPICS) as (keyof FilterKeys)[]) {
    const given = query.get(name);
    if (given === undefined) continue;
    keys[name] = await parseFilterKeys(name, listParameter(given), `query.${name}`, {
      addressPrefix: () => service.api.addressPrefix(),
      max: service.limits.maxAddresses,
    });
  }
  const since =
    lastEventId !== null && lastEventId.trim() !== ''
      ? parseCursor(lastEventId, 'header.last-event-id')
      : query.has('since')
        ? parseCursor(query.get('since')!, 'query.since')
        : null;
  return { filter: filterOf(topics, keys), since };
}

export async function sseResponse(service: StreamService, request: Request): Promise<Response> {
  const requestId = requestIdOf(request);
  let admission: Admission | undefined;
  try {
    const { filter, since } = await parseStreamRequest(service, new URL(request.url).searchParams, request.headers.get('last-event-id'));
    admission = await service.admit(request.headers.get(API_KEY_HEADER));
    const { subscription, resync } = await service.open(since, filter);
    const body = eventBody(service, admission, subscription, filter, resync, requestId);
    return new Response(body, {
      headers: { ...SSE_HEADERS, ...admission.headers, ...corsHeaders(), 'x-request-id': requestId },
    });
  } catch (error) {
    admission?.release();
    return problemResponse(toApiError(error, { logger: service.api.logger, requestId, route: ROUTE }), requestId, corsHeaders());
  }
}

function eventBody(
  service: StreamService,
  admission: Admission,
  subscription: Awaited<ReturnType<StreamService['open']>>['subscription'],
  filter: StreamFilter,
  resync: Awaited<ReturnType<StreamService['open']>>['resync'],
  requestId: string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const { heartbeatMs, slowClientMs } = service.limits;
  let finished = false;
  /** When the last message was handed over while the client had not taken the one before (null: it had). */
  let waitingSince: number | null = null;
  let watchdog: NodeJS.Timeout | undefined;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearInterval(watchdog);
    subscription.close();
    admission.release();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let opening = `retry: ${RETRY_MS}\n\n`;
        if (resync !== null) {
          opening += `id: ${resync.resumedAfter}\nevent: resync_required\ndata: ${JSON.stringify(resyncBody(resync, filter))}\n\n`;
        }
        opening += `event: ready\ndata: ${JSON.stringify({ cursor: subscription.cursor.toString() })}\n\n`;
        controller.enqueue(encoder.encode(opening));
        waitingSince = Date.now();
        watchdog = setInterval(() => {
          if (finished || waitingSince === null || Date.now() - waitingSince < slowClientMs) return;
          if (subscription.cursor >= service.hub.head) return;
          const notice = { reason: 'slow', cursor: subscription.cursor.toString(), detail: `the client read nothing for ${slowClientMs} ms while events waited; resume from cursor` };
          controller.enqueue(encoder.encode(`event: dropped\ndata: ${JSON.stringify(notice)}\n\n`));
          controller.close();
          finish();
        }, Math.min(1_000, slowClientMs));
        watchdog.unref();
      },
      async pull(controller) {
        waitingSince = null;
        if (finished) return;
        const delivery = await nextDelivery(service, admission.key, subscription, heartbeatMs, () => !finished);
        if (finished) return;
        waitingSince = Date.now();
        switch (delivery.kind) {
          case 'events':
            controller.enqueue(encoder.encode(eventMessages(delivery.events)));
            return;
          case 'idle':
            controller.enqueue(encoder.encode(': heartbeat\n\n'));
            return;
          case 'resync':
            controller.enqueue(
              encoder.encode(`id: ${delivery.resync.resumedAfter}\nevent: resync_required\ndata: ${JSON.stringify(resyncBody(delivery.resync, filter))}\n\n`),
            );
            return;
          case 'exhausted': {
            const problem = JSON.stringify(problemBody(delivery.problem, requestId));
            controller.enqueue(encoder.encode(`${eventMessages(delivery.events)}event: error\ndata: ${problem}\n\n`));
            controller.close();
            finish();
            return;
          }
          case 'closed':
            controller.close();
            finish();
        }
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: 1 },
  );
}
