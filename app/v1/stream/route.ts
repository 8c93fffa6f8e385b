import { ApiError, corsHeaders, problemResponse, requestIdOf, routeFile, servingMethod } from '@/lib/api';
import { getRuntime } from '@/lib/runtime';
import { sseResponse } from '@/lib/stream/sse';

export const dynamic = 'force-dynamic';

/** The event log as Server-Sent Events (lib/stream/sse.ts), keyed and metered. */
const serveGet = servingMethod('GET', async (request) => {
  const runtime = await getRuntime().catch(() => null);
  if (runtime === null) return problemResponse(ApiError.nodeUnreachable(), requestIdOf(request), corsHeaders());
  return sseResponse(runtime.stream(), request);
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(serveGet);
