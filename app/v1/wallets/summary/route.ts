import { routeFile } from '@/lib/api';
import { walletSummaryEndpoint } from '@/lib/api/wallet-endpoints';
import { defineEndpoint } from '@/lib/runtime/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(walletSummaryEndpoint));
