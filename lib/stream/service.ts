/**
 * The stream service both transports use: admission (the key, the per-key connection limit, the connection's charge)
 * and delivery (the next events of a subscription, charged per event before they leave).
 *
 * Metering is exact: an event is charged before it is sent and only events sent are charged. When the month's
 * allowance cannot pay for a page, the events it still pays for are sent and the stream ends with the 402 problem;
 * when the key's per-second budget is spent, delivery waits for the next second (the stream slows, nothing is lost).
 */
import { STREAM_COSTS } from '../api/keys/costs';
import { meteringHeaders, refusal } from '../api/wrapper/endpoint';
import { ApiError } from '../api/http/errors';
import { API_KEY_HEADER, authenticateApiKey, type ApiKeyRecord } from '../api/keys/keys';
import type { NodeApiContext } from '../api/endpoints/node-endpoints';
import { readStreamBounds, type Queryable, type StreamEvent } from '../db';
import type { StreamFilter, StreamHub, Subscription } from './hub';

export interface StreamLimits {
  maxConnectionsPerKey: number;
  maxAddresses: number;
  /** WebSocket: subscriptions on one connection. */
  maxSubscriptions: number;
  /** Bytes a connection may have waiting to be sent before it counts as slow. */
  maxBufferedBytes: number;
  /** How long a connection may stay over `maxBufferedBytes` (or not read at all) before it is dropped. */
  slowClientMs: number;
  heartbeatMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxConnectionsPerKey: 20,
  maxAddresses: 100,
  maxSubscriptions: 20,
  maxBufferedBytes: 1024 * 1024,
  slowClientMs: 10_000,
  heartbeatMs: 15_000,
};

export interface StreamService {
  readonly hub: StreamHub;
  readonly api: NodeApiContext;
  readonly limits: StreamLimits;
  /** Open streams per key id on this instance. */
  openStreams(keyId: string): number;
  /** Checks the key, takes a connection slot and charges the connection; throws the ApiError to answer. */
  admit(presentedKey: string | null): Promise<Admission>;
  /**
   * A subscription after `since` (the log's head when null). A cursor the log can no longer resume from (pruned
   * past it, or beyond its newest event: another log) starts at the head, with the resync the client must be told.
   */
  open(since: bigint | null, filter: StreamFilter): Promise<{ subscription: Subscription; resync: Resync | null }>;
}

export interface Resync {
  /** The cursor the client asked to resume from. */
  cursor: bigint;
  /** Events up to this id are gone (0: none pruned). */
  prunedThrough: bigint;
  /** Where the stream continues: after this id. */
  resumedAfter: bigint;
}

export interface Admission {
  key: ApiKeyRecord;
  /** The metering headers of the connection's charge (the SSE response carries them). */
  headers: Record<string, string>;
  /** Frees the connection slot (idempotent). */
  release(): void;
}

export type Delivery =
  | { kind: 'events'; events: StreamEvent[] }
  | { kind: 'idle' }
  /** The reader fell behind the retention window: tell the client, continue from the head. */
  | { kind: 'resync'; resync: Resync }
  /** The allowance ran out: send `events` (paid for), then the problem, then close. */
  | { kind: 'exhausted'; events: StreamEvent[]; problem: ApiError }
  | { kind: 'closed' };

