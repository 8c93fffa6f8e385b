import { routeFile } from '@/lib/api';
import { getSupplyEndpoint } from '@/lib/api/endpoints/supply-endpoint';
import { defineEndpoint } from '@/lib/serving/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(getSupplyEndpoint));
