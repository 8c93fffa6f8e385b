/**
 * The token endpoints (SERVICE-SPEC §4.2, §4.3, §2.9, §2.10) and the token list extension, read from the token
 * indexer's tables (lib/db/token-*.ts). The route files in app/v1/tokens bind them with `defineTokenEndpoint`
 * (lib/serving/token-api.ts); the path's standard segment is `tk20` or its alias `krc20`, case-insensitive.
 *
 * Rules where the specification is open:
 *   - tickers are case-insensitive; an issue-mode token is named by its ca (64 hex characters); anything that is not
 *     a known token, including a malformed ticker, is a 404 `token_not_found`;
 *   - quantities (maxSupply, mintLimit, totalMinted, preMint, burned) are in the token's smallest units as exact JSON
 *     integers; opScoreCreated/opScoreUpdated likewise; deployedAt is the deploy's accepting block time in ms;
 *   - status is `deployed` (still mintable) or `finished` (max reached); maxSupply 0 means unlimited (issue mode);
 *   - burned is the v3 total: burn ops plus whatever the black-hole address holds;
 *   - deployerAddress is the deploy's signer (Kasplex `from`);
 *   - iconUrl is "" and socialLinks/markets are [] when the operator's registry has no entry;
 *   - market tradingData are on-chain figures for the whole token (fills cannot be attributed to a marketplace):
 *     price = the last fill's KAS price × KAS/USD now, volume = the last 24 h of fills in USD; lastUpdated is the
 *     last fill's time (ms), or the deploy time before any fill; price 0 before the first fill;
 *   - candles: 1d → 15-minute, 7d → hourly, 1m → 4-hourly (30 days), 1y → daily buckets, UTC-aligned, oldest first,
 *     timestamp = bucket start (ISO 8601); empty buckets carry the last close (zero volume); buckets before the first
 *     fill are left out. open…close are USD, open_kas…close_kas KAS per whole token; `volume` (USD), `volume_kas` and
 *     `trades` are extensions. The response's `usdSource` (extension) names the KAS/USD source (`simulated` on the
 *     devnet); USD fields are 0 while the rate is unknown (`usdSource: "unavailable"`);
 *   - stats {t, h, m, tf}: t = bucket start (ms), h = holders, m = accepted mints, tf = accepted transfers, all
 *     cumulative snapshots as of the end of the bucket;
 *   - the list GET /v1/tokens/tk20 (extension) pages newest deploy first with `limit`, `starting_after` and
 *     `ending_before` (tickers), answering {tokens, metadata: {hasMore, count}} like address history.
 */
import { z } from 'zod';
import { createCandleUsdCache, getTokenCandles, getTokenStatSamples, type CandleUsdCache } from '../../db/token-buckets';
import {
  getToken,
  getTokenHolding,
  getTokenMarketSummaries,
  getTokenPage,
  type TokenMarketSummary,
} from '../../db/token-reads';
import { UnknownCursorError } from '../../db';
import { blackHoleAddress, supplySummary, tokenStatus, type TokenState } from '../../tokens/engine';
import type { KasUsdSource } from '../../tokens/kas-usd';
import {
  buildStatsHistory,
  CHART_INTERVALS,
  fillPrice,
  ratioToNumber,
  sompiToKas,
  type ChartInterval,
} from '../../tokens/market';
import type { TokenRegistry } from '../../tokens/registry';
import { endpointsFor, type CachePolicy, type EndpointResult } from '../wrapper/endpoint';
import { ApiError } from '../http/errors';
import type { IndexedApiContext } from './indexed-endpoints';
import { pageLimit } from '../http/schemas';

export interface TokenServices {
  registry: TokenRegistry;
  kasUsd: KasUsdSource;
  /** Candle USD figures already computed with kasUsd (see candleUsdCacheFor); without it each call computes them. */
  candleUsd?: CandleUsdCache;
}

/** A cache for a source whose rate is a fixed function of time; none for a feed, whose series changes as it refreshes. */
export function candleUsdCacheFor(kasUsd: KasUsdSource): CandleUsdCache | undefined {
  return kasUsd.kind === 'feed' ? undefined : createCandleUsdCache(kasUsd.rateAt);
}

export interface TokenApiContext extends IndexedApiContext {
  tokens: TokenServices;
}

const tokenEndpoint = endpointsFor<TokenApiContext>();

export const TOKEN_STANDARDS = ['tk20', 'krc20'] as const;
const DAY_MS = 24 * 3_600_000;
const SHORT: CachePolicy = { kind: 'short', maxAgeSeconds: 1 };

