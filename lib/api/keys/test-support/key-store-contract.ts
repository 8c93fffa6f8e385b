import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../../kaspa/bytes';
import { ApiError } from '../../http/errors';
import {
  authenticateApiKey,
  createApiKey,
  DEFAULT_KEY_LIMITS,
  generateApiKey,
  hashApiKey,
  seedApiKeys,
  seededKeyId,
  type KeyStore,
} from '../keys';

export const CONTRACT_NOW = new Date(Date.UTC(2026, 10, 22, 12, 0, 0));
const NOW = CONTRACT_NOW;

export async function refusal(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return [error.status, error.code];
    throw error;
  }
  throw new Error('expected a refusal');
}

/** The behaviour every KeyStore must show; run by keys.test.ts (memory, cached) and keys-sql.test.ts (SQL). */
export function keyStoreContract(name: string, makeStore: () => Promise<KeyStore>) {
  describe(`${name} key store`, () => {
    it('creates a key, stores only its digest, and authenticates it', async () => {
      const store = await makeStore();
      const { key, record } = await createApiKey(store, {
        name: 'alice',
        limits: { milliRuPerSecond: 2500, milliRuPerMonth: 10_010 },
        now: NOW,
      });
      expect(record.hash).toEqual(hashApiKey(key));
      const stored = await store.list();
      expect(JSON.stringify(stored, (_k, v: unknown) => (v instanceof Uint8Array ? bytesToHex(v) : v))).not.toContain(
        key,
      );
      const found = await authenticateApiKey(store, key);
      expect(found).toMatchObject({ id: record.id, name: 'alice', disabled: false });
      expect(found.milliRuPerSecond).toBe(2500);
      expect(found.milliRuPerMonth).toBe(10_010);
      expect(found.created.getTime()).toBe(NOW.getTime());
      expect(await authenticateApiKey(store, `  ${key} `)).toMatchObject({ id: record.id });
    });

    it('refuses missing (401), unknown (401) and disabled (403) keys', async () => {
      const store = await makeStore();
      const { key, record } = await createApiKey(store, { name: 'bob', now: NOW });
      expect(await refusal(authenticateApiKey(store, null))).toEqual([401, 'missing_api_key']);
      expect(await refusal(authenticateApiKey(store, ' '))).toEqual([401, 'missing_api_key']);
      expect(await refusal(authenticateApiKey(store, generateApiKey()))).toEqual([401, 'invalid_api_key']);
      expect(await refusal(authenticateApiKey(store, `${key}x`))).toEqual([401, 'invalid_api_key']);
      expect(await refusal(authenticateApiKey(store, 'tab\tinside'))).toEqual([401, 'invalid_api_key']);
      expect(await store.setDisabled(record.id, true)).toBe(true);
      expect(await refusal(authenticateApiKey(store, key))).toEqual([403, 'api_key_disabled']);
      expect(await store.setDisabled('key_missing', true)).toBe(false);
      expect(await store.setDisabled(record.id, false)).toBe(true);
      expect((await authenticateApiKey(store, key)).id).toBe(record.id);
    });

    it('seeds idempotently with ids derived from the digest', async () => {
      const store = await makeStore();
      const seeds = ['operator-key-one', 'operator-key-two', 'operator-key-one'];
      expect(await seedApiKeys(store, seeds, NOW)).toBe(2);
      expect(await seedApiKeys(store, seeds, NOW)).toBe(0);
      const listed = await store.list();
      expect(listed.map((record) => record.id).sort()).toEqual(
        [seededKeyId(hashApiKey('operator-key-one')), seededKeyId(hashApiKey('operator-key-two'))].sort(),
      );
      expect((await authenticateApiKey(store, 'operator-key-two')).milliRuPerSecond).toBe(
        DEFAULT_KEY_LIMITS.milliRuPerSecond,
      );
      await expect(seedApiKeys(store, ['has space'], NOW)).rejects.toThrow(RangeError);
    });

    it('refuses a second record with the same digest', async () => {
      const store = await makeStore();
      const { record } = await createApiKey(store, { name: 'carol', now: NOW });
      expect(await store.insert({ ...record, id: 'key_other' })).toBe(false);
      expect(await store.list()).toHaveLength(1);
    });
  });
}

