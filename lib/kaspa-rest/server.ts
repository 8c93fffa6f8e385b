/**
 * Serving /kaspa-rest/*: route matching, CORS (as kaspa-rest-server's middleware: `*`, its paging headers exposed,
 * preflights answered), access and metering, request reading and FastAPI-shaped errors. In order:
 *   preflight → route (404) → method (405) → access: key (401/403) or client IP → RU charge (429/402) → strict query
 *   (422) → body size (413) → JSON (422) → handler → JSON or text
 * Access: keyless by default, each client IP charged on the API's meter under `kaspa-rest-ip:<ip>` against its RU per
 * second, with no monthly allowance; a request that sends x-api-key is charged to that key (its limits). With access
 * `api-key` the key is required. Charges come from the one cost table (lib/api/keys/costs.ts); a 5xx is refunded.
 */
import { randomUUID } from 'node:crypto';
import {
  API_KEY_HEADER,
  ApiError,
  authenticateApiKey,
  formatRu,
  meteringHeaders,
  MILLI_RU_PER_RU,
  secondsUntil,
  toApiError,
  type ApiKeyLimits,
  type ChargeResult,
  type KeyStore,
  type Logger,
  type Meter,
} from '../api';
import { KASPA_REST_ROUTE_COSTS, type KaspaRestRouteId } from '../api/keys/costs';
import { JsonParseError, parseJson, stringifyJson } from '../rpc/json';
import { Parameters, RestError, validationError } from './errors';
import type { KaspaRestData, RestResult, RestRoute } from './route-types';
import { KASPA_REST_ROUTES } from './routes';

/** kaspa-rest-server's LimitUploadSize. */
export const BODY_LIMIT = 200_000;
const DEFAULT_MAX_AGE_SECONDS = 8;
const UNLIMITED_MONTH = Number.MAX_SAFE_INTEGER;

export const EXPOSED_HEADERS = [
  'X-Data-Source',
  'X-Page-Count',
  'X-Next-Page-After',
  'X-Next-Page-Before',
  'x-request-cost-ru',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ru-remaining',
  'retry-after',
] as const;

export interface KaspaRestAccess {
  mode: 'keyless' | 'api-key';
  ruPerSecondPerIp: number;
}

export interface KaspaRestContext {
  data: KaspaRestData;
  keys: KeyStore;
  meter: Meter;
  clock: () => number;
  logger: Logger;
  access: KaspaRestAccess;
}

export type KaspaRestHandler = (request: Request, clientIp: string) => Promise<Response>;

interface Template {
  route: RestRoute;
  method: string;
  segments: string[];
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

const TEMPLATES: Template[] = KASPA_REST_ROUTES.map((route) => {
  const [method, path] = route.id.split(' ') as [string, string];
  return { route, method, segments: segmentsOf(path) };
});

function matchTemplate(template: string[], actual: string[]): Record<string, string> | null {
  if (template.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of template.entries()) {
    const value = actual[index]!;
    if (part.startsWith('{')) {
      try {
        params[part.slice(1, -1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) {
      return null;
    }
  }
  return params;
}

/** The templates matching the path (/kaspa-rest/…), literal-most first (`/addresses/top` before `/addresses/{kaspaAddress}`). */
export function matchKaspaRestPath(pathname: string): { template: Template; params: Record<string, string> }[] {
  const actual = segmentsOf(pathname);
  return TEMPLATES.flatMap((template) => {
    const params = matchTemplate(template.segments, actual);
    return params === null ? [] : [{ template, params, count: Object.keys(params).length }];
  })
    .sort((x, y) => x.count - y.count)
    .map(({ template, params }) => ({ template, params }));
}

function corsHeaders(): Record<string, string> {
  return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS.join(', ') };
}

const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

function preflight(request: Request, methods: string[]): Response {
  const asked = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(),
      'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
      'access-control-allow-headers': asked !== null && HEADER_LIST.test(asked.trim()) ? asked.trim() : `${API_KEY_HEADER}, content-type`,
      'access-control-max-age': '600',
    },
  });
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(stringifyJson(body), { status, headers: { ...headers, 'content-type': 'application/json' } });
}

function errorResponse(error: RestError, headers: Record<string, string>): Response {
  return jsonResponse(error.status, { detail: error.detail }, { ...headers, ...error.headers, 'cache-control': 'no-store' });
}

async function readBody(request: Request): Promise<unknown> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > BODY_LIMIT) throw new RestError(413, 'Request Entity Too Large');
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      size += chunk.value.byteLength;
      if (size > BODY_LIMIT) {
        await reader.cancel();
        throw new RestError(413, 'Request Entity Too Large');
      }
      chunks.push(chunk.value);
    }
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
  if (text.trim() === '') throw validationError([{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }]);
  try {
    return parseJson(text, { maxDepth: 64 });
  } catch (error) {
    if (!(error instanceof JsonParseError)) throw error;
    throw validationError([{ loc: ['body', 0], msg: `Expecting value: ${error.message}`, type: 'value_error.jsondecode' }]);
  }
}

function fromApiError(error: ApiError): RestError {
  return new RestError(error.status, error.detail, error.headers);
}

