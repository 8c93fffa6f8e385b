import { describe, expect, it } from 'vitest';
import { readVectors } from '../kaspa/test-support/vectors';
import { createTokenEngine } from './engine';
import {
  CHART_INTERVALS,
  buildCandles,
  buildStatsHistory,
  chartWindow,
  compareRatios,
  counterSamplesFromOps,
  fillPrice,
  fillsFromOps,
  ratioToNumber,
  unitsToTokens,
  type CounterSample,
  type Fill,
} from './market';
import { DEPLOY_FEE_FLOOR, MINT_FEE_FLOOR } from './operations';
import { DEVNET_PROFILE } from './profile';
import { KAS, acceptedBlock, listingAddress, reveal, schnorrParty, sendInput, transaction } from './test-support/transactions';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 2026-01-10T00:00:00Z, a multiple of every bucket size. */
const T0 = Date.UTC(2026, 0, 10);

let nextOpScore = 1n;

function fill(timestamp: number, priceSompi: bigint, amount: bigint, dec = 8, opScore?: bigint): Fill {
  return {
    tick: 'TEST',
    opScore: opScore ?? nextOpScore++,
    timestamp,
    txId: 'ff'.repeat(32),
    seller: 'seller',
    buyer: 'buyer',
    amount,
    price: priceSompi,
    dec,
  };
}

describe('prices', () => {
  it('KAS per whole token = (price / 1e8) / (amount / 10^dec), exactly', () => {
    const price = fillPrice({ price: 30n * KAS, amount: 200n, dec: 2 });
    expect(ratioToNumber(price)).toBe(15);
    expect(ratioToNumber(fillPrice({ price: 1n, amount: 10n ** 26n, dec: 18 }))).toBeCloseTo(1e-16, 30);
    expect(ratioToNumber(fillPrice({ price: 123_456_789n, amount: 1n, dec: 0 }))).toBe(1.23456789);
  });

  it('compares ratios exactly where doubles cannot tell them apart', () => {
    const a = { numerator: 10n ** 30n + 1n, denominator: 10n ** 30n };
    const b = { numerator: 10n ** 30n, denominator: 10n ** 30n };
    expect(ratioToNumber(a)).toBe(ratioToNumber(b));
    expect(compareRatios(a, b)).toBe(1);
    expect(compareRatios(b, a)).toBe(-1);
  });

  it('converts huge ratios to the nearest double', () => {
    expect(ratioToNumber({ numerator: 2n ** 80n, denominator: 3n })).toBe(2 ** 80 / 3);
    expect(ratioToNumber({ numerator: 1n, denominator: 3n * 10n ** 40n })).toBe(1 / 3e40);
  });

  it('NACHO (krc20-vectors.json): max and lim in whole tokens', () => {
    interface UnitExample {
      fields: Record<string, string>;
      wholeTokens?: { max: number; lim: number };
    }
    const nacho = readVectors<{ apiUnitExamples: UnitExample[] }>('krc20-vectors.json').apiUnitExamples[0]!;
    const dec = Number(nacho.fields.dec);
    expect(unitsToTokens(BigInt(nacho.fields.max!), dec)).toBe(nacho.wholeTokens!.max);
    expect(unitsToTokens(BigInt(nacho.fields.lim!), dec)).toBe(nacho.wholeTokens!.lim);
  });
});

describe('candles', () => {
  it('chart windows: 96 × 15 min for 1d, 168 × 1 h for 7d, 180 × 4 h for 1m, 365 × 1 d for 1y', () => {
    const now = T0 + 5 * MINUTE;
    for (const [interval, count] of [
      ['1d', 96],
      ['7d', 168],
      ['1m', 180],
      ['1y', 365],
    ] as const) {
      const window = chartWindow(interval, now);
      expect(window.bucketMs).toBe(CHART_INTERVALS[interval].bucketMs);
      expect((window.last - window.first) / window.bucketMs + 1).toBe(count);
      expect(window.last).toBe(T0);
    }
  });

  it('OHLC in KAS per token with volumes, open/close by opScore even when timestamps disagree', () => {
    const fills = [
      fill(T0 + 1 * MINUTE, 2n * KAS, 1n * KAS, 8, 10n),
      fill(T0 + 2 * MINUTE, 5n * KAS, 1n * KAS, 8, 12n),
      fill(T0 + 3 * MINUTE, 1n * KAS, 2n * KAS, 8, 11n),
      fill(T0 + 0 * MINUTE, 4n * KAS, 1n * KAS, 8, 13n),
    ];
    const [candle] = buildCandles(fills, { interval: '1d', now: T0 + 10 * MINUTE }).slice(-1);
    expect(candle).toMatchObject({ time: T0, open: 2, close: 4, high: 5, low: 0.5, trades: 4, volumeKas: 12, volumeTokens: 5 });
  });

  it('carries the last close through empty buckets and omits buckets before the first fill', () => {
    const fills = [fill(T0 - 2 * HOUR + 1, 3n * KAS, KAS), fill(T0 - HOUR + 1, 6n * KAS, KAS)];
    const candles = buildCandles(fills, { interval: '1d', now: T0 });
    expect(candles[0]!.time).toBe(T0 - 2 * HOUR);
    expect(candles.map((candle) => candle.close)).toEqual([3, 3, 3, 3, 6, 6, 6, 6, 6]);
    expect(candles[1]).toMatchObject({ open: 3, high: 3, low: 3, close: 3, trades: 0, volumeKas: 0 });
  });

  it('starts the window from the last close before it', () => {
    const candles = buildCandles([fill(T0 - 3 * DAY, 7n * KAS, KAS)], { interval: '1d', now: T0 });
    expect(candles).toHaveLength(96);
    expect(candles.every((candle) => candle.close === 7 && candle.trades === 0)).toBe(true);
  });

  it('ignores fills after now and yields nothing without fills', () => {
    expect(buildCandles([], { interval: '7d', now: T0 })).toEqual([]);
    expect(buildCandles([fill(T0 + DAY, KAS, KAS)], { interval: '7d', now: T0 })).toEqual([]);
  });

  it('USD candles price each fill at the rate of its time; unknown rates give null', () => {
    const fills = [fill(T0 + MINUTE, 2n * KAS, KAS), fill(T0 + 2 * MINUTE, 4n * KAS, KAS)];
    const rate = (time: number) => (time === T0 + MINUTE ? 0.1 : 0.05);
    const [candle] = buildCandles(fills, { interval: '1d', now: T0, kasUsd: rate }).slice(-1);
    expect(candle!.usd).toEqual({ open: 0.2, high: 0.2, low: 0.2, close: 0.2, volume: 0.2 + 0.2 });
    const carried = buildCandles([fill(T0 - HOUR, 2n * KAS, KAS)], { interval: '1d', now: T0, kasUsd: () => 0.5 });
    expect(carried.at(-1)!.usd).toEqual({ open: 1, high: 1, low: 1, close: 1, volume: 0 });
    expect(buildCandles(fills, { interval: '1d', now: T0, kasUsd: () => null }).at(-1)!.usd).toBeNull();
    expect(buildCandles(fills, { interval: '1d', now: T0 }).at(-1)!.usd).toBeNull();
  });

  it('1y buckets are UTC days', () => {
    const candles = buildCandles([fill(T0 - DAY + 23 * HOUR, KAS, KAS), fill(T0 + HOUR, 3n * KAS, KAS)], { interval: '1y', now: T0 + 2 * HOUR });
    expect(candles.map((candle) => [candle.time, candle.close])).toEqual([
      [T0 - DAY, 1],
      [T0, 3],
    ]);
  });
});

