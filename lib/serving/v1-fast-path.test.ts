import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiHandler, ApiRequest, RouteId } from '../api';
import { createV1RequestResolver } from './v1-fast-path';

interface Seen {
  method: string;
  target: string;
  key: string | null;
  body: string | null;
  params: Record<string, unknown>;
}

function recordingHandler(seen: Seen[]): ApiHandler {
  return async (request: ApiRequest, params) => {
    let body: string | null = null;
    if (request.body !== null) {
      body = '';
      for await (const chunk of request.body) body += Buffer.from(chunk).toString('utf8');
    }
    seen.push({ method: request.method, target: request.target, key: request.header('x-api-key'), body, params });
    return { status: 201, headers: { 'content-type': 'application/json', 'x-seen': 'yes' }, body: '{"ok":"✓"}' };
  };
}

/** Reads at most `limit` bytes and answers 413, as the endpoint wrapper does with a body past its limit. */
const refusingHandler: ApiHandler = async (request) => {
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.byteLength;
    if (size > 16) break;
  }
  return { status: 413, headers: { 'content-type': 'application/problem+json' }, body: '{"status":413}' };
};

describe('the /v1 request resolver', () => {
  const seen: Seen[] = [];
  const handlers: Partial<Record<RouteId, ApiHandler>> = {
    'GET /v1/transactions/{id}': recordingHandler(seen),
    'POST /v1/transactions': refusingHandler,
    'GET /v1/tokens/tk20/{ticker}/metadata': recordingHandler(seen),
    'POST /v1/rpc/getMempoolEntriesByAddresses': recordingHandler(seen),
    'GET /v1/rpc/getBlockDagInfo': async () => ({ status: 304, headers: { etag: '"x"' }, body: null }),
    'POST /v1/rpc/getBlock': async () => {
      throw new Error('a broken handler');
    },
  };
  const resolve = createV1RequestResolver(handlers);
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = request.url ?? '/';
      const handler = resolve(request.method ?? 'GET', url.split('?')[0]!);
      if (handler === null) {
        response.writeHead(599).end();
        return;
      }
      void handler(request, response);
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  });

  it('serves the endpoint its path and method name on the node message: target, headers, decoded parameters', async () => {
    const response = await fetch(`${origin}/v1/transactions/ab%20cd?include_payload=true`, { headers: { 'x-api-key': 'k1' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-seen')).toBe('yes');
    expect(response.headers.get('connection')).toBe('keep-alive');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength('{"ok":"✓"}')));
    expect(await response.json()).toEqual({ ok: '✓' });
    expect(seen.at(-1)).toEqual({
      method: 'GET',
      target: '/v1/transactions/ab%20cd?include_payload=true',
      key: 'k1',
      body: null,
      params: { id: 'ab cd' },
    });
  });

  it('streams a POST body to the endpoint', async () => {
    const body = JSON.stringify({ addresses: ['x'.repeat(100_000)] });
    const response = await fetch(`${origin}/v1/rpc/getMempoolEntriesByAddresses`, { method: 'POST', body });
    expect(response.status).toBe(201);
    expect(seen.at(-1)!.body).toBe(body);
  });

  it('answers an endpoint that stops reading a large body, closing that connection; the server keeps serving', async () => {
    const refused = await fetch(`${origin}/v1/transactions`, { method: 'POST', body: 'x'.repeat(2_000_000) });
    expect(refused.status).toBe(413);
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toEqual({ status: 413 });
    expect((await fetch(`${origin}/v1/transactions/ab`)).status).toBe(201);
  });

  it('sends a bodiless reply without a body', async () => {
    const response = await fetch(`${origin}/v1/rpc/getBlockDagInfo`);
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe('"x"');
  });

  it('reads the token standard alias as the route does', async () => {
    await fetch(`${origin}/v1/tokens/KRC20/NACHO/metadata`);
    expect(seen.at(-1)!.params).toEqual({ ticker: 'NACHO' });
  });

  it('leaves other methods, unknown paths and routes it has no handler for to Next', () => {
    expect(resolve('POST', '/v1/transactions/abcd')).toBeNull();
    expect(resolve('OPTIONS', '/v1/transactions/abcd')).toBeNull();
    expect(resolve('HEAD', '/v1/transactions/abcd')).toBeNull();
    expect(resolve('GET', '/v1/transactions')).toBeNull();
    expect(resolve('GET', '/v1/nothing/here')).toBeNull();
    expect(resolve('GET', '/v1/tokens/erc20/NACHO/metadata')).toBeNull();
    expect(resolve('POST', '/v1/rpc/getBlocks')).toBeNull();
  });

  it('answers a handler that throws with the problem shape instead of failing the server', async () => {
    const response = await fetch(`${origin}/v1/rpc/getBlock`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 500, code: 'internal_error' });
  });
});
