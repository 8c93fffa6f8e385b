import { describe, expect, it } from 'vitest';
import { parseJson } from '../rpc/json';
import { abbreviateArrays, explorerLinkFor, formatJson, nextPageCursor } from './json-view';

const HASH = 'ab'.repeat(32);
const ADDRESS = 'kaspadev:qr0lr4ml9fn3chekrqmjdkergxl93l4wrk3dankcgvjq776s9wn9jhtkdksae';

describe('formatJson', () => {
  it('matches JSON.stringify with two-space indent for plain values', () => {
    const value = { a: [1, 'x', { b: null, c: true }], d: {}, e: [], f: -0.5 };
    expect(formatJson(value)).toBe(JSON.stringify(value, null, 2));
  });

  it('writes integers past 2^53 exactly', () => {
    const text = '{"n":18446744073709551615,"m":[9007199254740993]}';
    expect(formatJson(parseJson(text))).toBe('{\n  "n": 18446744073709551615,\n  "m": [\n    9007199254740993\n  ]\n}');
  });
});

describe('explorerLinkFor', () => {
  it('sends a 64-hex value to search, which resolves blocks and transactions', () => {
    expect(explorerLinkFor('hash', HASH)).toBe(`/search?q=${HASH}`);
    expect(explorerLinkFor(0, HASH.toUpperCase())).toBe(`/search?q=${HASH}`);
  });

  it('links addresses and tickers under a ticker key only', () => {
    expect(explorerLinkFor('address', ADDRESS)).toBe(`/address/${ADDRESS}`);
    expect(explorerLinkFor('ticker', 'NACHO')).toBe('/tokens/nacho');
    expect(explorerLinkFor('name', 'NACHO')).toBeNull();
    expect(explorerLinkFor('hash', HASH.slice(2))).toBeNull();
    expect(explorerLinkFor('address', 'kaspadev:notanaddress')).toBeNull();
  });
});

describe('nextPageCursor', () => {
  const route = 'GET /v1/addresses/{address}/transactions' as const;
  it('is the last item id when there is more', () => {
    const body = parseJson(JSON.stringify({ transactions: [{ transactionId: 'a' }, { transactionId: 'b' }], metadata: { hasMore: true, count: 2 } }));
    expect(nextPageCursor(route, body)).toBe('b');
    expect(nextPageCursor('GET /v1/tokens/tk20', parseJson('{"tokens":[{"ticker":"ABCD"}],"metadata":{"hasMore":true,"count":1}}'))).toBe('ABCD');
  });

  it('is null on the last page, an error body or an unpaged route', () => {
    expect(nextPageCursor(route, parseJson('{"transactions":[{"transactionId":"a"}],"metadata":{"hasMore":false,"count":1}}'))).toBeNull();
    expect(nextPageCursor(route, parseJson('{"code":"invalid_address","status":400}'))).toBeNull();
    expect(nextPageCursor('GET /v1/usage', parseJson('{"metadata":{"hasMore":true}}'))).toBeNull();
    expect(nextPageCursor(route, undefined)).toBeNull();
  });
});

describe('abbreviateArrays', () => {
  it('keeps the first items of every array and says whether it cut', () => {
    expect(abbreviateArrays({ a: [1, 2, 3], b: { c: [[1, 2, 3]] } }, 2)).toEqual({ value: { a: [1, 2], b: { c: [[1, 2]] } }, shortened: true });
    expect(abbreviateArrays({ a: [1] }, 2)).toEqual({ value: { a: [1] }, shortened: false });
  });
});
