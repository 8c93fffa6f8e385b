import { getRuntime } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const runtime = await getRuntime();
  return Response.json({ samples: runtime.feeHistory.samples() }, { headers: { 'cache-control': 'no-store' } });
}
