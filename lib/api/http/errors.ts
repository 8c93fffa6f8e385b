/**
 * The one error shape of /v1: `application/problem+json` (RFC 9457) with a stable snake_case `code`, the request id,
 * validation `errors[]`, and `statusCode` / `message` mirrors of `status` / `detail`. Every failure — ours, zod's, the
 * node's, or an unexpected exception — leaves through `toApiError` and `problemResponse`, so no HTML, stack trace or
 * internal message ever reaches a client.
 */
import { ZodError } from 'zod';
import { RpcError } from '../../rpc/errors';
import { toWebResponse, type ApiResponse } from './http';
import { PROBLEM_CODES, type ProblemCode } from './problem-codes';

export interface FieldError {
  /** Where the problem is: `path.hash`, `query.limit`, `body.addresses[3]`, `header.x-api-key`. */
  path: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId: string;
  errors: FieldError[];
  statusCode: number;
  message: string;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Problem types are non-dereferenceable tag URIs (RFC 9457 §3.1.1 allows that); `code` is the stable identifier. */
export function problemType(code: string): string {
  return `tag:dagboard,2026:problem:${code}`;
}

export interface ApiErrorInit {
  /** Fixes the status and title (PROBLEM_CODES). */
  code: ProblemCode;
  detail: string;
  errors?: FieldError[];
  /** Extra response headers the problem needs (Retry-After, Allow). */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;

  constructor(init: ApiErrorInit) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = PROBLEM_CODES[init.code].status;
    this.code = init.code;
    this.title = PROBLEM_CODES[init.code].title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.headers = init.headers ?? {};
  }

  static invalidRequest(detail: string, errors: FieldError[] = []): ApiError {
    return new ApiError({ code: 'invalid_request', detail, errors });
  }

  static invalidJson(detail: string): ApiError {
    return new ApiError({ code: 'invalid_json', detail });
  }

  static invalidHex(path: string, expected: string): ApiError {
    const message = `must be ${expected} as lowercase or uppercase hexadecimal`;
    return new ApiError({
      code: 'invalid_hex',
      detail: `${path} ${message}`,
      errors: [{ path, message }],
    });
  }

  static invalidAddress(path: string, reason: string): ApiError {
    return new ApiError({
      code: 'invalid_address',
      detail: `${path} is not a valid address: ${reason}`,
      errors: [{ path, message: reason }],
    });
  }

  static conflictingCursors(startingAfter = 'query.starting_after', endingBefore = 'query.ending_before'): ApiError {
    const message = `${startingAfter.split('.').at(-1)} and ${endingBefore.split('.').at(-1)} must not be used together`;
    return new ApiError({
      code: 'conflicting_cursors',
      detail: message,
      errors: [
        { path: startingAfter, message },
        { path: endingBefore, message },
      ],
    });
  }

  static limitOutOfRange(min: number, max: number): ApiError {
    const message = `must be an integer from ${min} to ${max}`;
    return new ApiError({
      code: 'limit_out_of_range',
      detail: `limit ${message}`,
      errors: [{ path: 'query.limit', message }],
    });
  }

  static unknownCursor(path: string): ApiError {
    const message = 'is not a transaction of this address';
    return new ApiError({
      code: 'unknown_cursor',
      detail: `${path} ${message}`,
      errors: [{ path, message }],
    });
  }

  static unknownQueryParameters(names: readonly string[]): ApiError {
    return new ApiError({
      code: 'unknown_query_parameter',
      detail: `unknown query parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}`,
      errors: names.map((name) => ({ path: `query.${name}`, message: 'is not a parameter of this endpoint' })),
    });
  }

  static apiKeyInQuery(name: string): ApiError {
    return new ApiError({
      code: 'api_key_in_query',
      detail: 'send the API key in the x-api-key header only; a key that appeared in a URL should be rotated',
      errors: [{ path: `query.${name}`, message: 'API keys are accepted only in the x-api-key header' }],
    });
  }

  /** A request beyond one of the documented per-call limits (array sizes, DAA-score range width). */
  static limitExceeded(path: string, limitDescription: string): ApiError {
    return new ApiError({
      code: 'limit_exceeded',
      detail: `${path}: ${limitDescription}`,
      errors: [{ path, message: limitDescription }],
    });
  }

  static missingApiKey(): ApiError {
    return new ApiError({
      code: 'missing_api_key',
      detail: 'this endpoint requires an API key in the x-api-key header',
    });
  }

  static invalidApiKey(): ApiError {
    return new ApiError({
      code: 'invalid_api_key',
      detail: 'the API key in the x-api-key header is not known',
    });
  }

  /** GET /metrics with METRICS_TOKEN set: a missing or wrong bearer token. */
  static invalidMetricsToken(): ApiError {
    return new ApiError({
      code: 'invalid_metrics_token',
      detail: 'GET /metrics requires the METRICS_TOKEN in an Authorization: Bearer header',
    });
  }

  static disabledApiKey(): ApiError {
    return new ApiError({
      code: 'api_key_disabled',
      detail: 'the API key in the x-api-key header has been disabled',
    });
  }

