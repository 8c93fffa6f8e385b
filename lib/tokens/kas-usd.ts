/**
 * KAS/USD series for the token charts' USD figures. Three sources:
 *   - fixed: one configured rate at every time;
 *   - feed: an operator's HTTP(S) URL answering JSON `{"prices":[{"t":<ms>,"usd":<number>},…]}` (any order; the rate
 *     at a time is the latest point at or before it, the earliest point before the series starts), fetched at start
 *     and then every refresh interval; until the first answer the rate is unknown;
 *   - simulated: a deterministic, seeded series (the devnet default) around a base rate, the same for every process
 *     with the same seed; labelled `simulated`, it is not a market price.
 */
import { z } from 'zod';
import { blake2b256 } from '../kaspa/hashing';
import type { KasUsdRate } from './market';

export interface KasUsdSource {
  readonly kind: 'fixed' | 'feed' | 'simulated';
  /** Shown next to USD figures, e.g. "simulated". */
  readonly label: string;
  rateAt: KasUsdRate;
  close(): void;
}

export function fixedKasUsd(rate: number): KasUsdSource {
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError('a fixed KAS/USD rate must be a positive number');
  return { kind: 'fixed', label: 'fixed', rateAt: () => rate, close: () => undefined };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WAVES: readonly { periodMs: number; amplitude: number }[] = [
  { periodMs: 97 * DAY, amplitude: 0.3 },
  { periodMs: 17 * DAY, amplitude: 0.12 },
  { periodMs: 2.3 * DAY, amplitude: 0.05 },
  { periodMs: 5 * HOUR, amplitude: 0.015 },
];

/** base × exp(Σ amplitude·sin(2πt/period + phase)), phases from blake2b(seed): smooth, positive, reproducible. */
export function simulatedKasUsd(seed: string, base: number): KasUsdSource {
  if (!(base > 0) || !Number.isFinite(base)) throw new RangeError('the simulated KAS/USD base must be a positive number');
  const digest = blake2b256(new TextEncoder().encode(`kas-usd ${seed}`));
  const phases = WAVES.map((_, index) => ((digest[index * 2]! * 256 + digest[index * 2 + 1]!) / 65_536) * 2 * Math.PI);
  return {
    kind: 'simulated',
    label: 'simulated',
    rateAt(timeMs) {
      let exponent = 0;
      WAVES.forEach((wave, index) => {
        exponent += wave.amplitude * Math.sin((2 * Math.PI * timeMs) / wave.periodMs + phases[index]!);
      });
      return Math.round(base * Math.exp(exponent) * 1e6) / 1e6;
    },
    close: () => undefined,
  };
}

export const kasUsdFeedSchema = z.object({
  prices: z
    .array(z.object({ t: z.number().int().nonnegative(), usd: z.number().positive().finite() }))
    .min(1)
    .max(1_000_000),
});

export interface FeedOptions {
  url: string;
  refreshMs: number;
  fetch?: typeof fetch;
  log?: (line: string) => void;
  /** Per request. */
  timeoutMs?: number;
}

export interface FeedKasUsd extends KasUsdSource {
  /** Fetches the feed now; resolves when the series is replaced (or rejects, keeping the previous series). */
  refresh(): Promise<void>;
}

export function feedKasUsd(options: FeedOptions): FeedKasUsd {
  const url = new URL(options.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError('the KAS/USD feed must be http or https');
  const fetchJson = options.fetch ?? fetch;
  let times: number[] = [];
  let rates: number[] = [];
  const refresh = async () => {
    const response = await fetchJson(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
    if (!response.ok) throw new Error(`KAS/USD feed answered HTTP ${response.status}`);
    const parsed = kasUsdFeedSchema.safeParse(await response.json());
    if (!parsed.success) throw new Error(`KAS/USD feed answered an unexpected shape: ${parsed.error.issues[0]?.message}`);
    const points = [...parsed.data.prices].sort((a, b) => a.t - b.t);
    times = points.map((point) => point.t);
    rates = points.map((point) => point.usd);
  };
  const attempt = () =>
    refresh().catch((error: unknown) => options.log?.(`KAS/USD feed: ${error instanceof Error ? error.message : String(error)}`));
  void attempt();
  const timer = setInterval(() => void attempt(), options.refreshMs);
  timer.unref();
  return {
    kind: 'feed',
    label: 'feed',
    refresh,
    rateAt(timeMs) {
      if (times.length === 0) return null;
      let low = 0;
      let high = times.length - 1;
      if (timeMs < times[0]!) return rates[0]!;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (times[middle]! <= timeMs) low = middle;
        else high = middle - 1;
      }
      return rates[low]!;
    },
    close: () => clearInterval(timer),
  };
}
