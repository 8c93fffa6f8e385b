import { getRuntime } from '@/lib/runtime';
import { feeHistoryFor } from '@/lib/runtime/fee-history';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const runtime = await getRuntime();
  return Response.json({ samples: feeHistoryFor(runtime.rpc).samples() }, { headers: { 'cache-control': 'no-store' } });
}
