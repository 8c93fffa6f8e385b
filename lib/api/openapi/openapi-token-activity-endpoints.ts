/**
 * The token activity endpoints' entries of the endpoint list (token-activity-endpoints.ts holds their definitions):
 * holders, op records and fills of one token, cursor-paged. Amounts are exact JSON integers (bigint in the handler).
 */
import { z } from 'zod';
import type { DocumentedEndpoint } from './openapi';
import { EXAMPLE_ADDRESS, EXAMPLE_TRANSACTION_ID } from './openapi-examples';
import { TOKENS_TAG } from './openapi-token-endpoints';
import { PAGE_LIMIT } from '../http/schemas';
import {
  getTokenFillsEndpoint,
  getTokenHoldersEndpoint,
  getTokenOperationsEndpoint,
  getTransactionTokenOperationsEndpoint,
  getAddressTokenBalancesEndpoint,
  MAX_ADDRESS_TOKENS,
} from '../endpoints/token-activity-endpoints';
import { getKasUsdEndpoint, MAX_PRICE_TIMES } from '../endpoints/kas-usd-endpoint';

const integer = z
  .union([z.number().int(), z.bigint()])
  .meta({ description: 'an exact JSON integer (may exceed 2^53)' });
const metadata = z.strictObject({ hasMore: z.boolean(), count: z.number().int().min(0) });
const timestamp = z.number().int().meta({ description: 'the accepting block’s time, epoch ms' });

export const tokenHoldersResponse = z.strictObject({
  holders: z.array(z.strictObject({ address: z.string(), balance: integer, locked: integer })),
  metadata,
});

const tokenOperationShape = {
  opScore: integer,
  transactionId: z.string(),
  op: z.string(),
  from: z.string(),
  to: z.string().nullable(),
  amount: integer.nullable().meta({ description: 'in the token’s smallest units; null for ops without an amount' }),
  accepted: z.boolean().meta({ description: 'whether the op applied; a failed one says why in opError' }),
  opError: z.string().nullable(),
  timestamp,
  fee: integer.meta({ description: 'the fee the op paid, sompi' }),
};

export const tokenOperationsResponse = z.strictObject({
  operations: z.array(z.strictObject(tokenOperationShape)),
  metadata,
});

export const transactionTokenOperationsResponse = z.strictObject({
  operations: z.array(
    z.strictObject({
      ticker: z.string(),
      decimals: z.number().int().nullable().meta({ description: 'the token’s decimals; null when no such token exists' }),
      iconUrl: z.string().meta({ description: 'the operator registry’s icon, "" without one' }),
      ...tokenOperationShape,
    }),
  ),
});

export const tokenFillsResponse = z.strictObject({
  fills: z.array(
    z.strictObject({
      opScore: integer,
      transactionId: z.string(),
      seller: z.string(),
      buyer: z.string(),
      amount: integer,
      priceSompi: integer.meta({ description: 'sompi the buyer paid for the whole fill' }),
      priceKas: z.number().meta({ description: 'KAS per whole token' }),
      priceUsd: z.number().nullable().meta({ description: 'USD per whole token at the fill’s time; null without a rate' }),
      timestamp,
    }),
  ),
  metadata,
});

export const addressTokenBalancesResponse = z.strictObject({
  balances: z.array(
    z.strictObject({
      ticker: z.string(),
      decimals: z.number().int(),
      balance: integer.meta({ description: 'spendable, in the token’s smallest units' }),
      locked: integer.meta({ description: 'locked in open listings, in the token’s smallest units' }),
      iconUrl: z.string().meta({ description: 'the operator registry’s icon, "" without one' }),
    }),
  ),
});

export const kasUsdResponse = z.strictObject({
  source: z.string().meta({ description: 'simulated (not a market price), fixed, the operator’s feed, or unavailable' }),
  rates: z.array(
    z.strictObject({
      time: z.number().int().meta({ description: 'epoch ms, as asked' }),
      usd: z.number().nullable().meta({ description: 'USD per KAS at that time; null when the source has none' }),
    }),
  ),
});

const EXAMPLE_OPERATION = {
  opScore: 90_112_448_000_007,
  transactionId: EXAMPLE_TRANSACTION_ID,
  op: 'transfer',
  from: EXAMPLE_ADDRESS,
  to: EXAMPLE_ADDRESS,
  amount: 50_000_000_000,
  accepted: true,
  opError: null,
  timestamp: 1_763_812_800_000,
  fee: 2_000,
};

const paging = (order: string, cursor: string) =>
  `${order}, ${PAGE_LIMIT.default} per page unless \`limit\` (${PAGE_LIMIT.min}..${PAGE_LIMIT.max}) says otherwise; ` +
  `the next page is \`starting_after\` = ${cursor}. An extension beyond the spec. The standard segment is \`tk20\` or ` +
  'its alias `krc20`, in any case.';