function tokenNotFound(ticker: string): ApiError {
  return new ApiError({
    code: 'token_not_found',
    detail: `no token with ticker ${ticker}`,
  });
}

export const standard = z
  .string()
  .optional()
  .meta({ description: 'the token standard: tk20, or its alias krc20' });
export const ticker = z
  .string()
  .max(128)
  .meta({ description: 'the ticker (4–6 letters, any case), or the ca of an issue-mode token' });

/** The token key a ticker names, or null when it cannot name one. */
export function tokenKeyOf(text: string): string | null {
  if (/^[A-Za-z]{4,6}$/.test(text)) return text.toUpperCase();
  if (/^[0-9A-Fa-f]{64}$/.test(text)) return text.toLowerCase();
  return null;
}

export function checkStandard(value: string | undefined, pathname: string): void {
  if (value !== undefined && !(TOKEN_STANDARDS as readonly string[]).includes(value.toLowerCase())) {
    throw ApiError.routeNotFound(pathname);
  }
}

export async function tokenNamed(context: TokenApiContext, text: string): Promise<TokenState> {
  const key = tokenKeyOf(text);
  const token = key === null ? null : await getToken(context.db, key);
  if (token === null) throw tokenNotFound(text);
  return token;
}

interface UsdRate {
  rate: number;
  source: string;
}

function usdRate(services: TokenServices, timeMs: number): UsdRate | null {
  const rate = services.kasUsd.rateAt(timeMs);
  return rate === null || rate === undefined ? null : { rate, source: services.kasUsd.label };
}

function lastPriceKas(summary: TokenMarketSummary | undefined): number | null {
  return summary?.last ? ratioToNumber(fillPrice(summary.last)) : null;
}

export const getTokenMetadataEndpoint = tokenEndpoint({
  id: 'GET /v1/tokens/tk20/{ticker}/metadata',
  params: z.object({ standard, ticker }),
  async handler({ context, params, pathname, now }): Promise<EndpointResult> {
    checkStandard(params.standard, pathname);
    const token = await tokenNamed(context, params.ticker);
    const prefix = await context.addressPrefix();
    const blackHole = await getTokenHolding(context.db, token.tick, blackHoleAddress(prefix));
    const summary = (await getTokenMarketSummaries(context.db, [token.tick], now - DAY_MS)).get(token.tick);
    const entry = context.tokens.registry.entry(token.tick);
    const rate = usdRate(context.tokens, now)?.rate ?? 0;
    const priceUsd = (lastPriceKas(summary) ?? 0) * rate;
    const volumeUsd = sompiToKas(summary?.volumeSompi ?? 0n) * rate;
    const lastUpdated = summary?.last?.timestamp ?? token.mtsAdd;
    return {
      body: {
        result: {
          ticker: token.tick,
          maxSupply: token.max,
          mintLimit: token.lim,
          decimal: token.dec,
          totalMinted: token.minted,
          preMint: token.pre,
          opScoreCreated: token.opScoreAdd,
          opScoreUpdated: token.opScoreMod,
          deployedAt: token.mtsAdd,
          status: tokenStatus(token),
          revealHash: token.txId,
          holderTotal: token.holderTotal,
          transferTotal: token.transferTotal,
          mintTotal: token.mintTotal,
          deployerAddress: token.from,
          socialLinks: (entry?.socialLinks ?? []).map((link) => ({ type: link.type, url: link.url })),
          markets: (entry?.markets ?? []).map((market) => ({
            name: market.name,
            tradingData: { price: { usd: priceUsd }, volume: { usd: volumeUsd } },
            metadata: { name: market.name, iconUrl: market.iconUrl ?? '', url: market.url },
            lastUpdated,
          })),
          iconUrl: entry?.iconUrl ?? '',
          burned: supplySummary(token, blackHole).totalBurned,
        },
      },
      cache: SHORT,
    };
  },
});

const chartType = z.enum(['candles', 'stats']).meta({ description: 'candles (OHLC in USD and KAS) or stats ({t, h, m, tf})' });
const chartInterval = z
  .enum(Object.keys(CHART_INTERVALS) as [ChartInterval, ...ChartInterval[]])
  .meta({ description: 'the range: 1d (15-minute buckets), 7d (hourly), 1m (30 days, 4-hourly), 1y (daily)' });