  static blockNotFound(hash: string): ApiError {
    return notFound('block_not_found', `no block with hash ${hash}`);
  }

  /** `retainedFrom`: the index's retention bound, when history below it was deleted (the id may have been there). */
  static transactionNotFound(id: string, retainedFrom?: { daaScore: bigint; time: bigint }): ApiError {
    const retention = retainedFrom
      ? `; the index keeps history from DAA score ${retainedFrom.daaScore} (block time ` +
        `${new Date(Number(retainedFrom.time)).toISOString()}) and deleted older transactions under its retention policy`
      : '';
    return notFound('transaction_not_found', `no transaction with id ${id}${retention}`);
  }

  static covenantNotFound(id: string): ApiError {
    return notFound('covenant_not_found', `no covenant with id ${id} in the index`);
  }

  static mempoolEntryNotFound(id: string): ApiError {
    return notFound('mempool_entry_not_found', `no mempool entry for transaction ${id}`);
  }

  static demoWalletNotFound(): ApiError {
    return notFound('demo_wallet_not_found', 'only the embedded devnet has a demo wallet');
  }

  static routeNotFound(path: string): ApiError {
    return notFound('route_not_found', `no endpoint at ${path}`);
  }

  static methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
    return new ApiError({
      code: 'method_not_allowed',
      detail: `${method} is not allowed here; allowed: ${allowed.join(', ')}`,
      headers: { allow: allowed.join(', ') },
    });
  }

  static bodyTooLarge(limitBytes: number): ApiError {
    return new ApiError({
      code: 'body_too_large',
      detail: `the request body exceeds the limit of ${limitBytes} bytes`,
    });
  }

  static unsupportedMediaType(received: string | null): ApiError {
    return new ApiError({
      code: 'unsupported_media_type',
      detail: `the request body must be application/json${received === null ? '' : `, not ${received}`}`,
      errors: [{ path: 'header.content-type', message: 'must be application/json' }],
    });
  }

  static rateLimited(retryAfterSeconds: number, ruPerSecond: string): ApiError {
    return new ApiError({
      code: 'rate_limited',
      detail: `this key may spend ${ruPerSecond} RU per second; retry after ${retryAfterSeconds} s`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }

  static clientRateLimited(retryAfterSeconds: number, ruPerSecond: string): ApiError {
    return new ApiError({
      code: 'rate_limited',
      detail: `the explorer serves each client ${ruPerSecond} RU per second; retry after ${retryAfterSeconds} s`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }

  static allowanceExhausted(ruPerMonth: string, resetsAt: Date): ApiError {
    return new ApiError({
      code: 'allowance_exhausted',
      detail: `this key's allowance of ${ruPerMonth} RU for the month is spent; it renews at ${resetsAt.toISOString()}`,
    });
  }

  static transactionRejected(reason: string): ApiError {
    return new ApiError({
      code: 'transaction_rejected',
      detail: reason,
    });
  }

  static blockRejected(reason: string): ApiError {
    return new ApiError({ code: 'block_rejected', detail: reason });
  }

  static nodeRejected(reason: string): ApiError {
    return new ApiError({ code: 'node_rejected', detail: reason });
  }

  static nodeProtocolError(): ApiError {
    return new ApiError({
      code: 'node_protocol_error',
      detail: 'the node answered with a message this service could not understand',
    });
  }

  static nodeUnreachable(): ApiError {
    return new ApiError({
      code: 'node_unreachable',
      detail: 'the Kaspa node is not reachable; try again shortly',
      headers: { 'retry-after': '5' },
    });
  }

  static nodeNotSynced(): ApiError {
    return new ApiError({
      code: 'node_not_synced',
      detail: 'the Kaspa node is still synchronising; try again later',
      headers: { 'retry-after': '30' },
    });
  }

  static nodeTimeout(): ApiError {
    return new ApiError({
      code: 'node_timeout',
      detail: 'the Kaspa node did not answer in time',
    });
  }

  static internal(): ApiError {
    return new ApiError({
      code: 'internal_error',
      detail: 'an unexpected error occurred; quote the request id when reporting it',
    });
  }
}

function notFound(code: ProblemCode, detail: string): ApiError {
  return new ApiError({ code, detail });
}

/** `['addresses', 3, 'x']` → `body.addresses[3].x`. */
export function formatIssuePath(location: string, path: readonly PropertyKey[]): string {
  let text = location;
  for (const segment of path) {
    text += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
  }
  return text;
}

/** Codes a schema may attach to a custom zod issue through `params: { apiCode }` (see schemas.ts). */
const ZOD_ISSUE_CODES: ReadonlySet<string> = new Set<ProblemCode>(['invalid_request', 'invalid_hex', 'invalid_address', 'limit_out_of_range', 'limit_exceeded']);

function issueCode(issue: ZodError['issues'][number]): ProblemCode {
  if (issue.code === 'too_big' && issue.origin === 'array') return 'limit_exceeded';
  if (issue.code === 'custom') {
    const apiCode: unknown = issue.params?.apiCode;
    if (typeof apiCode === 'string' && ZOD_ISSUE_CODES.has(apiCode)) return apiCode as ProblemCode;
  }
  return 'invalid_request';
}

/**
 * A zod failure on one request part (`path`, `query`, `body`) → 400 with one `errors[]` entry per issue. When every
 * issue has the same specific code (an array over its documented maximum → `limit_exceeded`, a schema's `apiCode`),
 * the problem takes that code; otherwise `invalid_request`.
 */
export function fromZodError(location: string, error: ZodError): ApiError {
  const errors = error.issues.map((issue) => ({ path: formatIssuePath(location, issue.path), message: issue.message }));
  const detail = errors.map((entry) => `${entry.path}: ${entry.message}`).join('; ') || 'invalid request';
  const codes = new Set(error.issues.map(issueCode));
  const code = codes.size === 1 ? [...codes][0]! : 'invalid_request';
  return new ApiError({ code, detail, errors });
}

/** What a rejected RPC call means for the client, per RPC method. */
function fromRpcRejection(method: string | undefined, message: string): ApiError {
  if (method === 'submitTransaction' || method === 'submitTransactionReplacement') {
    return ApiError.transactionRejected(message);
  }
  if (method === 'submitBlock') return ApiError.blockRejected(message);
  return ApiError.nodeRejected(message);
}

export function fromRpcError(error: RpcError): ApiError {
  switch (error.kind) {
    case 'unreachable':
      return ApiError.nodeUnreachable();
    case 'timeout':
      return ApiError.nodeTimeout();
    case 'rejected':
      return fromRpcRejection(error.method, error.message);
    case 'protocol':
      return ApiError.nodeProtocolError();
  }
}

export interface ErrorLogEntry {
  requestId: string;
  route: string;
  errorName: string;
  errorMessage: string;
  stack: string | undefined;
}

export interface Logger {
  error(message: string, entry: ErrorLogEntry): void;
}

/**
 * Any thrown value → an ApiError. Unknown exceptions become a bare 500 and are logged (name, message, stack, request
 * id, route — never headers, keys or bodies). RPC failures that are not client errors are logged too.
 */
export function toApiError(error: unknown, log: { logger: Logger; requestId: string; route: string }): ApiError {
  if (error instanceof ApiError) return error;
  // Next loads route files and instrumentation (the runtime, the streams' service) as separate module copies: an
  // ApiError thrown by the other copy is not an instance of this one's class, but it is one all the same.
  if (error instanceof Error && error.name === 'ApiError' && 'status' in error && 'code' in error) {
    const foreign = error as unknown as ApiError;
    return new ApiError({ ...foreign, errors: foreign.errors, headers: foreign.headers });
  }
  if (error instanceof ZodError) return fromZodError('body', error);
  const mapped = error instanceof RpcError ? fromRpcError(error) : ApiError.internal();
  if (mapped.status >= 500) {
    const described = error instanceof Error ? error : new Error(String(error));
    log.logger.error('request failed', {
      requestId: log.requestId,
      route: log.route,
      errorName: described.name,
      errorMessage: redactSecrets(described.message),
      stack: described.stack === undefined ? undefined : redactSecrets(described.stack),
    });
  }
  return mapped;
}

const URL_CREDENTIALS = /(\w+:\/\/)[^\s/@]+@/g;
const API_KEY_TEXT = /dgb_[A-Za-z0-9_-]+/g;
/** BIP32 extended keys in Base58 (kpub, ktub, xpub, tpub and their private twins): 78 bytes are 111 or 112 digits. */
const EXTENDED_KEY_TEXT = /\b(?:[kx]pub|ktub|tpub|[kx]prv|ktrv|tprv)[1-9A-HJ-NP-Za-km-z]{100,}/g;

/** Removes what must never reach a log: credentials inside URLs, API keys and wallets' extended keys. */
export function redactSecrets(text: string): string {
  return text
    .replace(URL_CREDENTIALS, '$1[redacted]@')
    .replace(API_KEY_TEXT, 'dgb_[redacted]')
    .replace(EXTENDED_KEY_TEXT, '[redacted extended key]');
}

export function problemBody(error: ApiError, requestId: string): ProblemBody {
  return {
    type: problemType(error.code),
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    requestId,
    errors: error.errors,
    statusCode: error.status,
    message: error.detail,
  };
}

/** The problem document as a Response: never cached, carries the request id and the error's own headers. */
export function problemReply(error: ApiError, requestId: string, headers: Record<string, string> = {}): ApiResponse {
  return {
    status: error.status,
    headers: {
      ...headers,
      ...error.headers,
      'content-type': PROBLEM_CONTENT_TYPE,
      'cache-control': 'no-store',
      'x-request-id': requestId,
    },
    body: JSON.stringify(problemBody(error, requestId)),
  };
}

export function problemResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): Response {
  return toWebResponse(problemReply(error, requestId, headers));
}
