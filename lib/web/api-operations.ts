/**
 * The /v1 operations as the console and the reference page use them, read from the OpenAPI document (GET
 * /v1/openapi.json): grouped by the document's tags, with cost, parameters, the body's top-level fields and the
 * examples, where the document's placeholder values can be swapped for live ones.
 */
import { ROUTE_IDS, routeMethod, type RouteId } from '../api/keys/costs';
import { groupProblemCodes, type ProblemFamilyId } from '../api/http/problem-families';

type Json = Record<string, unknown>;

export interface FieldSpec {
  name: string;
  in: 'path' | 'query' | 'body';
  required: boolean;
  type: string;
  enum?: string[];
  description?: string;
  pattern?: string;
  default?: string;
  /** The example the document gives, as text. */
  example?: string;
}

export interface OperationSpec {
  route: RouteId;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  costRu: number;
  /** Needs no API key. */
  public: boolean;
  parameters: FieldSpec[];
  body?: {
    /** Top-level properties of the body schema, in schema order. */
    fields: FieldSpec[];
    example: unknown;
    limitBytes?: number;
  };
  responseExample: unknown;
  problemCodes: string[];
  /** Status of each error response the operation documents. */
  errorStatuses: string[];
}

export interface OperationGroup<Operation = OperationSpec> {
  tag: string;
  description: string;
  operations: Operation[];
}

const asObject = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function resolve(document: Json, schema: Json): Json {
  const reference = asString(schema.$ref);
  if (reference === undefined) return schema;
  const name = reference.slice(reference.lastIndexOf('/') + 1);
  return asObject(asObject(asObject(document.components).schemas)[name]);
}

function typeOf(schema: Json): string {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.filter((type) => type !== 'null').join(' | ');
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map((option) => typeOf(asObject(option))).join(' | ');
  return 'any';
}

function field(name: string, location: FieldSpec['in'], required: boolean, schema: Json, extra: Json = {}): FieldSpec {
  const spec: FieldSpec = { name, in: location, required, type: typeOf(schema) };
  if (Array.isArray(schema.enum)) spec.enum = schema.enum.map(String);
  const description = asString(extra.description) ?? asString(schema.description);
  if (description !== undefined) spec.description = description;
  const pattern = asString(schema.pattern);
  if (pattern !== undefined) spec.pattern = pattern;
  if (schema.default !== undefined) spec.default = String(schema.default);
  if (extra.example !== undefined && extra.example !== null) spec.example = String(extra.example);
  return spec;
}

function bodyOf(document: Json, operation: Json): OperationSpec['body'] {
  const requestBody = asObject(operation.requestBody);
  const content = asObject(asObject(requestBody.content)['application/json']);
  if (Object.keys(content).length === 0) return undefined;
  const schema = resolve(document, asObject(content.schema));
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields = Object.entries(asObject(schema.properties)).map(([name, property]) =>
    field(name, 'body', required.has(name), resolve(document, asObject(property))),
  );
  const limit = operation['x-body-limit-bytes'];
  return { fields, example: content.example, ...(typeof limit === 'number' ? { limitBytes: limit } : {}) };
}

function operationSpec(document: Json, path: string, method: string, operation: Json): OperationSpec | null {
  const route = `${method.toUpperCase()} ${path}`;
  if (!(ROUTE_IDS as string[]).includes(route)) return null;
  const responses = asObject(operation.responses);
  const success = asObject(asObject(asObject(responses['200']).content)['application/json']);
  const parameters = (Array.isArray(operation.parameters) ? operation.parameters : []).map((parameter) => {
    const value = asObject(parameter);
    const location = value.in === 'path' ? 'path' : 'query';
    return field(String(value.name), location, value.required === true, asObject(value.schema), value);
  });
  const body = bodyOf(document, operation);
  return {
    route: route as RouteId,
    method: routeMethod(route as RouteId),
    path,
    operationId: String(operation.operationId),
    summary: String(operation.summary ?? ''),
    description: String(operation.description ?? ''),
    tag: String((Array.isArray(operation.tags) ? operation.tags[0] : undefined) ?? ''),
    costRu: Number(operation['x-cost-ru'] ?? 0),
    public: Array.isArray(operation.security) && operation.security.length === 0,
    parameters,
    ...(body === undefined ? {} : { body }),
    responseExample: success.example,
    problemCodes: Array.isArray(operation['x-problem-codes']) ? operation['x-problem-codes'].map(String) : [],
    errorStatuses: Object.keys(responses).filter((status) => Number(status) >= 400),
  };
}

/** The document's operations grouped by tag, in the document's tag order. */
export function operationGroups(document: unknown): OperationGroup[] {
  const root = asObject(document);
  const groups = (Array.isArray(root.tags) ? root.tags : []).map((tag) => ({
    tag: String(asObject(tag).name),
    description: String(asObject(tag).description ?? ''),
    operations: [] as OperationSpec[],
  }));
  for (const [path, item] of Object.entries(asObject(root.paths))) {
    for (const [method, operation] of Object.entries(asObject(item))) {
      const spec = operationSpec(root, path, method, asObject(operation));
      if (spec === null) continue;
      let group = groups.find((candidate) => candidate.tag === spec.tag);
      if (group === undefined) {
        group = { tag: spec.tag, description: '', operations: [] };
        groups.push(group);
      }
      group.operations.push(spec);
    }
  }
  return groups.filter((group) => group.operations.length > 0);
}

/** Replaces every string equal to a key of `replacements` (the document's placeholder hashes, addresses, tickers). */
export function withLiveValues<T>(value: T, replacements: ReadonlyMap<string, string>): T {
  if (typeof value === 'string') return (replacements.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withLiveValues(item, replacements)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withLiveValues(item as unknown, replacements)]),
    ) as T;
  }
  return value;
}

/** Each operation with its parameter and body examples made live. */
export function withLiveExamples(groups: OperationGroup[], replacements: ReadonlyMap<string, string>): OperationGroup[] {
  return groups.map((group) => ({
    ...group,
    operations: group.operations.map((operation) => ({
      ...operation,
      parameters: operation.parameters.map((parameter) =>
        parameter.example === undefined ? parameter : { ...parameter, example: withLiveValues(parameter.example, replacements) },
      ),
      ...(operation.body === undefined
        ? {}
        : { body: { ...operation.body, example: withLiveValues(operation.body.example, replacements) } }),
    })),
  }));
}

/**
 * An operation as the console and the reference ship it to the browser: without the document's example answer (it
 * can be large), and with the problem codes whole families of endpoint share named by family, not repeated.
 */
export type OperationSummary = Omit<OperationSpec, 'responseExample' | 'problemCodes' | 'errorStatuses'> & {
  responseExample?: unknown;
  problemFamilies: ProblemFamilyId[];
  ownProblemCodes: string[];
};

/** The groups as summaries, each operation's example answer dropped unless `keepExample` asks for it. */
export function operationSummaries(
  groups: OperationGroup[],
  keepExample: (operation: OperationSpec) => boolean = () => false,
): OperationGroup<OperationSummary>[] {
  return groups.map((group) => ({
    ...group,
    operations: group.operations.map((operation) => {
      const { families, own } = groupProblemCodes(operation.problemCodes);
      const summary: OperationSummary = { ...operation, problemFamilies: families, ownProblemCodes: own };
      for (const unshipped of ['problemCodes', 'errorStatuses', 'responseExample'] as const) delete (summary as Partial<OperationSpec>)[unshipped];
      return keepExample(operation) ? { ...summary, responseExample: operation.responseExample } : summary;
    }),
  }));
}
