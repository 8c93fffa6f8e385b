import { routeFile } from '@/lib/api';
import { deleteWebhookEndpoint, getWebhookEndpoint } from '@/lib/api/endpoints/webhook-endpoints';
import { defineEndpoint } from '@/lib/serving/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(getWebhookEndpoint), defineEndpoint(deleteWebhookEndpoint));
