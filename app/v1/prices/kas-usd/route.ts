import { routeFile } from '@/lib/api';
import { getKasUsdEndpoint } from '@/lib/api/endpoints/kas-usd-endpoint';
import { defineTokenEndpoint } from '@/lib/serving/token-api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineTokenEndpoint(getKasUsdEndpoint));
