import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RpcTimeoutError, RpcUnreachableError } from '../../rpc/errors';
import { ApiError, type ErrorLogEntry } from '../http/errors';
import {
  cacheControl,
  endpointDefiner,
  etagOf,
  ifNoneMatchMatches,
  routeFile,
  servingMethod,
  type ApiContext,
} from './endpoint';
import { routeHandlerOf, type RouteHandler } from '../http/http';
import { createApiKey, createMemoryKeyStore, type ApiKeyLimits } from '../keys/keys';
import { createMemoryMeter, createRedisMeter } from '../keys/metering';
import { usageReport } from '../keys/usage';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0, 100);
/** Ahead of the real clock: Redis expires window keys at absolute times, so a past window would vanish at once. */
const REDIS_NOW = Date.UTC(2036, 10, 22, 12, 0, 0, 100);
const HEX_HASH = /^[0-9a-f]{64}$/;
const U64_MAX = 18446744073709551615n;

interface TestContext extends ApiContext {
  logged: ErrorLogEntry[];
}

async function setup(limits: Partial<ApiKeyLimits> = {}) {
  const logged: ErrorLogEntry[] = [];
  const context: TestContext = {
    keys: createMemoryKeyStore(),
    meter: createMemoryMeter(),
    clock: () => NOW,
    logger: { error: (_message, entry) => logged.push(entry) },
    logged,
  };
  const { key, record } = await createApiKey(context.keys, {
    name: 'test',
    limits: { milliRuPerSecond: 1_000_000, milliRuPerMonth: 1_000_000_000, ...limits },
    now: new Date(NOW),
  });
  const defineEndpoint = endpointDefiner(() => context);

  const getBlock = defineEndpoint({
    id: 'POST /v1/rpc/getBlock',
    body: z.strictObject({
      hash: z.string().regex(HEX_HASH, 'must be 64 hex digits'),
      includeTransactions: z.boolean(),
    }),
    async handler({ body }) {
      if (body.hash === '0'.repeat(64)) throw ApiError.blockNotFound(body.hash);
      if (body.hash === 'e'.repeat(64)) throw new RpcUnreachableError('socket closed', 'getBlock');
      if (body.hash === 'd'.repeat(64)) throw new RpcTimeoutError('getBlock', 5000);
      if (body.hash === 'c'.repeat(64)) throw new Error('boom at postgres://u:secret@db');
      return { body: { block: { hash: body.hash, nonce: U64_MAX, includeTransactions: body.includeTransactions } } };
    },
  });

  const submitTransaction = defineEndpoint({
    id: 'POST /v1/rpc/submitTransaction',
    bodyLimit: 256,
    bigintKeys: new Set(['amount']),
    body: z.object({ transaction: z.object({ amount: z.bigint() }) }),
    async handler({ body }) {
      return { body: { echoed: body.transaction.amount, plusOne: body.transaction.amount + 1n } };
    },
  });

  const getTransaction = defineEndpoint({
    id: 'GET /v1/transactions/{id}',
    params: z.object({ id: z.string().regex(HEX_HASH, 'must be 64 hex digits') }),
    query: z.object({ include_payload: z.enum(['true', 'false']).optional() }),
    async handler({ params, query }) {
      return {
        body: { transaction: { id: params.id, payload: query.include_payload ?? null } },
        cache: { kind: 'immutable' },
      };
    },
  });

  const usage = defineEndpoint({
    id: 'GET /v1/usage',
    async handler({ key, context: ctx, now }) {
      if (key === undefined) throw new Error('keyed endpoint without key');
      return { body: usageReport(key, await ctx.meter.usage(key.id, key, now), now) };
    },
  });

  const openapi = defineEndpoint({
    id: 'GET /v1/openapi.json',
    auth: 'public',
    async handler() {
      return { body: { openapi: '3.1.0' }, cache: { kind: 'short', maxAgeSeconds: 60 } };
    },
  });

  const monthUsed = async () => (await context.meter.usage(record.id, record, NOW)).monthUsed;
  return { context, key, record, getBlock, submitTransaction, getTransaction, usage, openapi, monthUsed };
}

