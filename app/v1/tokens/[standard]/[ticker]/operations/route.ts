import { routeFile } from '@/lib/api';
import { getTokenOperationsEndpoint } from '@/lib/api/token-activity-endpoints';
import { defineTokenEndpoint } from '@/lib/runtime/token-api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineTokenEndpoint(getTokenOperationsEndpoint));
