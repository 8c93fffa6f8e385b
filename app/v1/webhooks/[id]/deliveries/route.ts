import { routeFile } from '@/lib/api';
import { listDeliveriesEndpoint } from '@/lib/api/webhook-endpoints';
import { defineEndpoint } from '@/lib/runtime/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(listDeliveriesEndpoint));
