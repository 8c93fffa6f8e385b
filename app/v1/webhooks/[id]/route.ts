import { deleteWebhookEndpoint, getWebhookEndpoint } from '@/lib/api/webhook-endpoints';
import { defineEndpoint, otherMethods } from '@/lib/runtime/api';

const other = otherMethods('GET', 'DELETE');

export const dynamic = 'force-dynamic';
export const GET = defineEndpoint(getWebhookEndpoint);
export const DELETE = defineEndpoint(deleteWebhookEndpoint);
export const OPTIONS = other.OPTIONS;
export const POST = other.refuse;
export const PUT = other.refuse;
export const PATCH = other.refuse;
