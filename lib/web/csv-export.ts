/**
 * The explorer's CSV downloads: one streamed response from the pages of a /v1 export call. The first page is fetched
 * before answering, so a refused request (bad input, unknown wallet, limits) is its problem response with its status;
 * later pages follow `x-next-cursor`, carrying `x-closing-balance` as the next opening balance, one page in memory.
 */

export interface ExportContinuation {
  cursor: string;
  openingBalance: string;
}

/** One export page: the first without a continuation. */
export type ExportPageFetcher = (continuation: ExportContinuation | null) => Promise<Response>;

function continuationOf(response: Response): ExportContinuation | null {
  const cursor = response.headers.get('x-next-cursor');
  const openingBalance = response.headers.get('x-closing-balance');
  return cursor === null || openingBalance === null ? null : { cursor, openingBalance };
}

export async function csvExportResponse(fetchPage: ExportPageFetcher): Promise<Response> {
  const first = await fetchPage(null);
  if (first.status !== 200) {
    return new Response(first.body, {
      status: first.status,
      headers: { 'content-type': first.headers.get('content-type') ?? 'application/problem+json', 'cache-control': 'no-store' },
    });
  }
  let page: Response | null = first;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (page === null) return;
      const current: Response = page;
      controller.enqueue(new Uint8Array(await current.arrayBuffer()));
      const continuation = continuationOf(current);
      if (continuation === null) {
        page = null;
        controller.close();
        return;
      }
      page = await fetchPage(continuation);
      if (page.status !== 200) {
        controller.error(new Error(`export page failed with status ${page.status}`));
        page = null;
      }
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': first.headers.get('content-disposition') ?? 'attachment',
      'cache-control': 'no-store',
    },
  });
}
