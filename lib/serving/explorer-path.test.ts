import { describe, expect, it } from 'vitest';
import { createMemoryMeter, type ApiHandler } from '../api';
import { clientIpOf, createExplorerPath } from './explorer-path';

const SERVER_KEY = 'dgb_server_key_for_tests';

/** Echoes what the /v1 handler received, so the test sees exactly what the explorer path forwards. */
const echo: ApiHandler = async (request, params) => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of request.body ?? []) chunks.push(chunk);
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-ru-remaining': '999', 'ratelimit-limit': '1000', 'x-request-cost-ru': '1' },
    body: JSON.stringify({
      url: `http://explorer.internal${request.target}`,
      method: request.method,
      key: request.header('x-api-key'),
      params,
      body: request.method === 'POST' ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null,
    }),
  };
};

function explorerPath(now = { value: 1_700_000_000_000 }) {
  return createExplorerPath({
    handlers: {
      'GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}': echo,
      'POST /v1/rpc/getBlock': echo,
      'GET /v1/tokens/tk20/{ticker}/metadata': echo,
    },
    serverApiKey: SERVER_KEY,
    meter: createMemoryMeter(),
    clock: () => now.value,
    ruPerSecondPerIp: 3,
  });
}

function browserRequest(path: string, init: RequestInit & { ip?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('x-forwarded-for', init.ip ?? '198.51.100.7');
  return new Request(`http://127.0.0.1:3000/api/explorer${path}`, { ...init, headers });
}

describe('the explorer path', () => {
  it('calls the handler with the server key in place of the browser key and the client budget in the headers', async () => {
    const path = explorerPath();
    const response = await path.proxy(
      browserRequest('/v1/blocks/daa-score/5/9?include_transactions=true', { headers: { 'x-api-key': 'browser' } }),
      ['v1', 'blocks', 'daa-score', '5', '9'],
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      url: 'http://explorer.internal/v1/blocks/daa-score/5/9?include_transactions=true',
      method: 'GET',
      key: SERVER_KEY,
      params: { daa_score_start: '5', daa_score_end: '9' },
      body: null,
    });
    expect(response.headers.get('x-ru-remaining')).toBeNull();
    expect(response.headers.get('ratelimit-limit')).toBe('3');
    expect(response.headers.get('ratelimit-remaining')).toBe('2');
    expect(response.headers.get('x-request-cost-ru')).toBe('1');
  });

  it('forwards POST bodies and reads the krc20 alias', async () => {
    const path = explorerPath();
    const post = await path.proxy(
      browserRequest('/v1/rpc/getBlock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hash":"ab"}' }),
      ['v1', 'rpc', 'getBlock'],
    );
    expect((await post.json()).body).toEqual({ hash: 'ab' });
    const alias = await path.proxy(browserRequest('/v1/tokens/krc20/NACHO/metadata'), ['v1', 'tokens', 'krc20', 'NACHO', 'metadata']);
    expect((await alias.json()).params).toEqual({ ticker: 'NACHO' });
  });

  it('refuses a client past its RU per second until the next second, without touching other clients', async () => {
    const now = { value: 1_700_000_000_250 };
    const path = explorerPath(now);
    const segments = ['v1', 'blocks', 'daa-score', '1', '2'];
    const statuses = [];
    for (let call = 0; call < 4; call += 1) statuses.push((await path.proxy(browserRequest('/v1/blocks/daa-score/1/2'), segments)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await path.proxy(browserRequest('/v1/blocks/daa-score/1/2'), segments);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ status: 429, code: 'rate_limited', detail: expect.stringContaining('3 RU per second') });
    expect((await path.proxy(browserRequest('/v1/blocks/daa-score/1/2', { ip: '192.0.2.1' }), segments)).status).toBe(200);
    now.value += 1000;
    expect((await path.proxy(browserRequest('/v1/blocks/daa-score/1/2'), segments)).status).toBe(200);
  });

  it('answers unknown paths and methods with problems, uncharged', async () => {
    const path = explorerPath();
    const unknown = await path.proxy(browserRequest('/v1/nope'), ['v1', 'nope']);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'route_not_found' });
    const wrongMethod = await path.proxy(browserRequest('/v1/rpc/getBlock'), ['v1', 'rpc', 'getBlock']);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('calls in-process for server components and parses the body losslessly', async () => {
    const result = await explorerPath().call('GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}', {
      params: { daa_score_start: '1', daa_score_end: '3' },
      query: { chain_blocks_only: true },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ key: SERVER_KEY, url: 'http://explorer.internal/v1/blocks/daa-score/1/3?chain_blocks_only=true' });
  });

  it('takes the client IP from the last X-Forwarded-For hop', () => {
    const request = (value?: string) => new Request('http://x/', { headers: value === undefined ? {} : { 'x-forwarded-for': value } });
    expect(clientIpOf(request('203.0.113.9, 10.0.0.2'))).toBe('10.0.0.2');
    expect(clientIpOf(request())).toBe('unknown');
  });
});
