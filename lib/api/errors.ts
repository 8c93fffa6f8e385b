/**
 * The one error shape of /v1: `application/problem+json` (RFC 9457) with a stable snake_case `code`, the request id,
 * validation `errors[]`, and `statusCode` / `message` mirrors of `status` / `detail`. Every failure — ours, zod's, the
 * node's, or an unexpected exception — leaves through `toApiError` and `problemResponse`, so no HTML, stack trace or
 * internal message ever reaches a client.
 */
import { ZodError } from 'zod';
import { RpcError } from '../rpc/errors';
import { toWebResponse, type ApiResponse } from './http';

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
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: FieldError[];
  /** Extra response headers the problem needs (Retry-After, Allow). */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;

  constructor(init: ApiErrorInit) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.headers = init.headers ?? {};
  }

  static invalidRequest(detail: string, errors: FieldError[] = []): ApiError {
    return new ApiError({ status: 400, code: 'invalid_request', title: 'Invalid request', detail, errors });
  }

  static invalidJson(detail: string): ApiError {
    return new ApiError({ status: 400, code: 'invalid_json', title: 'Malformed JSON body', detail });
  }

  static invalidHex(path: string, expected: string): ApiError {
    const message = `must be ${expected} as lowercase or uppercase hexadecimal`;
    return new ApiError({
      status: 400,
      code: 'invalid_hex',
      title: 'Invalid hexadecimal value',
      detail: `${path} ${message}`,
      errors: [{ path, message }],
    });
  }

  static invalidAddress(path: string, reason: string): ApiError {
    return new ApiError({
      status: 400,
      code: 'invalid_address',
      title: 'Invalid address',
      detail: `${path} is not a valid address: ${reason}`,
      errors: [{ path, message: reason }],
    });
  }

  static conflictingCursors(startingAfter = 'query.starting_after', endingBefore = 'query.ending_before'): ApiError {
    const message = `${startingAfter.split('.').at(-1)} and ${endingBefore.split('.').at(-1)} must not be used together`;
    return new ApiError({
      status: 400,
      code: 'conflicting_cursors',
      title: 'Conflicting paging cursors',
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
      status: 400,
      code: 'limit_out_of_range',
      title: 'Page size out of range',
      detail: `limit ${message}`,
      errors: [{ path: 'query.limit', message }],
    });
  }

  static unknownCursor(path: string): ApiError {
    const message = 'is not a transaction of this address';
    return new ApiError({
      status: 400,
      code: 'unknown_cursor',
      title: 'Unknown paging cursor',
      detail: `${path} ${message}`,
      errors: [{ path, message }],
    });
  }

  static unknownQueryParameters(names: readonly string[]): ApiError {
    return new ApiError({
      status: 400,
      code: 'unknown_query_parameter',
      title: 'Unknown query parameter',
      detail: `unknown query parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}`,
      errors: names.map((name) => ({ path: `query.${name}`, message: 'is not a parameter of this endpoint' })),
    });
  }

  static apiKeyInQuery(name: string): ApiError {
    return new ApiError({
      status: 400,
      code: 'api_key_in_query',
      title: 'API key in the URL',
      detail: 'send the API key in the x-api-key header only; a key that appeared in a URL should be rotated',
      errors: [{ path: `query.${name}`, message: 'API keys are accepted only in the x-api-key header' }],
    });
  }

  /** A request beyond one of the documented per-call limits (array sizes, DAA-score range width). */
  static limitExceeded(path: string, limitDescription: string): ApiError {
    return new ApiError({
      status: 400,
      code: 'limit_exceeded',
      title: 'Request limit exceeded',
      detail: `${path}: ${limitDescription}`,
      errors: [{ path, message: limitDescription }],
    });
  }

  static missingApiKey(): ApiError {
    return new ApiError({
      status: 401,
      code: 'missing_api_key',
      title: 'Missing API key',
      detail: 'this endpoint requires an API key in the x-api-key header',
    });
  }

  static invalidApiKey(): ApiError {
    return new ApiError({
      status: 401,
      code: 'invalid_api_key',
      title: 'Invalid API key',
      detail: 'the API key in the x-api-key header is not known',
    });
  }

  /** GET /metrics with METRICS_TOKEN set: a missing or wrong bearer token. */
  static invalidMetricsToken(): ApiError {
    return new ApiError({
      status: 401,
      code: 'invalid_metrics_token',
      title: 'Invalid metrics token',
      detail: 'GET /metrics requires the METRICS_TOKEN in an Authorization: Bearer header',
    });
  }

  static disabledApiKey(): ApiError {
    return new ApiError({
      status: 403,
      code: 'api_key_disabled',
      title: 'API key disabled',
      detail: 'the API key in the x-api-key header has been disabled',
    });
  }

  static blockNotFound(hash: string): ApiError {
    return notFound('block_not_found', 'Block not found', `no block with hash ${hash}`);
  }

  /** `retainedFrom`: the index's retention bound, when history below it was deleted (the id may have been there). */
  static transactionNotFound(id: string, retainedFrom?: { daaScore: bigint; time: bigint }): ApiError {
    const retention = retainedFrom
      ? `; the index keeps history from DAA score ${retainedFrom.daaScore} (block time ` +
        `${new Date(Number(retainedFrom.time)).toISOString()}) and deleted older transactions under its retention policy`
      : '';
    return notFound('transaction_not_found', 'Transaction not found', `no transaction with id ${id}${retention}`);
  }

  static covenantNotFound(id: string): ApiError {
    return notFound('covenant_not_found', 'Covenant not found', `no covenant with id ${id} in the index`);
  }

  static mempoolEntryNotFound(id: string): ApiError {
    return notFound('mempool_entry_not_found', 'Mempool entry not found', `no mempool entry for transaction ${id}`);
  }

  static demoWalletNotFound(): ApiError {
    return notFound('demo_wallet_not_found', 'No demo wallet', 'only the embedded devnet has a demo wallet');
  }

  static routeNotFound(path: string): ApiError {
    return notFound('route_not_found', 'No such endpoint', `no endpoint at ${path}`);
  }

  static methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
    return new ApiError({
      status: 405,
      code: 'method_not_allowed',
      title: 'Method not allowed',
      detail: `${method} is not allowed here; allowed: ${allowed.join(', ')}`,
      headers: { allow: allowed.join(', ') },
    });
  }

  static bodyTooLarge(limitBytes: number): ApiError {
    return new ApiError({
      status: 413,
      code: 'body_too_large',
      title: 'Request body too large',
      detail: `the request body exceeds the limit of ${limitBytes} bytes`,
    });
  }

  static unsupportedMediaType(received: string | null): ApiError {
    return new ApiError({
      status: 415,
      code: 'unsupported_media_type',
      title: 'Unsupported media type',
      detail: `the request body must be application/json${received === null ? '' : `, not ${received}`}`,
      errors: [{ path: 'header.content-type', message: 'must be application/json' }],
    });
  }

  static rateLimited(retryAfterSeconds: number, ruPerSecond: string): ApiError {
    return new ApiError({
      status: 429,
      code: 'rate_limited',
      title: 'Rate limit exceeded',
      detail: `this key may spend ${ruPerSecond} RU per second; retry after ${retryAfterSeconds} s`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }

  static clientRateLimited(retryAfterSeconds: number, ruPerSecond: string): ApiError {
    return new ApiError({
      status: 429,
      code: 'rate_limited',
      title: 'Rate limit exceeded',
      detail: `the explorer serves each client ${ruPerSecond} RU per second; retry after ${retryAfterSeconds} s`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }

  static allowanceExhausted(ruPerMonth: string, resetsAt: Date): ApiError {
    return new ApiError({
      status: 402,
      code: 'allowance_exhausted',
      title: 'Monthly RU allowance exhausted',
      detail: `this key's allowance of ${ruPerMonth} RU for the month is spent; it renews at ${resetsAt.toISOString()}`,
    });
  }

  static transactionRejected(reason: string): ApiError {
    return new ApiError({
      status: 400,
      code: 'transaction_rejected',
      title: 'Transaction rejected by the node',
      detail: reason,
    });
  }

  static blockRejected(reason: string): ApiError {
    return new ApiError({ status: 400, code: 'block_rejected', title: 'Block rejected by the node', detail: reason });
  }

  static nodeRejected(reason: string): ApiError {
    return new ApiError({ status: 400, code: 'node_rejected', title: 'Request rejected by the node', detail: reason });
  }

  static nodeProtocolError(): ApiError {
    return new ApiError({
      status: 502,
      code: 'node_protocol_error',
      title: 'Bad answer from the node',
      detail: 'the node answered with a message this service could not understand',
    });
  }

  static nodeUnreachable(): ApiError {
    return new ApiError({
      status: 503,
      code: 'node_unreachable',
      title: 'Node unreachable',
      detail: 'the Kaspa node is not reachable; try again shortly',
      headers: { 'retry-after': '5' },
    });
  }

  static nodeNotSynced(): ApiError {
    return new ApiError({
      status: 503,
      code: 'node_not_synced',
      title: 'Node not synced',
      detail: 'the Kaspa node is still synchronising; try again later',
      headers: { 'retry-after': '30' },
    });
  }

  static nodeTimeout(): ApiError {
    return new ApiError({
      status: 504,
      code: 'node_timeout',
      title: 'Node timeout',
      detail: 'the Kaspa node did not answer in time',
    });
  }

  static internal(): ApiError {
    return new ApiError({
      status: 500,
      code: 'internal_error',
      title: 'Internal error',
      detail: 'an unexpected error occurred; quote the request id when reporting it',
    });
  }
}

function notFound(code: string, title: string, detail: string): ApiError {
  return new ApiError({ status: 404, code, title, detail });
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
const ZOD_ISSUE_TITLES: Record<string, string> = {
  invalid_request: 'Invalid request',
  invalid_hex: 'Invalid hexadecimal value',
  invalid_address: 'Invalid address',
  limit_out_of_range: 'Page size out of range',
  limit_exceeded: 'Request limit exceeded',
};

function issueCode(issue: ZodError['issues'][number]): string {
  if (issue.code === 'too_big' && issue.origin === 'array') return 'limit_exceeded';
  if (issue.code === 'custom') {
    const apiCode: unknown = issue.params?.apiCode;
    if (typeof apiCode === 'string' && apiCode in ZOD_ISSUE_TITLES) return apiCode;
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
  return new ApiError({ status: 400, code, title: ZOD_ISSUE_TITLES[code] ?? 'Invalid request', detail, errors });
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
