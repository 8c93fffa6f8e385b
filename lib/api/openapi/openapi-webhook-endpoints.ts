/** The webhook endpoints' entries of the endpoint list (webhook-endpoints.ts holds their definitions). */
import type { DocumentedEndpoint } from './openapi';
import { EXAMPLE_ADDRESS } from './openapi-examples';
import {
  createdWebhookResponse,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  deliveryResponse,
  getWebhookEndpoint,
  listDeliveriesEndpoint,
  listWebhooksEndpoint,
  webhookResponse,
} from '../endpoints/webhook-endpoints';
import { z } from 'zod';

export const WEBHOOKS_TAG = 'Webhooks';

const exampleWebhook = {
  id: 'wh_Q2hvb3NlIGEgcmVjZWl2ZX',
  url: 'https://example.com/dagboard-hook',
  topics: ['address' as const],
  addresses: [EXAMPLE_ADDRESS],
  state: 'active' as const,
  disabledReason: null,
  createdAt: 1_764_237_600_000,
  cursor: '48211',
  consecutiveFailures: 0,
};

const exampleDelivery = {
  id: '9021',
  eventId: '48230',
  topic: 'address' as const,
  state: 'pending' as const,
  attempts: 2,
  lastStatus: 500,
  lastError: 'HTTP 500',
  createdAt: 1_764_237_660_000,
  firstAttemptAt: 1_764_237_660_000,
  lastAttemptAt: 1_764_237_682_000,
  nextAttemptAt: 1_764_237_730_000,
  deliveredAt: null,
};

const deliveryNote =
  'Each matching event is POSTed as JSON `{id, topic, …event fields}` with `x-dagboard-event-id`, ' +
  '`x-dagboard-timestamp` (unix seconds) and `x-dagboard-signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + ' +
  'body)>`; a 2xx within 10 s is a delivery, anything else is retried with exponential backoff (30 s doubling to ' +
  'at most 1 h, jittered) for 24 h, after which the webhook is disabled with the reason. At least once: deduplicate ' +
  'by the event id. Each attempt costs 0.002 RU.';

export const WEBHOOK_ENDPOINT_DOCS: DocumentedEndpoint[] = [
  {
    definition: createWebhookEndpoint,
    docs: {
      operationId: 'createWebhook',
      summary: 'Create a webhook',
      description:
        'Delivers the stream events of `topics` (block, chain, address, covenant, fees, token; `addresses` filters the address topic) ' +
        `written from now on to \`url\`, an http or https URL whose host resolves only to public addresses. ${deliveryNote} ` +
        'The answer holds the signing `secret`, shown this once.',
      tag: WEBHOOKS_TAG,
      response: createdWebhookResponse,
      errors: ['invalid_webhook_url', 'invalid_address', 'limit_exceeded'],
      usesNode: true,
      etag: false,
      examples: {
        body: { url: exampleWebhook.url, topics: ['address'], addresses: [EXAMPLE_ADDRESS] },
        response: { ...exampleWebhook, secret: 'whsec_3q2-7wAAAAD-example-secret-only-shown-once_' },
      },
    },
  },
  {
    definition: listWebhooksEndpoint,
    docs: {
      operationId: 'listWebhooks',
      summary: 'List the key’s webhooks',
      description: 'The calling key’s webhooks, oldest first, without their secrets.',
      tag: WEBHOOKS_TAG,
      response: z.strictObject({ webhooks: z.array(webhookResponse) }),
      usesNode: false,
      etag: false,
      examples: { response: { webhooks: [exampleWebhook] } },
    },
  },
  {
    definition: getWebhookEndpoint,
    docs: {
      operationId: 'getWebhook',
      summary: 'Get a webhook',
      description: 'One of the calling key’s webhooks: its filter, state (a disabled one says why) and cursor.',
      tag: WEBHOOKS_TAG,
      response: webhookResponse,
      errors: ['webhook_not_found'],
      usesNode: false,
      etag: false,
      examples: { params: { id: exampleWebhook.id }, response: exampleWebhook },
    },
  },
  {
    definition: deleteWebhookEndpoint,
    docs: {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description: 'Deletes the webhook and its delivery records; nothing more is sent to it.',
      tag: WEBHOOKS_TAG,
      response: z.strictObject({ id: z.string(), deleted: z.literal(true) }),
      errors: ['webhook_not_found'],
      usesNode: false,
      etag: false,
      examples: { params: { id: exampleWebhook.id }, response: { id: exampleWebhook.id, deleted: true } },
    },
  },
  {
    definition: listDeliveriesEndpoint,
    docs: {
      operationId: 'listWebhookDeliveries',
      summary: 'List a webhook’s deliveries',
      description:
        'The webhook’s deliveries, newest first, each with its attempts, the last status or error and when it is ' +
        'tried next; `nextCursor` continues the page as `starting_after`.',
      tag: WEBHOOKS_TAG,
      response: z.strictObject({ deliveries: z.array(deliveryResponse), nextCursor: z.string().nullable() }),
      errors: ['webhook_not_found', 'limit_out_of_range'],
      usesNode: false,
      etag: false,
      examples: { params: { id: exampleWebhook.id }, response: { deliveries: [exampleDelivery], nextCursor: null } },
    },
  },
];
