/**
 * Market math over engine output: fills (accepted `send` ops with a price and a buyer other than the seller), their
 * price in KAS per whole token (exact as a bigint ratio, a number only at the edge), OHLC candles in KAS and USD,
 * and the {t, h, m, tf} stats series.
 *
 * Decisions (the research notes leave them open):
 * - Candles bucket fills by floor(timestamp / bucket) in UTC; inside a bucket open/close are the first/last fill by
 *   opScore, not by timestamp.
 * - Empty buckets carry the last close forward (open = high = low = close, zero volume, zero trades) so the chart is
 *   continuous; buckets before the first fill of the token are omitted.
 * - USD candles price each fill at the KAS/USD rate of its own time, so USD high/low are the extremes of those USD
 *   prices; a carried bucket uses the rate at the bucket start. A bucket whose rate is unknown has usd = null.
 * - Stats items are cumulative snapshots: h = holderTotal, m = mintTotal, tf = transferTotal as of the end of the
 *   bucket (t = bucket start), matching how holder counts are naturally snapshots.
 */
import type { OpRecord } from './engine';

export const SOMPI_PER_KAS = 100_000_000n;

export interface Fill {
  tick: string;
  opScore: bigint;
  /** Accepting block time, ms. */
  timestamp: number;
  txId: string;
  seller: string;
  buyer: string;
  /** Tokens bought, smallest units. */
  amount: bigint;
  /** Sompi paid to the seller (the fill's outputs[0]). */
  price: bigint;
  dec: number;
}

/** A non-negative rational; the denominator is positive. */
export interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

/** Every accepted `send` that is a fill: price > 0 and a buyer other than the seller (a cancel has neither). */
export function fillsFromOps(ops: readonly OpRecord[]): Fill[] {
  const fills: Fill[] = [];
  for (const record of ops) {
    for (const script of record.scripts) {
      const { op } = script;
      if (!script.accepted || op.op !== 'send' || op.price === 0n || op.to === op.from) continue;
      if (script.amount === null || script.amount === 0n || script.dec === null) continue;
      fills.push({
        tick: op.tick,
        opScore: record.opScore,
        timestamp: record.mtsAdd,
        txId: record.txId,
        seller: op.from,
        buyer: op.to,
        amount: script.amount,
        price: op.price,
        dec: script.dec,
      });
    }
  }
  return fills;
}

/** KAS per whole token: (price / 10^8) / (amount / 10^dec) = price × 10^dec / (amount × 10^8). */
export function fillPrice(fill: Pick<Fill, 'amount' | 'price' | 'dec'>): Ratio {
  if (fill.amount <= 0n) throw new RangeError('a fill moves a positive amount');
  return { numerator: fill.price * 10n ** BigInt(fill.dec), denominator: fill.amount * SOMPI_PER_KAS };
}

export function compareRatios(a: Ratio, b: Ratio): number {
  const left = a.numerator * b.denominator;
  const right = b.numerator * a.denominator;
  return left < right ? -1 : left > right ? 1 : 0;
}

const SIGNIFICANT_DIGITS = 21;

/** The nearest double to a ratio (via a 21-significant-digit decimal, so huge or tiny values keep their precision). */
export function ratioToNumber(ratio: Ratio): number {
  const { numerator, denominator } = ratio;
  if (denominator <= 0n) throw new RangeError('the denominator must be positive');
  if (numerator === 0n) return 0;
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const scale = Math.max(0, SIGNIFICANT_DIGITS - (magnitude.toString().length - denominator.toString().length));
  const quotient = (magnitude * 10n ** BigInt(scale)) / denominator;
  const value = Number(`${quotient}e-${scale}`);
  return negative ? -value : value;
}

export function sompiToKas(sompi: bigint): number {
  return ratioToNumber({ numerator: sompi, denominator: SOMPI_PER_KAS });
}

export function unitsToTokens(amount: bigint, dec: number): number {
  return ratioToNumber({ numerator: amount, denominator: 10n ** BigInt(dec) });
}

export type ChartInterval = '1d' | '7d' | '1m' | '1y';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The chart range each interval shows and the bucket size inside it ('1m' is a 30-day month). */
export const CHART_INTERVALS: Readonly<Record<ChartInterval, { rangeMs: number; bucketMs: number }>> = {
  '1d': { rangeMs: DAY, bucketMs: 15 * MINUTE },
  '7d': { rangeMs: 7 * DAY, bucketMs: HOUR },
  '1m': { rangeMs: 30 * DAY, bucketMs: 4 * HOUR },
  '1y': { rangeMs: 365 * DAY, bucketMs: DAY },
};

export function isChartInterval(value: string): value is ChartInterval {
  return Object.hasOwn(CHART_INTERVALS, value);
}

export interface ChartWindow {
  bucketMs: number;
  /** Start of the first bucket, ms. */
  first: number;
  /** Start of the bucket holding `now`, ms. */
  last: number;
}

/** rangeMs / bucketMs buckets aligned to UTC multiples of the bucket size, the last one holding `now`. */
export function chartWindow(interval: ChartInterval, now: number): ChartWindow {
  const { rangeMs, bucketMs } = CHART_INTERVALS[interval];
  const last = Math.floor(now / bucketMs) * bucketMs;
  return { bucketMs, first: last - rangeMs + bucketMs, last };
}

