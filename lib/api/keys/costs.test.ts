import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costOf, formatRu, MAX_ROUTE_COST, parseRu, ROUTE_COSTS, ROUTE_IDS, routeMethod, routePath } from './costs';

describe('cost table', () => {
  it('holds the SERVICE-SPEC §4.1 costs in milli-RU, getUtxosByAddresses at 0.5 RU, usage and openapi free', () => {
    const inRu = Object.fromEntries(ROUTE_IDS.map((id) => [id, formatRu(costOf(id))]));
    expect(inRu).toEqual({
      'GET /v1/tokens/tk20/{ticker}/metadata': '0.01',
      'GET /v1/tokens/tk20/{ticker}/chart': '0.01',
      'GET /v1/tokens/tk20': '0.01',
      'GET /v1/tokens/tk20/{ticker}/holders': '0.01',
      'GET /v1/tokens/tk20/{ticker}/operations': '0.01',
      'GET /v1/tokens/tk20/{ticker}/fills': '0.01',
      'GET /v1/tokens/tk20/operations/{transactionId}': '0.01',
      'GET /v1/tokens/tk20/balances/{address}': '0.01',
      'GET /v1/prices/kas-usd': '0.01',
      'POST /v1/rpc/submitTransactionReplacement': '0.1',
      'POST /v1/rpc/getBlock': '0.1',
      'POST /v1/rpc/getMempoolEntriesByAddresses': '0.1',
      'POST /v1/rpc/submitTransaction': '0.1',
      'GET /v1/transactions/{id}': '0.1',
      'POST /v1/rpc/getBlocks': '0.5',
      'GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}': '1',
      'GET /v1/addresses/{address}/transactions': '0.5',
      'POST /v1/transactions': '0.5',
      'POST /v1/wallets/summary': '1',
      'POST /v1/wallets/transactions/export': '1',
      'GET /v1/addresses/{address}/transactions/export': '1',
      'POST /v1/wallets/transactions': '1',
      'POST /v1/wallets/utxos': '0.75',
      'GET /v1/covenants': '0.1',
      'GET /v1/covenants/{covenantId}': '0.1',
      'GET /v1/covenants/{covenantId}/transactions': '0.5',
      'GET /v1/wallets/demo': '0',
      'POST /v1/webhooks': '0.1',
      'GET /v1/webhooks': '0.01',
      'GET /v1/webhooks/{id}': '0.01',
      'DELETE /v1/webhooks/{id}': '0.01',
      'GET /v1/webhooks/{id}/deliveries': '0.01',
      'POST /v1/rpc/getBlockTemplate': '0.1',
      'POST /v1/rpc/submitBlock': '0.1',
      'POST /v1/rpc/getMempoolEntry': '0.1',
      'GET /v1/rpc/getMempoolEntries': '0.1',
      'GET /v1/rpc/getBlockDagInfo': '0.1',
      'GET /v1/supply': '0.1',
      'GET /v1/statistics': '0.1',
      'GET /v1/addresses/{address}/summary': '0.5',
      'GET /v1/rpc/getFeeEstimate': '0.1',
      'POST /v1/rpc/getUtxosByAddresses': '0.5',
      'GET /v1/usage': '0',
      'GET /v1/openapi.json': '0',
    });
    expect(MAX_ROUTE_COST).toBe(1000);
  });

  it('keeps every cost a whole number of milli-RU', () => {
    for (const cost of Object.values(ROUTE_COSTS)) expect(Number.isSafeInteger(cost) && cost >= 0).toBe(true);
  });

  it('splits route ids into method and path template', () => {
    expect(routeMethod('POST /v1/rpc/getBlock')).toBe('POST');
    expect(routePath('GET /v1/transactions/{id}')).toBe('/v1/transactions/{id}');
  });
});

describe('RU text', () => {
  it('formats milli-RU exactly', () => {
    expect(formatRu(0)).toBe('0');
    expect(formatRu(10)).toBe('0.01');
    expect(formatRu(1)).toBe('0.001');
    expect(formatRu(1500)).toBe('1.5');
    expect(formatRu(-250)).toBe('-0.25');
    expect(formatRu(1_000_000_000_000)).toBe('1000000000');
    expect(() => formatRu(0.5)).toThrow(RangeError);
  });

  it('sums 0.01 RU a thousand times to exactly 10 RU', () => {
    let total = 0;
    for (let i = 0; i < 1000; i++) total += costOf('GET /v1/tokens/tk20/{ticker}/chart');
    expect(formatRu(total)).toBe('10');
  });

  it('parses what it formats', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (milli) => {
        expect(parseRu(formatRu(milli))).toBe(milli);
      }),
    );
    expect(parseRu('25.000')).toBe(25_000);
    expect(parseRu('0.01')).toBe(10);
    for (const bad of ['', '1.2345', '-1', '1e3', 'abc', '.5']) expect(() => parseRu(bad)).toThrow(RangeError);
  });
});
