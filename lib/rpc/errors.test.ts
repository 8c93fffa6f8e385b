import { describe, expect, it, vi } from 'vitest';
import { RpcError, RpcProtocolError, RpcRejectedError, RpcTimeoutError, RpcUnreachableError } from './errors';

describe('RpcError instanceof', () => {
  it('recognises errors made by another copy of the module (Next loads the runtime and routes separately)', async () => {
    vi.resetModules();
    const other = await import('./errors');
    expect(other.RpcRejectedError).not.toBe(RpcRejectedError);
    const rejected = new other.RpcRejectedError('getBlock', 'cannot find header');
    expect(rejected).toBeInstanceOf(RpcError);
    expect(rejected).toBeInstanceOf(RpcRejectedError);
    expect(rejected).not.toBeInstanceOf(RpcTimeoutError);
    expect(new other.RpcTimeoutError('getBlock', 5)).toBeInstanceOf(RpcTimeoutError);
  });

  it('tells the kinds apart and refuses other errors', () => {
    const errors = [
      new RpcUnreachableError('down'),
      new RpcTimeoutError('ping', 1),
      new RpcRejectedError('ping', 'no'),
      new RpcProtocolError('bad'),
    ];
    const classes = [RpcUnreachableError, RpcTimeoutError, RpcRejectedError, RpcProtocolError];
    errors.forEach((error, i) => {
      expect(error).toBeInstanceOf(RpcError);
      expect(error).toBeInstanceOf(Error);
      classes.forEach((cls, j) => expect(error instanceof cls).toBe(i === j));
    });
    expect(new Error('plain')).not.toBeInstanceOf(RpcError);
    expect({ kind: 'rejected' }).not.toBeInstanceOf(RpcRejectedError);
  });
});
