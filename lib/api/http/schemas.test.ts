import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AddressVersion, encodeAddress } from '../../kaspa/address';
import { ApiError, fromZodError } from './errors';
import {
  addressString,
  boundedList,
  checkDaaScoreRange,
  decimalU64,
  hexBytes,
  hexString,
  MAX_ADDRESSES_PER_CALL,
  pageLimit,
  queryBoolean,
} from './schemas';

function refusal(schema: z.ZodType, value: unknown, location = 'body') {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  return fromZodError(location, result.error);
}

const mainnetAddress = encodeAddress({
  prefix: 'kaspa',
  version: AddressVersion.PubKey,
  payload: new Uint8Array(32).fill(7),
});
const testnetAddress = encodeAddress({
  prefix: 'kaspatest',
  version: AddressVersion.PubKey,
  payload: new Uint8Array(32).fill(7),
});

describe('request schemas', () => {
  it('accept 32-byte hashes in either case and refuse others as invalid_hex', () => {
    const hash = hexString(32, 'a block hash');
    expect(hash.parse('AB'.repeat(32))).toBe('ab'.repeat(32));
    for (const bad of ['ab'.repeat(31), 'zz'.repeat(32), `${'ab'.repeat(32)}0`, '']) {
      const error = refusal(z.object({ hash }), { hash: bad });
      expect([error.status, error.code]).toEqual([400, 'invalid_hex']);
      expect(error.errors[0]?.path).toBe('body.hash');
    }
    expect(hexBytes(4, 'extra data').parse('00FF')).toBe('00ff');
    expect(refusal(hexBytes(4, 'extra data'), '0011223344').code).toBe('invalid_hex');
    expect(refusal(hexBytes(4, 'extra data'), '001').code).toBe('invalid_hex');
  });

  it('refuse bad addresses with the reason, and addresses of another network', () => {
    const address = addressString('kaspa');
    expect(address.parse(mainnetAddress)).toBe(mainnetAddress);
    const wrongNetwork = refusal(z.object({ address }), { address: testnetAddress }, 'path');
    expect([wrongNetwork.code, wrongNetwork.errors[0]?.path]).toEqual(['invalid_address', 'path.address']);
    expect(wrongNetwork.detail).toContain('kaspatest');
    const checksum = refusal(address, `${mainnetAddress.slice(0, -1)}${mainnetAddress.endsWith('q') ? 'p' : 'q'}`);
    expect(checksum.code).toBe('invalid_address');
    expect(checksum.errors[0]?.message.length).toBeGreaterThan(0);
    expect(refusal(address, 'not-an-address').code).toBe('invalid_address');
  });

  it('refuse more than 500 addresses with limit_exceeded naming the limit', () => {
    const addresses = boundedList(z.string(), MAX_ADDRESSES_PER_CALL, 'addresses');
    expect(addresses.parse(Array(500).fill('a'))).toHaveLength(500);
    const error = refusal(z.object({ addresses }), { addresses: Array(501).fill('a') });
    expect([error.code, error.errors[0]?.path]).toEqual(['limit_exceeded', 'body.addresses']);
    expect(error.detail).toContain('at most 500 addresses per call');
  });

  it('read query booleans strictly', () => {
    expect(queryBoolean.parse('true')).toBe(true);
    expect(queryBoolean.parse('false')).toBe(false);
    expect(refusal(queryBoolean, '1', 'query').errors[0]?.message).toBe('must be true or false');
  });

  it('default the page size to 20 and refuse sizes outside 1..100', () => {
    const query = z.object({ limit: pageLimit });
    expect(query.parse({})).toEqual({ limit: 20 });
    expect(query.parse({ limit: '1' })).toEqual({ limit: 1 });
    expect(query.parse({ limit: '100' })).toEqual({ limit: 100 });
    for (const bad of ['0', '101', '-1', '1.5', 'ten', '', '1000']) {
      const error = refusal(query, { limit: bad }, 'query');
      expect([error.code, error.errors[0]?.path]).toEqual(['limit_out_of_range', 'query.limit']);
    }
  });

  it('read u64 path segments exactly', () => {
    expect(decimalU64.parse('18446744073709551615')).toBe(18446744073709551615n);
    for (const bad of ['18446744073709551616', '-1', '1e3', '']) expect(decimalU64.safeParse(bad).success).toBe(false);
  });

  it('bound DAA-score ranges to 1000 wide', () => {
    expect(() => checkDaaScoreRange(10n, 1010n)).not.toThrow();
    const tooWide = (() => {
      try {
        checkDaaScoreRange(10n, 1011n);
      } catch (error) {
        return error;
      }
    })();
    expect(tooWide).toBeInstanceOf(ApiError);
    expect((tooWide as ApiError).code).toBe('limit_exceeded');
    expect((tooWide as ApiError).detail).toContain('1000');
    expect(() => checkDaaScoreRange(5n, 4n)).toThrow(ApiError);
  });

  it('fall back to invalid_request when issues of different kinds mix', () => {
    const schema = z.object({ hash: hexString(32, 'a hash'), flag: z.boolean() });
    expect(refusal(schema, { hash: 'x', flag: 'y' }).code).toBe('invalid_request');
  });
});
