/**
 * The OpenAPI 3.1 document of /v1, generated from the zod schemas the endpoint wrapper parses requests with and the
 * response schemas handler output is tested against, so the document cannot drift from what the endpoints accept and
 * answer. Each endpoint contributes one `DocumentedEndpoint` (its definition plus prose, response schema, examples and
 * the problem codes particular to it); the problem codes every endpoint of its kind can answer (key, metering, method,
 * query, body, node failures) are derived here from the definition, so each operation lists every error status it can
 * return. Costs come from the cost table (`x-cost-ru`, `x-cost-milli-ru`, and the description).
 */
import { z } from 'zod';
import { costOf, formatRu, MILLI_RU_PER_RU, routeMethod, routePath, type RouteId } from '../keys/costs';
import { DEFAULT_BODY_LIMIT, endpointsFor, type ApiContext, type EndpointDefinition } from '../wrapper/endpoint';
import { ApiError, PROBLEM_CONTENT_TYPE, problemBody } from '../http/errors';
import { API_KEY_HEADER } from '../keys/keys';
import { problemResponseSchema } from '../http/schemas';
import { PROBLEM_CODE_FAMILIES, type ProblemFamilyId } from '../http/problem-families';

type AnyDefinition = Pick<
  EndpointDefinition<ApiContext, z.ZodType | undefined, z.ZodObject | undefined, z.ZodType | undefined>,
  'id' | 'params' | 'query' | 'body' | 'bodyLimit' | 'auth'
>;

export interface EndpointExamples {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** A success body; it must satisfy the endpoint's response schema (tested). */
  response: unknown;
}

export interface EndpointDocs {
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** The success body (status 200). */
  response: z.ZodType;
  /** A success body that is not JSON (the CSV exports), with the headers it comes with. */
  text?: { contentType: 'text/csv'; headers: readonly string[] };
  /** Problem codes particular to this endpoint (404s, node rejections, limits, field codes); see PROBLEM_EXAMPLES. */
  errors?: readonly ProblemCode[];
  /** The handler calls the Kaspa node (directly or for the network's address prefix / confirmations). */
  usesNode: boolean;
  /** Descriptions of path and query parameters whose schema has none. */
  parameterDescriptions?: Record<string, string>;
  /** Successes may carry an ETag and be revalidated (304). */
  etag: boolean;
  examples: EndpointExamples;
}

export interface DocumentedEndpoint {
  definition: AnyDefinition;
  docs: EndpointDocs;
}

const EXAMPLE_HASH = '2a4bfe6d1c2c7a3d6c5f0b7e8e9a4d1f3b6c8e0a2d4f6a8c0e2b4d6f8a0c2e4f';

/** One example per problem code, built by the same factories the endpoints throw, so status and title match. */
export const PROBLEM_EXAMPLES = {
  invalid_request: ApiError.invalidRequest('body.includeBlocks: expected boolean, received string', [
    { path: 'body.includeBlocks', message: 'expected boolean, received string' },
  ]),
  invalid_json: ApiError.invalidJson("the request body is not valid JSON: Unexpected token '}' at position 12"),
  invalid_hex: ApiError.invalidHex('path.id', 'a transaction id: 64 hexadecimal digits'),
  invalid_address: ApiError.invalidAddress('body.addresses[0]', 'invalid checksum'),
  conflicting_cursors: ApiError.conflictingCursors(),
  limit_out_of_range: ApiError.limitOutOfRange(1, 100),
  limit_exceeded: ApiError.limitExceeded('body.addresses', 'at most 500 addresses per call'),
  unknown_cursor: ApiError.unknownCursor('query.starting_after'),
  unknown_query_parameter: ApiError.unknownQueryParameters(['includePayload']),
  api_key_in_query: ApiError.apiKeyInQuery('api_key'),
  missing_api_key: ApiError.missingApiKey(),
  invalid_api_key: ApiError.invalidApiKey(),
  api_key_disabled: ApiError.disabledApiKey(),
  allowance_exhausted: ApiError.allowanceExhausted('100000', new Date(Date.UTC(2026, 11, 1))),
  block_not_found: ApiError.blockNotFound(EXAMPLE_HASH),
  transaction_not_found: ApiError.transactionNotFound(EXAMPLE_HASH),
  covenant_not_found: ApiError.covenantNotFound(EXAMPLE_HASH),
  mempool_entry_not_found: ApiError.mempoolEntryNotFound(EXAMPLE_HASH),
  method_not_allowed: ApiError.methodNotAllowed('DELETE', ['GET']),
  body_too_large: ApiError.bodyTooLarge(DEFAULT_BODY_LIMIT),
  unsupported_media_type: ApiError.unsupportedMediaType('text/plain'),
  rate_limited: ApiError.rateLimited(1, '50'),
  transaction_rejected: ApiError.transactionRejected(
    `transaction ${EXAMPLE_HASH} is an orphan where orphan is disallowed`,
  ),
  block_rejected: ApiError.blockRejected('block is invalid: wrong merkle root'),
  node_rejected: ApiError.nodeRejected('the node refused the request'),
  internal_error: ApiError.internal(),
  node_protocol_error: ApiError.nodeProtocolError(),
  node_unreachable: ApiError.nodeUnreachable(),
  node_not_synced: ApiError.nodeNotSynced(),
  node_timeout: ApiError.nodeTimeout(),
  demo_wallet_not_found: ApiError.demoWalletNotFound(),
  route_not_found: ApiError.routeNotFound('/v1/tokens/brc20/NACHO/metadata'),
  token_not_found: new ApiError({
    code: 'token_not_found',
    detail: 'no token with ticker NACHO',
  }),
  webhook_not_found: new ApiError({
    code: 'webhook_not_found',
    detail: 'this key has no webhook wh_Q2hvb3NlIGEgcmVjZWl2ZX',
  }),
  invalid_webhook_url: new ApiError({
    code: 'invalid_webhook_url',
    detail: 'body.url resolves to 10.0.0.7, a private, loopback or reserved address; webhooks deliver to public hosts only',
    errors: [{ path: 'body.url', message: 'resolves to 10.0.0.7, a private, loopback or reserved address; webhooks deliver to public hosts only' }],
  }),
} satisfies Record<string, ApiError>;

