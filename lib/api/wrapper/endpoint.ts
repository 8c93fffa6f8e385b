/**
 * The one wrapper every /v1 route handler goes through. In order:
 *   request id → CORS preflight → method (405) → API key in the query string (400) → key check (401/403)
 *   → RU charge (429/402) → unknown or repeated query parameters (400) → path, query (400) → content type (415)
 *   → body size (413) → JSON (400) → body (400) → handler → serialisation (bigint as exact JSON integers)
 * Everything that fails becomes the one problem shape. A call is charged from the charge step on, 4xx included;
 * a 5xx outcome is refunded. Steps before the charge (405, key in query, 401, 403) are not metered.
 * Dependencies come from the context the composition root hands to `endpointDefiner`; nothing here is global.
 */
import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { JsonParseError, parseJson, stringifyJson } from '../../rpc/json';
import { costOf, formatRu, routeMethod, type HttpMethod, type RouteId } from '../keys/costs';
import { ApiError, fromZodError, problemReply, problemResponse, toApiError, type Logger } from '../http/errors';
import {
  routeHandlerOf,
  toWebResponse,
  type ApiHandler,
  type ApiRequest,
  type ApiResponse,
  type RouteHandler,
} from '../http/http';
import { API_KEY_HEADER, authenticateApiKey, type ApiKeyLimits, type ApiKeyRecord, type KeyStore } from '../keys/keys';
import { secondsUntil, type ChargeResult, type Meter, type MeterState } from '../keys/metering';

export interface ApiContext {
  keys: KeyStore;
  meter: Meter;
  /** Epoch milliseconds. */
  clock: () => number;
  logger: Logger;
  /** Told of every answered request except CORS preflights (the runtime's /metrics counts them). */
  observe?: (outcome: RequestOutcome) => void;
}