const BASE = 'http://localhost:3000';

function call(
  handler: RouteHandler,
  path: string,
  init: RequestInit & { params?: Record<string, string> } = {},
): Promise<Response> {
  const { params = {}, ...requestInit } = init;
  return handler(new Request(BASE + path, requestInit), { params: Promise.resolve(params) });
}

function postJson(key: string | undefined, body: unknown, extra: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-api-key': key }), ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, statusCode: status, code, type: `tag:dagboard,2026:problem:${code}` });
  expect(body.requestId).toBe(response.headers.get('x-request-id'));
  for (const field of ['title', 'detail', 'message']) expect(typeof body[field]).toBe('string');
  expect(Array.isArray(body.errors)).toBe(true);
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |\.ts:\d+/);
  return body as { errors: { path: string; message: string }[]; detail: string };
}

function expectMetered(response: Response, costRu: string) {
  expect(response.headers.get('x-request-cost-ru')).toBe(costRu);
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-ru-remaining']) {
    expect(response.headers.get(name)).toMatch(/^\d+(\.\d{1,3})?$/);
  }
}

function expectUnmetered(response: Response) {
  for (const name of ['x-request-cost-ru', 'ratelimit-limit', 'ratelimit-remaining', 'x-ru-remaining']) {
    expect(response.headers.get(name)).toBeNull();
  }
}

const HASH = 'ab'.repeat(32);