export type ProblemCode = keyof typeof PROBLEM_EXAMPLES;

/** Every problem code the endpoint can answer: its own plus those of every family of endpoint it belongs to. */
export function problemCodesOf(endpoint: DocumentedEndpoint): ProblemCode[] {
  const { definition, docs } = endpoint;
  const member: Record<ProblemFamilyId, boolean> = {
    every: true,
    keyed: definition.auth !== 'public',
    body: definition.body !== undefined,
    node: docs.usesNode === true,
  };
  const codes = new Set<ProblemCode>(
    PROBLEM_CODE_FAMILIES.filter((family) => member[family.id]).flatMap((family) => family.codes),
  );
  for (const code of docs.errors ?? []) codes.add(code);
  return [...codes];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    examples: Record<string, { summary: string; value: unknown }>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

type JsonSchema = Record<string, unknown>;

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: ParameterObject[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  'x-cost-ru': number;
  'x-cost-milli-ru': number;
  'x-problem-codes': ProblemCode[];
  'x-body-limit-bytes'?: number;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  example?: string;
}

const SCHEMA_REF = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMA_REF}${name}` });
const SECURITY_SCHEME = 'ApiKey';

/** bigint (u64 fields) has no JSON Schema type of its own; on the wire it is an exact JSON integer. */
const jsonSchemaOptions = (io: 'input' | 'output') =>
  ({
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override(context: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }) {
      if (context.zodSchema._zod.def.type === 'bigint') {
        context.jsonSchema.type = 'integer';
        context.jsonSchema.minimum = 0;
      }
    },
  }) as const;

/** Drops `$schema` and `$id`: the document's dialect applies and components are addressed by their key. */
function withoutDialect(schema: JsonSchema): JsonSchema {
  const copy = { ...schema };
  delete copy.$schema;
  delete copy.$id;
  return copy;
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return withoutDialect(z.toJSONSchema(schema, jsonSchemaOptions(io)) as JsonSchema);
}

/** Path and query parameters from the definition's object schemas (path parameters are always required). */
function parametersOf(endpoint: DocumentedEndpoint): ParameterObject[] {
  const { definition, docs } = endpoint;
  const parameters: ParameterObject[] = [];
  const add = (schema: z.ZodType | undefined, location: 'path' | 'query', examples: Record<string, string> = {}) => {
    if (schema === undefined) return;
    const json = toJsonSchema(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    const template = routePath(definition.id);
    for (const [name, property] of Object.entries(properties)) {
      // A path schema may name a segment the route id fixes (the token standard); it is not a parameter there.
      if (location === 'path' && !template.includes(`{${name}}`)) continue;
      const { description: schemaDescription, ...rest } = property;
      const description = docs.parameterDescriptions?.[name] ?? schemaDescription;
      parameters.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
        ...(examples[name] === undefined ? {} : { example: examples[name] }),
      });
    }
  };
  add(definition.params, 'path', docs.examples.params);
  add(definition.query, 'query', docs.examples.query);
  return parameters;
}

const METERING_HEADERS = [
  'x-request-cost-ru',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ru-remaining',
];

const HEADER_DOCS: Record<string, { description: string; schema: JsonSchema }> = {
  'x-request-id': {
    description: 'the request id (the client’s own when it sent a short plain one); quote it when reporting a problem',
    schema: { type: 'string' },
  },
  'x-request-cost-ru': { description: 'RU charged for this call', schema: { type: 'string', example: '0.1' } },
  'ratelimit-limit': { description: 'RU the key may spend per one-second window', schema: { type: 'string' } },
  'ratelimit-remaining': { description: 'RU left in the current one-second window', schema: { type: 'string' } },
  'ratelimit-reset': { description: 'seconds until the window resets', schema: { type: 'string' } },
  'x-ru-remaining': { description: 'RU left of the key’s monthly allowance', schema: { type: 'string' } },
  'retry-after': { description: 'seconds to wait before retrying', schema: { type: 'string' } },
  etag: { description: 'strong validator of the body; send it back in If-None-Match', schema: { type: 'string' } },
  allow: { description: 'the method this path serves', schema: { type: 'string' } },
  'x-next-cursor': {
    description: 'present while the export has more rows: the next call’s starting cursor (a transaction id)',
    schema: { type: 'string' },
  },
  'x-closing-balance': {
    description: 'the running balance after this page’s last row (sompi); the next call’s opening balance',
    schema: { type: 'string' },
  },
  'content-disposition': { description: 'attachment, with a file name for the CSV', schema: { type: 'string' } },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

function headersOf(names: readonly string[]) {
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

/** Statuses at which the wrapper has charged (or tried to charge), so the metering headers are present. */
const METERED_ERROR_STATUSES = new Set([400, 402, 404, 413, 415, 429]);

function problemResponses(endpoint: DocumentedEndpoint): Record<string, unknown> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of problemCodesOf(endpoint)) {
    const { status } = PROBLEM_EXAMPLES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const metered = endpoint.definition.auth !== 'public';
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => {
        const headers = ['x-request-id'];
        if (metered && METERED_ERROR_STATUSES.has(status)) headers.push(...METERING_HEADERS);
        if (codes.some((code) => 'retry-after' in PROBLEM_EXAMPLES[code].headers)) headers.push('retry-after');
        if (status === 405) headers.push('allow');
        return [
          String(status),
          {
            description: codes.map((code) => `\`${code}\`: ${PROBLEM_EXAMPLES[code].title}`).join('; '),
            headers: headersOf(headers),
            content: {
              [PROBLEM_CONTENT_TYPE]: {
                schema: ref('Problem'),
                examples: Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
              },
            },
            'x-problem-codes': codes,
          },
        ];
      }),
  );
}

