/**
 * POST /api/devnet/reorg (DEVNET_CONTROLS=true on the embedded devnet): forces a reorganisation, `{"depth": n}`
 * chain blocks deep, and answers what changed. 404 in the one problem shape when the controls are off.
 */
import { z } from 'zod';
import { ApiError, fromZodError, problemResponse, requestIdOf } from '../api';
import { getRuntime } from '../runtime';

export const DEVNET_REORG_PATH = '/api/devnet/reorg';
export const MAX_FORCED_REORG_DEPTH = 20;

const reorgBody = z.object({ depth: z.number().int().min(1).max(MAX_FORCED_REORG_DEPTH) }).strict();

export async function devnetReorgResponse(request: Request): Promise<Response> {
  const requestId = requestIdOf(request);
  const controls = (await getRuntime()).devnetControls;
  if (controls === null) return problemResponse(ApiError.routeNotFound(DEVNET_REORG_PATH), requestId);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return problemResponse(ApiError.invalidJson('the body must be JSON: {"depth": n}'), requestId);
  }
  const parsed = reorgBody.safeParse(body);
  if (!parsed.success) return problemResponse(fromZodError('body', parsed.error), requestId);
  try {
    return Response.json(await controls.forceReorg(parsed.data.depth), { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return problemResponse(ApiError.invalidRequest(`the devnet cannot reorganise ${parsed.data.depth} deep: ${error instanceof Error ? error.message : String(error)}`), requestId);
  }
}