export interface UsdCandle {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface Candle {
  /** Bucket start, ms. */
  time: number;
  /** KAS per whole token. */
  open: number;
  high: number;
  low: number;
  close: number;
  volumeKas: number;
  volumeTokens: number;
  trades: number;
  usd: UsdCandle | null;
}

/** KAS/USD at a time (ms); null or undefined when unknown. */
export type KasUsdRate = (timeMs: number) => number | null | undefined;

export interface CandleOptions {
  interval: ChartInterval;
  now: number;
  kasUsd?: KasUsdRate;
}

function byOpScore<T extends { opScore: bigint }>(a: T, b: T): number {
  return a.opScore < b.opScore ? -1 : a.opScore > b.opScore ? 1 : 0;
}

interface PricedFill {
  fill: Fill;
  price: Ratio;
}

function usdCandle(fills: readonly PricedFill[], kasUsd: KasUsdRate): UsdCandle | null {
  const prices: number[] = [];
  let volume = 0;
  for (const { fill, price } of fills) {
    const rate = kasUsd(fill.timestamp);
    if (rate === null || rate === undefined) return null;
    prices.push(ratioToNumber(price) * rate);
    volume += sompiToKas(fill.price) * rate;
  }
  return {
    open: prices[0]!,
    high: Math.max(...prices),
    low: Math.min(...prices),
    close: prices[prices.length - 1]!,
    volume,
  };
}

function tradedCandle(time: number, fills: readonly PricedFill[], kasUsd: KasUsdRate | undefined): Candle {
  let high = fills[0]!.price;
  let low = high;
  let sompi = 0n;
  let units = 0n;
  for (const { fill, price } of fills) {
    if (compareRatios(price, high) > 0) high = price;
    if (compareRatios(price, low) < 0) low = price;
    sompi += fill.price;
    units += fill.amount;
  }
  return {
    time,
    open: ratioToNumber(fills[0]!.price),
    high: ratioToNumber(high),
    low: ratioToNumber(low),
    close: ratioToNumber(fills[fills.length - 1]!.price),
    volumeKas: sompiToKas(sompi),
    volumeTokens: unitsToTokens(units, fills[0]!.fill.dec),
    trades: fills.length,
    usd: kasUsd ? usdCandle(fills, kasUsd) : null,
  };
}

/** A bucket without fills: the previous close (KAS per whole token) carried over, with zero volume. */
export function carriedCandle(time: number, price: number, kasUsd: KasUsdRate | undefined): Candle {
  const rate = kasUsd?.(time);
  const usdPrice = rate === null || rate === undefined ? null : price * rate;
  return {
    time,
    open: price,
    high: price,
    low: price,
    close: price,
    volumeKas: 0,
    volumeTokens: 0,
    trades: 0,
    usd:
      usdPrice === null ? null : { open: usdPrice, high: usdPrice, low: usdPrice, close: usdPrice, volume: 0 },
  };
}

/** Candles of one token's fills over the interval's window (see the module comment for the rules). */
export function buildCandles(fills: readonly Fill[], options: CandleOptions): Candle[] {
  const window = chartWindow(options.interval, options.now);
  const buckets = new Map<number, PricedFill[]>();
  let carried: PricedFill | null = null;
  for (const fill of [...fills].sort(byOpScore)) {
    const bucket = Math.floor(fill.timestamp / window.bucketMs) * window.bucketMs;
    if (bucket > window.last) continue;
    const priced = { fill, price: fillPrice(fill) };
    if (bucket < window.first) {
      carried = priced;
      continue;
    }
    const list = buckets.get(bucket);
    if (list) list.push(priced);
    else buckets.set(bucket, [priced]);
  }
  const candles: Candle[] = [];
  let lastClose = carried?.price ?? null;
  for (let time = window.first; time <= window.last; time += window.bucketMs) {
    const inBucket = buckets.get(time);
    if (inBucket) {
      candles.push(tradedCandle(time, inBucket, options.kasUsd));
      lastClose = inBucket[inBucket.length - 1]!.price;
    } else if (lastClose) {
      candles.push(carriedCandle(time, ratioToNumber(lastClose), options.kasUsd));
    }
  }
  return candles;
}

export interface StatsItem {
  /** Bucket start, ms. */
  t: number;
  /** Holders at the end of the bucket. */
  h: number;
  /** Accepted mints so far. */
  m: number;
  /** Accepted transfers so far. */
  tf: number;
}

export interface CounterSample {
  opScore: bigint;
  timestamp: number;
  holderTotal: number;
  mintTotal: number;
  transferTotal: number;
}

/** The token's counters after each of its op records (engine OpRecord.tokenCounters). */
export function counterSamplesFromOps(ops: readonly OpRecord[], tick: string): CounterSample[] {
  const samples: CounterSample[] = [];
  for (const record of ops) {
    if (record.primary.op.tick !== tick || !record.tokenCounters) continue;
    samples.push({ opScore: record.opScore, timestamp: record.mtsAdd, ...record.tokenCounters });
  }
  return samples;
}

/** Cumulative {t, h, m, tf} per bucket of the interval's window; buckets before the first sample are omitted. */
export function buildStatsHistory(
  samples: readonly CounterSample[],
  options: { interval: ChartInterval; now: number },
): StatsItem[] {
  const window = chartWindow(options.interval, options.now);
  const latestByBucket = new Map<number, CounterSample>();
  let before: CounterSample | null = null;
  for (const sample of [...samples].sort(byOpScore)) {
    const bucket = Math.floor(sample.timestamp / window.bucketMs) * window.bucketMs;
    if (bucket > window.last) continue;
    if (bucket < window.first) before = sample;
    else latestByBucket.set(bucket, sample);
  }
  const items: StatsItem[] = [];
  let latest = before;
  for (let time = window.first; time <= window.last; time += window.bucketMs) {
    const inBucket = latestByBucket.get(time);
    if (inBucket && (!latest || inBucket.opScore > latest.opScore)) latest = inBucket;
    if (latest) items.push({ t: time, h: latest.holderTotal, m: latest.mintTotal, tf: latest.transferTotal });
  }
  return items;
}
