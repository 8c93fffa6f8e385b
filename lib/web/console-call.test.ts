import { describe, expect, it } from 'vitest';
import { consoleCall, shareableRequest } from './console-call';
import { pages, parseConsoleRequest } from './urls';

const ID = 'ab'.repeat(32);

describe('consoleCall', () => {
  it('fills the path, leaves empty query fields out and keeps the body text exactly', () => {
    expect(consoleCall('GET /v1/transactions/{id}', { id: ID }, { include_payload: '', other: 'x y' })).toEqual({
      route: 'GET /v1/transactions/{id}',
      method: 'GET',
      path: `/v1/transactions/${ID}?other=x+y`,
    });
    const body = '{ "hash": "00",\n "includeTransactions": true }';
    expect(consoleCall('POST /v1/rpc/getBlock', {}, {}, body)).toMatchObject({ method: 'POST', path: '/v1/rpc/getBlock', body });
  });

  it('refuses an empty path parameter', () => {
    expect(() => consoleCall('GET /v1/transactions/{id}', { id: '' }, {})).toThrow(/missing path parameter id/);
  });
});

describe('shareableRequest', () => {
  it('round-trips through the console link', () => {
    const request = shareableRequest('POST /v1/rpc/getBlock', {}, { unused: '' }, '{"hash":"00","includeTransactions":false}');
    expect(request).toEqual({ route: 'POST /v1/rpc/getBlock', params: {}, query: {}, body: { hash: '00', includeTransactions: false } });
    const link = new URL(pages.console(request), 'http://x');
    expect(parseConsoleRequest(link.searchParams, ['POST /v1/rpc/getBlock'])).toEqual({
      route: 'POST /v1/rpc/getBlock',
      params: undefined,
      query: undefined,
      body: { hash: '00', includeTransactions: false },
    });
  });

  it('leaves out a body that is not JSON, and GET bodies', () => {
    expect(shareableRequest('POST /v1/rpc/getBlock', {}, {}, '{ not json').body).toBeUndefined();
    expect(shareableRequest('GET /v1/usage', {}, {}, '{}').body).toBeUndefined();
  });
});
