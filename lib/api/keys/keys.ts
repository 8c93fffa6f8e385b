/**
 * API keys. A key is `dgb_` followed by 32 random bytes in base64url (47 characters, 256 bits of entropy); the
 * prefix makes a leaked key recognisable to secret scanners and to our log redaction. Only the SHA-256 digest of a key
 * is stored; a presented key is hashed, looked up by digest, and the digests are compared in constant time. (A fast
 * unsalted hash is right here: the keys are uniformly random, so there is nothing to brute-force from a digest.)
 *
 * Keys seeded from API_KEYS (operator-chosen text) get an id derived from their digest, so every app instance that
 * seeds the same list agrees on the ids, and metering buckets keyed by id are shared.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { bytesToHex } from '../../kaspa/bytes';
import { formatRu, MAX_ROUTE_COST, MILLI_RU_PER_RU, parseRu } from './costs';
import { ApiError } from '../http/errors';

export const API_KEY_PREFIX = 'dgb_';
export const API_KEY_RANDOM_BYTES = 32;
export const API_KEY_HEADER = 'x-api-key';

export interface ApiKeyLimits {
  /** RU the key may spend per one-second window, in milli-RU. */
  milliRuPerSecond: number;
  /** RU the key may spend per UTC calendar month, in milli-RU. */
  milliRuPerMonth: number;
}

export interface ApiKeyRecord extends ApiKeyLimits {
  id: string;
  name: string;
  /** SHA-256 of the key's UTF-8 text. */
  hash: Uint8Array;
  created: Date;
  disabled: boolean;
}

export const DEFAULT_KEY_LIMITS: Readonly<ApiKeyLimits> = Object.freeze({
  milliRuPerSecond: 50 * MILLI_RU_PER_RU,
  milliRuPerMonth: 1_000_000 * MILLI_RU_PER_RU,
});

/** Largest limit the SQL column (numeric(15,3)) and exact integer arithmetic both hold. */
const MAX_LIMIT_MILLI_RU = 999_999_999_999_999;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(API_KEY_RANDOM_BYTES).toString('base64url');
}

export function hashApiKey(key: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(key, 'utf8').digest());
}

export function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Visible ASCII only: anything else cannot travel in an HTTP header unchanged. */
const KEY_TEXT = /^[\x21-\x7e]{1,256}$/;

export function validateKeyLimits(limits: ApiKeyLimits): void {
  const { milliRuPerSecond, milliRuPerMonth } = limits;
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0 || value > MAX_LIMIT_MILLI_RU) {
      throw new RangeError(`${name} must be a whole number of milli-RU from 0 to ${MAX_LIMIT_MILLI_RU}`);
    }
  }
  if (milliRuPerSecond < MAX_ROUTE_COST) {
    throw new RangeError(`the per-second limit must admit the costliest call (${formatRu(MAX_ROUTE_COST)} RU)`);
  }
  if (milliRuPerMonth < milliRuPerSecond) {
    throw new RangeError('the monthly allowance must be at least the per-second limit');
  }
}

export interface KeyStore {
  findByHash(hash: Uint8Array): Promise<ApiKeyRecord | undefined>;
  /** Stores a new key; false (and no change) when its id or hash is already stored. */
  insert(record: ApiKeyRecord): Promise<boolean>;
  list(): Promise<ApiKeyRecord[]>;
  /** False when no key has this id. */
  setDisabled(id: string, disabled: boolean): Promise<boolean>;
}

export interface CreateKeyOptions {
  name: string;
  limits?: Partial<ApiKeyLimits>;
  now: Date;
}

/** Creates and stores a key; the returned key text is shown once and never stored. */
export async function createApiKey(
  store: KeyStore,
  options: CreateKeyOptions,
): Promise<{ key: string; record: ApiKeyRecord }> {
  const name = options.name.trim();
  if (name.length === 0 || name.length > 200) throw new RangeError('a key name must have 1 to 200 characters');
  const limits = { ...DEFAULT_KEY_LIMITS, ...options.limits };
  validateKeyLimits(limits);
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    id: `key_${randomBytes(9).toString('base64url')}`,
    name,
    hash: hashApiKey(key),
    created: options.now,
    disabled: false,
    ...limits,
  };
  if (!(await store.insert(record))) throw new Error('generated API key collides with a stored one');
  return { key, record };
}

export function seededKeyId(hash: Uint8Array): string {
  return `seed_${bytesToHex(hash.subarray(0, 8))}`;
}

/**
 * Stores each key of the list that is not stored yet (API_KEYS at start-up). Idempotent, also when several
 * instances seed at once. Returns how many were added.
 */
export async function seedApiKeys(
  store: KeyStore,
  keys: readonly string[],
  now: Date,
  limits: ApiKeyLimits = DEFAULT_KEY_LIMITS,
): Promise<number> {
  validateKeyLimits(limits);
  let added = 0;
  for (const key of new Set(keys)) {
    if (!KEY_TEXT.test(key)) throw new RangeError('each API_KEYS entry must be 1 to 256 visible ASCII characters');
    const hash = hashApiKey(key);
    const inserted = await store.insert({
      id: seededKeyId(hash),
      name: 'seeded from API_KEYS',
      hash,
      created: now,
      disabled: false,
      ...limits,
    });
    if (inserted) added++;
  }
  return added;
}

