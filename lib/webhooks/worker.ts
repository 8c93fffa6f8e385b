/**
 * The webhook delivery worker. Each tick it
 *   1. turns new events of the log into deliveries: every active webhook not locked by another worker (FOR UPDATE
 *      SKIP LOCKED) has the events after its cursor that pass its filter (the hub's: topics, addresses) queued, and
 *      its cursor moved, in one transaction;
 *   2. leases the due deliveries (lib/db/webhooks.ts) and POSTs each, signed, to its webhook's URL.
 * Every instance may run one: the row locks split the webhooks and the deliveries between them, and a lease keeps a
 * delivery with the worker trying it, so each event is attempted by one worker at a time. Delivery is at least
 * once (a worker dying between the POST and its record leaves the delivery to be retried after the lease).
 *
 * Failures (anything but a 2xx within the timeout, redirects included) are retried after base·2^(n−1), at most
 * `backoffMaxMs`, each delay scaled by a random factor in [0.5, 1) (jitter, so a recovering receiver is not hit by
 * every retry at once). A delivery still failing `retryWindowMs` (24 h) after its first attempt is given up and its
 * webhook disabled with the reason, its other pending deliveries ended.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readStreamBounds, readStreamEvents, type Db, type Queryable, type StreamEvent } from '../db';
import {
  disableWebhook,
  enqueueDeliveries,
  leaseDueDeliveries,
  lockActiveWebhooks,
  recordAttempt,
  type LeasedDelivery,
  type NewDelivery,
} from '../db/webhooks';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signDelivery, TIMESTAMP_HEADER } from '../api/endpoints/webhook-signature';
import { guardedLookup } from '../api/endpoints/webhook-target';

/** `exhausted`: the key cannot pay for deliveries any more; `detail` becomes the webhook's disabled reason. */
export type ChargeOutcome = { outcome: 'charged' } | { outcome: 'rate_limited'; retryAt: number } | { outcome: 'exhausted'; detail: string };

export interface WebhookWorkerOptions {
  db: Db;
  allowPrivateTargets: boolean;
  /** Epoch ms. */
  clock?: () => number;
  /** In [0, 1): the jitter. */
  random?: () => number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  retryWindowMs?: number;
  leaseMs?: number;
  requestTimeoutMs?: number;
  /** Deliveries attempted per tick (at once). */
  batchSize?: number;
  /** Between ticks when started. */
  pollMs?: number;
  /** Charges the webhook's key for one attempt; absent: attempts are free (tests). */
  charge?: (keyId: string, now: number) => Promise<ChargeOutcome>;
  onError?: (error: Error) => void;
}

interface Attempted {
  webhookId: string;
  delivered: boolean;
  /** Its record disables the webhook (written after the webhook's other records, so it ends them all). */
  disables: boolean;
  record(tx: Queryable): Promise<void>;
}

export interface TickReport {
  enqueued: number;
  attempted: number;
  delivered: number;
}

export interface WebhookWorker {
  /** One enqueue and delivery round (what the timer runs); tests call it directly. */
  tick(): Promise<TickReport>;
  start(): void;
  /** Runs a tick soon (the in-process indexer wrote events). */
  wake(): void;
  stop(): Promise<void>;
}

export const WEBHOOK_DEFAULTS = {
  backoffBaseMs: 30_000,
  backoffMaxMs: 3_600_000,
  retryWindowMs: 24 * 3_600_000,
  leaseMs: 60_000,
  requestTimeoutMs: 10_000,
  batchSize: 50,
  pollMs: 1_000,
} as const;

const ENQUEUE_PAGE = 500;
const WEBHOOKS_PER_TICK = 200;
const USER_AGENT = 'dagboard-webhooks/1';

/** The delivery body: the event id and topic, then the event's fields. */
export function deliveryBody(event: StreamEvent): string {
  const head = { id: event.id.toString(), topic: event.topic };
  // Assigning the head again keeps it first and wins over any same-named field of the event.
  return JSON.stringify(Object.assign({ ...head }, JSON.parse(event.data) as Record<string, unknown>, head));
}

/** The delay before retry `attempts` + 1 (attempts ≥ 1 failed so far), with jitter. */
export function backoffDelay(attempts: number, baseMs: number, maxMs: number, random: number): number {
  const plain = Math.min(maxMs, baseMs * 2 ** Math.min(attempts - 1, 40));
  return Math.max(1, Math.round(plain * (0.5 + random / 2)));
}

interface PostResult {
  status: number | null;
  error: string | null;
}

function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number, allowPrivate: boolean): Promise<PostResult> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
        lookup: guardedLookup(allowPrivate),
        timeout: timeoutMs,
      },
      (response: IncomingMessage) => {
        response.resume();
        const status = response.statusCode ?? 0;
        finish({ status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
      },
    );
    request.on('timeout', () => {
      request.destroy();
      finish({ status: null, error: `no response within ${timeoutMs} ms` });
    });
    request.on('error', (error) => finish({ status: null, error: error.message.slice(0, 200) }));
    request.end(body);
  });
}

