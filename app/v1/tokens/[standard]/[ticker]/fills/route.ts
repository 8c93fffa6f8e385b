import { getTokenFillsEndpoint } from '@/lib/api/token-activity-endpoints';
import { otherMethods } from '@/lib/runtime/api';
import { defineTokenEndpoint } from '@/lib/runtime/token-api';

const other = otherMethods('GET');

export const dynamic = 'force-dynamic';
export const GET = defineTokenEndpoint(getTokenFillsEndpoint);
export const OPTIONS = other.OPTIONS;
export const POST = other.refuse;
export const PUT = other.refuse;
export const PATCH = other.refuse;
export const DELETE = other.refuse;
