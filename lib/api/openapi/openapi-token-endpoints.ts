/**
 * The token endpoints' entries of the endpoint list (token-endpoints.ts holds their definitions): success-body schemas
 * as the handlers build them (§2.9, §2.10 and the list extension), prose and examples. Quantities are exact JSON
 * integers in the token's smallest units (bigint in the handler, so numbers past 2^53 stay exact).
 */
import { z } from 'zod';
import type { DocumentedEndpoint } from './openapi';
import { EXAMPLE_ADDRESS, EXAMPLE_TRANSACTION_ID } from './openapi-examples';
import { PAGE_LIMIT } from '../http/schemas';
import { getTokenChartEndpoint, getTokenMetadataEndpoint, listTokensEndpoint } from '../endpoints/token-endpoints';

export const TOKENS_TAG = 'Tokens';

const integer = z
  .union([z.number().int(), z.bigint()])
  .meta({ description: 'an exact JSON integer (may exceed 2^53)' });
const count = z.number().int().min(0);
const status = z.enum(['deployed', 'finished']);
const usd = z.strictObject({ usd: z.number() });

export const tokenMetadataResponse = z.strictObject({
  result: z.strictObject({
    ticker: z.string(),
    maxSupply: integer,
    mintLimit: integer,
    decimal: count,
    totalMinted: integer,
    preMint: integer,
    opScoreCreated: integer,
    opScoreUpdated: integer,
    deployedAt: z.number().int().meta({ description: 'the deploy’s accepting block time, epoch ms' }),
    status,
    revealHash: z.string(),
    holderTotal: count,
    transferTotal: count,
    mintTotal: count,
    deployerAddress: z.string(),
    socialLinks: z.array(z.strictObject({ type: z.string(), url: z.string() })),
    markets: z.array(
      z.strictObject({
        name: z.string(),
        tradingData: z.strictObject({ price: usd, volume: usd }),
        metadata: z.strictObject({ name: z.string(), iconUrl: z.string(), url: z.string() }),
        lastUpdated: z.number().int(),
      }),
    ),
    iconUrl: z.string(),
    burned: integer,
  }),
});

export const tokenChartResponse = z.strictObject({
  candles: z.array(
    z.strictObject({
      timestamp: z.iso.datetime().meta({ description: 'bucket start, ISO 8601' }),
      ticker: z.string(),
      open: z.number(),
      high: z.number(),
      low: z.number(),
      close: z.number(),
      open_kas: z.number(),
      high_kas: z.number(),
      low_kas: z.number(),
      close_kas: z.number(),
      volume: z.number(),
      volume_kas: z.number(),
      trades: count,
    }),
  ),
  stats: z.array(z.strictObject({ t: z.number().int(), h: count, m: count, tf: count })),
  usdSource: z.string(),
});

export const tokenListResponse = z.strictObject({
  tokens: z.array(
    z.strictObject({
      ticker: z.string(),
      name: z.string(),
      mode: z.string(),
      decimal: count,
      maxSupply: integer,
      totalMinted: integer,
      mintedPercent: z.number().nullable(),
      holderTotal: count,
      mintTotal: count,
      transferTotal: count,
      status,
      deployedAt: z.number().int(),
      opScoreCreated: integer,
      price: z.strictObject({ kas: z.number(), usd: z.number().nullable() }).nullable(),
      change24h: z.number().nullable(),
      volume24h: z.strictObject({ kas: z.number(), usd: z.number().nullable(), trades: count }),
      iconUrl: z.string(),
    }),
  ),
  metadata: z.strictObject({ hasMore: z.boolean(), count }),
  usdSource: z.string(),
});

const standardNote = 'The standard segment is `tk20` or its alias `krc20`, in any case.';

