import { callV1 } from '@/lib/runtime/explorer';
import { ADDRESS_CSV_HEADER, addressCsvFileName, addressCsvLine, csvLine } from '@/lib/web/address-csv';
import type { AddressHistoryPage } from '@/lib/web/resources';

export const dynamic = 'force-dynamic';

const CSV_PAGE = 100;

type Context = { params: Promise<{ address: string }> };

/** The whole history as CSV, streamed page by page through the same /v1 handler the page uses. */
export async function GET(request: Request, context: Context): Promise<Response> {
  const segment = (await context.params).address;
  let address = segment;
  try {
    address = decodeURIComponent(segment);
  } catch {
    // A malformed escape is passed on as written; the handler answers it with a 400 problem.
  }
  const acceptedOnly = new URL(request.url).searchParams.get('accepted_only') === 'true';
  const query = { limit: CSV_PAGE, accepted_only: acceptedOnly || undefined };
  const first = await callV1('GET /v1/addresses/{address}/transactions', { params: { address }, query });
  if (first.status !== 200) {
    return new Response(JSON.stringify(first.body), {
      status: first.status,
      headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
    });
  }
  const encoder = new TextEncoder();
  let page = first.body as unknown as AddressHistoryPage;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = headerSent ? '' : csvLine(ADDRESS_CSV_HEADER);
      headerSent = true;
      for (const transaction of page.transactions) text += addressCsvLine(transaction);
      controller.enqueue(encoder.encode(text));
      const cursor = page.transactions.at(-1)?.transactionId;
      if (!page.metadata.hasMore || cursor === undefined) {
        controller.close();
        return;
      }
      const next = await callV1('GET /v1/addresses/{address}/transactions', {
        params: { address },
        query: { ...query, starting_after: cursor },
      });
      if (next.status !== 200) {
        controller.error(new Error(`history page failed with status ${next.status}`));
        return;
      }
      page = next.body as unknown as AddressHistoryPage;
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${addressCsvFileName(address)}"`,
      'cache-control': 'no-store',
    },
  });
}
