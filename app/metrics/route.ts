import { getRuntime } from '@/lib/runtime';

export const dynamic = 'force-dynamic';

/** Prometheus text format; with METRICS_TOKEN set, only for `Authorization: Bearer <token>` (lib/runtime/metrics.ts). */
export async function GET(request: Request) {
  return (await getRuntime()).metrics.respond(request);
}