/** The key record for a presented x-api-key header value, or the 401/403 that refuses it. */
export async function authenticateApiKey(store: KeyStore, presented: string | null): Promise<ApiKeyRecord> {
  if (presented === null || presented.trim() === '') throw ApiError.missingApiKey();
  const key = presented.trim();
  if (!KEY_TEXT.test(key)) throw ApiError.invalidApiKey();
  const hash = hashApiKey(key);
  const record = await store.findByHash(hash);
  if (record === undefined || !digestsEqual(record.hash, hash)) throw ApiError.invalidApiKey();
  if (record.disabled) throw ApiError.disabledApiKey();
  return record;
}

function copyRecord(record: ApiKeyRecord): ApiKeyRecord {
  return { ...record, hash: new Uint8Array(record.hash), created: new Date(record.created) };
}

export function createMemoryKeyStore(): KeyStore {
  const byId = new Map<string, ApiKeyRecord>();
  const idByHash = new Map<string, string>();
  return {
    async findByHash(hash) {
      const id = idByHash.get(bytesToHex(hash));
      const record = id === undefined ? undefined : byId.get(id);
      return record === undefined ? undefined : copyRecord(record);
    },
    async insert(record) {
      const hashHex = bytesToHex(record.hash);
      if (byId.has(record.id) || idByHash.has(hashHex)) return false;
      byId.set(record.id, copyRecord(record));
      idByHash.set(hashHex, record.id);
      return true;
    },
    async list() {
      return [...byId.values()].map(copyRecord).sort((a, b) => a.created.getTime() - b.created.getTime());
    },
    async setDisabled(id, disabled) {
      const record = byId.get(id);
      if (record === undefined) return false;
      record.disabled = disabled;
      return true;
    },
  };
}

export interface KeyCacheOptions {
  /** How long a looked-up key (or its absence) is reused; a disabled or new key takes effect within this time. */
  ttlMs: number;
  /** Epoch milliseconds. */
  clock: () => number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
}

/**
 * Saves the database a lookup per request. Writes go straight through and clear the cache of this instance; other
 * instances see them within `ttlMs`.
 */
export function createCachedKeyStore(inner: KeyStore, options: KeyCacheOptions): KeyStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<string, { record: ApiKeyRecord | undefined; expiresAt: number }>();
  return {
    async findByHash(hash) {
      const hashHex = bytesToHex(hash);
      const now = options.clock();
      const cached = cache.get(hashHex);
      if (cached !== undefined && cached.expiresAt > now) {
        return cached.record === undefined ? undefined : copyRecord(cached.record);
      }
      const record = await inner.findByHash(hash);
      cache.delete(hashHex);
      if (cache.size >= maxEntries) {
        const oldest = cache.keys().next();
        if (oldest.done !== true) cache.delete(oldest.value);
      }
      cache.set(hashHex, { record, expiresAt: now + options.ttlMs });
      return record === undefined ? undefined : copyRecord(record);
    },
    async insert(record) {
      cache.clear();
      return inner.insert(record);
    },
    list: () => inner.list(),
    async setDisabled(id, disabled) {
      cache.clear();
      return inner.setDisabled(id, disabled);
    },
  };
}

/** For lib/db's migration list. Limits are RU with three decimals, exact in numeric. */
/** What the SQL key store needs of lib/db's `Db` (which satisfies it). */
export interface SqlQueryable {
  query<T>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
}

interface ApiKeyRow {
  id: string;
  name: string;
  hash: Uint8Array;
  created: Date | string;
  disabled: boolean;
  ru_per_second: string | number;
  ru_per_month: string | number;
}

const KEY_COLUMNS = 'id, name, hash, created, disabled, ru_per_second, ru_per_month';

function fromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    hash: new Uint8Array(row.hash),
    created: new Date(row.created),
    disabled: row.disabled,
    milliRuPerSecond: parseRu(String(row.ru_per_second)),
    milliRuPerMonth: parseRu(String(row.ru_per_month)),
  };
}

export function createSqlKeyStore(db: SqlQueryable): KeyStore {
  return {
    async findByHash(hash) {
      const { rows } = await db.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1`, [hash]);
      const row = rows[0];
      return row === undefined ? undefined : fromRow(row);
    },
    async insert(record) {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO api_keys (${KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
        [
          record.id,
          record.name,
          record.hash,
          record.created.toISOString(),
          record.disabled,
          formatRu(record.milliRuPerSecond),
          formatRu(record.milliRuPerMonth),
        ],
      );
      return rows.length === 1;
    },
    async list() {
      const { rows } = await db.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created, id`);
      return rows.map(fromRow);
    },
    async setDisabled(id, disabled) {
      const { rows } = await db.query<{ id: string }>('UPDATE api_keys SET disabled = $2 WHERE id = $1 RETURNING id', [
        id,
        disabled,
      ]);
      return rows.length === 1;
    },
  };
}
