import { serveKaspaRest } from '@/lib/serving/kaspa-rest';

export const dynamic = 'force-dynamic';

const serve = (request: Request) => serveKaspaRest(request);

export const GET = serve;
export const HEAD = serve;
export const POST = serve;
export const PUT = serve;
export const PATCH = serve;
export const DELETE = serve;
export const OPTIONS = serve;
