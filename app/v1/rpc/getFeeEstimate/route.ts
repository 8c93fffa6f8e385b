import { routeFile } from '@/lib/api';
import { getFeeEstimateEndpoint } from '@/lib/api/endpoints/node-endpoints';
import { defineEndpoint } from '@/lib/serving/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(getFeeEstimateEndpoint));
