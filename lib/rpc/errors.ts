/**
 * Failures of an RPC call, by cause, so the API layer can map them to HTTP statuses:
 *   unreachable → 503 (no connection, or it dropped before the answer came)
 *   timeout     → 504 (no answer within the request timeout)
 *   rejected    → 400 (the node answered with an error frame; `message` is the node's text, verbatim)
 *   protocol    → 502 (the node answered with a frame that breaks the wRPC protocol)
 */
import type { JsonValue } from './json';

export type RpcErrorKind = 'unreachable' | 'timeout' | 'rejected' | 'protocol';

const RPC_ERROR_BRAND = Symbol.for('dagboard.rpc-error');

export abstract class RpcError extends Error {
  abstract readonly kind: RpcErrorKind;
  /** The RPC method of the failed call, when the failure belongs to one. */
  readonly method: string | undefined;
  readonly [RPC_ERROR_BRAND] = true;
  /** The kind every instance of the class has; undefined on the base class. */
  static readonly errorKind: RpcErrorKind | undefined = undefined;

  /**
   * Next.js loads the runtime (which makes the client and its errors) and the route handlers as separate module copies,
   * so class identity cannot tell an RPC error apart; the brand and the kind can.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null || !(RPC_ERROR_BRAND in value)) return false;
    return this.errorKind === undefined || (value as RpcError).kind === this.errorKind;
  }

  protected constructor(message: string, method: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.method = method;
  }
}

export class RpcUnreachableError extends RpcError {
  static override readonly errorKind = 'unreachable';
  readonly kind = 'unreachable';

  constructor(message: string, method?: string, options?: { cause?: unknown }) {
    super(message, method, options);
    this.name = 'RpcUnreachableError';
  }
}

export class RpcTimeoutError extends RpcError {
  static override readonly errorKind = 'timeout';
  readonly kind = 'timeout';
  readonly timeoutMs: number;

  constructor(method: string, timeoutMs: number) {
    super(`RPC ${method} timed out after ${timeoutMs} ms`, method);
    this.name = 'RpcTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

export class RpcRejectedError extends RpcError {
  static override readonly errorKind = 'rejected';
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
  static override readonly errorKind = 'protocol';
  readonly kind = 'protocol';

  constructor(message: string, method?: string) {
    super(message, method);
    this.name = 'RpcProtocolError';
  }
}
