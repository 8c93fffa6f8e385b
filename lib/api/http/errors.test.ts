import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RpcProtocolError, RpcRejectedError, RpcTimeoutError, RpcUnreachableError } from '../../rpc/errors';
import {
  ApiError,
  formatIssuePath,
  fromZodError,
  PROBLEM_CONTENT_TYPE,
  problemResponse,
  redactSecrets,
  toApiError,
  type ErrorLogEntry,
  type Logger,
} from './errors';

const CATALOG: [ApiError, number, string][] = [
  [ApiError.invalidRequest('bad'), 400, 'invalid_request'],
  [ApiError.invalidJson('bad'), 400, 'invalid_json'],
  [ApiError.invalidHex('body.hash', '32 bytes'), 400, 'invalid_hex'],
  [ApiError.invalidAddress('path.address', 'checksum mismatch'), 400, 'invalid_address'],
  [ApiError.conflictingCursors(), 400, 'conflicting_cursors'],
  [ApiError.limitOutOfRange(1, 100), 400, 'limit_out_of_range'],
  [ApiError.unknownCursor('query.starting_after'), 400, 'unknown_cursor'],
  [ApiError.unknownQueryParameters(['foo']), 400, 'unknown_query_parameter'],
  [ApiError.apiKeyInQuery('api_key'), 400, 'api_key_in_query'],
  [ApiError.limitExceeded('body.addresses', 'at most 500 addresses per call'), 400, 'limit_exceeded'],
  [ApiError.transactionRejected('orphan'), 400, 'transaction_rejected'],
  [ApiError.blockRejected('bad merkle root'), 400, 'block_rejected'],
  [ApiError.nodeRejected('nope'), 400, 'node_rejected'],
  [ApiError.missingApiKey(), 401, 'missing_api_key'],
  [ApiError.invalidApiKey(), 401, 'invalid_api_key'],
  [ApiError.allowanceExhausted('1000', new Date(Date.UTC(2026, 11, 1))), 402, 'allowance_exhausted'],
  [ApiError.disabledApiKey(), 403, 'api_key_disabled'],
  [ApiError.blockNotFound('ab'), 404, 'block_not_found'],
  [ApiError.transactionNotFound('ab'), 404, 'transaction_not_found'],
  [ApiError.mempoolEntryNotFound('ab'), 404, 'mempool_entry_not_found'],
  [ApiError.routeNotFound('/v1/nope'), 404, 'route_not_found'],
  [ApiError.methodNotAllowed('PUT', ['GET']), 405, 'method_not_allowed'],
  [ApiError.bodyTooLarge(1024), 413, 'body_too_large'],
  [ApiError.unsupportedMediaType('text/plain'), 415, 'unsupported_media_type'],
  [ApiError.rateLimited(1, '50'), 429, 'rate_limited'],
  [ApiError.internal(), 500, 'internal_error'],
  [ApiError.nodeProtocolError(), 502, 'node_protocol_error'],
  [ApiError.nodeUnreachable(), 503, 'node_unreachable'],
  [ApiError.nodeNotSynced(), 503, 'node_not_synced'],
  [ApiError.nodeTimeout(), 504, 'node_timeout'],
];

const SNAKE_CASE = /^[a-z]+(_[a-z]+)*$/;

describe('problem responses', () => {
  it.each(CATALOG)('%# renders the one shape', async (error, status, code) => {
    const response = problemResponse(error, 'req-1');
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(PROBLEM_CONTENT_TYPE);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toBe('req-1');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      ['code', 'detail', 'errors', 'message', 'requestId', 'status', 'statusCode', 'title', 'type'].sort(),
    );
    expect(body).toMatchObject({ status, statusCode: status, code, requestId: 'req-1', message: body.detail });
    expect(code).toMatch(SNAKE_CASE);
    expect(body.type).toBe(`tag:dagboard,2026:problem:${code}`);
    expect(typeof body.title).toBe('string');
    expect((body.detail as string).length).toBeGreaterThan(0);
    expect(Array.isArray(body.errors)).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('gives each code one status', () => {
    const statusByCode = new Map<string, number>();
    for (const [error] of CATALOG) {
      expect(statusByCode.get(error.code) ?? error.status).toBe(error.status);
      statusByCode.set(error.code, error.status);
    }
  });

  it('carries Retry-After on 429 and Allow on 405', () => {
    expect(problemResponse(ApiError.rateLimited(3, '50'), 'r').headers.get('retry-after')).toBe('3');
    expect(problemResponse(ApiError.methodNotAllowed('PUT', ['GET', 'OPTIONS']), 'r').headers.get('allow')).toBe(
      'GET, OPTIONS',
    );
  });

  it('names the reason of an invalid address and both cursors', () => {
    expect(ApiError.invalidAddress('path.address', 'bad checksum').errors).toEqual([
      { path: 'path.address', message: 'bad checksum' },
    ]);
    expect(ApiError.conflictingCursors().errors.map((entry) => entry.path)).toEqual([
      'query.starting_after',
      'query.ending_before',
    ]);
  });
});

describe('zod errors', () => {
  const schema = z.object({ addresses: z.array(z.string().min(3)).max(2), includePayload: z.boolean().optional() });

  it('become 400 invalid_request with one errors[] entry per issue, paths located', () => {
    const result = schema.safeParse({ addresses: ['abcd', 'x'], includePayload: 'yes' });
    if (result.success) throw new Error('expected failure');
    const error = fromZodError('body', result.error);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.errors.map((entry) => entry.path).sort()).toEqual(['body.addresses[1]', 'body.includePayload']);
  });

  it('become limit_exceeded when only an array maximum is broken', () => {
    const result = schema.safeParse({ addresses: ['abcd', 'efgh', 'ijkl'] });
    if (result.success) throw new Error('expected failure');
    const error = fromZodError('body', result.error);
    expect(error.code).toBe('limit_exceeded');
    expect(error.errors[0]?.path).toBe('body.addresses');
  });

  it('formats paths', () => {
    expect(formatIssuePath('body', ['transaction', 'inputs', 0, 'signatureScript'])).toBe(
      'body.transaction.inputs[0].signatureScript',
    );
    expect(formatIssuePath('query', [])).toBe('query');
  });
});

