import { devnetReorgResponse } from '@/lib/serving/devnet-controls';

export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return devnetReorgResponse(request);
}
