import { routeFile } from '@/lib/api';
import { getAddressTokenBalancesEndpoint } from '@/lib/api/endpoints/token-activity-endpoints';
import { defineTokenEndpoint } from '@/lib/serving/token-api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineTokenEndpoint(getAddressTokenBalancesEndpoint));