export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db } = options;
  const settings = {
    backoffBaseMs: options.backoffBaseMs ?? WEBHOOK_DEFAULTS.backoffBaseMs,
    backoffMaxMs: options.backoffMaxMs ?? WEBHOOK_DEFAULTS.backoffMaxMs,
    retryWindowMs: options.retryWindowMs ?? WEBHOOK_DEFAULTS.retryWindowMs,
    leaseMs: options.leaseMs ?? WEBHOOK_DEFAULTS.leaseMs,
    requestTimeoutMs: options.requestTimeoutMs ?? WEBHOOK_DEFAULTS.requestTimeoutMs,
    batchSize: options.batchSize ?? WEBHOOK_DEFAULTS.batchSize,
    pollMs: options.pollMs ?? WEBHOOK_DEFAULTS.pollMs,
  };
  const clock = options.clock ?? Date.now;
  const random = options.random ?? Math.random;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  const enqueue = async (): Promise<number> => {
    const now = clock();
    return db.transaction(async (tx) => {
      const { latest } = await readStreamBounds(tx);
      const webhooks = await lockActiveWebhooks(tx, latest, WEBHOOKS_PER_TICK);
      let queued = 0;
      for (const webhook of webhooks) {
        const page = (
          await readStreamEvents(tx, { after: webhook.cursor, topics: webhook.topics, addresses: webhook.addresses ?? undefined, limit: ENQUEUE_PAGE })
        ).filter((event) => event.id <= latest);
        const cursor = page.length === ENQUEUE_PAGE ? page.at(-1)!.id : latest;
        const deliveries: NewDelivery[] = page.map((event) => ({ eventId: event.id, topic: event.topic, body: deliveryBody(event) }));
        await enqueueDeliveries(tx, webhook.id, deliveries, cursor, now);
        queued += deliveries.length;
      }
      return queued;
    });
  };

  /** Tries one delivery; what to record comes back, written with the tick's others in one transaction. */
  const attempt = async (delivery: LeasedDelivery): Promise<Attempted> => {
    const { webhookId } = delivery;
    const now = clock();
    if (options.charge !== undefined) {
      const charged = await options.charge(delivery.keyId, now);
      if (charged.outcome === 'rate_limited') {
        const postponed = { deliveryId: delivery.id, webhookId, at: now, status: null, error: null, delivered: false, nextAttemptAt: charged.retryAt, counted: false };
        return { webhookId, delivered: false, disables: false, record: (tx) => recordAttempt(tx, postponed) };
      }
      if (charged.outcome === 'exhausted') {
        const refused = { deliveryId: delivery.id, webhookId, at: now, status: null, error: charged.detail, delivered: false, nextAttemptAt: null, counted: false };
        return {
          webhookId,
          delivered: false,
          disables: true,
          record: async (tx) => {
            await disableWebhook(tx, webhookId, charged.detail);
            await recordAttempt(tx, refused);
          },
        };
      }
    }
    const timestamp = String(Math.floor(now / 1000));
    const result = await post(
      delivery.url,
      {
        [EVENT_ID_HEADER]: delivery.eventId.toString(),
        [TIMESTAMP_HEADER]: timestamp,
        [SIGNATURE_HEADER]: signDelivery(delivery.secret, timestamp, delivery.body),
      },
      delivery.body,
      settings.requestTimeoutMs,
      options.allowPrivateTargets,
    );
    const at = clock();
    const delivered = result.error === null;
    const attempts = delivery.attempts + 1;
    const firstAt = Number(delivery.firstAttemptAt ?? BigInt(now));
    const givenUp = !delivered && at - firstAt >= settings.retryWindowMs;
    const nextAttemptAt = delivered || givenUp ? null : at + backoffDelay(attempts, settings.backoffBaseMs, settings.backoffMaxMs, random());
    const outcome = { deliveryId: delivery.id, webhookId, at, status: result.status, error: result.error, delivered, nextAttemptAt, counted: true };
    return {
      webhookId,
      delivered,
      disables: givenUp,
      record: async (tx) => {
        await recordAttempt(tx, outcome);
        if (givenUp) {
          const hours = Math.round((at - firstAt) / 360_000) / 10;
          await disableWebhook(
            tx,
            webhookId,
            `delivery of event ${delivery.eventId} failed on all ${attempts} attempts over ${hours} h (last: ${result.error}); create the webhook again once the receiver works`,
          );
        }
      },
    };
  };

  const tick = async (): Promise<TickReport> => {
    const enqueued = await enqueue();
    const now = clock();
    const leased = await db.transaction((tx) => leaseDueDeliveries(tx, now, now + settings.leaseMs, settings.batchSize));
    const outcomes = await Promise.all(leased.map(attempt));
    if (outcomes.length > 0) {
      // Webhooks in one order in every worker's transaction: their rows are locked first, so no two wait on each other.
      const ordered = [...outcomes].sort((a, b) =>
        a.webhookId < b.webhookId ? -1 : a.webhookId > b.webhookId ? 1 : Number(a.disables) - Number(b.disables),
      );
      await db.transaction(async (tx) => {
        for (const outcome of ordered) await outcome.record(tx);
      });
    }
    return { enqueued, attempted: leased.length, delivered: outcomes.filter((outcome) => outcome.delivered).length };
  };

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
    timer.unref();
  };

  function run(): void {
    if (running !== undefined) return;
    let backlog = false;
    running = tick()
      .then((report) => {
        backlog = report.attempted === settings.batchSize;
      })
      .catch((error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        running = undefined;
        // A full batch leaves more due at once: drain it without the poll's pause.
        schedule(backlog ? 0 : settings.pollMs);
      });
  }

  return {
    tick,
    start: () => schedule(0),
    wake: () => {
      if (running === undefined) schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
