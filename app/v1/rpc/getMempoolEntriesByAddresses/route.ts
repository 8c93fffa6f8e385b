import { routeFile } from '@/lib/api';
import { getMempoolEntriesByAddressesEndpoint } from '@/lib/api/node-endpoints';
import { defineEndpoint } from '@/lib/runtime/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(getMempoolEntriesByAddressesEndpoint));