interface Charged {
  keyId: string;
  limits: ApiKeyLimits;
  result: ChargeResult;
  now: number;
  perIp: boolean;
}

async function charge(context: KaspaRestContext, request: Request, clientIp: string, cost: number): Promise<Charged> {
  const given = request.headers.get(API_KEY_HEADER);
  const now = context.clock();
  if (context.access.mode === 'api-key' || (given !== null && given.trim() !== '')) {
    const key = await authenticateApiKey(context.keys, given);
    const result = await context.meter.charge(key.id, cost, key, now);
    return { keyId: key.id, limits: key, result, now, perIp: false };
  }
  const limits = { milliRuPerSecond: Math.round(context.access.ruPerSecondPerIp * MILLI_RU_PER_RU), milliRuPerMonth: UNLIMITED_MONTH };
  const keyId = `kaspa-rest-ip:${clientIp}`;
  return { keyId, limits, result: await context.meter.charge(keyId, cost, limits, now), now, perIp: true };
}

function budgetHeaders(charged: Charged, cost: number): Record<string, string> {
  const { limits, result, now } = charged;
  const spent = result.outcome === 'charged' ? cost : 0;
  if (!charged.perIp) return meteringHeaders(limits, result, spent, now);
  return {
    'x-request-cost-ru': formatRu(spent),
    'ratelimit-limit': formatRu(limits.milliRuPerSecond),
    'ratelimit-remaining': formatRu(result.secondRemaining),
    'ratelimit-reset': String(secondsUntil(result.secondResetAt, now)),
  };
}

function refusal(charged: Charged): RestError | undefined {
  const { result, now, limits } = charged;
  if (result.outcome === 'rate_limited') {
    return new RestError(429, `Rate limit exceeded: ${formatRu(limits.milliRuPerSecond)} RU per second`, {
      'retry-after': String(secondsUntil(result.secondResetAt, now)),
    });
  }
  if (result.outcome === 'allowance_exhausted') {
    return new RestError(402, `Monthly allowance of ${formatRu(limits.milliRuPerMonth)} RU exhausted`);
  }
  return undefined;
}

function successResponse(result: RestResult, headers: Record<string, string>, headOnly: boolean): Response {
  const maxAge = result.maxAge ?? DEFAULT_MAX_AGE_SECONDS;
  const all = {
    ...headers,
    ...result.headers,
    'cache-control': maxAge > 0 ? `private, max-age=${maxAge}` : 'no-store',
    'content-type': result.text ? 'text/plain; charset=utf-8' : 'application/json',
  };
  const text = result.text ? String(result.body) : stringifyJson(result.body);
  return new Response(headOnly ? null : text, { status: result.status ?? 200, headers: all });
}

/** The handler of every request under /kaspa-rest; `getContext` is resolved per request (the runtime may be starting). */
export function createKaspaRestHandler(getContext: () => KaspaRestContext | Promise<KaspaRestContext>): KaspaRestHandler {
  return async (request, clientIp) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = { ...corsHeaders(), 'x-request-id': randomUUID() };
    const matches = matchKaspaRestPath(url.pathname);
    const methods = [...new Set(matches.map((match) => match.template.method))];
    if (request.method === 'OPTIONS' && matches.length > 0) return preflight(request, methods);
    if (matches.length === 0) return errorResponse(new RestError(404, 'Not Found'), headers);
    const wanted = request.method === 'HEAD' ? 'GET' : request.method;
    const match = matches.find((candidate) => candidate.template.method === wanted);
    if (match === undefined) {
      return errorResponse(new RestError(405, 'Method Not Allowed', { allow: methods.join(', ') }), headers);
    }
    const { route } = match.template;
    const id: KaspaRestRouteId = route.id;
    const cost = KASPA_REST_ROUTE_COSTS[id];
    let context: KaspaRestContext | undefined;
    let charged: Charged | undefined;
    let response: Response;
    try {
      context = await getContext();
      charged = await charge(context, request, clientIp, cost);
      Object.assign(headers, budgetHeaders(charged, cost));
      const refused = refusal(charged);
      if (refused !== undefined) throw refused;
      const parameters = new Parameters(url.searchParams);
      if (route.strictQuery !== undefined) {
        parameters.onlyKnown(route.strictQuery);
        parameters.done();
      }
      const body = match.template.method === 'POST' ? await readBody(request) : undefined;
      const result = await route.handler({ data: context.data, params: match.params, parameters, body, now: charged.now });
      response = successResponse(result, headers, request.method === 'HEAD');
    } catch (error) {
      const logger = context?.logger ?? { error: (message: string, entry: unknown) => console.error(message, entry) };
      const restError =
        error instanceof RestError ? error : fromApiError(toApiError(error, { logger, requestId: headers['x-request-id']!, route: id }));
      response = errorResponse(restError, headers);
    }
    if (response.status >= 500 && charged?.result.outcome === 'charged') {
      await context?.meter.refund(charged.result.receipt).catch(() => undefined);
      response.headers.set('x-request-cost-ru', '0');
    }
    return response;
  };
}
