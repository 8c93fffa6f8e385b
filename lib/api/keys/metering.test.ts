import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyLimits } from './keys';
import {
  createMemoryMeter,
  createMeter,
  createRedisMeter,
  secondsUntil,
  windowsAt,
  type ChargeResult,
  type Meter,
} from './metering';

/** Ahead of the real clock: Redis expires window keys at absolute times, so a past window would vanish at once. */
const SECOND_START = Date.UTC(2036, 10, 22, 12, 0, 0);
const AMPLE: ApiKeyLimits = { milliRuPerSecond: 1e12, milliRuPerMonth: 1e14 };

function counts(results: ChargeResult[]) {
  const tally = { charged: 0, rate_limited: 0, allowance_exhausted: 0 };
  for (const result of results) tally[result.outcome]++;
  return tally;
}

describe('windows', () => {
  it('aligns seconds to the epoch and months to UTC calendar months', () => {
    const windows = windowsAt(Date.UTC(2026, 11, 31, 23, 59, 59, 250));
    expect(windows.month).toBe('2026-12');
    expect(windows.monthResetAt).toBe(Date.UTC(2027, 0, 1));
    expect(windows.secondResetAt - Date.UTC(2026, 11, 31, 23, 59, 59, 250)).toBe(750);
    expect(windowsAt(Date.UTC(2027, 0, 1)).month).toBe('2027-01');
  });

  it('rounds the wait up to whole seconds, at least one', () => {
    expect(secondsUntil(2000, 1001)).toBe(1);
    expect(secondsUntil(2000, 1999)).toBe(1);
    expect(secondsUntil(5000, 1500)).toBe(4);
    expect(secondsUntil(1000, 1000)).toBe(1);
  });
});

