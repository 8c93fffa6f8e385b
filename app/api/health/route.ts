import { getRuntime } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

const headers = { 'cache-control': 'no-store' };

/** The runtime if it has started; health never waits for start-up. */
function startedRuntime() {
  const notYet = new Promise<null>((resolve) => setImmediate(() => resolve(null)));
  return Promise.race([getRuntime(), notYet]).catch(() => null);
}

/**
 * 503 while the index lags the node by more than HEALTH_MAX_LAG_SECONDS, whether this process indexes or reads the
 * shared indexer's checkpoint from the database (INDEXER_MODE=off); otherwise ok.
 */
export async function GET() {
  const runtime = await startedRuntime();
  const lagSeconds = runtime?.indexer.lag().lagSeconds ?? null;
  const maxLagSeconds = runtime?.env.HEALTH_MAX_LAG_SECONDS;
  if (lagSeconds !== null && maxLagSeconds !== undefined && lagSeconds > maxLagSeconds) {
    return Response.json({ status: 'lagging', lagSeconds, maxLagSeconds }, { status: 503, headers });
  }
  return Response.json({ status: 'ok' }, { headers });
}
