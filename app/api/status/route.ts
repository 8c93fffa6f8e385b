import { getRuntime } from '@/lib/runtime';
import { getStatus } from '@/lib/status';

export const dynamic = 'force-dynamic';

export async function GET() {
  const runtime = await getRuntime().catch(() => null);
  return Response.json(await getStatus(runtime), { headers: { 'cache-control': 'no-store' } });
}
