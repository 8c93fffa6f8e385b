/**
 * RU metering: each key has a budget per one-second window (fixed windows aligned to the epoch second) and per UTC
 * calendar month. `charge` is one atomic check-and-add over both: it either adds the cost to both windows or to
 * neither. The month is checked first, so a key that has spent its month gets 402 (waiting a second would not help).
 *
 * Two phases keep uncharged outcomes uncharged: the wrapper charges before running the handler (so concurrent calls
 * cannot overspend) and calls `refund` with the receipt when the outcome turns out to be uncharged (5xx). 401 and 429/
 * 402 never reach `charge` or are refused by it. Amounts are integer milli-RU.
 */
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import type { ApiKeyLimits } from './keys';

export type ChargeOutcome = 'charged' | 'rate_limited' | 'allowance_exhausted';

export interface ChargeReceipt {
  keyId: string;
  cost: number;
  /** Epoch second of the window charged. */
  second: number;
  /** UTC month charged, "YYYY-MM". */
  month: string;
}

export interface MeterState {
  /** milli-RU left in the current one-second window (after the charge, when it was charged). */
  secondRemaining: number;
  /** milli-RU left of this month's allowance (after the charge, when it was charged). */
  monthRemaining: number;
  /** Epoch ms when the current one-second window ends. */
  secondResetAt: number;
  /** Epoch ms when the month ends (UTC). */
  monthResetAt: number;
}

export type ChargeResult =
  | (MeterState & { outcome: 'charged'; receipt: ChargeReceipt })
  | (MeterState & { outcome: 'rate_limited'; retryAfterSeconds: number })
  | (MeterState & { outcome: 'allowance_exhausted' });

export interface MeterUsage extends MeterState {
  secondUsed: number;
  monthUsed: number;
}

export interface Meter {
  charge(keyId: string, cost: number, limits: ApiKeyLimits, now: number): Promise<ChargeResult>;
  /** Gives back a charge (no-op for a window that has already ended). */
  refund(receipt: ChargeReceipt): Promise<void>;
  usage(keyId: string, limits: ApiKeyLimits, now: number): Promise<MeterUsage>;
}

export interface Windows {
  second: number;
  secondResetAt: number;
  month: string;
  monthResetAt: number;
}

export function windowsAt(now: number): Windows {
  const second = Math.floor(now / 1000);
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const monthIndex = date.getUTCMonth();
  return {
    second,
    secondResetAt: (second + 1) * 1000,
    month: `${String(year).padStart(4, '0')}-${String(monthIndex + 1).padStart(2, '0')}`,
    monthResetAt: Date.UTC(year, monthIndex + 1, 1),
  };
}

/** Whole seconds until the window ends, at least 1 (the value of Retry-After and ratelimit-reset). */
export function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

function assertCost(cost: number): void {
  if (!Number.isSafeInteger(cost) || cost < 0) throw new RangeError(`cost must be whole milli-RU ≥ 0, got ${cost}`);
}

function decide(
  keyId: string,
  cost: number,
  limits: ApiKeyLimits,
  now: number,
  windows: Windows,
  used: { second: number; month: number },
): ChargeResult {
  const base = { secondResetAt: windows.secondResetAt, monthResetAt: windows.monthResetAt };
  const remaining = (secondUsed: number, monthUsed: number) => ({
    ...base,
    secondRemaining: Math.max(0, limits.milliRuPerSecond - secondUsed),
    monthRemaining: Math.max(0, limits.milliRuPerMonth - monthUsed),
  });
  if (used.month + cost > limits.milliRuPerMonth) {
    return { outcome: 'allowance_exhausted', ...remaining(used.second, used.month) };
  }
  if (used.second + cost > limits.milliRuPerSecond) {
    return {
      outcome: 'rate_limited',
      retryAfterSeconds: secondsUntil(windows.secondResetAt, now),
      ...remaining(used.second, used.month),
    };
  }
  return {
    outcome: 'charged',
    receipt: { keyId, cost, second: windows.second, month: windows.month },
    ...remaining(used.second + cost, used.month + cost),
  };
}

interface KeyWindows {
  second: number;
  secondUsed: number;
  month: string;
  monthUsed: number;
}

/** One process's meter. Each call runs to completion without awaiting, so concurrent calls are exact. */
export function createMemoryMeter(): Meter {
  const state = new Map<string, KeyWindows>();
  const current = (keyId: string, windows: Windows): KeyWindows => {
    let entry = state.get(keyId);
    if (entry === undefined) {
      entry = { second: windows.second, secondUsed: 0, month: windows.month, monthUsed: 0 };
      state.set(keyId, entry);
    }
    if (entry.second !== windows.second) {
      entry.second = windows.second;
      entry.secondUsed = 0;
    }
    if (entry.month !== windows.month) {
      entry.month = windows.month;
      entry.monthUsed = 0;
    }
    return entry;
  };
  return {
    async charge(keyId, cost, limits, now) {
      assertCost(cost);
      const windows = windowsAt(now);
      const entry = current(keyId, windows);
      const result = decide(keyId, cost, limits, now, windows, { second: entry.secondUsed, month: entry.monthUsed });
      if (result.outcome === 'charged') {
        entry.secondUsed += cost;
        entry.monthUsed += cost;
      }
      return result;
    },
    async refund(receipt) {
      const entry = state.get(receipt.keyId);
      if (entry === undefined) return;
      if (entry.second === receipt.second) entry.secondUsed = Math.max(0, entry.secondUsed - receipt.cost);
      if (entry.month === receipt.month) entry.monthUsed = Math.max(0, entry.monthUsed - receipt.cost);
    },
    async usage(keyId, limits, now) {
      const windows = windowsAt(now);
      const entry = state.get(keyId);
      const secondUsed = entry?.second === windows.second ? entry.secondUsed : 0;
      const monthUsed = entry?.month === windows.month ? entry.monthUsed : 0;
      return usageOf(limits, windows, secondUsed, monthUsed);
    },
  };
}

