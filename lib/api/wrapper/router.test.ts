import { describe, expect, it } from 'vitest';
import { ROUTE_IDS } from '../keys/costs';
import { matchRoutePath, routesForMethod } from './router';

describe('matchRoutePath', () => {
  it('extracts decoded path parameters', () => {
    const [match] = matchRoutePath(ROUTE_IDS, '/v1/addresses/kaspadev%3Aqabc/transactions');
    expect(match).toEqual({ route: 'GET /v1/addresses/{address}/transactions', params: { address: 'kaspadev:qabc' } });
  });

  it('tells routes of the same path apart by method', () => {
    const matches = matchRoutePath(ROUTE_IDS, '/v1/rpc/getMempoolEntries');
    expect(routesForMethod(matches, 'GET')?.route).toBe('GET /v1/rpc/getMempoolEntries');
    expect(routesForMethod(matches, 'POST')).toBeUndefined();
    expect(routesForMethod(matchRoutePath(ROUTE_IDS, '/v1/transactions/ab'), 'HEAD')?.route).toBe('GET /v1/transactions/{id}');
  });

  it('reads krc20 as tk20 and ignores empty segments', () => {
    const [match] = matchRoutePath(ROUTE_IDS, '/v1/tokens/KRC20/nacho/metadata/');
    expect(match).toEqual({ route: 'GET /v1/tokens/tk20/{ticker}/metadata', params: { ticker: 'nacho' } });
  });

  it('matches nothing for unknown paths or malformed escapes', () => {
    expect(matchRoutePath(ROUTE_IDS, '/v1/nothing')).toEqual([]);
    expect(matchRoutePath(ROUTE_IDS, '/v1/transactions/%E0%A4%A')).toEqual([]);
    expect(matchRoutePath(ROUTE_IDS, '/v1/transactions/a/b')).toEqual([]);
  });
});
