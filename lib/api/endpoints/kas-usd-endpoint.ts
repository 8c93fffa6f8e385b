/**
 * GET /v1/prices/kas-usd (an extension): the KAS/USD rate the token figures use (lib/tokens/kas-usd.ts) at given
 * times, so a page can show a transaction's value at its own time. `source` names the series: `simulated` (the
 * devnet's default, not a market price), `fixed`, an operator's feed, or `unavailable` with every rate null.
 */
import { z } from 'zod';
import { endpointsFor, type CachePolicy, type EndpointResult } from '../wrapper/endpoint';
import type { TokenApiContext } from './token-endpoints';

const priceEndpoint = endpointsFor<TokenApiContext>();
const SHORT: CachePolicy = { kind: 'short', maxAgeSeconds: 1 };

export const MAX_PRICE_TIMES = 100;

const times = z
  .string()
  .max(MAX_PRICE_TIMES * 15)
  .optional()
  .transform((text, context) => {
    if (text === undefined) return undefined;
    const parts = text.split(',');
    if (parts.length > MAX_PRICE_TIMES || !parts.every((part) => /^\d{1,15}$/.test(part))) {
      context.addIssue({ code: 'custom', message: `must be 1 to ${MAX_PRICE_TIMES} comma-separated epoch-millisecond times` });
      return z.NEVER;
    }
    return parts.map(Number);
  })
  .meta({ description: `up to ${MAX_PRICE_TIMES} comma-separated epoch-millisecond times; now when absent` });

export const getKasUsdEndpoint = priceEndpoint({
  id: 'GET /v1/prices/kas-usd',
  query: z.object({ times }),
  async handler({ context, query, now }): Promise<EndpointResult> {
    const { kasUsd } = context.tokens;
    const rates = (query.times ?? [now]).map((time) => ({ time, usd: kasUsd.rateAt(time) ?? null }));
    const source = rates.some((rate) => rate.usd !== null) ? kasUsd.label : 'unavailable';
    return { body: { source, rates }, cache: SHORT };
  },
});
