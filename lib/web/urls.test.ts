import { describe, expect, it } from 'vitest';
import { ROUTE_IDS } from '../api/keys/costs';
import { absoluteUrl, explorerApiPath, pages, parseConsoleRequest, v1Path } from './urls';

describe('v1Path', () => {
  it('fills and escapes path parameters and appends defined query values', () => {
    expect(
      v1Path('GET /v1/addresses/{address}/transactions', { address: 'kaspadev:qq/x' }, { limit: 5, starting_after: undefined }),
    ).toBe('/v1/addresses/kaspadev%3Aqq%2Fx/transactions?limit=5');
    expect(v1Path('GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}', { daa_score_start: '1', daa_score_end: '9' }, { include_transactions: true })).toBe(
      '/v1/blocks/daa-score/1/9?include_transactions=true',
    );
  });

  it('fills camel-case parameters too', () => {
    expect(v1Path('GET /v1/covenants/{covenantId}/transactions', { covenantId: 'ab' }, { limit: 2 })).toBe('/v1/covenants/ab/transactions?limit=2');
  });

  it('refuses a missing parameter rather than building a wrong URL', () => {
    expect(() => v1Path('GET /v1/transactions/{id}')).toThrow(/missing path parameter id/);
  });

  it('puts browser calls under the same-origin prefix', () => {
    expect(explorerApiPath('GET /v1/rpc/getBlockDagInfo')).toBe('/api/explorer/v1/rpc/getBlockDagInfo');
  });
});

describe('pages', () => {
  it('gives each entity one canonical path', () => {
    expect(pages.token('NACHO')).toBe('/tokens/nacho');
    expect(pages.address('kaspadev:qz')).toBe('/address/kaspadev:qz');
    expect(pages.daaRange(10n, 20n)).toBe('/daa/10/20');
    expect(pages.covenants()).toBe('/covenants');
    expect(pages.search('a b')).toBe('/search?q=a+b');
    expect(absoluteUrl('http://127.0.0.1:3000', pages.transaction('ab'))).toBe('http://127.0.0.1:3000/tx/ab');
  });

  it('puts a shared wallet in the fragment, never the query string the server sees', () => {
    expect(pages.wallet()).toBe('/wallet');
    const shared = new URL(pages.wallet({ addresses: ['kaspadev:qz', 'kaspadev:qy'] }), 'http://127.0.0.1');
    expect(shared.pathname).toBe('/wallet');
    expect(shared.search).toBe('');
    expect(new URLSearchParams(shared.hash.slice(1)).get('addresses')).toBe('kaspadev:qz,kaspadev:qy');
  });

  it('writes hashes, ids and addresses in lower case, whatever case they were typed in', () => {
    expect(pages.transaction('AB12')).toBe('/tx/ab12');
    expect(pages.block('CDEF')).toBe('/blocks/cdef');
    expect(pages.covenant('EF01')).toBe('/covenants/ef01');
    expect(pages.address('KASPADEV:QZ')).toBe('/address/kaspadev:qz');
    expect(pages.addressCsv('KASPADEV:QZ', { from: '2026-01-01', layout: 'koinly' })).toBe(
      '/address/kaspadev:qz/csv?from=2026-01-01&layout=koinly',
    );
    expect(pages.walletCsv()).toBe('/wallet/csv');
  });
});

describe('console links', () => {
  it('round-trip a request through the query string', () => {
    const request = {
      route: 'GET /v1/addresses/{address}/transactions' as const,
      params: { address: 'kaspadev:qz' },
      query: { limit: '5' },
    };
    const link = pages.console(request);
    expect(link.startsWith('/console?route=GET+%2Fv1%2Faddresses')).toBe(true);
    expect(parseConsoleRequest(new URL(link, 'http://x').searchParams, ROUTE_IDS)).toEqual({ ...request, body: undefined });
    const post = { route: 'POST /v1/rpc/getBlock' as const, body: { hash: 'ab', includeTransactions: true } };
    expect(parseConsoleRequest(new URL(pages.console(post), 'http://x').searchParams, ROUTE_IDS)).toEqual({
      ...post,
      params: undefined,
      query: undefined,
    });
  });

  it('refuses unknown routes and malformed parts', () => {
    expect(parseConsoleRequest(new URLSearchParams('route=GET+/v1/nope'), ROUTE_IDS)).toBeNull();
    expect(parseConsoleRequest(new URLSearchParams('route=GET+/v1/usage&params=[1]'), ROUTE_IDS)).toBeNull();
    expect(parseConsoleRequest(new URLSearchParams('route=GET+/v1/usage&body={'), ROUTE_IDS)).toBeNull();
  });
});
