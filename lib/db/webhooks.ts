/**
 * Webhooks and their deliveries (migration 12): what the /v1/webhooks endpoints manage and the delivery worker
 * (lib/webhooks/worker.ts) reads and leases.
 */
import type { Queryable } from './connection';
import type { StreamTopic } from './stream-events';

export interface WebhookRecord {
  id: string;
  keyId: string;
  url: string;
  topics: StreamTopic[];
  /** `address` events only for these; null: every address event. */
  addresses: string[] | null;
  secret: string;
  state: 'active' | 'disabled';
  disabledReason: string | null;
  /** The last event id turned into deliveries. */
  cursor: bigint;
  consecutiveFailures: number;
  /** Epoch ms. */
  createdAt: bigint;
}

interface WebhookRow {
  id: string;
  key_id: string;
  url: string;
  topics: StreamTopic[];
  addresses: string[] | null;
  secret: string;
  state: 'active' | 'disabled';
  disabled_reason: string | null;
  cursor: bigint;
  consecutive_failures: number;
  created_at: bigint;
}

const WEBHOOK_COLUMNS = 'id, key_id, url, topics, addresses, secret, state, disabled_reason, cursor, consecutive_failures, created_at';

function webhookOf(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    keyId: row.key_id,
    url: row.url,
    topics: row.topics,
    addresses: row.addresses,
    secret: row.secret,
    state: row.state,
    disabledReason: row.disabled_reason,
    cursor: row.cursor,
    consecutiveFailures: row.consecutive_failures,
    createdAt: row.created_at,
  };
}

/**
 * Stores a webhook whose cursor is the event log's head, unless the key already holds `maxPerKey`; false then. The
 * key's existing webhooks are locked first so two concurrent creations cannot both pass the count.
 */
export async function insertWebhook(
  tx: Queryable,
  webhook: Omit<WebhookRecord, 'state' | 'disabledReason' | 'cursor' | 'consecutiveFailures'>,
  maxPerKey: number,
): Promise<WebhookRecord | null> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:${webhook.keyId}`]);
  const { rows: counted } = await tx.query<{ count: bigint }>('SELECT count(*) AS count FROM webhooks WHERE key_id = $1', [webhook.keyId]);
  if ((counted[0]?.count ?? 0n) >= BigInt(maxPerKey)) return null;
  const { rows } = await tx.query<WebhookRow>(
    `INSERT INTO webhooks (id, key_id, url, topics, addresses, secret, cursor, created_at)
     VALUES ($1, $2, $3, $4::text[], $5::text[], $6, (SELECT coalesce(max(id), 0) FROM stream_events), $7)
     RETURNING ${WEBHOOK_COLUMNS}`,
    [webhook.id, webhook.keyId, webhook.url, webhook.topics, webhook.addresses, webhook.secret, webhook.createdAt],
  );
  return webhookOf(rows[0]!);
}

export async function listWebhooks(db: Queryable, keyId: string): Promise<WebhookRecord[]> {
  const { rows } = await db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE key_id = $1 ORDER BY created_at, id`, [keyId]);
  return rows.map(webhookOf);
}

/** The key's webhook with this id; undefined for another key's (which the caller must not learn exists). */
export async function getWebhook(db: Queryable, keyId: string, id: string): Promise<WebhookRecord | undefined> {
  const { rows } = await db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE key_id = $1 AND id = $2`, [keyId, id]);
  return rows[0] && webhookOf(rows[0]);
}

/** Deletes the key's webhook and its deliveries; false when the key has no such webhook. */
export async function deleteWebhook(tx: Queryable, keyId: string, id: string): Promise<boolean> {
  const { rowCount } = await tx.query('DELETE FROM webhooks WHERE key_id = $1 AND id = $2', [keyId, id]);
  if (rowCount === 0) return false;
  await tx.query('DELETE FROM webhook_deliveries WHERE webhook_id = $1', [id]);
  return true;
}

export interface DeliveryRecord {
  /** The delivery's own id: the paging cursor. */
  id: bigint;
  webhookId: string;
  eventId: bigint;
  topic: StreamTopic;
  body: string;
  attempts: number;
  createdAt: bigint;
  firstAttemptAt: bigint | null;
  lastAttemptAt: bigint | null;
  nextAttemptAt: bigint | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: bigint | null;
}

interface DeliveryRow {
  id: bigint;
  webhook_id: string;
  event_id: bigint;
  topic: StreamTopic;
  body: string;
  attempts: number;
  created_at: bigint;
  first_attempt_at: bigint | null;
  last_attempt_at: bigint | null;
  next_attempt_at: bigint | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: bigint | null;
}

const DELIVERY_COLUMNS =
  'd.id, d.webhook_id, d.event_id, d.topic, d.body, d.attempts, d.created_at, d.first_attempt_at, d.last_attempt_at, ' +
  'd.next_attempt_at, d.last_status, d.last_error, d.delivered_at';

function deliveryOf(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    topic: row.topic,
    body: row.body,
    attempts: row.attempts,
    createdAt: row.created_at,
    firstAttemptAt: row.first_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
  };
}

/** A webhook's deliveries, newest first, after the delivery id `before` (exclusive) when given. */
export async function listDeliveries(db: Queryable, webhookId: string, before: bigint | null, limit: number): Promise<DeliveryRecord[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
     WHERE d.webhook_id = $1 AND ($2::bigint IS NULL OR d.id < $2) ORDER BY d.id DESC LIMIT $3`,
    [webhookId, before, limit],
  );
  return rows.map(deliveryOf);
}