export const TOKEN_ACTIVITY_ENDPOINT_DOCS: DocumentedEndpoint[] = [
  {
    definition: getTokenHoldersEndpoint,
    docs: {
      operationId: 'getTokenHolders',
      summary: 'List a token’s holders',
      description: paging('Holders, largest balance + locked first (then by address)', 'the last row’s address'),
      tag: TOKENS_TAG,
      response: tokenHoldersResponse,
      errors: ['token_not_found', 'limit_out_of_range', 'unknown_cursor', 'route_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        params: { ticker: 'DAGBRD' },
        query: { limit: '20' },
        response: {
          holders: [{ address: EXAMPLE_ADDRESS, balance: 125_000_000_000_000, locked: 2_000_000_000 }],
          metadata: { hasMore: true, count: 1 },
        },
      },
    },
  },
  {
    definition: getTokenOperationsEndpoint,
    docs: {
      operationId: 'getTokenOperations',
      summary: 'List a token’s operations',
      description: paging(
        'Every operation on the token (deploy, mint, transfer, burn, list, send, …), failed ones with their opError, newest first by opScore',
        'the last row’s opScore',
      ),
      tag: TOKENS_TAG,
      response: tokenOperationsResponse,
      errors: ['token_not_found', 'limit_out_of_range', 'route_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        params: { ticker: 'DAGBRD' },
        query: { limit: '20' },
        response: {
          operations: [
            EXAMPLE_OPERATION,
          ],
          metadata: { hasMore: true, count: 1 },
        },
      },
    },
  },
  {
    definition: getTransactionTokenOperationsEndpoint,
    docs: {
      operationId: 'getTransactionTokenOperations',
      summary: 'The token operations of a transaction',
      description:
        'The op records one transaction carries (a Kasplex reveal holds one), by opScore, failed ones with their opError, ' +
        'each with its ticker, the token’s decimals and icon. A transaction without an op, or one the token indexer has ' +
        'not reached yet, answers an empty list. An extension beyond the spec. The standard segment is `tk20` or its ' +
        'alias `krc20`, in any case.',
      tag: TOKENS_TAG,
      response: transactionTokenOperationsResponse,
      errors: ['invalid_hex', 'route_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        params: { transactionId: EXAMPLE_TRANSACTION_ID },
        response: {
          operations: [
            { ticker: 'DAGBRD', decimals: 8, iconUrl: '', ...EXAMPLE_OPERATION },
          ],
        },
      },
    },
  },
  {
    definition: getAddressTokenBalancesEndpoint,
    docs: {
      operationId: 'getAddressTokenBalances',
      summary: 'The tokens an address holds',
      description:
        `Every token the address holds, spendable or locked in a listing, by ticker (at most ${MAX_ADDRESS_TOKENS}), with ` +
        'the token’s decimals and icon. An address holding none answers an empty list. An extension beyond the spec. ' +
        'The standard segment is `tk20` or its alias `krc20`, in any case.',
      tag: TOKENS_TAG,
      response: addressTokenBalancesResponse,
      errors: ['invalid_address', 'route_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        params: { address: EXAMPLE_ADDRESS },
        response: { balances: [{ ticker: 'DAGBRD', decimals: 8, balance: 125_000_000_000_000, locked: 2_000_000_000, iconUrl: '' }] },
      },
    },
  },
  {
    definition: getKasUsdEndpoint,
    docs: {
      operationId: 'getKasUsd',
      summary: 'KAS/USD at given times',
      description:
        `The KAS/USD rate the token and wallet figures use, at up to ${MAX_PRICE_TIMES} times (\`times\`, comma-separated ` +
        'epoch ms; now when absent), in the order asked. On the devnet the series is simulated and says so in `source`. ' +
        'An extension beyond the spec.',
      tag: TOKENS_TAG,
      response: kasUsdResponse,
      errors: ['invalid_request', 'route_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        query: { times: '1763812800000' },
        response: { source: 'simulated', rates: [{ time: 1_763_812_800_000, usd: 0.0821 }] },
      },
    },
  },
  {
    definition: getTokenFillsEndpoint,
    docs: {
      operationId: 'getTokenFills',
      summary: 'List a token’s fills',
      description: paging('Filled trades (accepted sends of a listing), newest first by opScore', 'the last row’s opScore'),
      tag: TOKENS_TAG,
      response: tokenFillsResponse,
      errors: ['token_not_found', 'limit_out_of_range', 'route_not_found'],
      usesNode: false,
      etag: true,
      examples: {
        params: { ticker: 'DAGBRD' },
        query: { limit: '20' },
        response: {
          fills: [
            {
              opScore: 90_112_448_000_007,
              transactionId: EXAMPLE_TRANSACTION_ID,
              seller: EXAMPLE_ADDRESS,
              buyer: EXAMPLE_ADDRESS,
              amount: 200_000_000,
              priceSompi: 3_000_000_000,
              priceKas: 15,
              priceUsd: 1.2,
              timestamp: 1_763_812_800_000,
            },
          ],
          metadata: { hasMore: false, count: 1 },
        },
      },
    },
  },
];
