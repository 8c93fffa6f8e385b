'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import type { IChartApi, ISeriesApi, MouseEventParams, Time } from 'lightweight-charts';
import type { TokenCandle } from '@/lib/web/resources';
import { chartTime, themeOptions, useChartPalette, type ChartPalette } from '../charts/chart-theme';
import type { ChartCurrency } from './chart-view';
import { kasText, pricePrecision, priceText, usdText } from './token-format';


interface Point {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  trades: number;
}

function pointsOf(candles: readonly TokenCandle[], currency: ChartCurrency): Point[] {
  return candles.map((candle) => ({
    time: chartTime(Date.parse(candle.timestamp)),
    ...(currency === 'usd'
      ? { open: candle.open, high: candle.high, low: candle.low, close: candle.close, volume: candle.volume }
      : {
          open: candle.open_kas,
          high: candle.high_kas,
          low: candle.low_kas,
          close: candle.close_kas,
          volume: candle.volume_kas,
        }),
    trades: candle.trades,
  }));
}

interface ChartParts {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
}

function applyPalette(parts: ChartParts, palette: ChartPalette): void {
  parts.chart.applyOptions(themeOptions(palette));
  parts.candles.applyOptions({
    upColor: palette.up,
    downColor: palette.down,
    borderUpColor: palette.up,
    borderDownColor: palette.down,
    wickUpColor: palette.up,
    wickDownColor: palette.down,
  });
}

function applyPoints(parts: ChartParts, points: readonly Point[], palette: ChartPalette): void {
  const precision = pricePrecision(points.flatMap((point) => [point.low, point.high]));
  parts.candles.applyOptions({ priceFormat: { type: 'price', precision, minMove: 10 ** -precision } });
  parts.candles.setData(
    points.map((point) => ({ time: point.time as Time, open: point.open, high: point.high, low: point.low, close: point.close })),
  );
  parts.volume.setData(
    points.map((point) => ({
      time: point.time as Time,
      value: point.volume,
      color: point.close >= point.open ? palette.upVolume : palette.downVolume,
    })),
  );
}

/**
 * OHLC candles with volume bars on their own scale beneath (lightweight-charts, loaded on demand), in USD or KAS.
 * The legend shows the candle under the crosshair, or the latest one.
 */
export function CandleChart({
  candles,
  currency,
  loading,
}: {
  candles: readonly TokenCandle[];
  currency: ChartCurrency;
  /** The range is still loading: an empty legend then says nothing rather than "no fills". */
  loading: boolean;
}) {
  const container = useRef<HTMLDivElement>(null);
  const parts = useRef<ChartParts | null>(null);
  const palette = useChartPalette();
  const points = useMemo(() => pointsOf(candles, currency), [candles, currency]);
  const latest = useRef({ points, palette });
  const [hovered, setHovered] = useState<number | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    latest.current = { points, palette };
  }, [points, palette]);

  // Its own mount effect rather than useChart: it follows the crosshair for the legend, and fits the time scale only
  // when the range changes, so a reader's zoom survives the live updates of one range.
  useEffect(() => {
    let disposed = false;
    let remove: (() => void) | undefined;
    void import('lightweight-charts').then(({ createChart, CandlestickSeries, HistogramSeries }) => {
      const element = container.current;
      if (disposed || element === null) return;
      const chart = createChart(element, {
        autoSize: true,
        timeScale: { timeVisible: true, secondsVisible: false },
        rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.28 } },
        localization: { locale: 'en' },
      });
      const created: ChartParts = {
        chart,
        candles: chart.addSeries(CandlestickSeries, {}),
        volume: chart.addSeries(HistogramSeries, { priceScaleId: 'volume', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false }),
      };
      chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.78, bottom: 0 } });
      const onCrosshair = (event: MouseEventParams<Time>) => {
        setHovered(event.time === undefined ? null : Number(event.time));
      };
      chart.subscribeCrosshairMove(onCrosshair);
      parts.current = created;
      applyPalette(created, latest.current.palette);
      applyPoints(created, latest.current.points, latest.current.palette);
      chart.timeScale().fitContent();
      setReady(true);
      remove = () => {
        chart.unsubscribeCrosshairMove(onCrosshair);
        chart.remove();
      };
    });
    return () => {
      disposed = true;
      parts.current = null;
      remove?.();
    };
  }, []);

  useEffect(() => {
    if (parts.current === null) return;
    applyPalette(parts.current, palette);
    applyPoints(parts.current, points, palette);
  }, [points, palette, ready]);

  const firstTime = points[0]?.time;
  useEffect(() => {
    if (parts.current !== null && firstTime !== undefined) parts.current.chart.timeScale().fitContent();
  }, [firstTime, currency, ready]);

  const shown = (hovered === null ? undefined : points.find((point) => point.time === hovered)) ?? points.at(-1);
  const money = currency === 'usd' ? usdText : kasText;

  return (
    <figure
      className="relative"
      aria-label={`Price candles in ${currency === 'usd' ? 'US dollars' : 'KAS'} per whole token, with trade volume bars`}
    >
      <figcaption className="mb-2 flex min-h-10 flex-wrap gap-x-4 gap-y-1 text-xs tabular-nums" data-testid="candle-legend" aria-live="off">
        {shown === undefined ? (
          !loading && <span className="text-slate-600 dark:text-slate-400">No fills in this range yet.</span>
        ) : (
          <>
            <span className="text-slate-600 dark:text-slate-400">{new Date(shown.time * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC</span>
            <span>O {money(shown.open)}</span>
            <span>H {money(shown.high)}</span>
            <span>L {money(shown.low)}</span>
            <span className={shown.close >= shown.open ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}>
              C {money(shown.close)}
            </span>
            <span>
              Vol {currency === 'usd' ? usdText(shown.volume) : `${priceText(shown.volume)} KAS`} · {shown.trades} trade
              {shown.trades === 1 ? '' : 's'}
            </span>
          </>
        )}
      </figcaption>
      <div
        ref={container}
        className="h-72 w-full sm:h-96"
        data-testid="candle-chart"
        data-currency={currency}
      />
    </figure>
  );
}
