import { routeFile } from '@/lib/api';
import { openApiDocumentEndpoint } from '@/lib/api/openapi/openapi-endpoints';
import { defineEndpoint } from '@/lib/serving/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(openApiDocumentEndpoint));