describe('a successful metered call', () => {
  it('answers JSON with exact bigints, metering, CORS and request-id headers', async () => {
    const { getBlock, key, monthUsed } = await setup({ milliRuPerSecond: 2000, milliRuPerMonth: 10_000 });
    const response = await call(getBlock, '/v1/rpc/getBlock', postJson(key, { hash: HASH, includeTransactions: true }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).toBe(`{"block":{"hash":"${HASH}","nonce":18446744073709551615,"includeTransactions":true}}`);
    expect(response.headers.get('x-request-cost-ru')).toBe('0.1');
    expect(response.headers.get('ratelimit-limit')).toBe('2');
    expect(response.headers.get('ratelimit-remaining')).toBe('1.9');
    expect(response.headers.get('ratelimit-reset')).toBe('1');
    expect(response.headers.get('x-ru-remaining')).toBe('9.9');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-ru-remaining');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await monthUsed()).toBe(100);
  });

  it('parses u64 body fields losslessly', async () => {
    const { submitTransaction, key } = await setup();
    const response = await call(
      submitTransaction,
      '/v1/rpc/submitTransaction',
      postJson(key, '{"transaction":{"amount":18446744073709551614}}'),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"echoed":18446744073709551614,"plusOne":18446744073709551615}');
  });

  it('echoes a plain client request id and replaces anything else', async () => {
    const { getBlock, key } = await setup();
    const body = { hash: HASH, includeTransactions: false };
    const echoed = await call(getBlock, '/v1/rpc/getBlock', postJson(key, body, { 'x-request-id': 'client-42' }));
    expect(echoed.headers.get('x-request-id')).toBe('client-42');
    const replaced = await call(getBlock, '/v1/rpc/getBlock', postJson(key, body, { 'x-request-id': 'a b\u0001' }));
    expect(replaced.headers.get('x-request-id')).not.toContain(' ');
  });

  it('serves a free keyed endpoint with metering headers and cost 0', async () => {
    const { usage, getBlock, key, record } = await setup();
    await call(getBlock, '/v1/rpc/getBlock', postJson(key, { hash: HASH, includeTransactions: false }));
    const response = await call(usage, '/v1/usage', { headers: { 'x-api-key': key } });
    expect(await response.json()).toEqual({
      keyId: record.id,
      name: 'test',
      limits: { ruPerSecond: '1000', ruPerMonth: '1000000' },
      month: { period: '2026-11', ruUsed: '0.1', ruRemaining: '999999.9', resetsAt: '2026-12-01T00:00:00.000Z' },
      second: { ruUsed: '0.1', ruRemaining: '999.9', resetsAt: '2026-11-22T12:00:01.000Z' },
    });
    expectMetered(response, '0');
  });

  it('serves a public endpoint without a key or metering', async () => {
    const { openapi } = await setup();
    const response = await call(openapi, '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, max-age=60');
    expectUnmetered(response);
  });
});

describe('charging rules', () => {
  it('charges 4xx outcomes that reach the endpoint', async () => {
    const { getBlock, getTransaction, submitTransaction, key, monthUsed } = await setup();
    const block = (init: RequestInit) => () => call(getBlock, '/v1/rpc/getBlock', init);
    const transaction = (query: string, id = HASH) => () =>
      call(getTransaction, `/v1/transactions/${id}${query}`, { headers: { 'x-api-key': key }, params: { id } });
    const rawPost = (contentType?: string): RequestInit => ({
      method: 'POST',
      headers: { 'x-api-key': key, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
      body: '{}',
    });
    const oversized = postJson(key, { transaction: { pad: 'x'.repeat(300) } });
    const cases: [() => Promise<Response>, number, string][] = [
      [block(postJson(key, { hash: 'xyz', includeTransactions: 1 })), 400, 'invalid_request'],
      [block(postJson(key, { hash: '0'.repeat(64), includeTransactions: true })), 404, 'block_not_found'],
      [block(postJson(key, '{"hash":')), 400, 'invalid_json'],
      [block(postJson(key, '')), 400, 'invalid_json'],
      [block(rawPost('text/plain')), 415, 'unsupported_media_type'],
      [block(rawPost()), 415, 'unsupported_media_type'],
      [() => call(submitTransaction, '/v1/rpc/submitTransaction', oversized), 413, 'body_too_large'],
      [transaction('?foo=1&bar=2'), 400, 'unknown_query_parameter'],
      [transaction('', 'abc'), 400, 'invalid_request'],
      [transaction('?include_payload=true&include_payload=false'), 400, 'invalid_request'],
    ];
    let expected = 0;
    for (const [send, status, code] of cases) {
      const response = await send();
      expectMetered(response, '0.1');
      await expectProblem(response, status, code);
      expected += 100;
      expect(await monthUsed()).toBe(expected);
    }
  });

  it('names the failing fields in errors[]', async () => {
    const { getBlock, getTransaction, key } = await setup();
    const invalidBody = { hash: 'xyz', includeTransactions: 1, x: 1 };
    const invalid = await call(getBlock, '/v1/rpc/getBlock', postJson(key, invalidBody));
    const body = await expectProblem(invalid, 400, 'invalid_request');
    expect(body.errors.map((entry) => entry.path).sort()).toEqual(['body', 'body.hash', 'body.includeTransactions']);
    const unknown = await call(getTransaction, `/v1/transactions/${HASH}?foo=1`, {
      headers: { 'x-api-key': key },
      params: { id: HASH },
    });
    expect((await expectProblem(unknown, 400, 'unknown_query_parameter')).errors).toEqual([
      { path: 'query.foo', message: 'is not a parameter of this endpoint' },
    ]);
    const badPath = await call(getTransaction, '/v1/transactions/abc', {
      headers: { 'x-api-key': key },
      params: { id: 'abc' },
    });
    expect((await expectProblem(badPath, 400, 'invalid_request')).errors[0]?.path).toBe('path.id');
  });

  it('refunds 5xx outcomes and never leaks internals', async () => {
    const { context, getBlock, key, monthUsed } = await setup();
    const cases: [string, number, string][] = [
      ['e'.repeat(64), 503, 'node_unreachable'],
      ['d'.repeat(64), 504, 'node_timeout'],
      ['c'.repeat(64), 500, 'internal_error'],
    ];
    for (const [hash, status, code] of cases) {
      const response = await call(getBlock, '/v1/rpc/getBlock', postJson(key, { hash, includeTransactions: true }));
      expectMetered(response, '0');
      expect(response.headers.get('x-ru-remaining')).toBe('1000000');
      const body = await expectProblem(response, status, code);
      expect(JSON.stringify(body)).not.toContain('secret');
      expect(await monthUsed()).toBe(0);
    }
    expect(context.logged.map((entry) => entry.errorName)).toEqual(['RpcUnreachableError', 'RpcTimeoutError', 'Error']);
    expect(JSON.stringify(context.logged)).not.toContain('secret');
    expect(JSON.stringify(context.logged)).not.toContain(key);
  });

  it('does not charge 401 or 403', async () => {
    const { context, getBlock, key, record, monthUsed } = await setup();
    const body = { hash: HASH, includeTransactions: true };
    const missing = await call(getBlock, '/v1/rpc/getBlock', postJson(undefined, body));
    expectUnmetered(missing);
    await expectProblem(missing, 401, 'missing_api_key');
    const unknown = await call(getBlock, '/v1/rpc/getBlock', postJson('dgb_not-a-real-key', body));
    await expectProblem(unknown, 401, 'invalid_api_key');
    await context.keys.setDisabled(record.id, true);
    const disabled = await call(getBlock, '/v1/rpc/getBlock', postJson(key, body));
    expectUnmetered(disabled);
    await expectProblem(disabled, 403, 'api_key_disabled');
    expect(await monthUsed()).toBe(0);
  });

  it('answers 429 with Retry-After past the per-second budget, uncharged', async () => {
    const { getBlock, key, monthUsed } = await setup({ milliRuPerSecond: 1000 });
    const body = { hash: HASH, includeTransactions: true };
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => call(getBlock, '/v1/rpc/getBlock', postJson(key, body))),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(10);
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(2);
    for (const response of limited) {
      expect(response.headers.get('retry-after')).toBe('1');
      expectMetered(response, '0');
      expect(response.headers.get('ratelimit-remaining')).toBe('0');
      await expectProblem(response, 429, 'rate_limited');
    }
    expect(await monthUsed()).toBe(1000);
  });

  it('answers 402 once the month allowance is spent, uncharged', async () => {
    const { getBlock, key, monthUsed } = await setup({ milliRuPerSecond: 1000, milliRuPerMonth: 1000 });
    const body = { hash: HASH, includeTransactions: true };
    for (let i = 0; i < 10; i++) {
      expect((await call(getBlock, '/v1/rpc/getBlock', postJson(key, body))).status).toBe(200);
    }
    const exhausted = await call(getBlock, '/v1/rpc/getBlock', postJson(key, body));
    expectMetered(exhausted, '0');
    expect(exhausted.headers.get('x-ru-remaining')).toBe('0');
    const problem = await expectProblem(exhausted, 402, 'allowance_exhausted');
    expect(problem.detail).toContain('2026-12-01T00:00:00.000Z');
    expect(await monthUsed()).toBe(1000);
  });
});

describe('the API key', () => {
  it('is refused in the query string, even alongside the header, without charge', async () => {
    const { getTransaction, key, monthUsed } = await setup();
    for (const name of ['api_key', 'apikey', 'x-api-key', 'API-KEY', 'token', 'access_token']) {
      const response = await call(getTransaction, `/v1/transactions/${HASH}?${name}=${key}`, {
        headers: { 'x-api-key': key },
        params: { id: HASH },
      });
      const body = await expectProblem(response, 400, 'api_key_in_query');
      expect(JSON.stringify(body)).not.toContain(key);
      expectUnmetered(response);
    }
    expect(await monthUsed()).toBe(0);
  });

  it('is not accepted from an Authorization header', async () => {
    const { getTransaction, key } = await setup();
    const response = await call(getTransaction, `/v1/transactions/${HASH}`, {
      headers: { authorization: `Bearer ${key}` },
      params: { id: HASH },
    });
    await expectProblem(response, 401, 'missing_api_key');
  });
});

describe('HTTP plumbing', () => {
  it("a route file's handler decodes its path segments once, and takes a route without any (Next passes no params)", async () => {
    const seen: unknown[] = [];
    const handler = routeHandlerOf(async (_request, params) => {
      seen.push(params);
      return { status: 204, headers: {}, body: null };
    });
    await handler(new Request('http://localhost/v1/a/kaspa%3Aqq'), { params: Promise.resolve({ address: 'kaspa%3Aqq', bad: '%E0%A4%A' }) });
    await handler(new Request('http://localhost/v1/usage'), undefined as never);
    await handler(new Request('http://localhost/v1/usage'), { params: Promise.resolve(undefined) } as never);
    expect(seen).toEqual([{ address: 'kaspa:qq', bad: '%E0%A4%A' }, {}, {}]);
  });

  it("a route file's exports: the served methods, a preflight naming them, the 405 problem for every other", async () => {
    const served = servingMethod('GET', async () => new Response('served'));
    const route = routeFile(served);
    const context = { params: Promise.resolve({}) };
    expect(route.GET).toBe(served);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const refused = await route[method](new Request('http://localhost/v1/x', { method }), context);
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get('allow')).toContain('GET');
      expect(((await refused.json()) as { code: string }).code).toBe('method_not_allowed');
    }
    const preflight = await route.OPTIONS(new Request('http://localhost/v1/x', { method: 'OPTIONS' }), context);
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('answers a CORS preflight without a key', async () => {
    const { getBlock } = await setup();
    const response = await call(getBlock, '/v1/rpc/getBlock', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect(response.headers.get('access-control-allow-headers')).toContain('content-type');
    expectUnmetered(response);
  });

  it('answers other methods with 405 and Allow', async () => {
    const { getBlock, key } = await setup();
    const response = await call(getBlock, '/v1/rpc/getBlock', { method: 'DELETE', headers: { 'x-api-key': key } });
    expect(response.headers.get('allow')).toBe('POST');
    await expectProblem(response, 405, 'method_not_allowed');
  });

  it('serves HEAD for GET endpoints without a body', async () => {
    const { getTransaction, key } = await setup();
    const response = await call(getTransaction, `/v1/transactions/${HASH}`, {
      method: 'HEAD',
      headers: { 'x-api-key': key },
      params: { id: HASH },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).not.toBeNull();
  });

  it('marks immutable data cacheable with an ETag and answers If-None-Match with 304', async () => {
    const { getTransaction, key, monthUsed } = await setup();
    const init = { headers: { 'x-api-key': key }, params: { id: HASH } };
    const first = await call(getTransaction, `/v1/transactions/${HASH}?include_payload=true`, init);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const etag = first.headers.get('etag');
    expect(etag).toBe(etagOf(await first.text()));
    const second = await call(getTransaction, `/v1/transactions/${HASH}?include_payload=true`, {
      ...init,
      headers: { ...init.headers, 'if-none-match': `W/${etag}` },
    });
    expect(second.status).toBe(304);
    expect(second.headers.get('etag')).toBe(etag);
    expectMetered(second, '0.1');
    expect(await monthUsed()).toBe(200);
  });

  it('refuses a streamed body past the limit without a Content-Length', async () => {
    const { submitTransaction, key } = await setup();
    const chunk = new TextEncoder().encode(`{"transaction":{"pad":"${'x'.repeat(200)}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await call(submitTransaction, '/v1/rpc/submitTransaction', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json; charset=utf-8' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const body = await expectProblem(response, 413, 'body_too_large');
    expect(body.detail).toContain('256 bytes');
  });

  it('answers 500 in the problem shape when the context cannot be built', async () => {
    const defineEndpoint = endpointDefiner<ApiContext>(() => {
      throw new Error('REDIS_URL redis://user:pw@host refused');
    });
    const handler = defineEndpoint({ id: 'GET /v1/usage', handler: async () => ({ body: {} }) });
    const original = console.error;
    const printed: unknown[] = [];
    console.error = (...args: unknown[]) => printed.push(args);
    try {
      const response = await call(handler, '/v1/usage', { headers: { 'x-api-key': 'dgb_x' } });
      expect(JSON.stringify(await expectProblem(response, 500, 'internal_error'))).not.toContain('pw');
    } finally {
      console.error = original;
    }
    expect(JSON.stringify(printed)).not.toContain(':pw@');
  });

  it('refuses definitions that would go unmetered or take a GET body', () => {
    const defineEndpoint = endpointDefiner<ApiContext>(() => {
      throw new Error('unused');
    });
    expect(() =>
      defineEndpoint({ id: 'GET /v1/rpc/getFeeEstimate', auth: 'public', handler: async () => ({ body: {} }) }),
    ).toThrow(/must be free/);
    expect(() =>
      defineEndpoint({ id: 'GET /v1/rpc/getFeeEstimate', body: z.object({}), handler: async () => ({ body: {} }) }),
    ).toThrow(/only POST/);
  });
});

describe('cache helpers', () => {
  it('writes Cache-Control per policy', () => {
    expect(cacheControl({ kind: 'short', maxAgeSeconds: 2 })).toBe('private, max-age=2');
    expect(cacheControl({ kind: 'no-store' })).toBe('no-store');
  });

  it('matches If-None-Match lists, weak tags and *', () => {
    expect(ifNoneMatchMatches('"a", "b"', '"b"')).toBe(true);
    expect(ifNoneMatchMatches('W/"b"', '"b"')).toBe(true);
    expect(ifNoneMatchMatches('*', '"b"')).toBe(true);
    expect(ifNoneMatchMatches('"a"', '"b"')).toBe(false);
    expect(ifNoneMatchMatches(null, '"b"')).toBe(false);
  });
});

describe('two app instances on one Redis', () => {
  const prefix = `dagboard-test:${randomBytes(6).toString('hex')}:`;
  const clients: Redis[] = [];

  afterAll(async () => {
    const [admin] = clients;
    if (admin !== undefined) {
      const leftovers = await admin.keys(`${prefix}*`);
      if (leftovers.length > 0) await admin.del(...leftovers);
    }
    await Promise.all(clients.map((client) => client.quit()));
  });

  it('share one per-second budget and refund 5xx in Redis', async () => {
    const keys = createMemoryKeyStore();
    const { key, record } = await createApiKey(keys, {
      name: 'shared',
      limits: { milliRuPerSecond: 1000, milliRuPerMonth: 1_000_000 },
      now: new Date(REDIS_NOW),
    });
    const instances = [0, 1].map(() => {
      const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
      clients.push(redis);
      const context: ApiContext = {
        keys,
        meter: createRedisMeter({ redis, prefix }),
        clock: () => REDIS_NOW,
        logger: { error: () => undefined },
      };
      return endpointDefiner(() => context)({
        id: 'POST /v1/rpc/getBlock',
        body: z.object({ hash: z.string() }),
        async handler({ body }) {
          if (body.hash === 'down') throw new RpcUnreachableError('socket closed', 'getBlock');
          return { body: { hash: body.hash } };
        },
      });
    });
    const send = (i: number, hash: string) =>
      call(instances[i % 2]!, '/v1/rpc/getBlock', postJson(key, { hash }));

    const failed = await Promise.all(Array.from({ length: 6 }, (_, i) => send(i, 'down')));
    expect(failed.map((response) => response.status)).toEqual(Array(6).fill(503));
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => send(i, 'ok')));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const meter = createRedisMeter({ redis: clients[0]!, prefix });
    expect(await meter.usage(record.id, record, REDIS_NOW)).toMatchObject({ secondUsed: 1000, monthUsed: 1000 });
  });
});