export function createStreamService(options: {
  hub: StreamHub;
  api: NodeApiContext;
  db: Queryable;
  limits?: Partial<StreamLimits>;
}): StreamService {
  const limits = { ...DEFAULT_STREAM_LIMITS, ...options.limits };
  const { api, hub } = options;
  const open = new Map<string, number>();
  return {
    hub,
    api,
    limits,
    openStreams: (keyId) => open.get(keyId) ?? 0,
    async open(since, filter) {
      await hub.ready;
      if (since === null) return { subscription: hub.subscribe(null, filter), resync: null };
      const bounds = await readStreamBounds(options.db);
      const latest = bounds.latest > hub.head ? bounds.latest : hub.head;
      if (since >= bounds.prunedThrough && since <= latest) return { subscription: hub.subscribe(since, filter), resync: null };
      const subscription = hub.subscribe(latest, filter);
      return { subscription, resync: { cursor: since, prunedThrough: bounds.prunedThrough, resumedAfter: latest } };
    },
    async admit(presentedKey) {
      const key = await authenticateApiKey(api.keys, presentedKey);
      const count = open.get(key.id) ?? 0;
      if (count >= limits.maxConnectionsPerKey) throw streamLimit(limits.maxConnectionsPerKey);
      open.set(key.id, count + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (open.get(key.id) ?? 1) - 1;
        if (left === 0) open.delete(key.id);
        else open.set(key.id, left);
      };
      try {
        const now = api.clock();
        const result = await api.meter.charge(key.id, STREAM_COSTS.connection, key, now);
        const refused = refusal(result, key);
        if (refused !== undefined) throw refused;
        return { key, headers: meteringHeaders(key, result, STREAM_COSTS.connection, now), release };
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

export function streamLimit(max: number): ApiError {
  return new ApiError({
    code: 'stream_limit',
    detail: `this key may hold ${max} open streams on this instance; close one first`,
  });
}

export { API_KEY_HEADER };

/** The resync message's body: what was lost and what to re-read before following the stream again. */
export function resyncBody(resync: Resync, filter: StreamFilter): Record<string, unknown> {
  const reread: string[] = [];
  if (filter.topics.has('address')) {
    if (filter.addresses === null) reread.push('GET /v1/addresses/{address}/transactions for the addresses you follow');
    else for (const address of filter.addresses) reread.push(`GET /v1/addresses/${address}/transactions`);
  }
  if (filter.topics.has('block') || filter.topics.has('chain')) reread.push('GET /v1/blocks/daa-score/{start}/{end} for the DAA scores missed');
  return {
    cursor: resync.cursor.toString(),
    prunedThrough: resync.prunedThrough.toString(),
    resumedAfter: resync.resumedAfter.toString(),
    reason: 'the events after this cursor are no longer kept (or the cursor is not one of this log); re-read the state, then follow',
    reread,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The next delivery of `subscription` for `key`: its next matching events, charged. A per-second refusal waits for
 * the window's end and tries again; a month refusal pays for what the allowance still covers.
 */
export async function nextDelivery(
  service: StreamService,
  key: ApiKeyRecord,
  subscription: Subscription,
  timeoutMs: number,
  isOpen: () => boolean = () => true,
): Promise<Delivery> {
  const batch = await subscription.next(timeoutMs);
  if (!isOpen()) return { kind: 'closed' };
  if (batch.kind === 'resync') {
    const resumedAfter = service.hub.head;
    subscription.moveTo(resumedAfter);
    return { kind: 'resync', resync: { cursor: batch.cursor, prunedThrough: batch.prunedThrough, resumedAfter } };
  }
  if (batch.kind !== 'events') return batch;
  const { meter, clock } = service.api;
  const perEvent = STREAM_COSTS.event;
  const chunk = Math.max(1, Math.floor(key.milliRuPerSecond / perEvent));
  const paid: StreamEvent[] = [];
  let rest = batch.events;
  while (rest.length > 0) {
    const take = rest.slice(0, chunk);
    const now = clock();
    const result = await meter.charge(key.id, take.length * perEvent, key, now);
    if (result.outcome === 'charged') {
      paid.push(...take);
      rest = rest.slice(take.length);
    } else if (result.outcome === 'rate_limited') {
      await sleep(Math.max(1, result.secondResetAt - now));
    } else {
      const affordable = Math.min(take.length, Math.floor(result.monthRemaining / perEvent));
      if (affordable > 0) {
        const partial = await meter.charge(key.id, affordable * perEvent, key, clock());
        if (partial.outcome === 'charged') paid.push(...take.slice(0, affordable));
      }
      return { kind: 'exhausted', events: paid, problem: refusal(result, key)! };
    }
  }
  return { kind: 'events', events: paid };
}
