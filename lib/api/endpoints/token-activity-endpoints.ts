/**
 * The token page's activity endpoints (extensions beyond the spec; 0.01 RU each like the other token reads), read from
 * the token indexer's tables through lib/db/token-activity.ts and bound like token-endpoints.ts (`defineTokenEndpoint`):
 *   - GET /v1/tokens/tk20/{ticker}/holders: {holders: [{address, balance, locked}], metadata: {hasMore, count}},
 *     largest balance + locked first, then address; `starting_after` is the address of the previous page's last row
 *     (400 unknown_cursor when that address no longer holds the token);
 *   - GET /v1/tokens/tk20/{ticker}/operations: {operations: [...], metadata}, every op record (failed ones with their
 *     opError) newest first by opScore; `starting_after` is the previous page's last opScore;
 *   - GET /v1/tokens/tk20/{ticker}/fills: {fills: [...], metadata}, newest first by opScore; `starting_after` likewise;
 *   - GET /v1/tokens/tk20/operations/{transactionId}: {operations: [...]}, the op records one transaction carries, by
 *     opScore, each with its ticker, the token's decimals (null when no such token exists) and the registry's icon:
 *     what a transaction page needs to show an operation's result. None is an empty list (a transaction without an
 *     op, or one the token indexer has not reached), not a 404: the indexer may still be behind;
 *   - GET /v1/tokens/tk20/balances/{address}: {balances: [{ticker, decimals, balance, locked, iconUrl}]}, every token
 *     the address holds (a balance, or an amount locked in a listing), by ticker, at most MAX_ADDRESS_TOKENS.
 * Amounts are exact JSON integers in the token's smallest units; fee and priceSompi are sompi (priceSompi is what the
 * buyer paid for the whole fill); priceKas and priceUsd are per whole token, priceUsd at the KAS/USD rate of the fill's
 * time (null when the source has none); timestamps are the accepting block's time in ms.
 */
import { z } from 'zod';
import { UnknownCursorError } from '../../db';
import { getTokenFillPage, getTokenHolderPage, getTokenOpPage } from '../../db/token-activity';
import { getTokenBalancesOfAddress, getTokenOpsOfTransaction, type TokenOpRow } from '../../db/token-reads';
import { hexToBytes } from '../../kaspa/bytes';
import { fillPrice, ratioToNumber } from '../../tokens/market';
import { endpointsFor, type CachePolicy, type EndpointResult } from '../wrapper/endpoint';
import { ApiError, fromZodError } from '../http/errors';
import { addressString, hexString, pageLimit } from '../http/schemas';
import {
  checkStandard,
  standard as standardParam,
  ticker as tickerParam,
  tokenNamed,
  type TokenApiContext,
} from './token-endpoints';

const activityEndpoint = endpointsFor<TokenApiContext>();
const SHORT: CachePolicy = { kind: 'short', maxAgeSeconds: 1 };
const OP_SCORE_MAX = 2n ** 63n - 1n;

const opScoreCursor = z
  .string()
  .max(19)
  .transform((text, context) => {
    const value = /^\d{1,19}$/.test(text) ? BigInt(text) : -1n;
    if (value < 0n || value > OP_SCORE_MAX) {
      context.addIssue({ code: 'custom', message: 'must be an opScore: a non-negative integer below 2^63' });
      return z.NEVER;
    }
    return value;
  })
  .optional()
  .meta({ description: 'older rows: the opScore of the previous page’s last row' });

function unknownHolder(): ApiError {
  const message = 'is not an address holding this token';
  return new ApiError({
    code: 'unknown_cursor',
    detail: `query.starting_after ${message}`,
    errors: [{ path: 'query.starting_after', message }],
  });
}

const metadataOf = (page: { rows: unknown[]; hasMore: boolean }) => ({ hasMore: page.hasMore, count: page.rows.length });

export const getTokenHoldersEndpoint = activityEndpoint({
  id: 'GET /v1/tokens/tk20/{ticker}/holders',
  params: z.object({ standard: standardParam, ticker: tickerParam }),
  query: z.object({
    limit: pageLimit,
    starting_after: z
      .string()
      .max(128)
      .optional()
      .meta({ description: 'smaller holders: the address of the previous page’s last row' }),
  }),
  async handler({ context, params, query, pathname }): Promise<EndpointResult> {
    checkStandard(params.standard, pathname);
    const token = await tokenNamed(context, params.ticker);
    let page;
    try {
      page = await getTokenHolderPage(context.db, token.tick, query.limit, query.starting_after);
    } catch (error) {
      if (error instanceof UnknownCursorError) throw unknownHolder();
      throw error;
    }
    return { body: { holders: page.rows, metadata: metadataOf(page) }, cache: SHORT };
  },
});

