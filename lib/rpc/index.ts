/**
 * lib/rpc owns the wRPC JSON wire protocol of Kaspa nodes, used against the embedded devnet or a real kaspad
 * (`--rpclisten-json`, default ports 18110 mainnet / 18210 testnet / 18610 devnet):
 *   - json.ts             lossless JSON (u64 as bigint, bigint written as bare integers)
 *   - protocol.ts         the envelope, op and event names, u64 field names, kaspad's fixed error messages
 *   - types.ts            wire shapes of requests, responses and notifications (rusty-kaspa 2.0 serde JSON)
 *   - virtual-chain-v2-types.ts  getVirtualChainFromBlockV2's verbosity levels and optional-field shapes
 *   - request-schemas.ts  decoders that accept exactly what kaspad's serde accepts (used by the devnet server)
 *   - response-schemas.ts strict decoders of the node-status and history reads' answers, and `callChecked`
 *   - errors.ts           typed call failures (unreachable / timeout / rejected / protocol)
 *   - client.ts           the WebSocket client (Node only: uses `ws`), over client-connection.ts (state machine,
 *                         reconnects), client-calls.ts (request/response correlation) and client-subscriptions.ts
 *   - convert-*.ts        lib/kaspa transactions, headers and blocks ↔ their wire forms, and `RpcCaller`
 * The devnet's server side lives in lib/devnet/server/wrpc-server.ts and reuses these pieces.
 */
export { createRpcClient } from './client';
export * from './convert-block';
export * from './convert-transaction';
export type {
  CallOptions,
  ReconnectOptions,
  RpcClient,
  RpcClientOptions,
  RpcConnectionState,
  RpcStateChange,
  Unsubscribe,
} from './client';
export { RpcError, RpcProtocolError, RpcRejectedError, RpcTimeoutError, RpcUnreachableError } from './errors';
export type { RpcErrorKind } from './errors';
export { JsonParseError, parseJson, SERDE_JSON_MAX_DEPTH, stringifyJson } from './json';
export type { JsonObject, JsonValue, ParseJsonOptions } from './json';
export {
  isRpcApiOp,
  isRpcEventName,
  notificationMethod,
  parseWireMessage,
  RPC_API_OPS,
  RPC_EVENT_NAMES,
  U64_FIELD_NAMES,
  U64_MAX,
  WRPC_ERROR_MESSAGES,
} from './protocol';
export type { RpcApiOp, WireError, WireNotification, WireRequest, WireResponse } from './protocol';
export { decodeScope, requestSchemas, transactionSchema } from './request-schemas';
export { callChecked, responseSchemas } from './response-schemas';
export type { CheckedMethodName } from './response-schemas';
export type { DecodedRequest, HandledMethodName } from './request-schemas';
export type * from './types';
export { RPC_DATA_VERBOSITY_LEVELS } from './virtual-chain-v2-types';