function costText(endpoint: DocumentedEndpoint): string {
  const cost = costOf(endpoint.definition.id);
  if (endpoint.definition.auth === 'public') return 'Free; no API key needed.';
  return cost === 0 ? 'Free (needs an API key; not metered).' : `Cost: ${formatRu(cost)} RU per call.`;
}

function operationOf(endpoint: DocumentedEndpoint, responseSchema: string): OperationObject {
  const { definition, docs } = endpoint;
  const cost = costOf(definition.id);
  const metered = definition.auth !== 'public';
  const successHeaders = [
    'x-request-id',
    ...(metered ? METERING_HEADERS : []),
    ...(docs.etag ? ['etag'] : []),
    ...(docs.text?.headers ?? []),
  ];
  const responses: Record<string, unknown> = {
    '200': {
      description: 'Success',
      headers: headersOf(successHeaders),
      content: {
        [docs.text?.contentType ?? 'application/json']: { schema: ref(responseSchema), example: docs.examples.response },
      },
    },
    ...(docs.etag ? { '304': { description: 'Not modified (If-None-Match matched the ETag)' } } : {}),
    ...problemResponses(endpoint),
  };
  const operation: OperationObject = {
    operationId: docs.operationId,
    summary: docs.summary,
    description: `${docs.description}\n\n${costText(endpoint)}`,
    tags: [docs.tag],
    security: metered ? [{ [SECURITY_SCHEME]: [] }] : [],
    parameters: parametersOf(endpoint),
    responses,
    'x-cost-ru': cost / MILLI_RU_PER_RU,
    'x-cost-milli-ru': cost,
    'x-problem-codes': problemCodesOf(endpoint),
  };
  if (definition.body !== undefined) {
    const limit = definition.bodyLimit ?? DEFAULT_BODY_LIMIT;
    operation.requestBody = {
      required: true,
      description: `A JSON object of at most ${limit} bytes.`,
      content: {
        'application/json': {
          schema: ref(requestSchemaName(docs)),
          ...(docs.examples.body === undefined ? {} : { example: docs.examples.body }),
        },
      },
    };
    operation['x-body-limit-bytes'] = limit;
  }
  return operation;
}

