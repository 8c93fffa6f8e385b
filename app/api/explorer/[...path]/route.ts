import { proxyV1 } from '@/lib/serving/explorer';

type Context = { params: Promise<{ path: string[] }> };

export const dynamic = 'force-dynamic';

async function forward(request: Request, context: Context): Promise<Response> {
  return proxyV1(request, (await context.params).path);
}

export const GET = forward;
export const HEAD = forward;
export const POST = forward;
