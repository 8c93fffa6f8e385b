/**
 * The tax-grade CSV export (issue 20), metered by the page:
 *   - POST /v1/wallets/transactions/export          a wallet (extended key or addresses in the body)
 *   - GET /v1/addresses/{address}/transactions/export one address
 * Each call answers `text/csv` with up to `limit` rows (default and most EXPORT_PAGE_ROWS) oldest first within
 * [from, to), the header line on the first page only. A longer export continues with the `x-next-cursor` header as
 * `startingAfter` / `starting_after` and, to skip recomputing the running balance, `x-closing-balance` as
 * `openingBalance` / `opening_balance`. Without the cursor header the export is complete.
 */
import { z } from 'zod';
import { transactionPosition } from '../../db';
import { bytesToHex, hexToBytes } from '../../kaspa/bytes';
import { decodeAddress, encodeAddress } from '../../kaspa/address';
import { TAX_CSV_LAYOUTS, taxCsvFileName, taxCsvHeader, taxCsvLine, type TaxCsvLayout } from '../../wallet/tax-csv';
import { taxPage, type TaxExportQuery } from '../../wallet/tax-export';
import { endpointsFor, type EndpointResult } from '../wrapper/endpoint';
import { ApiError, fromZodError } from '../http/errors';
import { addressString, hexString } from '../http/schemas';
import { exactlyOneSource, resolveWallet, walletSource, type WalletApiContext } from './wallet-endpoints';

/** Rows per export call; the cost table charges a call as a page of this many. */
export const EXPORT_PAGE_ROWS = 1000;

const exportEndpoint = endpointsFor<WalletApiContext>();

/** Epoch milliseconds, as a number or its decimal text, or an ISO 8601 date or date-time (UTC unless it says). */
export function parseTimeBound(value: number | string): bigint | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;
  if (/^\d{1,16}$/.test(value)) return BigInt(value);
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return null;
  const time = Date.parse(/[T ]/.test(value) && !/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value}Z` : value);
  return Number.isFinite(time) && time >= 0 ? BigInt(time) : null;
}

const timeBound = z
  .union([z.number(), z.string().max(40)])
  .transform((value, context) => {
    const time = parseTimeBound(value);
    if (time === null) context.addIssue({ code: 'custom', message: 'expected epoch milliseconds or an ISO 8601 date' });
    return time ?? 0n;
  })
  .optional();

const layout = z.enum(TAX_CSV_LAYOUTS).optional().meta({ description: 'generic (default) or koinly' });
const cursor = hexString(32, 'a transaction id');
const balance = z
  .string()
  .regex(/^-?\d{1,20}$/, 'signed sompi as decimal text')
  .optional()
  .meta({ description: 'the previous page’s x-closing-balance (sompi); computed when absent' });
const limit = z.coerce.number().int().min(1).max(EXPORT_PAGE_ROWS).optional();

const rangeFields = {
  from: timeBound.meta({ description: 'inclusive lower bound: epoch ms or ISO 8601 date (UTC)' }),
  to: timeBound.meta({ description: 'exclusive upper bound: epoch ms or ISO 8601 date (UTC)' }),
  layout,
};

export const walletExportSchema = z
  .object({
    ...walletSource,
    ...rangeFields,
    startingAfter: cursor.optional().meta({ description: 'the previous page’s x-next-cursor' }),
    openingBalance: balance,
    limit: z.number().int().min(1).max(EXPORT_PAGE_ROWS).optional(),
  })
  .superRefine(exactlyOneSource);

interface ExportInput {
  from?: bigint;
  to?: bigint;
  layout?: TaxCsvLayout;
  cursor?: string;
  openingBalance?: string;
  limit?: number;
}

/** Where the request's fields are: the wallet export's body (camelCase) or the address export's query. */
const FIELDS = {
  body: { to: 'body.to', cursor: 'body.startingAfter' },
  query: { to: 'query.to', cursor: 'query.starting_after' },
} as const;

async function exportPage(
  context: WalletApiContext,
  addresses: readonly string[],
  input: ExportInput,
  subject: string,
  fields: (typeof FIELDS)[keyof typeof FIELDS],
): Promise<EndpointResult> {
  if (input.from !== undefined && input.to !== undefined && input.from >= input.to) {
    throw ApiError.invalidRequest(`${fields.to}: must be after from`, [{ path: fields.to, message: 'must be after from' }]);
  }
  const chosenLayout = input.layout ?? 'generic';
  const after = input.cursor === undefined ? null : await transactionPosition(context.db, hexToBytes(input.cursor));
  if (input.cursor !== undefined && after === null) throw ApiError.unknownCursor(fields.cursor);
  const query: TaxExportQuery = {
    addresses,
    from: input.from ?? null,
    to: input.to ?? null,
    after,
    openingBalance: after === null || input.openingBalance === undefined ? null : BigInt(input.openingBalance),
    virtualBlueScore: await context.virtualBlueScore(),
    kasUsd: context.kasUsd ?? null,
  };
  const page = await taxPage(context.db, query, input.limit ?? EXPORT_PAGE_ROWS);
  let text = after === null ? taxCsvHeader(chosenLayout) : '';
  for (const row of page.rows) text += taxCsvLine(chosenLayout, row);
  const headers: Record<string, string> = {
    'content-disposition': `attachment; filename="${taxCsvFileName(subject, chosenLayout)}"`,
    'x-closing-balance': page.closingBalance.toString(),
  };
  if (page.hasMore && page.last !== null) headers['x-next-cursor'] = bytesToHex(page.last.transactionId);
  return { body: text, contentType: 'text/csv; charset=utf-8', headers, cache: { kind: 'no-store' } };
}

export const walletExportEndpoint = exportEndpoint({
  id: 'POST /v1/wallets/transactions/export',
  body: walletExportSchema,
  async handler({ context, body }): Promise<EndpointResult> {
    const wallet = await resolveWallet(context, body, { utxos: false });
    return exportPage(
      context,
      wallet.addresses.map((entry) => entry.address),
      { ...body, cursor: body.startingAfter },
      'wallet',
      FIELDS.body,
    );
  },
});

export const addressExportEndpoint = exportEndpoint({
  id: 'GET /v1/addresses/{address}/transactions/export',
  params: z.object({ address: z.string() }),
  query: z.object({ ...rangeFields, starting_after: cursor.optional(), opening_balance: balance, limit }),
  async handler({ context, params, query }): Promise<EndpointResult> {
    const checked = addressString(await context.addressPrefix()).safeParse(params.address);
    if (!checked.success) throw fromZodError('path.address', checked.error);
    const address = encodeAddress(decodeAddress(checked.data));
    return exportPage(
      context,
      [address],
      { ...query, cursor: query.starting_after, openingBalance: query.opening_balance },
      address,
      FIELDS.query,
    );
  },
});
