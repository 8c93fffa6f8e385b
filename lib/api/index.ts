/**
 * lib/api owns the /v1 machinery: the endpoint wrapper (key check, RU charge, headers), the cost table, the error type
 * and its one body shape, and the endpoint logic the app/v1 route files bind to the runtime's context. Its folders
 * import one way, in this order (each only the ones before it):
 *   - http/       the shapes everything shares: the wrapper's request and response and their web adapters, the one
 *                 segment decoder (http.ts); ApiError and the problem+json shape (errors.ts); the one code → status
 *                 table (problem-codes.ts) and the families of codes whole kinds of call share; the per-call limits
 *                 and zod pieces endpoint schemas share (schemas.ts)
 *   - keys/       who may call and what it costs: key format, digests and KeyStore (memory, SQL); the Meter (atomic
 *                 check-and-charge per second window and UTC month, in-process or Redis, with refunds); the one cost
 *                 table (integer milli-RU per route id "METHOD /v1/path/{param}"); the GET /v1/usage body; the
 *                 `npm run keys` commands
 *   - wrapper/    the one wrapper every /v1 call goes through (endpoint.ts: endpointServer → serveEndpoint →
 *                 ApiHandler; routeFile binds a definition to a Next route file; CORS, caching) and path → route id
 *                 matching (router.ts)
 *   - endpoints/  the endpoint logic: node-style (POST /v1/rpc/*, with node-format.ts: kaspad's wRPC JSON → the
 *                 spec's node format), indexed (with indexed-format.ts: lib/db records → the indexed view), supply,
 *                 tokens, wallets and their export, webhooks; the event filters and the webhook signature and target
 *                 rules the stream and webhook workers share
 *   - openapi/    the one list of /v1 endpoints with their documentation (openapi-endpoints.ts and its per-feature
 *                 parts), the examples, and the OpenAPI 3.1 document generated from the list's zod schemas
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
} from './keys/costs';
export type { HttpMethod, RouteId } from './keys/costs';
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
} from './http/errors';
export type { ApiErrorInit, ErrorLogEntry, FieldError, Logger, ProblemBody } from './http/errors';
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
} from './keys/keys';
export type { ApiKeyLimits, ApiKeyRecord, CreateKeyOptions, KeyCacheOptions, KeyStore, SqlQueryable } from './keys/keys';
export { createMemoryMeter, createMeter, createRedisMeter, secondsUntil, windowsAt } from './keys/metering';
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
} from './keys/metering';
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
} from './wrapper/endpoint';
export type {
  ApiContext,
  CachePolicy,
  EndpointDefinition,
  EndpointResult,
  HandlerInput,
  MethodHandler,
  RequestOutcome,
  RouteFileHandlers,
} from './wrapper/endpoint';
export { decodeSegment, fromWebRequest, routeHandlerOf, toWebResponse } from './http/http';
export type { ApiHandler, ApiRequest, ApiResponse, RouteContext, RouteHandler, RouteParams } from './http/http';
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
} from './http/schemas';
export { usageReport } from './keys/usage';
export type { UsageReport } from './keys/usage';
export { KEYS_USAGE, runKeysCommand } from './keys/keys-cli';
export type { KeysCliIo } from './keys/keys-cli';
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
} from './endpoints/node-endpoints';
export type { NodeApiContext } from './endpoints/node-endpoints';
export { getSupplyEndpoint } from './endpoints/supply-endpoint';
export type { SupplyView } from './endpoints/supply-endpoint';
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
} from './endpoints/node-format';
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
} from './endpoints/node-format';