export const getTokenChartEndpoint = tokenEndpoint({
  id: 'GET /v1/tokens/tk20/{ticker}/chart',
  params: z.object({ standard, ticker }),
  query: z.object({ type: chartType, interval: chartInterval }),
  async handler({ context, params, query, pathname, now }): Promise<EndpointResult> {
    checkStandard(params.standard, pathname);
    const token = await tokenNamed(context, params.ticker);
    const current = usdRate(context.tokens, now);
    const usdSource = current?.source ?? 'unavailable';
    if (query.type === 'stats') {
      const samples = await getTokenStatSamples(context.db, token.tick, { interval: query.interval, now });
      const stats = buildStatsHistory(samples, { interval: query.interval, now });
      return { body: { candles: [], stats, usdSource }, cache: SHORT };
    }
    const { kasUsd, candleUsd } = context.tokens;
    const buckets = await getTokenCandles(
      context.db,
      token.tick,
      { interval: query.interval, now, kasUsd: kasUsd.rateAt },
      candleUsd?.rateAt === kasUsd.rateAt ? candleUsd : undefined,
    );
    const candles = buckets.map(
      (candle) => ({
        timestamp: new Date(candle.time).toISOString(),
        ticker: token.tick,
        open: candle.usd?.open ?? 0,
        high: candle.usd?.high ?? 0,
        low: candle.usd?.low ?? 0,
        close: candle.usd?.close ?? 0,
        open_kas: candle.open,
        high_kas: candle.high,
        low_kas: candle.low,
        close_kas: candle.close,
        volume: candle.usd?.volume ?? 0,
        volume_kas: candle.volumeKas,
        trades: candle.trades,
      }),
    );
    return { body: { candles, stats: [], usdSource }, cache: SHORT };
  },
});

const cursorTicker = z
  .string()
  .max(128)
  .transform((text, context) => {
    const key = tokenKeyOf(text);
    if (key === null) {
      context.addIssue({ code: 'custom', message: 'must be a ticker (4–6 letters) or a ca (64 hex characters)' });
      return z.NEVER;
    }
    return key;
  });

export const listTokensEndpoint = tokenEndpoint({
  id: 'GET /v1/tokens/tk20',
  params: z.object({ standard }),
  query: z.object({
    limit: pageLimit,
    starting_after: cursorTicker.optional().meta({ description: 'older deploys: the last ticker of the previous page' }),
    ending_before: cursorTicker.optional().meta({ description: 'newer deploys: the first ticker of the current page' }),
  }),
  async handler({ context, params, query, pathname, now }): Promise<EndpointResult> {
    checkStandard(params.standard, pathname);
    if (query.starting_after !== undefined && query.ending_before !== undefined) throw ApiError.conflictingCursors();
    let page;
    try {
      page = await getTokenPage(context.db, {
        limit: query.limit,
        startingAfter: query.starting_after,
        endingBefore: query.ending_before,
      });
    } catch (error) {
      if (error instanceof UnknownCursorError) {
        throw ApiError.unknownCursor(query.starting_after === undefined ? 'query.ending_before' : 'query.starting_after');
      }
      throw error;
    }
    const ticks = page.tokens.map((token) => token.tick);
    const summaries = await getTokenMarketSummaries(context.db, ticks, now - DAY_MS);
    const rate = usdRate(context.tokens, now);
    const tokens = page.tokens.map((token) => {
      const summary = summaries.get(token.tick);
      const price = lastPriceKas(summary);
      const before = summary?.before ? ratioToNumber(fillPrice(summary.before)) : null;
      const volumeKas = sompiToKas(summary?.volumeSompi ?? 0n);
      return {
        ticker: token.tick,
        name: token.name,
        mode: token.mode,
        decimal: token.dec,
        maxSupply: token.max,
        totalMinted: token.minted,
        mintedPercent: token.max === 0n ? null : ratioToNumber({ numerator: token.minted * 100n, denominator: token.max }),
        holderTotal: token.holderTotal,
        mintTotal: token.mintTotal,
        transferTotal: token.transferTotal,
        status: tokenStatus(token),
        deployedAt: token.mtsAdd,
        opScoreCreated: token.opScoreAdd,
        price: price === null ? null : { kas: price, usd: rate === null ? null : price * rate.rate },
        change24h: price !== null && before !== null && before > 0 ? ((price - before) / before) * 100 : null,
        volume24h: { kas: volumeKas, usd: rate === null ? null : volumeKas * rate.rate, trades: summary?.trades ?? 0 },
        iconUrl: context.tokens.registry.entry(token.tick)?.iconUrl ?? '',
      };
    });
    return {
      body: { tokens, metadata: { hasMore: page.hasMore, count: tokens.length }, usdSource: rate?.source ?? 'unavailable' },
      cache: SHORT,
    };
  },
});

export const TOKEN_ENDPOINTS = [getTokenMetadataEndpoint, getTokenChartEndpoint, listTokensEndpoint] as const;
