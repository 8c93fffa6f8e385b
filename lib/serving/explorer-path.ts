/**
 * The explorer's private path to /v1: the pages use the same handlers as API clients, under the server's own key,
 * which never leaves the server.
 *   - `call` runs a /v1 handler in-process for server components.
 *   - `proxy` serves the same-origin path (`/api/explorer/v1/...`) for client components: it replaces whatever key
 *     the browser sent with the server key and limits each client IP to its RU per second, charged by the cost table
 *     on the API's meter under `explorer-ip:<ip>`.
 * Responses pass through unchanged except that the server key's own budget headers are replaced by the client's.
 */
import {
  ApiError,
  API_KEY_HEADER,
  costOf,
  formatRu,
  fromWebRequest,
  MILLI_RU_PER_RU,
  problemResponse,
  requestIdOf,
  routeMethod,
  secondsUntil,
  toWebResponse,
  type ApiHandler,
  type Meter,
  type RouteId,
} from '../api';
import { matchRoutePath, routesForMethod } from '../api/wrapper/router';
import { parseJson, type JsonValue } from '../rpc/json';
import { v1Path, type QueryValues } from '../web/urls';

const INTERNAL_ORIGIN = 'http://explorer.internal';
const FORWARDED_REQUEST_HEADERS = ['content-type', 'content-length', 'if-none-match', 'x-request-id'] as const;
const SERVER_KEY_BUDGET_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-ru-remaining'];
const UNLIMITED_MONTH = Number.MAX_SAFE_INTEGER;

export interface V1Call {
  params?: Record<string, string>;
  query?: QueryValues;
  body?: unknown;
}

export interface V1Result {
  status: number;
  /** The parsed JSON body (integers past 2^53 as bigint), or null for an empty body. */
  body: JsonValue;
}

export interface ExplorerPathOptions {
  /** The endpoints' own handlers, given the path parameters as they are (decoded), not Next's route adapters. */
  handlers: Partial<Record<RouteId, ApiHandler>>;
  serverApiKey: string;
  meter: Meter;
  /** Epoch milliseconds. */
  clock: () => number;
  ruPerSecondPerIp: number;
}

export interface ExplorerPath {
  call(route: RouteId, call?: V1Call): Promise<V1Result>;
  /** As `call`, answering the handler's response itself (for bodies that are not JSON, such as the CSV exports). */
  respond(route: RouteId, call?: V1Call): Promise<Response>;
  proxy(request: Request, pathSegments: readonly string[]): Promise<Response>;
}

/** The last X-Forwarded-For entry: the hop that reached this server (Next.js sets it from the socket when absent). */
export function clientIpOf(request: Request): string {
  const forwarded = request.headers.get('x-forwarded-for');
  const last = forwarded?.split(',').at(-1)?.trim();
  return last === undefined || last === '' ? 'unknown' : last;
}

export function createExplorerPath(options: ExplorerPathOptions): ExplorerPath {
  const { handlers, serverApiKey, meter, clock } = options;
  const routes = Object.keys(handlers) as RouteId[];
  const ipLimits = {
    milliRuPerSecond: Math.round(options.ruPerSecondPerIp * MILLI_RU_PER_RU),
    milliRuPerMonth: UNLIMITED_MONTH,
  };

  function handlerFor(route: RouteId): ApiHandler {
    const handler = handlers[route];
    if (handler === undefined) throw new Error(`no handler for ${route}`);
    return handler;
  }

  async function invoke(
    route: RouteId,
    init: { url: string; method: string; headers: Headers; body?: BodyInit | null; params: Record<string, string> },
  ): Promise<Response> {
    init.headers.set(API_KEY_HEADER, serverApiKey);
    const request = new Request(new URL(init.url, INTERNAL_ORIGIN), {
      method: init.method,
      headers: init.headers,
      body: init.body ?? null,
      ...(init.body ? { duplex: 'half' } : {}),
    } as RequestInit);
    const response = toWebResponse(await handlerFor(route)(fromWebRequest(request), init.params));
    for (const header of SERVER_KEY_BUDGET_HEADERS) response.headers.delete(header);
    return response;
  }

  function respond(route: RouteId, call: V1Call = {}): Promise<Response> {
    const params = call.params ?? {};
    const headers = new Headers();
    let body: string | undefined;
    if (call.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(call.body);
    }
    return invoke(route, { url: v1Path(route, params, call.query), method: routeMethod(route), headers, body, params });
  }

  return {
    respond,

    async call(route, call = {}) {
      const response = await respond(route, call);
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : parseJson(text) };
    },

    async proxy(request, pathSegments) {
      const requestId = requestIdOf(request);
      const pathname = `/${pathSegments.map((segment) => encodeURIComponent(segment)).join('/')}`;
      const matches = pathSegments[0] === 'v1' ? matchRoutePath(routes, pathname) : [];
      if (matches.length === 0) return problemResponse(ApiError.routeNotFound(pathname), requestId);
      const match = routesForMethod(matches, request.method);
      if (match === undefined) {
        const allowed = [...new Set(matches.map((candidate) => routeMethod(candidate.route)))];
        return problemResponse(ApiError.methodNotAllowed(request.method, allowed), requestId);
      }

      const now = clock();
      const charge = await meter.charge(`explorer-ip:${clientIpOf(request)}`, costOf(match.route), ipLimits, now);
      const budgetHeaders = {
        'ratelimit-limit': formatRu(ipLimits.milliRuPerSecond),
        'ratelimit-remaining': formatRu(charge.secondRemaining),
        'ratelimit-reset': String(secondsUntil(charge.secondResetAt, now)),
      };
      if (charge.outcome !== 'charged') {
        const retryAfter = secondsUntil(charge.secondResetAt, now);
        const refusal = ApiError.clientRateLimited(retryAfter, formatRu(ipLimits.milliRuPerSecond));
        return problemResponse(refusal, requestId, budgetHeaders);
      }

      const headers = new Headers();
      for (const name of FORWARDED_REQUEST_HEADERS) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      headers.set('x-request-id', requestId);
      const response = await invoke(match.route, {
        url: `${pathname}${new URL(request.url).search}`,
        method: request.method,
        headers,
        body: request.method === 'GET' || request.method === 'HEAD' ? null : request.body,
        params: match.params,
      });
      for (const [name, value] of Object.entries(budgetHeaders)) response.headers.set(name, value);
      return response;
    },
  };
}