const operationOf = (row: TokenOpRow) => ({
  opScore: row.opScore,
  transactionId: row.txId,
  op: row.op,
  from: row.from,
  to: row.to,
  amount: row.amount,
  accepted: row.accepted,
  opError: row.opError,
  timestamp: row.mtsAdd,
  fee: row.feeRev,
});

export const getTokenOperationsEndpoint = activityEndpoint({
  id: 'GET /v1/tokens/tk20/{ticker}/operations',
  params: z.object({ standard: standardParam, ticker: tickerParam }),
  query: z.object({ limit: pageLimit, starting_after: opScoreCursor }),
  async handler({ context, params, query, pathname }): Promise<EndpointResult> {
    checkStandard(params.standard, pathname);
    const token = await tokenNamed(context, params.ticker);
    const page = await getTokenOpPage(context.db, token.tick, query.limit, query.starting_after);
    return { body: { operations: page.rows.map(operationOf), metadata: metadataOf(page) }, cache: SHORT };
  },
});

export const getTransactionTokenOperationsEndpoint = activityEndpoint({
  id: 'GET /v1/tokens/tk20/operations/{transactionId}',
  params: z.object({ standard: standardParam, transactionId: hexString(32, 'a transaction id') }),
  async handler({ context, params, pathname }): Promise<EndpointResult> {
    checkStandard(params.standard, pathname);
    const rows = await getTokenOpsOfTransaction(context.db, hexToBytes(params.transactionId));
    const operations = rows.map((row) => ({
      ticker: row.tick,
      decimals: row.dec,
      iconUrl: context.tokens.registry.entry(row.tick)?.iconUrl ?? '',
      ...operationOf(row),
    }));
    return { body: { operations }, cache: SHORT };
  },
});

export const getTokenFillsEndpoint = activityEndpoint({
  id: 'GET /v1/tokens/tk20/{ticker}/fills',
  params: z.object({ standard: standardParam, ticker: tickerParam }),
  query: z.object({ limit: pageLimit, starting_after: opScoreCursor }),
  async handler({ context, params, query, pathname }): Promise<EndpointResult> {
    checkStandard(params.standard, pathname);
    const token = await tokenNamed(context, params.ticker);
    const page = await getTokenFillPage(context.db, token.tick, query.limit, query.starting_after);
    const fills = page.rows.map((fill) => {
      const priceKas = ratioToNumber(fillPrice(fill));
      const rate = context.tokens.kasUsd.rateAt(fill.timestamp);
      return {
        opScore: fill.opScore,
        transactionId: fill.txId,
        seller: fill.seller,
        buyer: fill.buyer,
        amount: fill.amount,
        priceSompi: fill.price,
        priceKas,
        priceUsd: rate === null || rate === undefined ? null : priceKas * rate,
        timestamp: fill.timestamp,
      };
    });
    return { body: { fills, metadata: metadataOf(page) }, cache: SHORT };
  },
});

export const TOKEN_ACTIVITY_ENDPOINTS = [getTokenHoldersEndpoint, getTokenOperationsEndpoint, getTokenFillsEndpoint] as const;

/** More tokens than any address holds today; the list is bounded so one call stays one indexed read. */
export const MAX_ADDRESS_TOKENS = 1000;

export const getAddressTokenBalancesEndpoint = activityEndpoint({
  id: 'GET /v1/tokens/tk20/balances/{address}',
  params: z.object({ standard: standardParam, address: z.string() }),
  async handler({ context, params, pathname }): Promise<EndpointResult> {
    checkStandard(params.standard, pathname);
    const checked = addressString(await context.addressPrefix()).safeParse(params.address);
    if (!checked.success) throw fromZodError('path.address', checked.error);
    const rows = await getTokenBalancesOfAddress(context.db, checked.data, MAX_ADDRESS_TOKENS);
    const balances = rows.map((row) => ({
      ticker: row.tick,
      decimals: row.dec,
      balance: row.balance,
      locked: row.locked,
      iconUrl: context.tokens.registry.entry(row.tick)?.iconUrl ?? '',
    }));
    return { body: { balances }, cache: SHORT };
  },
});
