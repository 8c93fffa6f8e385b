/**
 * The stream hub: one per process, between the event log (lib/db/stream-events.ts) and the subscriptions of both
 * transports. It polls the log for new events (every `pollMs`, and at once when the in-process indexer says it wrote
 * some), keeps the latest `ringSize` in memory and wakes the subscriptions. Every instance polls the same database,
 * so instances behind a balancer serve the same streams without any other fan-out.
 *
 * A subscription is a cursor and a filter, nothing buffered: `next` returns the matching events after the cursor,
 * from the ring when it still holds them, else from the database one page at a time. Resuming and following are the
 * same code, each event leaves once and in id order, and a slow reader costs no memory (it is simply read from
 * further back). A cursor the pruner has passed gets `resync` instead of events.
 */
import { readStreamBounds, readStreamEvents, type Queryable, type StreamEvent, type StreamTopic } from '../db';

export interface StreamFilter {
  topics: ReadonlySet<StreamTopic>;
  /** `address` events only for these; null: every address event. */
  addresses: ReadonlySet<string> | null;
  /** `covenant` events only for these covenant ids (hex); null or absent: every covenant event. */
  covenants?: ReadonlySet<string> | null;
  /** `token` events only for these tickers (upper case); null or absent: every token event. */
  tickers?: ReadonlySet<string> | null;
}

export type StreamBatch =
  | { kind: 'events'; events: StreamEvent[] }
  | { kind: 'idle' }
  | { kind: 'resync'; cursor: bigint; prunedThrough: bigint; latest: bigint }
  | { kind: 'closed' };

export interface Subscription {
  /** The id of the last event read (delivered or filtered out). */
  readonly cursor: bigint;
  filter: StreamFilter;
  /** The next matching events, `idle` when none came within `timeoutMs`, or why there are none. */
  next(timeoutMs: number): Promise<StreamBatch>;
  /** Continues after `cursor` (a resync's client starts again from the log's head). */
  moveTo(cursor: bigint): void;
  close(): void;
}

export interface StreamHub {
  /** The last id the hub has read; every id up to it is committed. */
  readonly head: bigint;
  readonly subscriptions: number;
  /** Resolves once the head is known. */
  readonly ready: Promise<void>;
  /** A subscription after `cursor` (the head when null). */
  subscribe(cursor: bigint | null, filter: StreamFilter): Subscription;
  /** Polls now (the in-process indexer wrote events). */
  wake(): void;
  close(): void;
}

export interface StreamHubOptions {
  db: Queryable;
  pollMs?: number;
  /** How long new events may wait so that one wake-up serves several (see `lingerFor`); default `lingerFor`. */
  lingerMs?: (subscriptions: number) => number;
  ringSize?: number;
  pageSize?: number;
  onError?: (error: Error) => void;
}

/**
 * Wake-ups coalesced by subscriber count: every wake-up costs each subscriber a write (a system call) whether it
 * carries one event or five, so past 1,000 subscribers wake-ups come at most every (n − 1,000) / 20 ms, at most
 * 450 ms (the first after a quiet spell at once): at 10 blocks/s and 10,000 subscribers one every 450 ms instead of
 * every 100 ms, a fifth of the writes, within the 1 s delivery goal.
 */
export function lingerFor(subscriptions: number): number {
  return Math.min(450, Math.max(0, Math.floor((subscriptions - 1_000) / 20)));
}

const among = (keys: ReadonlySet<string> | null | undefined, key: string | null) => keys === null || keys === undefined || (key !== null && keys.has(key));

export function matches(event: StreamEvent, filter: StreamFilter): boolean {
  if (!filter.topics.has(event.topic)) return false;
  switch (event.topic) {
    case 'address':
      return among(filter.addresses, event.address);
    case 'covenant':
      return among(filter.covenants, event.subject);
    case 'token':
      return among(filter.tickers, event.subject);
    default:
      return true;
  }
}

const listOf = (keys: ReadonlySet<string> | null | undefined) => (keys === null || keys === undefined ? undefined : [...keys]);

function logQueryOf(filter: StreamFilter) {
  return {
    topics: [...filter.topics],
    addresses: listOf(filter.addresses),
    covenants: listOf(filter.covenants),
    tickers: listOf(filter.tickers),
  };
}