function meterContract(name: string, makeMeter: () => Meter, newKeyId: () => string) {
  describe(`${name} meter`, () => {
    it('charges 1,000 concurrent calls exactly their sum', async () => {
      const meter = makeMeter();
      const keyId = newKeyId();
      const costs = Array.from({ length: 1000 }, (_, i) => [10, 100, 500, 1000, 1][i % 5] ?? 0);
      const results = await Promise.all(costs.map((cost) => meter.charge(keyId, cost, AMPLE, SECOND_START + 400)));
      expect(counts(results).charged).toBe(1000);
      const sum = costs.reduce((a, b) => a + b, 0);
      const usage = await meter.usage(keyId, AMPLE, SECOND_START + 900);
      expect(usage.monthUsed).toBe(sum);
      expect(usage.secondUsed).toBe(sum);
      expect(usage.monthRemaining).toBe(AMPLE.milliRuPerMonth - sum);
    });

    it('admits exactly the monthly allowance under concurrency, then answers allowance_exhausted', async () => {
      const meter = makeMeter();
      const keyId = newKeyId();
      const limits = { milliRuPerSecond: 1e12, milliRuPerMonth: 50_000 };
      const results = await Promise.all(
        Array.from({ length: 1000 }, () => meter.charge(keyId, 100, limits, SECOND_START)),
      );
      expect(counts(results)).toEqual({ charged: 500, rate_limited: 0, allowance_exhausted: 500 });
      expect((await meter.usage(keyId, limits, SECOND_START)).monthUsed).toBe(50_000);
      const later = await meter.charge(keyId, 10, limits, SECOND_START + 86_400_000);
      expect(later.outcome).toBe('allowance_exhausted');
      expect(later.monthRemaining).toBe(0);
      expect(later.monthResetAt).toBe(Date.UTC(2036, 11, 1));
      const nextMonth = await meter.charge(keyId, 10, limits, Date.UTC(2036, 11, 1, 0, 0, 0, 5));
      expect(nextMonth.outcome).toBe('charged');
      expect(nextMonth.monthRemaining).toBe(49_990);
    });

    it('admits exactly the per-second budget under concurrency, then rate-limits until the next second', async () => {
      const meter = makeMeter();
      const keyId = newKeyId();
      const limits = { milliRuPerSecond: 5000, milliRuPerMonth: 1e9 };
      const now = SECOND_START + 250;
      const results = await Promise.all(Array.from({ length: 1000 }, () => meter.charge(keyId, 10, limits, now)));
      expect(counts(results)).toEqual({ charged: 500, rate_limited: 500, allowance_exhausted: 0 });
      const limited = results.find((result) => result.outcome === 'rate_limited');
      expect(limited).toMatchObject({ retryAfterSeconds: 1, secondRemaining: 0, secondResetAt: SECOND_START + 1000 });
      const next = await meter.charge(keyId, 10, limits, SECOND_START + 1000);
      expect(next).toMatchObject({ outcome: 'charged', secondRemaining: 4990, monthRemaining: 1e9 - 5010 });
    });

    it('rate-limits a call that does not fit what is left of the window', async () => {
      const meter = makeMeter();
      const keyId = newKeyId();
      const limits = { milliRuPerSecond: 1000, milliRuPerMonth: 1e9 };
      for (let i = 0; i < 3; i++) {
        expect((await meter.charge(keyId, 300, limits, SECOND_START + 10)).outcome).toBe('charged');
      }
      const refused = await meter.charge(keyId, 300, limits, SECOND_START + 20);
      expect(refused).toMatchObject({ outcome: 'rate_limited', retryAfterSeconds: 1, secondRemaining: 100 });
      expect((await meter.charge(keyId, 100, limits, SECOND_START + 30)).outcome).toBe('charged');
      expect((await meter.usage(keyId, limits, SECOND_START + 40)).secondUsed).toBe(1000);
    });

    it('answers allowance_exhausted before rate_limited when both apply', async () => {
      const meter = makeMeter();
      const keyId = newKeyId();
      const limits = { milliRuPerSecond: 1000, milliRuPerMonth: 1000 };
      expect((await meter.charge(keyId, 1000, limits, SECOND_START)).outcome).toBe('charged');
      expect((await meter.charge(keyId, 1, limits, SECOND_START)).outcome).toBe('allowance_exhausted');
    });

    it('refunds a charge, and only the month once the second has passed', async () => {
      const meter = makeMeter();
      const keyId = newKeyId();
      const limits = { milliRuPerSecond: 10_000, milliRuPerMonth: 1e9 };
      const first = await meter.charge(keyId, 700, limits, SECOND_START);
      const second = await meter.charge(keyId, 500, limits, SECOND_START);
      if (first.outcome !== 'charged' || second.outcome !== 'charged') throw new Error('expected charges');
      await meter.refund(first.receipt);
      expect(await meter.usage(keyId, limits, SECOND_START)).toMatchObject({ secondUsed: 500, monthUsed: 500 });
      await meter.charge(keyId, 200, limits, SECOND_START + 1500);
      await meter.refund(second.receipt);
      expect(await meter.usage(keyId, limits, SECOND_START + 1500)).toMatchObject({ secondUsed: 200, monthUsed: 200 });
    });

    it('charges nothing for a free call and reports the state', async () => {
      const meter = makeMeter();
      const keyId = newKeyId();
      const limits = { milliRuPerSecond: 1000, milliRuPerMonth: 5000 };
      await meter.charge(keyId, 1000, limits, SECOND_START);
      const free = await meter.charge(keyId, 0, limits, SECOND_START);
      expect(free).toMatchObject({ outcome: 'charged', secondRemaining: 0, monthRemaining: 4000 });
    });

    it('refuses costs that are not whole milli-RU', async () => {
      await expect(makeMeter().charge(newKeyId(), 0.5, AMPLE, SECOND_START)).rejects.toThrow(RangeError);
    });
  });
}

let memoryKeys = 0;
meterContract('in-process', createMemoryMeter, () => `key_${++memoryKeys}`);

