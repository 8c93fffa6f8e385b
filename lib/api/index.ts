/**
 * lib/api owns the /v1 machinery: the endpoint wrapper (key check, RU charge, headers), the cost table, the error type
 * and its one body shape, and the endpoint logic the app/v1 route files bind to the runtime's context.
 *   - costs.ts     the one cost table (integer milli-RU per route id "METHOD /v1/path/{param}"), RU formatting
 *   - errors.ts    ApiError, the problem+json shape, mapping of zod / RPC / unknown failures
 *   - keys.ts      key format, SHA-256 digests, constant-time check, KeyStore (memory, SQL), seeding, the migration
 *   - metering.ts  Meter: atomic check-and-charge per second window and UTC month (in-process, Redis) with refunds
 *   - schemas.ts   per-call limits and the shared zod pieces (hex, address, bounded lists, page size, u64)
 *   - http.ts      the wrapper's own request and response shapes, and their adapters to web Request / Response
 *   - endpoint.ts  endpointServer(getContext) → serveEndpoint(...) → ApiHandler; endpointDefiner → a Next route
 *                  handler; CORS, caching helpers
 *   - usage.ts     the body of GET /v1/usage
 *   - keys-cli.ts  the `npm run keys` commands (create, list, disable) over a KeyStore
 *   - node-format.ts     kaspad's wRPC JSON → the spec's node format (reads), submission form → kaspad's input form
 *   - node-endpoints.ts  the node-style endpoints (POST /v1/rpc/*, GET /v1/rpc/*) and GET /v1/usage
 *   - indexed-format.ts     lib/db records → the spec's indexed view (transactions, address items, blocks)
 *   - indexed-endpoints.ts  the endpoints served from the index (/v1/transactions, address history, DAA-score range)
 *   - openapi-endpoints.ts  the one list of /v1 endpoints: each definition with its documentation (response schema,
 *                           examples, own problem codes); openapi-token-endpoints.ts adds the token endpoints' entries
 *   - openapi.ts            the OpenAPI 3.1 document generated from that list's zod schemas; GET /v1/openapi.json
 * Nothing here reads the environment or holds module state; the composition root builds the ApiContext.
 */
export {
  costOf,
  formatRu,
  MAX_ROUTE_COST,
  MILLI_RU_PER_RU,
  parseRu,
  ROUTE_COSTS,
  ROUTE_IDS,
  routeMethod,
  routePath,
} from './costs';
export type { HttpMethod, RouteId } from './costs';
export {
  ApiError,
  formatIssuePath,
  fromRpcError,
  fromZodError,
  PROBLEM_CONTENT_TYPE,
  problemBody,
  problemReply,
  problemResponse,
  problemType,
  redactSecrets,
  toApiError,
} from './errors';
export type { ApiErrorInit, ErrorLogEntry, FieldError, Logger, ProblemBody } from './errors';
export {
  API_KEY_HEADER,
  API_KEY_PREFIX,
  API_KEY_RANDOM_BYTES,
  authenticateApiKey,
  createApiKey,
  createCachedKeyStore,
  createMemoryKeyStore,
  createSqlKeyStore,
  DEFAULT_KEY_LIMITS,
  digestsEqual,
  generateApiKey,
  hashApiKey,
  seedApiKeys,
  seededKeyId,
  validateKeyLimits,
} from './keys';
export type { ApiKeyLimits, ApiKeyRecord, CreateKeyOptions, KeyCacheOptions, KeyStore, SqlQueryable } from './keys';
export { createMemoryMeter, createMeter, createRedisMeter, secondsUntil, windowsAt } from './metering';
export type {
  ChargeOutcome,
  ChargeReceipt,
  ChargeResult,
  Meter,
  MeterSettings,
  MeterSetup,
  MeterState,
  MeterUsage,
  RedisMeterOptions,
  Windows,
} from './metering';
export {
  cacheControl,
  corsHeaders,
  corsPreflight,
  DEFAULT_BODY_LIMIT,
  endpointDefiner,
  endpointServer,
  etagOf,
  EXPOSED_HEADERS,
  ifNoneMatchMatches,
  meteringHeaders,
  methodNotAllowed,
  requestIdOf,
  routeFile,
  routeNotFound,
  servingMethod,
  SUBMIT_BLOCK_BODY_LIMIT,
} from './endpoint';
export type {
  ApiContext,
  CachePolicy,
  EndpointDefinition,
  EndpointResult,
  HandlerInput,
  MethodHandler,
  RequestOutcome,
  RouteFileHandlers,
} from './endpoint';
export { decodeSegment, fromWebRequest, routeHandlerOf, toWebResponse } from './http';
export type { ApiHandler, ApiRequest, ApiResponse, RouteContext, RouteHandler, RouteParams } from './http';
export {
  addressString,
  boundedList,
  checkDaaScoreRange,
  decimalU64,
  hexBytes,
  hexString,
  MAX_ADDRESSES_PER_CALL,
  MAX_DAA_SCORE_RANGE,
  MAX_TRANSACTION_IDS_PER_CALL,
  PAGE_LIMIT,
  pageLimit,
  queryBoolean,
} from './schemas';
export { usageReport } from './usage';
export type { UsageReport } from './usage';
export { KEYS_USAGE, runKeysCommand } from './keys-cli';
export type { KeysCliIo } from './keys-cli';
export {
  getBlockDagInfoEndpoint,
  getBlockEndpoint,
  getBlocksEndpoint,
  getBlockTemplateEndpoint,
  getFeeEstimateEndpoint,
  getMempoolEntriesByAddressesEndpoint,
  getMempoolEntriesEndpoint,
  getMempoolEntryEndpoint,
  getUtxosByAddressesEndpoint,
  MAX_EXTRA_DATA_BYTES,
  submitBlockEndpoint,
  submitTransactionEndpoint,
  submitTransactionReplacementEndpoint,
  usageEndpoint,
} from './node-endpoints';
export type { NodeApiContext } from './node-endpoints';
export { getSupplyEndpoint } from './supply-endpoint';
export type { SupplyView } from './supply-endpoint';
export {
  blockToNode,
  dagInfoToNode,
  feeEstimateToNode,
  headerToNode,
  mempoolEntryToNode,
  readPayload,
  submissionBlockSchema,
  submissionBlockToRpc,
  submissionHeaderSchema,
  submissionToRpc,
  submissionTransactionSchema,
  SUBMISSION_BIGINT_KEYS,
  submitBlockReportToNode,
  transactionToNode,
  transactionToSubmission,
  utxoEntryToNode,
} from './node-format';
export type {
  NodeBlock,
  NodeBlockVerboseData,
  NodeDagInfo,
  NodeFeeEstimate,
  NodeHeader,
  NodeMempoolEntry,
  NodeTransaction,
  NodeUtxoEntry,
  SubmissionTransaction,
} from './node-format';