describe('stats {t, h, m, tf}', () => {
  const sample = (opScore: bigint, timestamp: number, holderTotal: number, mintTotal: number, transferTotal: number): CounterSample => ({
    opScore,
    timestamp,
    holderTotal,
    mintTotal,
    transferTotal,
  });

  it('are cumulative snapshots at each bucket end, carried through quiet buckets', () => {
    const samples = [
      sample(1n, T0 - 5 * DAY, 1, 0, 0),
      sample(2n, T0 + 1 * MINUTE, 2, 1, 0),
      sample(3n, T0 + 2 * MINUTE, 3, 2, 0),
      sample(4n, T0 + 20 * MINUTE, 2, 2, 1),
    ];
    const items = buildStatsHistory(samples, { interval: '1d', now: T0 + 40 * MINUTE });
    expect(items).toHaveLength(96);
    expect(items.slice(-4)).toEqual([
      { t: T0 - 15 * MINUTE, h: 1, m: 0, tf: 0 },
      { t: T0, h: 3, m: 2, tf: 0 },
      { t: T0 + 15 * MINUTE, h: 2, m: 2, tf: 1 },
      { t: T0 + 30 * MINUTE, h: 2, m: 2, tf: 1 },
    ]);
  });

  it('omit buckets before the token existed', () => {
    expect(buildStatsHistory([sample(1n, T0 - 30 * MINUTE, 1, 1, 0)], { interval: '1d', now: T0 })).toHaveLength(3);
  });
});

describe('from engine records', () => {
  it('fills are the accepted sends with a price; counters follow the token', () => {
    const owner = schnorrParty(20);
    const buyer = schnorrParty(21);
    const engine = createTokenEngine({ profile: DEVNET_PROFILE });
    const pay = (fee: bigint) => fee + KAS;
    const deploy = reveal({ signer: owner, op: { p: 'krc-20', op: 'deploy', tick: 'mktx', max: '1000', lim: '10', dec: '1', pre: '500' }, inputAmount: pay(DEPLOY_FEE_FLOOR) });
    const mint = reveal({ signer: buyer, op: { p: 'krc-20', op: 'mint', tick: 'mktx' }, inputAmount: pay(MINT_FEE_FLOOR) });
    const list = reveal({ signer: owner, op: { p: 'krc-20', op: 'list', tick: 'mktx', amt: '40' }, inputAmount: 2n * KAS, outputs: [{ address: listingAddress(owner, 'MKTX'), value: KAS }] });
    const first = engine.applyBlock(acceptedBlock(10n, [deploy, mint, list]));
    const listTxId = first.ops[2]!.txId;
    const fillTx = transaction([sendInput(owner, 'MKTX', listTxId)], [
      { address: owner.address, value: 8n * KAS },
      { address: buyer.address, value: KAS },
    ]);
    const second = engine.applyBlock(acceptedBlock(20n, [fillTx]));
    const ops = [...first.ops, ...second.ops];
    const fills = fillsFromOps(ops);
    expect(fills).toEqual([
      { tick: 'MKTX', opScore: 200_000n, timestamp: 20_000, txId: second.ops[0]!.txId, seller: owner.address, buyer: buyer.address, amount: 40n, price: 8n * KAS, dec: 1 },
    ]);
    expect(ratioToNumber(fillPrice(fills[0]!))).toBe(2);
    expect(counterSamplesFromOps(ops, 'MKTX').map((entry) => [entry.holderTotal, entry.mintTotal])).toEqual([
      [1, 0],
      [2, 1],
      [2, 1],
      [2, 1],
    ]);
  });
});