/**
 * Active webhooks whose cursor is below `latest` and that no other worker holds, the furthest behind first, locked
 * until `tx` ends (SKIP LOCKED: workers split them).
 */
export async function lockActiveWebhooks(tx: Queryable, latest: bigint, limit: number): Promise<WebhookRecord[]> {
  const { rows } = await tx.query<WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE state = 'active' AND cursor < $1
     ORDER BY cursor, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [latest, limit],
  );
  return rows.map(webhookOf);
}

export interface NewDelivery {
  eventId: bigint;
  topic: StreamTopic;
  body: string;
}

/** Queues deliveries due at `now` (a pair already queued is kept as is) and moves the webhook's cursor. */
export async function enqueueDeliveries(tx: Queryable, webhookId: string, deliveries: readonly NewDelivery[], cursor: bigint, now: number): Promise<void> {
  if (deliveries.length > 0) {
    await tx.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, topic, body, created_at, next_attempt_at)
       SELECT $1, e.event_id, e.topic, e.body, $5, $5
       FROM unnest($2::bigint[], $3::text[], $4::text[]) AS e(event_id, topic, body)
       ON CONFLICT (webhook_id, event_id) DO NOTHING`,
      [webhookId, deliveries.map((delivery) => delivery.eventId), deliveries.map((delivery) => delivery.topic), deliveries.map((delivery) => delivery.body), now],
    );
  }
  await tx.query('UPDATE webhooks SET cursor = greatest(cursor, $2) WHERE id = $1', [webhookId, cursor]);
}

export interface LeasedDelivery extends DeliveryRecord {
  url: string;
  secret: string;
  keyId: string;
}

/**
 * Takes up to `limit` due deliveries of active webhooks and leases them until `leaseUntil`: their next attempt moves
 * there, so no other worker takes them while this one tries (FOR UPDATE SKIP LOCKED keeps two claims from meeting),
 * and a worker that dies mid-attempt leaves them to be retried once the lease ends.
 */
export async function leaseDueDeliveries(tx: Queryable, now: number, leaseUntil: number, limit: number): Promise<LeasedDelivery[]> {
  const { rows } = await tx.query<DeliveryRow & { url: string; secret: string; key_id: string }>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.state = 'active'
       WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $1
       ORDER BY d.next_attempt_at, d.id LIMIT $3
       FOR UPDATE OF d SKIP LOCKED
     ), leased AS (
       UPDATE webhook_deliveries d SET next_attempt_at = $2 FROM due WHERE d.id = due.id RETURNING d.*
     )
     SELECT ${DELIVERY_COLUMNS}, w.url, w.secret, w.key_id FROM leased d JOIN webhooks w ON w.id = d.webhook_id ORDER BY d.event_id`,
    [now, leaseUntil, limit],
  );
  return rows.map((row) => ({ ...deliveryOf(row), url: row.url, secret: row.secret, keyId: row.key_id }));
}

export interface AttemptOutcome {
  deliveryId: bigint;
  webhookId: string;
  at: number;
  status: number | null;
  error: string | null;
  /** The delivery succeeded. */
  delivered: boolean;
  /** When to try again; null with `delivered` or when retries are over. */
  nextAttemptAt: number | null;
  /** Whether this attempt counts (a charge the key's budget refused postpones without an attempt). */
  counted: boolean;
}

export async function recordAttempt(tx: Queryable, outcome: AttemptOutcome): Promise<void> {
  const { deliveryId, at, status, error, delivered, nextAttemptAt, counted } = outcome;
  if (!counted) {
    await tx.query('UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE id = $1', [deliveryId, nextAttemptAt]);
    return;
  }
  // The webhook's row first, as disableWebhook does: one lock order, no deadlock between a webhook's deliveries.
  await tx.query(
    `UPDATE webhooks SET consecutive_failures = CASE WHEN $2::boolean THEN 0 ELSE consecutive_failures + 1 END WHERE id = $1`,
    [outcome.webhookId, delivered],
  );
  await tx.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, $2::bigint),
       last_attempt_at = $2::bigint, last_status = $3::integer, last_error = $4::text, next_attempt_at = $5::bigint,
       delivered_at = CASE WHEN $6::boolean THEN $2::bigint ELSE delivered_at END
     WHERE id = $1`,
    [deliveryId, at, status, error, nextAttemptAt, delivered],
  );
}

/** Disables the webhook with a reason and ends its pending deliveries. */
export async function disableWebhook(tx: Queryable, webhookId: string, reason: string): Promise<void> {
  await tx.query(`UPDATE webhooks SET state = 'disabled', disabled_reason = $2 WHERE id = $1 AND state = 'active'`, [webhookId, reason]);
  await tx.query(
    `UPDATE webhook_deliveries SET next_attempt_at = NULL, last_error = coalesce(last_error, 'webhook disabled')
     WHERE webhook_id = $1 AND next_attempt_at IS NOT NULL`,
    [webhookId],
  );
}
