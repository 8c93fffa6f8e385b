import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../db';
import { testBackends, type TestDatabase } from '../../db/test-support/test-databases';
import { wireKey } from '../../devnet/test-support/wire-devnet';
import { costOf, formatRu } from '../keys/costs';
import { endpointDefiner, type EndpointDefinition } from '../wrapper/endpoint';
import { createApiKey, createMemoryKeyStore, type KeyStore } from '../keys/keys';
import { createMemoryMeter } from '../keys/metering';
import type { NodeApiContext } from './node-endpoints';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listDeliveriesEndpoint,
  listWebhooksEndpoint,
  type WebhookApiContext,
} from './webhook-endpoints';

const alice = wireKey(51).address;

/** Names the tests resolve without DNS: one public, one inside a private network, one with both. */
const RESOLVED: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.215.14', 'fd00::7'],
};

describe.each(testBackends())('webhook endpoints on $name', (backend) => {
  let opened: TestDatabase;
  let db: Db;
  let keys: KeyStore;
  let context: WebhookApiContext;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    opened = await backend.open();
    db = opened.db;
    await migrate(db);
  }, 60_000);
  afterAll(() => opened.dispose());

  beforeEach(async () => {
    await db.exec('TRUNCATE webhooks, webhook_deliveries');
    keys = createMemoryKeyStore();
    key = (await createApiKey(keys, { name: 'owner', now: new Date() })).key;
    otherKey = (await createApiKey(keys, { name: 'other', now: new Date() })).key;
    context = {
      keys,
      meter: createMemoryMeter(),
      clock: () => Date.now(),
      logger: { error: () => undefined },
      addressPrefix: async () => 'kaspadev' as const,
      webhooks: {
        db,
        allowPrivateTargets: false,
        maxPerKey: 2,
        resolve: async (host: string) => {
          const addresses = RESOLVED[host];
          if (addresses === undefined) throw new Error('ENOTFOUND');
          return addresses;
        },
      },
    } as unknown as NodeApiContext & WebhookApiContext;
  });

  const call = async (
    definition: EndpointDefinition<WebhookApiContext, never, never, never>,
    init: { method: string; path: string; body?: unknown; params?: Record<string, string>; as?: string },
  ) => {
    const handler = endpointDefiner(() => context)(definition);
    const response = await handler(
      new Request(`http://test${init.path}`, {
        method: init.method,
        headers: { 'x-api-key': init.as ?? key, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
      { params: Promise.resolve(init.params ?? {}) },
    );
    return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, unknown> };
  };
  const define = <T>(definition: T) => definition as unknown as EndpointDefinition<WebhookApiContext, never, never, never>;
  const create = (body: unknown, as?: string) => call(define(createWebhookEndpoint), { method: 'POST', path: '/v1/webhooks', body, as });

  it('creates a webhook with its secret shown once, lists, reads, pages deliveries and deletes it, for its own key only', async () => {
    const created = await create({ url: 'https://hooks.example.com/in#frag', topics: ['address', 'block'], addresses: [alice] });
    expect(created.status).toBe(200);
    expect(created.headers.get('x-request-cost-ru')).toBe(formatRu(costOf('POST /v1/webhooks')));
    expect(created.json).toMatchObject({ url: 'https://hooks.example.com/in', topics: ['address', 'block'], addresses: [alice], state: 'active', disabledReason: null });
    expect(created.json.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const id = created.json.id as string;

    const listed = await call(define(listWebhooksEndpoint), { method: 'GET', path: '/v1/webhooks' });
    const { secret, ...shown } = created.json;
    expect(listed.json.webhooks).toEqual([shown]);
    expect(JSON.stringify(listed.json)).not.toContain(secret as string);

    const read = await call(define(getWebhookEndpoint), { method: 'GET', path: `/v1/webhooks/${id}`, params: { id } });
    expect(read.json.id).toBe(id);
    expect(read.json).not.toHaveProperty('secret');
    const foreign = await call(define(getWebhookEndpoint), { method: 'GET', path: `/v1/webhooks/${id}`, params: { id }, as: otherKey });
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe('webhook_not_found');

    await db.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, topic, body, created_at, next_attempt_at)
       SELECT $1, n, 'block', '{}', 1, 1 FROM generate_series(1, 3) AS n`,
      [id],
    );
    const first = await call(define(listDeliveriesEndpoint), { method: 'GET', path: `/v1/webhooks/${id}/deliveries?limit=2`, params: { id } });
    expect((first.json.deliveries as { eventId: string; state: string }[]).map((delivery) => [delivery.eventId, delivery.state])).toEqual([
      ['3', 'pending'],
      ['2', 'pending'],
    ]);
    const next = await call(define(listDeliveriesEndpoint), {
      method: 'GET',
      path: `/v1/webhooks/${id}/deliveries?limit=2&starting_after=${String(first.json.nextCursor)}`,
      params: { id },
    });
    expect((next.json.deliveries as { eventId: string }[]).map((delivery) => delivery.eventId)).toEqual(['1']);
    expect(next.json.nextCursor).toBeNull();

    expect((await call(define(deleteWebhookEndpoint), { method: 'DELETE', path: `/v1/webhooks/${id}`, params: { id }, as: otherKey })).status).toBe(404);
    const deleted = await call(define(deleteWebhookEndpoint), { method: 'DELETE', path: `/v1/webhooks/${id}`, params: { id } });
    expect(deleted.json).toEqual({ id, deleted: true });
    expect((await db.query('SELECT 1 FROM webhook_deliveries')).rows).toHaveLength(0);
    expect((await call(define(getWebhookEndpoint), { method: 'GET', path: `/v1/webhooks/${id}`, params: { id } })).status).toBe(404);
  });

  it('answers bad input in the one problem shape: invalid or private URLs, unknown topics, stray addresses, the per-key limit', async () => {
    const cases: [unknown, number, string, string][] = [
      [{ url: 'not a url', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'ftp://hooks.example.com/in', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'https://user:pw@hooks.example.com/in', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'http://127.0.0.1:8080/in', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'http://[::1]/in', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'http://169.254.169.254/latest', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'https://internal.example.com/in', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'https://mixed.example.com/in', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'https://nowhere.example.com/in', topics: ['block'] }, 400, 'invalid_webhook_url', 'body.url'],
      [{ url: 'https://hooks.example.com/in', topics: ['blocks'] }, 400, 'invalid_request', 'body.topics'],
      [{ url: 'https://hooks.example.com/in', topics: [] }, 400, 'invalid_request', 'body.topics'],
      [{ url: 'https://hooks.example.com/in', topics: ['block'], addresses: [alice] }, 400, 'invalid_request', 'body.addresses'],
      [{ url: 'https://hooks.example.com/in', topics: ['address'], addresses: ['kaspadev:nope'] }, 400, 'invalid_address', 'body.addresses[0]'],
      [{ url: 'https://hooks.example.com/in', topics: ['block'], secret: 'mine' }, 400, 'invalid_request', 'body'],
    ];
    for (const [body, status, code, path] of cases) {
      const answer = await create(body);
      expect({ body, status: answer.status, code: answer.json.code }).toEqual({ body, status, code });
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect((answer.json.errors as { path: string }[]).map((error) => error.path)).toContain(path);
    }
    expect((await create({ url: 'https://hooks.example.com/a', topics: ['block'] })).status).toBe(200);
    expect((await create({ url: 'https://hooks.example.com/b', topics: ['chain'] })).status).toBe(200);
    const third = await create({ url: 'https://hooks.example.com/c', topics: ['block'] });
    expect([third.status, third.json.code]).toEqual([400, 'limit_exceeded']);
    expect((await create({ url: 'https://hooks.example.com/c', topics: ['block'] }, otherKey)).status).toBe(200);
    const badId = await call(define(getWebhookEndpoint), { method: 'GET', path: '/v1/webhooks/nope', params: { id: 'nope' } });
    expect([badId.status, badId.json.code]).toEqual([400, 'invalid_request']);
  });

  it('lets an operator allow private targets', async () => {
    context.webhooks.allowPrivateTargets = true;
    expect((await create({ url: 'http://127.0.0.1:8080/in', topics: ['block'] })).status).toBe(200);
  });
});
