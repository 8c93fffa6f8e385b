/**
 * The live hub as a Server-Sent Events body: `retry:` first, then one `event: <type>` / `data: <json>` message per
 * hub event, and a comment line as heartbeat whenever nothing was sent for `heartbeatMs` (keeps proxies from timing
 * the connection out and lets the browser notice a dead one). The body is pulled: while the HTTP connection does not
 * drain, no event leaves the client's bounded queue, so a slow reader is dropped by the hub; the stream then ends
 * with an `event: dropped` message and the browser's EventSource reconnects after `retry`.
 */
import type { LiveHub } from './hub';

export interface LiveStreamOptions {
  heartbeatMs?: number;
  retryMs?: number;
  maxQueued?: number;
}

export const LIVE_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

export function liveEventStream(hub: LiveHub, options: LiveStreamOptions = {}): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const retryMs = options.retryMs ?? 2_000;
  const encoder = new TextEncoder();
  const client = hub.connect({ maxQueued: options.maxQueued });
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`retry: ${retryMs}\n: connected\n\n`));
      },
      async pull(controller) {
        const event = await client.next(heartbeatMs);
        if (event === null) {
          if (client.closeReason === 'slow' || client.closeReason === 'hub-closed') {
            controller.enqueue(encoder.encode(`event: dropped\ndata: ${JSON.stringify({ reason: client.closeReason })}\n\n`));
          }
          controller.close();
          return;
        }
        if (event === 'idle') {
          controller.enqueue(encoder.encode(': heartbeat\n\n'));
          return;
        }
        controller.enqueue(encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`));
      },
      cancel() {
        client.close();
      },
    },
    { highWaterMark: 1 },
  );
}
