/**
 * The /v1 route files' entry: `defineEndpoint` bound to the runtime's API context (resolved per request, so the first
 * call waits for the runtime to start), and the route-file helpers for the methods a route does not serve.
 */
import { corsPreflight, endpointDefiner, methodNotAllowed, type RouteHandler } from '../api';
import type { IndexedApiContext } from '../api/indexed-endpoints';
import { getRuntime } from './index';

export const defineEndpoint = endpointDefiner<IndexedApiContext>(async () => (await getRuntime()).api.context);

export interface OtherMethods {
  OPTIONS: RouteHandler;
  refuse: RouteHandler;
}

/** OPTIONS (CORS preflight) and the 405 problem for every method but `method`. */
export function otherMethods(method: 'GET' | 'POST'): OtherMethods {
  return { OPTIONS: corsPreflight([method]), refuse: methodNotAllowed([method]) };
}
