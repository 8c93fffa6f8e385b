/**
 * Failures of an RPC call, by cause, so the API layer can map them to HTTP statuses:
 *   unreachable → 503 (no connection, or it dropped before the answer came)
 *   timeout     → 504 (no answer within the request timeout)
 *   rejected    → 400 (the node answered with an error frame; `message` is the node's text, verbatim)
 *   protocol    → 502 (the node answered with a frame that breaks the wRPC protocol)
 */
import type { JsonValue } from './json';

export type RpcErrorKind = 'unreachable' | 'timeout' | 'rejected' | 'protocol';

export abstract class RpcError extends Error {
  abstract readonly kind: RpcErrorKind;
  /** The RPC method of the failed call, when the failure belongs to one. */
  readonly method: string | undefined;

  protected constructor(message: string, method: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.method = method;
  }
}

export class RpcUnreachableError extends RpcError {
  readonly kind = 'unreachable';

  constructor(message: string, method?: string, options?: { cause?: unknown }) {
    super(message, method, options);
    this.name = 'RpcUnreachableError';
  }
}

export class RpcTimeoutError extends RpcError {
  readonly kind = 'timeout';
  readonly timeoutMs: number;

  constructor(method: string, timeoutMs: number) {
    super(`RPC ${method} timed out after ${timeoutMs} ms`, method);
    this.name = 'RpcTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

export class RpcRejectedError extends RpcError {
  readonly kind = 'rejected';
  /** `error.code` of the frame (kaspad: always 0). */
  readonly code: number;
  /** `error.data` of the frame (kaspad: always null). */
  readonly data: JsonValue;

  constructor(method: string, message: string, code = 0, data: JsonValue = null) {
    super(message, method);
    this.name = 'RpcRejectedError';
    this.code = code;
    this.data = data;
  }
}

export class RpcProtocolError extends RpcError {
  readonly kind = 'protocol';

  constructor(message: string, method?: string) {
    super(message, method);
    this.name = 'RpcProtocolError';
  }
}
