/**
 * /v1 ahead of Next's router. `npm start` (server.mjs) asks `resolveV1Request` for each request whose path starts
 * with /v1/; when the path and method name an endpoint it gets a node:http handler that runs that endpoint's
 * `ApiHandler` (the same one the route file serves, from V1_API_HANDLERS) on the node message itself, skipping
 * Next's per-request pipeline (about 1 ms of CPU: ten times a node call through the whole handler) and the web
 * Request and Response a route handler is given and returns. Anything else (another method, OPTIONS, HEAD, an
 * unknown path, the free routes) gets null and goes through Next, whose route files answer it as before.
 *
 * server.mjs is plain JavaScript outside the bundle, so the resolver reaches it on globalThis, installed by
 * instrumentation once the runtime is up; until then every request takes Next's way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ApiError,
  problemReply,
  requestIdOf,
  routeMethod,
  type ApiHandler,
  type ApiRequest,
  type ApiResponse,
  type RouteId,
} from '../api';
import { matchRoutePath } from '../api/wrapper/router';
import { V1_API_HANDLERS } from './v1-handlers';

export type V1NodeHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;
export type V1RequestResolver = (method: string, pathname: string) => V1NodeHandler | null;

const RESOLVER_KEY = Symbol.for('dagboard.v1-request-resolver');

function fromNodeRequest(request: IncomingMessage): ApiRequest {
  const method = request.method ?? 'GET';
  return {
    method,
    target: request.url ?? '/',
    header: (name) => {
      const value = request.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
    // Stopping early (a body past its limit) must leave the socket open for the 413 (see writeReply).
    body: method === 'GET' || method === 'HEAD' ? null : request.iterator({ destroyOnReturn: false }),
  };
}

/** A request whose body was not read to its end (refused past its limit) closes its connection after the reply. */
function writeReply(reply: ApiResponse, request: IncomingMessage, response: ServerResponse): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body !== null) headers['content-length'] = String(Buffer.byteLength(reply.body));
  if (!request.complete) headers.connection = 'close';
  response.writeHead(reply.status, headers);
  response.end(reply.body ?? undefined);
}

export function createV1RequestResolver(handlers: Partial<Record<RouteId, ApiHandler>> = V1_API_HANDLERS): V1RequestResolver {
  const routes = Object.keys(handlers) as RouteId[];
  return (method, pathname) => {
    const match = matchRoutePath(routes, pathname).find((candidate) => routeMethod(candidate.route) === method);
    const handler = match && handlers[match.route];
    if (match === undefined || handler === undefined) return null;
    return async (request, response) => {
      const apiRequest = fromNodeRequest(request);
      let reply: ApiResponse;
      try {
        reply = await handler(apiRequest, match.params);
      } catch {
        // The endpoint wrapper answers every failure itself; this only guards the server against a broken invariant.
        reply = problemReply(ApiError.internal(), requestIdOf(apiRequest));
      }
      writeReply(reply, request, response);
    };
  };
}

export function installV1RequestResolver(resolver: V1RequestResolver = createV1RequestResolver()): void {
  (globalThis as { [RESOLVER_KEY]?: V1RequestResolver })[RESOLVER_KEY] = resolver;
}
