/**
 * /v1 ahead of Next's router. `npm start` (server.mjs) asks `resolveV1Request` for each request whose path starts
 * with /v1/; when the path and method name an endpoint it gets that endpoint's handler (the very function the route
 * file exports, from V1_HANDLERS) and calls it with a web Request, skipping Next's per-request pipeline, which costs
 * about 1 ms of CPU: ten times a node call through the whole handler. Anything else (another method, OPTIONS, HEAD,
 * an unknown path, the free routes) gets null and goes through Next, whose route files answer it as before.
 *
 * server.mjs is plain JavaScript outside the bundle, so the resolver reaches it on globalThis, installed by
 * instrumentation once the runtime is up; until then every request takes Next's way.
 */
import { ApiError, problemResponse, requestIdOf, routeMethod, type RouteHandler, type RouteId } from '../api';
import { matchRoutePath } from '../api/router';
import { V1_HANDLERS } from './v1-handlers';

export type V1RequestHandler = (request: Request) => Promise<Response>;
export type V1RequestResolver = (method: string, pathname: string) => V1RequestHandler | null;

const RESOLVER_KEY = Symbol.for('dagboard.v1-request-resolver');

export function createV1RequestResolver(handlers: Partial<Record<RouteId, RouteHandler>> = V1_HANDLERS): V1RequestResolver {
  const routes = Object.keys(handlers) as RouteId[];
  return (method, pathname) => {
    const match = matchRoutePath(routes, pathname).find((candidate) => routeMethod(candidate.route) === method);
    const handler = match && handlers[match.route];
    if (match === undefined || handler === undefined) return null;
    const params = Promise.resolve(match.params);
    return async (request) => {
      try {
        return await handler(request, { params });
      } catch {
        // The endpoint wrapper answers every failure itself; this only guards the server against a broken invariant.
        return problemResponse(ApiError.internal(), requestIdOf(request));
      }
    };
  };
}

export function installV1RequestResolver(resolver: V1RequestResolver = createV1RequestResolver()): void {
  (globalThis as { [RESOLVER_KEY]?: V1RequestResolver })[RESOLVER_KEY] = resolver;
}
