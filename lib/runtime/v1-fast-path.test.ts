import { describe, expect, it } from 'vitest';
import type { RouteHandler, RouteId } from '../api';
import { createV1RequestResolver } from './v1-fast-path';

function recordingHandler(calls: { url: string; params: Record<string, string> }[], status = 200): RouteHandler {
  return async (request, context) => {
    calls.push({ url: request.url, params: (await context.params) as Record<string, string> });
    return Response.json({ ok: true }, { status });
  };
}

describe('the /v1 request resolver', () => {
  const calls: { url: string; params: Record<string, string> }[] = [];
  const handlers: Partial<Record<RouteId, RouteHandler>> = {
    'GET /v1/transactions/{id}': recordingHandler(calls),
    'POST /v1/transactions': recordingHandler(calls),
    'GET /v1/tokens/tk20/{ticker}/metadata': recordingHandler(calls),
    'POST /v1/rpc/getBlock': async () => {
      throw new Error('a broken handler');
    },
  };
  const resolve = createV1RequestResolver(handlers);

  it('hands a request to the endpoint its path and method name, with the decoded path parameters', async () => {
    const handler = resolve('GET', '/v1/transactions/ab%20cd');
    expect(handler).not.toBeNull();
    const response = await handler!(new Request('http://host/v1/transactions/ab%20cd?include_payload=true'));
    expect(response.status).toBe(200);
    expect(calls.at(-1)).toEqual({ url: 'http://host/v1/transactions/ab%20cd?include_payload=true', params: { id: 'ab cd' } });
    expect(resolve('POST', '/v1/transactions')).not.toBeNull();
  });

  it('reads the token standard alias as the route does', async () => {
    const handler = resolve('GET', '/v1/tokens/KRC20/NACHO/metadata');
    expect(handler).not.toBeNull();
    await handler!(new Request('http://host/v1/tokens/KRC20/NACHO/metadata'));
    expect(calls.at(-1)!.params).toEqual({ ticker: 'NACHO' });
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
    const response = await resolve('POST', '/v1/rpc/getBlock')!(new Request('http://host/v1/rpc/getBlock', { method: 'POST' }));
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 500, code: 'internal_error' });
  });
});
