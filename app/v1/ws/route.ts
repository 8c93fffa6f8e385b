import { ApiError, corsHeaders, problemResponse, requestIdOf, routeFile, servingMethod } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** GET /v1/ws without an upgrade (server.mjs hands WebSocket upgrades to lib/stream/ws.ts before Next sees them). */
const serveGet = servingMethod('GET', async (request) => {
  const error = new ApiError({
    code: 'upgrade_required',
    detail: 'GET /v1/ws speaks WebSocket: open it with a WebSocket client (Upgrade: websocket) and the x-api-key header',
    headers: { upgrade: 'websocket' },
  });
  return problemResponse(error, requestIdOf(request), corsHeaders());
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(serveGet);
