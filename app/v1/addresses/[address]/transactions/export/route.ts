import { routeFile } from '@/lib/api';
import { addressExportEndpoint } from '@/lib/api/endpoints/wallet-export-endpoints';
import { defineEndpoint } from '@/lib/serving/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(addressExportEndpoint));
