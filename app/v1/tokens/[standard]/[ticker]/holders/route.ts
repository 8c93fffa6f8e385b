import { routeFile } from '@/lib/api';
import { getTokenHoldersEndpoint } from '@/lib/api/token-activity-endpoints';
import { defineTokenEndpoint } from '@/lib/runtime/token-api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineTokenEndpoint(getTokenHoldersEndpoint));