export function createStreamHub(options: StreamHubOptions): StreamHub {
  const { db } = options;
  const pollMs = options.pollMs ?? 250;
  const ringSize = options.ringSize ?? 20_000;
  const pageSize = options.pageSize ?? 500;
  let head = 0n;
  /** The ring holds every event with an id above `floor`, up to `head`. */
  let floor = 0n;
  let ring: StreamEvent[] = [];
  let closed = false;
  let waiters = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let again = false;
  let live = 0;

  const notify = () => {
    const current = waiters;
    waiters = new Set();
    for (const waiter of current) waiter();
  };
  const lingerMs = options.lingerMs ?? lingerFor;
  let lastAnnounced = 0;
  let lingering: NodeJS.Timeout | undefined;
  /** Wakes the subscriptions for new events, at most once per linger. */
  const announce = () => {
    const linger = lingerMs(live);
    if (linger === 0) return notify();
    if (lingering !== undefined) return;
    lingering = setTimeout(
      () => {
        lingering = undefined;
        lastAnnounced = Date.now();
        notify();
      },
      Math.max(0, lastAnnounced + linger - Date.now()),
    );
  };

  const poll = async (): Promise<void> => {
    for (;;) {
      const events = await readStreamEvents(db, { after: head, limit: 1_000 });
      if (events.length === 0) return;
      ring.push(...events);
      head = events.at(-1)!.id;
      if (ring.length > ringSize) {
        const dropped = ring.length - ringSize;
        floor = ring[dropped - 1]!.id;
        ring = ring.slice(dropped);
      }
      announce();
      if (events.length < 1_000) return;
    }
  };

  const schedule = (delay: number) => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
    timer.unref();
  };

  function run(): void {
    if (polling !== undefined) {
      again = true;
      return;
    }
    polling = poll()
      .catch((error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        polling = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(pollMs);
      });
  }

  const ready = readStreamBounds(db).then((bounds) => {
    head = bounds.latest;
    floor = bounds.latest;
    schedule(0);
  });
  ready.catch(() => undefined);

  /** The ring's events after `cursor` (which must be at or above `floor`), up to a page. */
  const fromRing = (cursor: bigint): StreamEvent[] => {
    let low = 0;
    let high = ring.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (ring[middle]!.id <= cursor) low = middle + 1;
      else high = middle;
    }
    return ring.slice(low, low + pageSize);
  };

  class HubSubscription implements Subscription {
    cursor: bigint;
    private done = false;

    constructor(
      cursor: bigint | null,
      public filter: StreamFilter,
    ) {
      this.cursor = cursor ?? head;
      live += 1;
    }

    moveTo(cursor: bigint): void {
      this.cursor = cursor;
    }

    async next(timeoutMs: number): Promise<StreamBatch> {
      await ready;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (this.done || closed) return { kind: 'closed' };
        if (this.cursor < head) {
          const batch = await this.read();
          if (batch !== null) return batch;
          continue;
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) return { kind: 'idle' };
        await new Promise<void>((resolve) => {
          const wait = setTimeout(() => {
            waiters.delete(done);
            resolve();
          }, remaining);
          const done = () => {
            clearTimeout(wait);
            resolve();
          };
          waiters.add(done);
        });
      }
    }

    /** One page after the cursor: the matching events, a resync, or null when the page held none that match. */
    private async read(): Promise<StreamBatch | null> {
      const upTo = head;
      let page: StreamEvent[];
      let last: bigint;
      if (this.cursor >= floor) {
        page = fromRing(this.cursor);
        last = page.at(-1)?.id ?? upTo;
        page = page.filter((event) => matches(event, this.filter));
      } else {
        const bounds = await readStreamBounds(db);
        if (this.cursor < bounds.prunedThrough) {
          return { kind: 'resync', cursor: this.cursor, prunedThrough: bounds.prunedThrough, latest: upTo };
        }
        page = await readStreamEvents(db, { after: this.cursor, ...logQueryOf(this.filter), limit: pageSize });
        page = page.filter((event) => event.id <= upTo);
        last = page.length === pageSize ? page.at(-1)!.id : upTo;
      }
      if (this.done) return { kind: 'closed' };
      this.cursor = last > this.cursor ? last : this.cursor;
      return page.length === 0 ? null : { kind: 'events', events: page };
    }

    close(): void {
      if (this.done) return;
      this.done = true;
      live -= 1;
      notify();
    }
  }

  return {
    get head() {
      return head;
    },
    get subscriptions() {
      return live;
    },
    ready,
    subscribe: (cursor, filter) => new HubSubscription(cursor, filter),
    wake: () => schedule(0),
    close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(lingering);
      notify();
    },
  };
}
