import { createWebhookEndpoint, listWebhooksEndpoint } from '@/lib/api/webhook-endpoints';
import { defineEndpoint, otherMethods } from '@/lib/runtime/api';

const other = otherMethods('GET', 'POST');

export const dynamic = 'force-dynamic';
export const GET = defineEndpoint(listWebhooksEndpoint);
export const POST = defineEndpoint(createWebhookEndpoint);
export const OPTIONS = other.OPTIONS;
export const PUT = other.refuse;
export const PATCH = other.refuse;
export const DELETE = other.refuse;