export const TOKEN_ENDPOINT_DOCS: DocumentedEndpoint[] = [
  {
    definition: getTokenMetadataEndpoint,
    docs: {
      operationId: 'getTokenMetadata',
      summary: 'Get a token’s metadata',
      description: `Supply, counters, deployer, status and market figures of one token. ${standardNote}`,
      tag: TOKENS_TAG,
      response: tokenMetadataResponse,
      errors: ['token_not_found', 'route_not_found'],
      usesNode: true,
      etag: true,
      examples: {
        params: { ticker: 'DAGBRD' },
        response: {
          result: {
            ticker: 'DAGBRD',
            maxSupply: 2_100_000_000_000_000,
            mintLimit: 100_000_000_000,
            decimal: 8,
            totalMinted: 1_450_000_000_000_000,
            preMint: 0,
            opScoreCreated: 84_339_281_000_123,
            opScoreUpdated: 90_112_448_000_007,
            deployedAt: 1_725_120_000_000,
            status: 'deployed',
            revealHash: EXAMPLE_TRANSACTION_ID,
            holderTotal: 14_219,
            transferTotal: 311_502,
            mintTotal: 102_500,
            deployerAddress: EXAMPLE_ADDRESS,
            socialLinks: [{ type: 'website', url: 'https://example.org' }],
            markets: [
              {
                name: 'Example market',
                tradingData: { price: { usd: 0.000042 }, volume: { usd: 18_250.5 } },
                metadata: { name: 'Example market', iconUrl: '', url: 'https://market.example.org' },
                lastUpdated: 1_763_812_800_000,
              },
            ],
            iconUrl: '',
            burned: 0,
          },
        },
      },
    },
  },
  {
    definition: getTokenChartEndpoint,
    docs: {
      operationId: 'getTokenChart',
      summary: 'Get a token’s chart data',
      description:
        '`type=candles` answers OHLC buckets in USD and KAS (oldest first); `type=stats` answers cumulative ' +
        `holder, mint and transfer counts per bucket. The other array is empty. ${standardNote}`,
      tag: TOKENS_TAG,
      response: tokenChartResponse,
      errors: ['token_not_found', 'route_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        params: { ticker: 'DAGBRD' },
        query: { type: 'candles', interval: '1d' },
        response: {
          candles: [
            {
              timestamp: '2026-11-22T11:45:00.000Z',
              ticker: 'DAGBRD',
              open: 0.0000041,
              high: 0.0000043,
              low: 0.000004,
              close: 0.0000042,
              open_kas: 0.0000382,
              high_kas: 0.0000401,
              low_kas: 0.0000373,
              close_kas: 0.0000391,
              volume: 812.4,
              volume_kas: 7_570.2,
              trades: 37,
            },
          ],
          stats: [],
          usdSource: 'coingecko',
        },
      },
    },
  },
  {
    definition: listTokensEndpoint,
    docs: {
      operationId: 'listTokens',
      summary: 'List tokens',
      description:
        `Tokens, newest deploy first, ${PAGE_LIMIT.default} per page unless \`limit\` (${PAGE_LIMIT.min}..` +
        `${PAGE_LIMIT.max}) says otherwise; page with \`starting_after\` / \`ending_before\` (tickers) like address ` +
        `history. ${standardNote}`,
      tag: TOKENS_TAG,
      response: tokenListResponse,
      errors: ['limit_out_of_range', 'conflicting_cursors', 'unknown_cursor', 'route_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        params: {},
        query: { limit: '20' },
        response: {
          tokens: [
            {
              ticker: 'DAGBRD',
              name: 'DAGBRD',
              mode: 'mint',
              decimal: 8,
              maxSupply: 2_100_000_000_000_000,
              totalMinted: 1_450_000_000_000_000,
              mintedPercent: 69.047619,
              holderTotal: 14_219,
              mintTotal: 102_500,
              transferTotal: 311_502,
              status: 'deployed',
              deployedAt: 1_725_120_000_000,
              opScoreCreated: 84_339_281_000_123,
              price: { kas: 0.0000391, usd: 0.0000042 },
              change24h: -2.5,
              volume24h: { kas: 190_410.3, usd: 20_433.1, trades: 811 },
              iconUrl: '',
            },
          ],
          metadata: { hasMore: true, count: 1 },
          usdSource: 'coingecko',
        },
      },
    },
  },
];