function usageOf(limits: ApiKeyLimits, windows: Windows, secondUsed: number, monthUsed: number): MeterUsage {
  return {
    secondUsed,
    monthUsed,
    secondRemaining: Math.max(0, limits.milliRuPerSecond - secondUsed),
    monthRemaining: Math.max(0, limits.milliRuPerMonth - monthUsed),
    secondResetAt: windows.secondResetAt,
    monthResetAt: windows.monthResetAt,
  };
}

/*
 * KEYS[1] second bucket, KEYS[2] month bucket; ARGV: cost, per-second limit, month limit, second bucket expiry (epoch
 * ms), month bucket expiry (epoch ms). Returns {outcome (0 charged, 1 rate limited, 2 allowance exhausted), second
 * used, month used}, the used amounts after the charge when charged.
 */
const CHARGE_SCRIPT = `
local second = tonumber(redis.call('GET', KEYS[1]) or '0')
local month = tonumber(redis.call('GET', KEYS[2]) or '0')
local cost = tonumber(ARGV[1])
if month + cost > tonumber(ARGV[3]) then return {2, second, month} end
if second + cost > tonumber(ARGV[2]) then return {1, second, month} end
second = redis.call('INCRBY', KEYS[1], cost)
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
month = redis.call('INCRBY', KEYS[2], cost)
redis.call('PEXPIREAT', KEYS[2], ARGV[5])
return {0, second, month}
`;

/* KEYS: the buckets charged; ARGV[1]: cost. Buckets that have expired stay gone. */
const REFUND_SCRIPT = `
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('DECRBY', KEYS[i], ARGV[1]) end
end
return 0
`;

/** Buckets outlive their window by this much so a late refund still finds them. */
const SECOND_BUCKET_GRACE_MS = 5_000;
const MONTH_BUCKET_GRACE_MS = 24 * 3600 * 1000;

export interface RedisMeterOptions {
  redis: Redis;
  /** Prefix of every Redis key this meter writes (e.g. "dagboard:ru:"). */
  prefix: string;
}

/**
 * The meter shared by every app instance on one Redis: each charge is one Lua script, atomic in Redis. Both buckets of
 * a key share a hash tag, so they live in one slot on a Redis Cluster too.
 */
export function createRedisMeter({ redis, prefix }: RedisMeterOptions): Meter {
  const bucketKeys = (keyId: string, second: number, month: string) =>
    [`${prefix}{${keyId}}:s:${second}`, `${prefix}{${keyId}}:m:${month}`] as const;

  const scripts = new Map<string, string>();
  const run = async (script: string, keys: readonly string[], args: readonly (string | number)[]) => {
    let sha = scripts.get(script);
    if (sha === undefined) {
      sha = createHash('sha1').update(script).digest('hex');
      scripts.set(script, sha);
    }
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(script, keys.length, ...keys, ...args);
    }
  };

  return {
    async charge(keyId, cost, limits, now) {
      assertCost(cost);
      const windows = windowsAt(now);
      const keys = bucketKeys(keyId, windows.second, windows.month);
      const reply = (await run(CHARGE_SCRIPT, keys, [
        cost,
        limits.milliRuPerSecond,
        limits.milliRuPerMonth,
        windows.secondResetAt + SECOND_BUCKET_GRACE_MS,
        windows.monthResetAt + MONTH_BUCKET_GRACE_MS,
      ])) as [number, number, number];
      const [code, secondUsed, monthUsed] = reply;
      if (code === 0) {
        return decide(keyId, cost, limits, now, windows, { second: secondUsed - cost, month: monthUsed - cost });
      }
      const result = decide(keyId, cost, limits, now, windows, { second: secondUsed, month: monthUsed });
      if (result.outcome === 'charged') throw new Error('Redis meter refused a charge the limits admit');
      return result;
    },
    async refund(receipt) {
      await run(REFUND_SCRIPT, bucketKeys(receipt.keyId, receipt.second, receipt.month), [receipt.cost]);
    },
    async usage(keyId, limits, now) {
      const windows = windowsAt(now);
      const [second, month] = await redis.mget(...bucketKeys(keyId, windows.second, windows.month));
      return usageOf(limits, windows, Number(second ?? 0), Number(month ?? 0));
    },
  };
}

export interface MeterSetup {
  meter: Meter;
  /** Closes the Redis connection, when there is one. */
  close(): Promise<void>;
}

export interface MeterSettings {
  /** REDIS_URL; absent → the in-process meter. */
  redisUrl?: string;
  prefix?: string;
  /** Connection errors of the Redis client (it reconnects by itself). */
  onRedisError?: (error: Error) => void;
}

/**
 * The meter the settings ask for: Redis (shared by every instance) when `redisUrl` is set, else in-process. A charge
 * waits for at most one reconnection attempt while Redis is down, then fails (a 5xx, uncharged) instead of hanging.
 */
export function createMeter(settings: MeterSettings): MeterSetup {
  if (settings.redisUrl === undefined) return { meter: createMemoryMeter(), close: async () => undefined };
  const redis = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', settings.onRedisError ?? (() => undefined));
  return {
    meter: createRedisMeter({ redis, prefix: settings.prefix ?? 'dagboard:ru:' }),
    close: async () => {
      await redis.quit();
    },
  };
}
