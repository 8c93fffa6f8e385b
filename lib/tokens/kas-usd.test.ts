import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { feedKasUsd, fixedKasUsd, simulatedKasUsd } from './kas-usd';

describe('KAS/USD sources', () => {
  it('fixed: the configured rate at every time; refuses a non-positive rate', () => {
    const source = fixedKasUsd(0.125);
    expect([source.rateAt(0), source.rateAt(1e13)]).toEqual([0.125, 0.125]);
    expect(source.label).toBe('fixed');
    expect(() => fixedKasUsd(0)).toThrow(RangeError);
  });

  it('simulated: labelled, positive, reproducible per seed, different across seeds, and moving over time', () => {
    const a = simulatedKasUsd('seed-a', 0.1);
    const again = simulatedKasUsd('seed-a', 0.1);
    const b = simulatedKasUsd('seed-b', 0.1);
    const times = Array.from({ length: 400 }, (_, index) => 1_700_000_000_000 + index * 86_400_000);
    const series = times.map((time) => a.rateAt(time)!);
    expect(a.label).toBe('simulated');
    expect(series).toEqual(times.map((time) => again.rateAt(time)));
    expect(series).not.toEqual(times.map((time) => b.rateAt(time)));
    expect(Math.min(...series)).toBeGreaterThan(0.03);
    expect(Math.max(...series)).toBeLessThan(0.3);
    expect(new Set(series).size).toBeGreaterThan(300);
  });

  describe('feed', () => {
    let server: Server | undefined;
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

    const serve = async (answer: () => { status: number; body: string }) => {
      server = createServer((_, response) => {
        const { status, body } = answer();
        response.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/kas-usd`;
    };

    it('reads the documented shape over loopback: the latest point at or before a time', async () => {
      let body = JSON.stringify({ prices: [{ t: 2000, usd: 0.2 }, { t: 1000, usd: 0.1 }, { t: 3000, usd: 0.3 }] });
      const url = await serve(() => ({ status: 200, body }));
      const source = feedKasUsd({ url, refreshMs: 60_000 });
      try {
        await source.refresh();
        expect([source.rateAt(500), source.rateAt(1000), source.rateAt(2999), source.rateAt(10_000)]).toEqual([0.1, 0.1, 0.2, 0.3]);
        body = JSON.stringify({ prices: [{ t: 1000, usd: 'high' }] });
        await expect(source.refresh()).rejects.toThrow('unexpected shape');
        expect(source.rateAt(2000)).toBe(0.2);
      } finally {
        source.close();
      }
    });

    it('is unknown until the feed answers, and refuses non-http URLs', async () => {
      const url = await serve(() => ({ status: 503, body: '{}' }));
      const source = feedKasUsd({ url, refreshMs: 60_000 });
      try {
        await expect(source.refresh()).rejects.toThrow('HTTP 503');
        expect(source.rateAt(1000)).toBeNull();
      } finally {
        source.close();
      }
      expect(() => feedKasUsd({ url: 'file:///etc/passwd', refreshMs: 1000 })).toThrow(RangeError);
    });
  });
});
