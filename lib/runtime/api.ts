/**
 * The /v1 route files' entry: `defineEndpoint` bound to the runtime's API context (resolved per request, so the first
 * call waits for the runtime to start), `serveEndpoint` the same for the endpoint tables (v1-handlers.ts), and the
 * route-file helpers for the methods a route does not serve.
 */
import { corsPreflight, endpointDefiner, endpointServer, methodNotAllowed, type HttpMethod, type RouteHandler } from '../api';
import type { WalletApiContext } from '../api/wallet-endpoints';
import type { WebhookApiContext } from '../api/webhook-endpoints';
import { getRuntime } from './index';

const apiContext = async (): Promise<WalletApiContext & WebhookApiContext> => (await getRuntime()).api.context;

export const defineEndpoint = endpointDefiner(apiContext);
export const serveEndpoint = endpointServer(apiContext);

export interface OtherMethods {
  OPTIONS: RouteHandler;
  refuse: RouteHandler;
}

/** OPTIONS (CORS preflight) and the 405 problem for every method but `methods`. */
export function otherMethods(...methods: HttpMethod[]): OtherMethods {
  return { OPTIONS: corsPreflight(methods), refuse: methodNotAllowed(methods) };
}
