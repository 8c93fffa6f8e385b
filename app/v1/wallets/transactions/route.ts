import { routeFile } from '@/lib/api';
import { walletTransactionsEndpoint } from '@/lib/api/endpoints/wallet-endpoints';
import { defineEndpoint } from '@/lib/serving/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(defineEndpoint(walletTransactionsEndpoint));
