/**
 * The stream log's fan-out across processes: every transaction that takes the writers' lock also queues a NOTIFY on
 * `STREAM_EVENTS_CHANNEL` (sent when it commits, never before), and each app instance listens, so its hub and
 * webhook worker read new events at once instead of at their next poll. The polls stay as the safety net: a
 * notification lost with a connection costs one poll interval, never an event.
 */
import type { Db } from './connection';
import type { Listener } from './pg-listener';

export const STREAM_EVENTS_CHANNEL = 'dagboard_stream_events';

export function listenStreamEvents(db: Db, onEvents: () => void, onError: (error: Error) => void): Promise<Listener> {
  return db.listen(STREAM_EVENTS_CHANNEL, onEvents, onError);
}
