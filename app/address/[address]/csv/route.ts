import { respondV1 } from '@/lib/serving/explorer';
import { csvExportResponse } from '@/lib/web/csv-export';
import { decodeSegment } from '@/lib/api/http/http';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ address: string }> };

/** An address's tax CSV (`from`, `to`, `layout` as the /v1 export takes them), streamed page by page. */
export async function GET(request: Request, context: Context): Promise<Response> {
  // A malformed escape is passed on as written; the /v1 handler answers it with a 400 problem.
  const address = decodeSegment((await context.params).address);
  const search = new URL(request.url).searchParams;
  const range = {
    from: search.get('from') ?? undefined,
    to: search.get('to') ?? undefined,
    layout: search.get('layout') ?? undefined,
  };
  return csvExportResponse((continuation) =>
    respondV1('GET /v1/addresses/{address}/transactions/export', {
      params: { address },
      query: { ...range, starting_after: continuation?.cursor, opening_balance: continuation?.openingBalance },
    }),
  );
}
