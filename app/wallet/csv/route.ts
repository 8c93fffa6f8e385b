import { ApiError, problemResponse, requestIdOf } from '@/lib/api';
import { respondV1 } from '@/lib/serving/explorer';
import { csvExportResponse } from '@/lib/web/csv-export';

export const dynamic = 'force-dynamic';

/**
 * A wallet's tax CSV, streamed from the pages of POST /v1/wallets/transactions/export. The extended key arrives only
 * in this JSON body and goes on only in the /v1 call's body.
 */
export async function POST(request: Request): Promise<Response> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return problemResponse(ApiError.invalidJson('the request body is not valid JSON'), requestIdOf(request));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return problemResponse(ApiError.invalidRequest('the body must be a JSON object'), requestIdOf(request));
  }
  const fields = body as Record<string, unknown>;
  return csvExportResponse((continuation) =>
    respondV1('POST /v1/wallets/transactions/export', {
      body: {
        ...fields,
        startingAfter: continuation?.cursor,
        openingBalance: continuation?.openingBalance,
      },
    }),
  );
}
