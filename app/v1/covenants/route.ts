import { getCovenantsEndpoint } from '@/lib/api/indexed-endpoints';
import { defineEndpoint, otherMethods } from '@/lib/runtime/api';

const other = otherMethods('GET');

export const dynamic = 'force-dynamic';
export const GET = defineEndpoint(getCovenantsEndpoint);
export const OPTIONS = other.OPTIONS;
export const POST = other.refuse;
export const PUT = other.refuse;
export const PATCH = other.refuse;
export const DELETE = other.refuse;
