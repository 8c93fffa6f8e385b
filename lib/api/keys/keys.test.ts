import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../kaspa/bytes';
import { sha256 } from '../../kaspa/hashing';
import {
  authenticateApiKey,
  createApiKey,
  createCachedKeyStore,
  createMemoryKeyStore,
  DEFAULT_KEY_LIMITS,
  digestsEqual,
  generateApiKey,
  hashApiKey,
  validateKeyLimits,
  type KeyStore,
} from './keys';
import { CONTRACT_NOW, keyStoreContract, refusal } from './test-support/key-store-contract';

const NOW = CONTRACT_NOW;

describe('key format and digests', () => {
  it('generates dgb_ + 43 base64url characters (32 bytes), all different', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^dgb_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    }
  });

  it('hashes the UTF-8 text with SHA-256', () => {
    expect(bytesToHex(hashApiKey('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey('dgb_x')).toEqual(sha256(new TextEncoder().encode('dgb_x')));
  });

  it('compares digests exactly, unequal lengths included', () => {
    const a = hashApiKey('a');
    expect(digestsEqual(a, hashApiKey('a'))).toBe(true);
    expect(digestsEqual(a, hashApiKey('b'))).toBe(false);
    expect(digestsEqual(a, a.subarray(0, 31))).toBe(false);
  });

  it('refuses limits that cannot admit the costliest call or exceed exact range', () => {
    expect(() => validateKeyLimits(DEFAULT_KEY_LIMITS)).not.toThrow();
    expect(() => validateKeyLimits({ milliRuPerSecond: 999, milliRuPerMonth: 10_000 })).toThrow(RangeError);
    expect(() => validateKeyLimits({ milliRuPerSecond: 1000.5, milliRuPerMonth: 10_000 })).toThrow(RangeError);
    expect(() => validateKeyLimits({ milliRuPerSecond: 5000, milliRuPerMonth: 4000 })).toThrow(RangeError);
    expect(() => validateKeyLimits({ milliRuPerSecond: 1000, milliRuPerMonth: 1e18 })).toThrow(RangeError);
  });
});

keyStoreContract('memory', async () => createMemoryKeyStore());
keyStoreContract('cached memory', async () =>
  createCachedKeyStore(createMemoryKeyStore(), { ttlMs: 60_000, clock: () => NOW.getTime() }),
);

describe('cached key store', () => {
  it('reuses lookups until the TTL passes, so other instances see changes within it', async () => {
    const shared = createMemoryKeyStore();
    let now = NOW.getTime();
    const instanceA = createCachedKeyStore(shared, { ttlMs: 5000, clock: () => now });
    const instanceB = createCachedKeyStore(shared, { ttlMs: 5000, clock: () => now });
    const { key, record } = await createApiKey(instanceA, { name: 'dave', now: NOW });
    expect((await authenticateApiKey(instanceB, key)).id).toBe(record.id);
    await instanceA.setDisabled(record.id, true);
    expect(await refusal(authenticateApiKey(instanceA, key))).toEqual([403, 'api_key_disabled']);
    expect((await authenticateApiKey(instanceB, key)).id).toBe(record.id);
    now += 5000;
    expect(await refusal(authenticateApiKey(instanceB, key))).toEqual([403, 'api_key_disabled']);
  });

  it('keeps at most maxEntries lookups', async () => {
    let lookups = 0;
    const inner = createMemoryKeyStore();
    const counting: KeyStore = {
      ...inner,
      findByHash(hash) {
        lookups++;
        return inner.findByHash(hash);
      },
    };
    const store = createCachedKeyStore(counting, { ttlMs: 60_000, clock: () => 0, maxEntries: 2 });
    for (const text of ['a', 'b', 'c', 'a']) await store.findByHash(hashApiKey(text));
    expect(lookups).toBe(4);
    await store.findByHash(hashApiKey('a'));
    expect(lookups).toBe(4);
  });
});
