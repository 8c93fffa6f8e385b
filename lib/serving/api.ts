/**
 * The /v1 route files' entry: `defineEndpoint` bound to the runtime's API context (resolved per request, so the first
 * call waits for the runtime to start), and `serveEndpoint` the same for the endpoint tables (v1-handlers.ts). A route
 * file passes what `defineEndpoint` makes to lib/api's `routeFile`, which adds the methods it does not serve.
 */
import { endpointDefiner, endpointServer } from '../api';
import type { WalletApiContext } from '../api/endpoints/wallet-endpoints';
import type { WebhookApiContext } from '../api/endpoints/webhook-endpoints';
import { getRuntime } from '../runtime/index';

const apiContext = async (): Promise<WalletApiContext & WebhookApiContext> => (await getRuntime()).api.context;

export const defineEndpoint = endpointDefiner(apiContext);
export const serveEndpoint = endpointServer(apiContext);
