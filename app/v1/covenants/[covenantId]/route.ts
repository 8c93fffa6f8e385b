import { routeFile } from '@/lib/api';
import { getCovenantEndpoint } from '@/lib/api/endpoints/indexed-endpoints';
import { defineEndpoint } from '@/lib/serving/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(getCovenantEndpoint));
