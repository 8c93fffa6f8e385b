/**
 * /v1/webhooks: a key's webhooks (create, list, read, delete) and a webhook's delivery attempts. A key sees only its
 * own webhooks; another key's id answers 404 as an unknown one does. The signing secret is in the creation's answer
 * only. Deliveries are made by lib/webhooks/worker.ts.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { STREAM_TOPICS, type Db } from '../../db';
import { deleteWebhook, getWebhook, insertWebhook, listDeliveries, listWebhooks, type DeliveryRecord, type WebhookRecord } from '../../db/webhooks';
import { parseAddresses, parseTopics } from './event-filters';
import { newWebhookSecret } from './webhook-signature';
import { checkWebhookUrl, type Resolve } from './webhook-target';
import { endpointsFor } from '../wrapper/endpoint';
import { ApiError } from '../http/errors';
import type { NodeApiContext } from './node-endpoints';
import { pageLimit } from '../http/schemas';

export interface WebhookSettings {
  db: Db;
  allowPrivateTargets: boolean;
  maxPerKey: number;
  /** Host resolution for the target check (tests stand in a resolver). */
  resolve?: Resolve;
}

export interface WebhookApiContext extends NodeApiContext {
  webhooks: WebhookSettings;
}

export const MAX_WEBHOOK_ADDRESSES = 100;

const webhookEndpoint = endpointsFor<WebhookApiContext>();

const WEBHOOK_ID = /^wh_[A-Za-z0-9_-]{22}$/;

const webhookId = z.strictObject({ id: z.string().regex(WEBHOOK_ID, 'must be a webhook id (wh_…)') });

export const webhookResponse = z.strictObject({
  id: z.string(),
  url: z.string(),
  topics: z.array(z.enum(STREAM_TOPICS)),
  addresses: z.array(z.string()).nullable().meta({ description: 'the address filter; null: every address event' }),
  state: z.enum(['active', 'disabled']),
  disabledReason: z.string().nullable(),
  createdAt: z.number().int().meta({ description: 'epoch ms' }),
  cursor: z.string().meta({ description: 'the last event id queued for delivery' }),
  consecutiveFailures: z.number().int().min(0),
});

export const createdWebhookResponse = webhookResponse.extend({
  secret: z.string().meta({ description: 'the signing secret; shown in this answer only' }),
});

export const deliveryResponse = z.strictObject({
  id: z.string().meta({ description: 'the delivery id (the paging cursor)' }),
  eventId: z.string(),
  topic: z.enum(STREAM_TOPICS),
  state: z.enum(['delivered', 'pending', 'failed']),
  attempts: z.number().int().min(0),
  lastStatus: z.number().int().nullable().meta({ description: 'the last attempt’s HTTP status; null without an answer' }),
  lastError: z.string().nullable(),
  createdAt: z.number().int(),
  firstAttemptAt: z.number().int().nullable(),
  lastAttemptAt: z.number().int().nullable(),
  nextAttemptAt: z.number().int().nullable(),
  deliveredAt: z.number().int().nullable(),
});

const epoch = (value: bigint | null) => (value === null ? null : Number(value));

export function webhookView(webhook: WebhookRecord): z.infer<typeof webhookResponse> {
  return {
    id: webhook.id,
    url: webhook.url,
    topics: webhook.topics,
    addresses: webhook.addresses,
    state: webhook.state,
    disabledReason: webhook.disabledReason,
    createdAt: Number(webhook.createdAt),
    cursor: webhook.cursor.toString(),
    consecutiveFailures: webhook.consecutiveFailures,
  };
}

export function deliveryView(delivery: DeliveryRecord): z.infer<typeof deliveryResponse> {
  return {
    id: delivery.id.toString(),
    eventId: delivery.eventId.toString(),
    topic: delivery.topic,
    state: delivery.deliveredAt !== null ? 'delivered' : delivery.nextAttemptAt !== null ? 'pending' : 'failed',
    attempts: delivery.attempts,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    createdAt: Number(delivery.createdAt),
    firstAttemptAt: epoch(delivery.firstAttemptAt),
    lastAttemptAt: epoch(delivery.lastAttemptAt),
    nextAttemptAt: epoch(delivery.nextAttemptAt),
    deliveredAt: epoch(delivery.deliveredAt),
  };
}