function recordingLogger(): Logger & { entries: ErrorLogEntry[] } {
  const entries: ErrorLogEntry[] = [];
  return { entries, error: (_message, entry) => entries.push(entry) };
}

describe('toApiError', () => {
  const context = (logger: Logger) => ({ logger, requestId: 'req-9', route: 'POST /v1/rpc/getBlock' });

  it('keeps an ApiError thrown by another module copy of this file (Next loads route files and instrumentation apart)', () => {
    const logger = recordingLogger();
    const foreign = Object.assign(new Error('key missing'), { ...ApiError.missingApiKey(), name: 'ApiError' });
    expect(foreign).not.toBeInstanceOf(ApiError);
    const mapped = toApiError(foreign, context(logger));
    expect([mapped.status, mapped.code, mapped.detail]).toEqual([401, 'missing_api_key', ApiError.missingApiKey().detail]);
    expect(logger.entries).toEqual([]);
  });

  it('maps RPC failures by kind', () => {
    const logger = recordingLogger();
    const cases: [Error, number, string][] = [
      [new RpcUnreachableError('socket closed', 'getBlock'), 503, 'node_unreachable'],
      [new RpcTimeoutError('getBlock', 5000), 504, 'node_timeout'],
      [new RpcRejectedError('submitTransaction', 'transaction is an orphan'), 400, 'transaction_rejected'],
      [new RpcRejectedError('submitTransactionReplacement', 'no conflict'), 400, 'transaction_rejected'],
      [new RpcRejectedError('submitBlock', 'block is invalid'), 400, 'block_rejected'],
      [new RpcRejectedError('getBlock', 'block not found'), 400, 'node_rejected'],
      [new RpcProtocolError('unexpected frame'), 502, 'node_protocol_error'],
    ];
    for (const [error, status, code] of cases) {
      const mapped = toApiError(error, context(logger));
      expect([mapped.status, mapped.code]).toEqual([status, code]);
    }
    expect(toApiError(new RpcRejectedError('submitTransaction', 'fee too low'), context(logger)).detail).toBe(
      'fee too low',
    );
    expect(logger.entries.map((entry) => entry.errorName)).toEqual([
      'RpcUnreachableError',
      'RpcTimeoutError',
      'RpcProtocolError',
    ]);
  });

  it('turns unknown exceptions into a bare 500 and logs them without secrets', async () => {
    const logger = recordingLogger();
    const secret = new Error('connect postgres://dagboard:hunter2@db/x failed for dgb_abcDEF123_-xyz');
    const mapped = toApiError(secret, context(logger));
    expect([mapped.status, mapped.code]).toEqual([500, 'internal_error']);
    const text = await problemResponse(mapped, 'req-9').text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('postgres');
    expect(text).not.toContain('dgb_abc');
    expect(logger.entries).toHaveLength(1);
    const logged = JSON.stringify(logger.entries[0]);
    expect(logged).toContain('req-9');
    expect(logged).not.toContain('hunter2');
    expect(logged).not.toContain('dgb_abcDEF123');
    expect(toApiError('a thrown string', context(logger)).status).toBe(500);
  });

  it('passes ApiErrors through and maps a thrown ZodError to 400', () => {
    const logger = recordingLogger();
    const original = ApiError.blockNotFound('00');
    expect(toApiError(original, context(logger))).toBe(original);
    const zodError = z.object({ a: z.string() }).safeParse({}).error;
    expect(toApiError(zodError, context(logger)).status).toBe(400);
    expect(logger.entries).toHaveLength(0);
  });

  it('redacts URL credentials and API keys', () => {
    expect(redactSecrets('redis://user:pw@host:6379 and dgb_Zm9v')).toBe(
      'redis://[redacted]@host:6379 and dgb_[redacted]',
    );
  });

  it('redacts wallets\' extended keys, public and private', () => {
    const kpub =
      'kpub2HtoTgsG6e1c7ixJ6JY49otNSzhEKkwnH6bsPHLAXUdYnfEuYw9LnhT7uRzaS4LSeit2rzutV6z8Fs9usdEGKnNe6p1JxfP71mK8rbUfYWo';
    const kprv =
      'kprv5y2qurMHCsXYrNfU3GCihuwG3vMqFji7PZXajMEqyBkNh9UZUJgoHYBLTKu1eM4MvUtomcXPQ3Sw9HZ5ebbM4byoUciHo1zrPJBQfqpLorQ';
    expect(redactSecrets(`bad key ${kpub}: checksum; also "${kprv}"`)).toBe(
      'bad key [redacted extended key]: checksum; also "[redacted extended key]"',
    );
  });
});
