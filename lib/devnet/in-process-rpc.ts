/**
 * The node's wRPC handlers as an RpcCaller for its own process: the simulated miners, the traffic generator and
 * `DevnetNode.rpc`.
 *
 * Invariant: a call meets what a socket would put it through (the codec's copy both ways, the request schemas, the
 * rejection texts of the wRPC server), so an in-process caller sees what a wRPC client of the same node sees and never
 * holds a reference into the node's state.
 */
import { RpcRejectedError } from '../rpc/errors';
import { WRPC_ERROR_MESSAGES } from '../rpc/protocol';
import { requestSchemas, type HandledMethodName } from '../rpc/request-schemas';
import type { RpcMethodName, RpcRequest, RpcResponse } from '../rpc/types';
import type { RpcCaller } from '../rpc/convert-transaction';
import { wireCopy } from './json-copy';
import { RequestDeserializationError, type WrpcHandlers } from './server/wrpc-server';

/**
 * The handlers called directly: params and results are copied as the JSON codec would carry them over a socket
 * (json-copy.ts), without writing and parsing the text.
 */
export function createInProcessRpcCaller(handlers: WrpcHandlers): RpcCaller {
  const context = { connection: { id: -1, remoteAddress: undefined }, signal: new AbortController().signal };
  return {
    async call<M extends RpcMethodName>(method: M, params: RpcRequest<M>): Promise<RpcResponse<M>> {
      await Promise.resolve();
      const handler = (handlers as Record<string, ((params: unknown, ctx: typeof context) => unknown) | undefined>)[method];
      if (method === 'subscribe' || method === 'unsubscribe' || handler === undefined) {
        throw new RpcRejectedError(method, WRPC_ERROR_MESSAGES.methodNotFound);
      }
      const decoded = requestSchemas[method as HandledMethodName].safeParse(wireCopy(params));
      if (!decoded.success) throw new RpcRejectedError(method, WRPC_ERROR_MESSAGES.requestDeserialization);
      let result: unknown;
      try {
        result = await handler(decoded.data, context);
      } catch (error) {
        if (error instanceof RequestDeserializationError) {
          throw new RpcRejectedError(method, WRPC_ERROR_MESSAGES.requestDeserialization);
        }
        throw new RpcRejectedError(method, error instanceof Error ? error.message : String(error));
      }
      return wireCopy(result) as unknown as RpcResponse<M>;
    },
  };
}