export function webhookNotFound(id: string): ApiError {
  return new ApiError({ code: 'webhook_not_found', detail: `this key has no webhook ${id}` });
}

function keyIdOf(key: { id: string } | undefined): string {
  if (key === undefined) throw ApiError.missingApiKey();
  return key.id;
}

export const createWebhookEndpoint = webhookEndpoint({
  id: 'POST /v1/webhooks',
  body: z.strictObject({
    url: z.string().meta({ description: 'an http or https URL of a public host' }),
    topics: z.array(z.string()).max(STREAM_TOPICS.length * 2),
    addresses: z.array(z.string()).optional(),
  }),
  async handler({ context, body, key, now }) {
    const keyId = keyIdOf(key);
    const topics = parseTopics(body.topics, 'body.topics');
    let addresses: string[] | null = null;
    if (body.addresses !== undefined) {
      if (!topics.includes('address')) {
        const message = 'addresses filter the address topic; add address to topics';
        throw ApiError.invalidRequest(message, [{ path: 'body.addresses', message }]);
      }
      addresses = parseAddresses(body.addresses, 'body.addresses', await context.addressPrefix(), MAX_WEBHOOK_ADDRESSES);
    }
    const { db, allowPrivateTargets, maxPerKey, resolve } = context.webhooks;
    const url = await checkWebhookUrl(body.url, { allowPrivate: allowPrivateTargets, resolve });
    const secret = newWebhookSecret();
    const id = `wh_${randomBytes(16).toString('base64url')}`;
    const created = await db.transaction((tx) => insertWebhook(tx, { id, keyId, url, topics, addresses, secret, createdAt: BigInt(now) }, maxPerKey));
    if (created === null) throw ApiError.limitExceeded('body', `at most ${maxPerKey} webhooks per key; delete one first`);
    return { body: { ...webhookView(created), secret } };
  },
});

export const listWebhooksEndpoint = webhookEndpoint({
  id: 'GET /v1/webhooks',
  async handler({ context, key }) {
    const webhooks = await listWebhooks(context.webhooks.db, keyIdOf(key));
    return { body: { webhooks: webhooks.map(webhookView) } };
  },
});

export const getWebhookEndpoint = webhookEndpoint({
  id: 'GET /v1/webhooks/{id}',
  params: webhookId,
  async handler({ context, key, params }) {
    const webhook = await getWebhook(context.webhooks.db, keyIdOf(key), params.id);
    if (webhook === undefined) throw webhookNotFound(params.id);
    return { body: webhookView(webhook) };
  },
});

export const deleteWebhookEndpoint = webhookEndpoint({
  id: 'DELETE /v1/webhooks/{id}',
  params: webhookId,
  async handler({ context, key, params }) {
    const keyId = keyIdOf(key);
    const deleted = await context.webhooks.db.transaction((tx) => deleteWebhook(tx, keyId, params.id));
    if (!deleted) throw webhookNotFound(params.id);
    return { body: { id: params.id, deleted: true } };
  },
});

const DELIVERY_CURSOR = /^[1-9]\d{0,18}$/;

export const listDeliveriesEndpoint = webhookEndpoint({
  id: 'GET /v1/webhooks/{id}/deliveries',
  params: webhookId,
  query: z.strictObject({
    limit: pageLimit,
    starting_after: z
      .string()
      .regex(DELIVERY_CURSOR, 'must be a delivery id')
      .optional()
      .meta({ description: 'a delivery id: the page continues with older deliveries' }),
  }),
  async handler({ context, key, params, query }) {
    const webhook = await getWebhook(context.webhooks.db, keyIdOf(key), params.id);
    if (webhook === undefined) throw webhookNotFound(params.id);
    const before = query.starting_after === undefined ? null : BigInt(query.starting_after);
    const rows = await listDeliveries(context.webhooks.db, webhook.id, before, query.limit + 1);
    const page = rows.slice(0, query.limit);
    return {
      body: { deliveries: page.map(deliveryView), nextCursor: rows.length > query.limit ? page.at(-1)!.id.toString() : null },
    };
  },
});
