import { ApiError, corsHeaders, problemResponse, requestIdOf } from '@/lib/api';
import { getRuntime } from '@/lib/runtime';
import { otherMethods } from '@/lib/runtime/api';
import { sseResponse } from '@/lib/stream/sse';

const other = otherMethods('GET');

export const dynamic = 'force-dynamic';

/** The event log as Server-Sent Events (lib/stream/sse.ts), keyed and metered. */
export async function GET(request: Request) {
  const runtime = await getRuntime().catch(() => null);
  if (runtime === null) return problemResponse(ApiError.nodeUnreachable(), requestIdOf(request), corsHeaders());
  return sseResponse(runtime.stream(), request);
}
export const OPTIONS = other.OPTIONS;
export const POST = other.refuse;
export const PUT = other.refuse;
export const PATCH = other.refuse;
export const DELETE = other.refuse;
