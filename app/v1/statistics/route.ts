import { routeFile } from '@/lib/api';
import { getStatisticsEndpoint } from '@/lib/api/endpoints/statistics-endpoint';
import { defineEndpoint } from '@/lib/serving/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(getStatisticsEndpoint));
