import { ApiError, corsHeaders, problemResponse, requestIdOf } from '@/lib/api';
import { otherMethods } from '@/lib/runtime/api';

const other = otherMethods('GET');

export const dynamic = 'force-dynamic';

/** GET /v1/ws without an upgrade (server.mjs hands WebSocket upgrades to lib/stream/ws.ts before Next sees them). */
export async function GET(request: Request) {
  const error = new ApiError({
    status: 426,
    code: 'upgrade_required',
    title: 'WebSocket upgrade required',
    detail: 'GET /v1/ws speaks WebSocket: open it with a WebSocket client (Upgrade: websocket) and the x-api-key header',
    headers: { upgrade: 'websocket' },
  });
  return problemResponse(error, requestIdOf(request), corsHeaders());
}
export const OPTIONS = other.OPTIONS;
export const POST = other.refuse;
export const PUT = other.refuse;
export const PATCH = other.refuse;
export const DELETE = other.refuse;