const pascal = (operationId: string) => operationId.charAt(0).toUpperCase() + operationId.slice(1);
/** A response schema that is also a named schema is published once, under its shared name. */
function responseSchemaName(docs: EndpointDocs, named: NamedSchemas): string {
  const shared = Object.entries(named).find(([, schema]) => schema === docs.response);
  return shared?.[0] ?? `${pascal(docs.operationId)}Response`;
}
const requestSchemaName = (docs: EndpointDocs) => `${pascal(docs.operationId)}Request`;

/** Shared response shapes published as named components (referenced from every body that contains them). */
export type NamedSchemas = Readonly<Record<string, z.ZodType>>;

function componentSchemas(endpoints: readonly DocumentedEndpoint[], named: NamedSchemas): Record<string, JsonSchema> {
  const output = z.registry<{ id: string }>();
  const input = z.registry<{ id: string }>();
  output.add(problemResponseSchema, { id: 'Problem' });
  for (const [id, schema] of Object.entries(named)) output.add(schema, { id });
  for (const { definition, docs } of endpoints) {
    if (!output.has(docs.response)) output.add(docs.response, { id: responseSchemaName(docs, named) });
    if (definition.body !== undefined) input.add(definition.body, { id: requestSchemaName(docs) });
  }
  const uri = (id: string) => `${SCHEMA_REF}${id}`;
  const emit = (registry: typeof output, io: 'input' | 'output') =>
    (z.toJSONSchema(registry, { ...jsonSchemaOptions(io), uri }) as { schemas: Record<string, JsonSchema> }).schemas;
  const schemas = { ...emit(output, 'output'), ...emit(input, 'input') };
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutDialect(schema)]));
}

export interface OpenApiOptions {
  endpoints: readonly DocumentedEndpoint[];
  /** Shared shapes to publish under their own names (NodeTransaction, IndexedBlock, …). */
  namedSchemas?: NamedSchemas;
  title: string;
  version: string;
  description: string;
  tags: { name: string; description: string }[];
}

export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const { endpoints } = options;
  const named = options.namedSchemas ?? {};
  const paths: Record<string, Record<string, OperationObject>> = {};
  for (const endpoint of endpoints) {
    const id: RouteId = endpoint.definition.id;
    const path = routePath(id);
    const operation = operationOf(endpoint, responseSchemaName(endpoint.docs, named));
    paths[path] = { ...paths[path], [routeMethod(id).toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description },
    servers: [{ url: '/', description: 'the deployment serving this document' }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: options.tags,
    paths,
    components: {
      schemas: componentSchemas(endpoints, named),
      examples: Object.fromEntries(
        Object.entries(PROBLEM_EXAMPLES).map(([code, error]) => [
          code,
          { summary: error.title, value: problemBody(error, 'req_example') },
        ]),
      ),
      headers: Object.fromEntries(
        Object.entries(HEADER_DOCS).map(([name, { description, schema }]) => [name, { description, schema }]),
      ),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description: 'The API key; accepted in this header only, never in a URL.',
        },
      },
    },
  };
}

/** Seconds a client may reuse the document before revalidating it with its ETag. */
export const OPENAPI_MAX_AGE_SECONDS = 300;

/**
 * GET /v1/openapi.json: public and free. The document is built once, on the first request (the endpoint list is read
 * lazily because the list contains this endpoint too).
 */
export function openApiEndpoint(build: () => OpenApiDocument) {
  let document: OpenApiDocument | undefined;
  return endpointsFor<ApiContext>()({
    id: 'GET /v1/openapi.json',
    auth: 'public',
    async handler() {
      document ??= build();
      return { body: document, cache: { kind: 'short', maxAgeSeconds: OPENAPI_MAX_AGE_SECONDS } };
    },
  });
}
