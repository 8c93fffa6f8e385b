import { walletExportEndpoint } from '@/lib/api/wallet-export-endpoints';
import { defineEndpoint, otherMethods } from '@/lib/runtime/api';

const other = otherMethods('POST');

export const dynamic = 'force-dynamic';
export const POST = defineEndpoint(walletExportEndpoint);
export const OPTIONS = other.OPTIONS;
export const GET = other.refuse;
export const PUT = other.refuse;
export const PATCH = other.refuse;
export const DELETE = other.refuse;
