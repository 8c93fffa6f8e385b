import { ApiError, problemResponse, requestIdOf } from '@/lib/api';
import { getRuntime } from '@/lib/runtime';
import { LIVE_STREAM_HEADERS, liveEventStream } from '@/lib/live/live-stream';

export const dynamic = 'force-dynamic';

/** The explorer's one live stream (Server-Sent Events): keyless and unmetered, like the pages it feeds. */
export async function GET(request: Request) {
  const runtime = await getRuntime().catch(() => null);
  if (runtime === null) return problemResponse(ApiError.nodeUnreachable(), requestIdOf(request));
  return new Response(liveEventStream(runtime.live()), { headers: LIVE_STREAM_HEADERS });
}