describe('Redis', () => {
  const prefix = `dagboard-test:${randomBytes(6).toString('hex')}:`;
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  };
  let shared: Redis;
  let keyCounter = 0;

  beforeAll(() => {
    shared = connect();
  });

  afterAll(async () => {
    const leftovers = await shared.keys(`${prefix}*`);
    if (leftovers.length > 0) await shared.del(...leftovers);
    await Promise.all(clients.map((client) => client.quit()));
  });

  meterContract('Redis', () => createRedisMeter({ redis: shared, prefix }), () => `key_${++keyCounter}`);

  it('shares one budget exactly between two app instances', async () => {
    const instances = [createRedisMeter({ redis: connect(), prefix }), createRedisMeter({ redis: connect(), prefix })];
    // Each instance sends 500 calls, so a budget of 700 calls needs both of them.
    const limits = { milliRuPerSecond: 1e12, milliRuPerMonth: 7_000 };
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => instances[i % 2]!.charge('shared_key', 10, limits, SECOND_START)),
    );
    expect(counts(results)).toEqual({ charged: 700, rate_limited: 0, allowance_exhausted: 300 });
    const chargedBy = (parity: number) =>
      results.filter((result, i) => i % 2 === parity && result.outcome === 'charged').length;
    expect(chargedBy(0)).toBeGreaterThanOrEqual(200);
    expect(chargedBy(1)).toBeGreaterThanOrEqual(200);
    for (const instance of instances) {
      expect((await instance.usage('shared_key', limits, SECOND_START)).monthUsed).toBe(7_000);
    }
  });

  it('leaves both buckets with an expiry after their window', async () => {
    const meter = createRedisMeter({ redis: shared, prefix });
    const now = Date.now();
    await meter.charge('expiring_key', 10, AMPLE, now);
    const keys = await shared.keys(`${prefix}{expiring_key}:*`);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const ttl = await shared.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(key.includes(':s:') ? 6000 : 32 * 86_400_000);
    }
  });

  it('falls back to EVAL when Redis does not know the script (NOSCRIPT)', async () => {
    let refusals = 0;
    const forgetful = new Proxy(shared, {
      get(target, property, receiver) {
        if (property === 'evalsha') {
          return async () => {
            refusals++;
            throw new Error('NOSCRIPT No matching script. Please use EVAL.');
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const meter = createRedisMeter({ redis: forgetful, prefix });
    expect((await meter.charge('noscript_key', 10, AMPLE, SECOND_START)).outcome).toBe('charged');
    expect((await meter.usage('noscript_key', AMPLE, SECOND_START)).monthUsed).toBe(10);
    expect(refusals).toBe(1);
  });
});

describe('createMeter', () => {
  it('is in-process without a Redis URL', async () => {
    const { meter, close } = createMeter({});
    expect((await meter.charge('k', 10, AMPLE, SECOND_START)).outcome).toBe('charged');
    await close();
  });

  it('shares state through Redis with a Redis URL', async () => {
    const prefix = `dagboard-test:${randomBytes(6).toString('hex')}:`;
    const first = createMeter({ redisUrl: 'redis://127.0.0.1:6379', prefix });
    const second = createMeter({ redisUrl: 'redis://127.0.0.1:6379', prefix });
    try {
      await first.meter.charge('k', 10, AMPLE, SECOND_START);
      expect((await second.meter.usage('k', AMPLE, SECOND_START)).monthUsed).toBe(10);
      const refunded = await second.meter.charge('k', 5, AMPLE, SECOND_START);
      if (refunded.outcome !== 'charged') throw new Error('expected a charge');
      await first.meter.refund(refunded.receipt);
      expect((await first.meter.usage('k', AMPLE, SECOND_START)).monthUsed).toBe(10);
    } finally {
      const cleanup = new Redis({ host: '127.0.0.1', port: 6379 });
      const leftovers = await cleanup.keys(`${prefix}*`);
      if (leftovers.length > 0) await cleanup.del(...leftovers);
      await cleanup.quit();
      await first.close();
      await second.close();
    }
  });
});