export interface RequestOutcome {
  route: RouteId;
  status: number;
  seconds: number;
  /** The key's id (never the key or its digest); null when no key was authenticated. */
  keyId: string | null;
  chargedMilliRu: number;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const SUBMIT_BLOCK_BODY_LIMIT = 4 * 1024 * 1024;
const JSON_BODY_MAX_DEPTH = 128;
const IMMUTABLE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * How long a success may be cached. Private only: a shared cache would answer other callers without metering them.
 *   immutable  data that can no longer change (deep in the DAG, by-id lookups of final data)
 *   short      data near the tip, for maxAgeSeconds
 *   no-store   live state (mempool, submissions)
 */
export type CachePolicy = { kind: 'immutable' } | { kind: 'short'; maxAgeSeconds: number } | { kind: 'no-store' };

export interface EndpointResult {
  /** Serialised as JSON, unless `contentType` is given: then it is the body's text as sent. */
  body: unknown;
  cache?: CachePolicy;
  contentType?: string;
  /** Further response headers (lower-case names), e.g. a text body's paging headers. */
  headers?: Record<string, string>;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<C, P, Q, B> {
  context: C;
  params: P;
  query: Q;
  body: B;
  /** The caller's key; undefined only on public endpoints. */
  key: ApiKeyRecord | undefined;
  requestId: string;
  /** The request's path, percent-encoded as received. */
  pathname: string;
  now: number;
}

export interface EndpointDefinition<
  C extends ApiContext,
  PS extends z.ZodType | undefined,
  QS extends z.ZodObject | undefined,
  BS extends z.ZodType | undefined,
> {
  /** The route ("METHOD /v1/path/{param}"); it fixes the method and, through the cost table, the charge. */
  id: RouteId;
  params?: PS;
  /** Its keys are the endpoint's query parameters; any other parameter is refused. Values arrive as strings. */
  query?: QS;
  /** POST only; the body must then be application/json. */
  body?: BS;
  /** Largest accepted body in bytes; 1 MiB unless stated. */
  bodyLimit?: number;
  /** Object keys whose JSON integers are always parsed as bigint (u64 fields). */
  bigintKeys?: ReadonlySet<string>;
  /** `public` endpoints take no key and are not metered; they must be free. */
  auth?: 'api-key' | 'public';
  handler(input: HandlerInput<C, Output<PS>, Output<QS>, Output<BS>>): Promise<EndpointResult>;
}

/** Types endpoint definitions against one context without repeating the generic parameters at each definition. */
export function endpointsFor<C extends ApiContext>() {
  return <
    PS extends z.ZodType | undefined = undefined,
    QS extends z.ZodObject | undefined = undefined,
    BS extends z.ZodType | undefined = undefined,
  >(
    definition: EndpointDefinition<C, PS, QS, BS>,
  ): EndpointDefinition<C, PS, QS, BS> => definition;
}

export const EXPOSED_HEADERS = [
  'x-request-id',
  'x-request-cost-ru',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ru-remaining',
  'retry-after',
  'etag',
  'x-next-cursor',
  'x-closing-balance',
  'content-disposition',
] as const;

const ALLOWED_REQUEST_HEADERS = [API_KEY_HEADER, 'content-type', 'if-none-match', 'x-request-id'] as const;

export function corsHeaders(): Record<string, string> {
  return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS.join(', ') };
}

function preflightReply(methods: readonly string[], requestId: string): ApiResponse {
  return {
    status: 204,
    headers: {
      ...corsHeaders(),
      'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
      'access-control-allow-headers': ALLOWED_REQUEST_HEADERS.join(', '),
      'access-control-max-age': '86400',
      'x-request-id': requestId,
    },
    body: null,
  };
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The client's x-request-id when it is short and plain (it is logged), otherwise a fresh UUID. */
export function requestIdOf(request: Request | ApiRequest): string {
  const given = request instanceof Request ? request.headers.get('x-request-id') : request.header('x-request-id');
  return given !== null && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The OPTIONS export of a /v1 route file: answers CORS preflights without a key. */
export function corsPreflight(methods: readonly string[]): RouteHandler {
  return async (request) => toWebResponse(preflightReply(methods, requestIdOf(request)));
}

/** For the methods a /v1 route file does not serve, so they get the problem shape rather than an empty 405. */
export function methodNotAllowed(allowed: readonly string[]): RouteHandler {
  return async (request) => {
    const requestId = requestIdOf(request);
    return problemResponse(ApiError.methodNotAllowed(request.method, allowed), requestId, corsHeaders());
  };
}

/** A route handler that knows the method it serves. */
export type MethodHandler = RouteHandler & { readonly method: HttpMethod };

export function servingMethod(method: HttpMethod, handler: RouteHandler): MethodHandler {
  return Object.assign(handler, { method });
}

/** Every method a /v1 route file exports. */
export type RouteFileHandlers = Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', RouteHandler>;

/**
 * A route file's exports from the handlers it serves: those methods, OPTIONS (the CORS preflight) and the 405 problem
 * for every other method, so each route file is one line.
 */
export function routeFile(...served: MethodHandler[]): RouteFileHandlers {
  const methods = served.map((handler) => handler.method);
  const refuse = methodNotAllowed(methods);
  const handlerFor = (method: HttpMethod): RouteHandler => served.find((handler) => handler.method === method) ?? refuse;
  return { GET: handlerFor('GET'), POST: handlerFor('POST'), PUT: refuse, PATCH: refuse, DELETE: handlerFor('DELETE'), OPTIONS: corsPreflight(methods) };
}

/** For a /v1 catch-all route: unknown paths get the problem shape. */
export function routeNotFound(): RouteHandler {
  return async (request) => {
    const requestId = requestIdOf(request);
    return problemResponse(ApiError.routeNotFound(new URL(request.url).pathname), requestId, corsHeaders());
  };
}

const KEY_LIKE_PARAMETER = /^(x[-_])?(api[-_]?key|apikey|access[-_]?token|token)$/i;

function rejectKeyInQuery(search: URLSearchParams): void {
  for (const name of search.keys()) {
    if (KEY_LIKE_PARAMETER.test(name)) throw ApiError.apiKeyInQuery(name);
  }
}

function queryRecord(search: URLSearchParams, schema: z.ZodObject | undefined): Record<string, string> {
  const allowed = new Set(schema === undefined ? [] : Object.keys(schema.shape));
  const unknown = [...new Set(search.keys())].filter((name) => !allowed.has(name));
  if (unknown.length > 0) throw ApiError.unknownQueryParameters(unknown);
  const record: Record<string, string> = {};
  for (const [name, value] of search) {
    if (Object.hasOwn(record, name)) {
      throw ApiError.invalidRequest(`query parameter ${name} is given more than once`, [
        { path: `query.${name}`, message: 'must be given at most once' },
      ]);
    }
    record[name] = value;
  }
  return record;
}

function parsePart<S extends z.ZodType | undefined>(schema: S, value: unknown, location: string): Output<S> {
  if (schema === undefined) return undefined as Output<S>;
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(location, result.error);
  return result.data as Output<S>;
}

function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  const mediaType = header.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

async function readBodyText(request: ApiRequest, limit: number): Promise<string> {
  const declared = request.header('content-length');
  if (declared !== null && Number(declared) > limit) throw ApiError.bodyTooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > limit) throw ApiError.bodyTooLarge(limit);
      chunks.push(chunk);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw ApiError.invalidJson('the request body is not valid UTF-8');
  }
}

async function readJsonBody(request: ApiRequest, limit: number, bigintKeys: ReadonlySet<string> | undefined) {
  const contentType = request.header('content-type');
  if (!isJsonContentType(contentType)) throw ApiError.unsupportedMediaType(contentType);
  const text = await readBodyText(request, limit);
  if (text.trim() === '') throw ApiError.invalidJson('the request body is empty; a JSON object is required');
  try {
    return parseJson(text, { bigintKeys, maxDepth: JSON_BODY_MAX_DEPTH });
  } catch (error) {
    if (error instanceof JsonParseError) {
      throw ApiError.invalidJson(`the request body is not valid JSON: ${error.message}`);
    }
    throw error;
  }
}

export function cacheControl(policy: CachePolicy): string {
  switch (policy.kind) {
    case 'immutable':
      return `private, max-age=${IMMUTABLE_MAX_AGE_SECONDS}, immutable`;
    case 'short':
      return `private, max-age=${Math.max(0, Math.floor(policy.maxAgeSeconds))}`;
    case 'no-store':
      return 'no-store';
  }
}

/** A strong validator: the SHA-256 of the exact body bytes (node:crypto: pages of history run to tens of kB). */
export function etagOf(bodyText: string): string {
  return `"${createHash('sha256').update(bodyText, 'utf8').digest('base64url')}"`;
}

/** RFC 9110 §13.1.2: weak comparison, `*` matches any current representation. */
export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

function successReply(result: EndpointResult, request: ApiRequest, headOnly: boolean): ApiResponse {
  const text = result.contentType === undefined ? stringifyJson(result.body) : String(result.body);
  const policy = result.cache ?? { kind: 'no-store' };
  const headers: Record<string, string> = {
    ...result.headers,
    'content-type': result.contentType ?? 'application/json',
    'cache-control': cacheControl(policy),
  };
  if (policy.kind !== 'no-store') {
    headers.etag = etagOf(text);
    headers.vary = API_KEY_HEADER;
    if (ifNoneMatchMatches(request.header('if-none-match'), headers.etag)) return { status: 304, headers, body: null };
  }
  return { status: 200, headers, body: headOnly ? null : text };
}

export function meteringHeaders(limits: ApiKeyLimits, state: MeterState, costCharged: number, now: number) {
  return {
    'x-request-cost-ru': formatRu(costCharged),
    'ratelimit-limit': formatRu(limits.milliRuPerSecond),
    'ratelimit-remaining': formatRu(state.secondRemaining),
    'ratelimit-reset': String(secondsUntil(state.secondResetAt, now)),
    'x-ru-remaining': formatRu(state.monthRemaining),
  };
}

function refundedState(state: MeterState, limits: ApiKeyLimits, cost: number): MeterState {
  return {
    ...state,
    secondRemaining: Math.min(limits.milliRuPerSecond, state.secondRemaining + cost),
    monthRemaining: Math.min(limits.milliRuPerMonth, state.monthRemaining + cost),
  };
}

/** The problem for a charge the meter refused (429 or 402); undefined when it charged. */
export function refusal(result: ChargeResult, key: ApiKeyRecord): ApiError | undefined {
  switch (result.outcome) {
    case 'charged':
      return undefined;
    case 'rate_limited':
      return ApiError.rateLimited(result.retryAfterSeconds, formatRu(key.milliRuPerSecond));
    case 'allowance_exhausted':
      return ApiError.allowanceExhausted(formatRu(key.milliRuPerMonth), new Date(result.monthResetAt));
  }
}

/** Before the context exists (its construction failed) errors still need a log. */
function loggerOf(context: ApiContext | undefined): Logger {
  return context?.logger ?? { error: (message, entry) => console.error(message, entry) };
}

/** A request target's path and query parameters (none without a `?`). */
function splitTarget(target: string): { pathname: string; search: URLSearchParams } {
  const queryStart = target.indexOf('?');
  return queryStart < 0
    ? { pathname: target, search: new URLSearchParams() }
    : { pathname: target.slice(0, queryStart), search: new URLSearchParams(target.slice(queryStart + 1)) };
}

/**
 * Binds the wrapper to the composition root's context (resolved per request, so it may open connections lazily) and
 * turns each endpoint definition into an `ApiHandler`.
 */
export function endpointServer<C extends ApiContext>(getContext: () => C | Promise<C>) {
  return function serveEndpoint<
    PS extends z.ZodType | undefined = undefined,
    QS extends z.ZodObject | undefined = undefined,
    BS extends z.ZodType | undefined = undefined,
  >(definition: EndpointDefinition<C, PS, QS, BS>): ApiHandler {
    const method = routeMethod(definition.id);
    const cost = costOf(definition.id);
    const auth = definition.auth ?? 'api-key';
    const bodyLimit = definition.bodyLimit ?? DEFAULT_BODY_LIMIT;
    if (auth === 'public' && cost !== 0) throw new Error(`${definition.id}: a public endpoint must be free`);
    if (definition.body !== undefined && method !== 'POST') throw new Error(`${definition.id}: only POST takes a body`);

    return async (request, routeParams) => {
      const started = performance.now();
      const requestId = requestIdOf(request);
      if (request.method === 'OPTIONS') return preflightReply([method], requestId);
      const headOnly = request.method === 'HEAD' && method === 'GET';
      let context: C | undefined;
      let metered: { key: ApiKeyRecord; result: ChargeResult; now: number } | undefined;
      let reply: ApiResponse;
      try {
        if (request.method !== method && !headOnly) throw ApiError.methodNotAllowed(request.method, [method]);
        context = await getContext();
        const { pathname, search } = splitTarget(request.target);
        rejectKeyInQuery(search);
        let key: ApiKeyRecord | undefined;
        if (auth === 'api-key') {
          key = await authenticateApiKey(context.keys, request.header(API_KEY_HEADER));
          const now = context.clock();
          const result = await context.meter.charge(key.id, cost, key, now);
          metered = { key, result, now };
          const refused = refusal(result, key);
          if (refused !== undefined) throw refused;
        }
        const queryText = queryRecord(search, definition.query);
        const params = parsePart(definition.params, routeParams, 'path') as Output<PS>;
        const query = parsePart(definition.query, queryText, 'query') as Output<QS>;
        const body =
          definition.body === undefined
            ? (undefined as Output<BS>)
            : parsePart(definition.body, await readJsonBody(request, bodyLimit, definition.bigintKeys), 'body');
        const result = await definition.handler({
          context,
          params,
          query,
          body,
          key,
          requestId,
          pathname,
          now: metered?.now ?? context.clock(),
        });
        reply = successReply(result, request, headOnly);
      } catch (error) {
        const apiError = toApiError(error, { logger: loggerOf(context), requestId, route: definition.id });
        reply = problemReply(apiError, requestId);
      }

      let charged = 0;
      if (metered !== undefined) {
        const { key, result, now } = metered;
        let state: MeterState = result;
        charged = result.outcome === 'charged' ? cost : 0;
        if (result.outcome === 'charged' && reply.status >= 500) {
          try {
            await context?.meter.refund(result.receipt);
          } catch (error) {
            toApiError(error, { logger: loggerOf(context), requestId, route: `${definition.id} (refund)` });
          }
          state = refundedState(result, key, cost);
          charged = 0;
        }
        Object.assign(reply.headers, meteringHeaders(key, state, charged, now));
      }
      Object.assign(reply.headers, corsHeaders());
      reply.headers['x-request-id'] = requestId;
      context?.observe?.({
        route: definition.id,
        status: reply.status,
        seconds: (performance.now() - started) / 1000,
        keyId: metered?.key.id ?? null,
        chargedMilliRu: charged,
      });
      return reply;
    };
  };
}

/** `endpointServer` for Next route files: each definition becomes a route handler. */
export function endpointDefiner<C extends ApiContext>(getContext: () => C | Promise<C>) {
  const serveEndpoint = endpointServer(getContext);
  return <
    PS extends z.ZodType | undefined = undefined,
    QS extends z.ZodObject | undefined = undefined,
    BS extends z.ZodType | undefined = undefined,
  >(
    definition: EndpointDefinition<C, PS, QS, BS>,
  ): MethodHandler => servingMethod(routeMethod(definition.id), routeHandlerOf(serveEndpoint(definition)));
}
