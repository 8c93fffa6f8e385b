import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../rpc/json';
import { costOf, formatRu, ROUTE_IDS, routeMethod, routePath, type RouteId } from '../keys/costs';
import { endpointDefiner } from '../wrapper/endpoint';
import { problemBody } from '../http/errors';
import { createMemoryKeyStore } from '../keys/keys';
import { createMemoryMeter } from '../keys/metering';
import { API_ENDPOINTS, NAMED_SCHEMAS, openApiDocumentEndpoint } from './openapi-endpoints';
import { buildOpenApiDocument, PROBLEM_EXAMPLES, problemCodesOf, type OpenApiDocument } from './openapi';
import { problemResponseSchema } from '../http/schemas';

const APP_V1 = join(__dirname, '..', '..', '..', 'app', 'v1');

async function documentOf(): Promise<OpenApiDocument> {
  const result = await openApiDocumentEndpoint.handler({} as never);
  return result.body as OpenApiDocument;
}

const STREAM_PATHS = ['/v1/stream', '/v1/ws'];

/** app/v1/a/[b]/route.ts → /v1/a/{b}; the catch-all is not an endpoint. */
async function routeFiles(): Promise<{ path: string; file: string }[]> {
  const found: { path: string; file: string }[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === 'route.ts') {
        const segments = relative(APP_V1, dir).split(sep);
        if (segments.some((segment) => segment.startsWith('[['))) continue;
        const path = `/v1/${segments.map((segment) => segment.replace(/^\[(.+)\]$/, '{$1}')).join('/')}`;
        // The streams (lib/stream) are long-lived connections, not calls of the endpoint wrapper.
        if (STREAM_PATHS.includes(path)) continue;
        found.push({ path, file: full });
      }
    }
  };
  await walk(APP_V1);
  return found;
}

function collectRefs(value: unknown, refs: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, refs);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') refs.push(item);
      else collectRefs(item, refs);
    }
  }
  return refs;
}

function resolvePointer(document: unknown, pointer: string): unknown {
  expect(pointer.startsWith('#/')).toBe(true);
  let node: unknown = document;
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

describe('the endpoint list', () => {
  it('has each route once, each served by a route file that binds its definition', async () => {
    const ids = API_ENDPOINTS.map((endpoint) => endpoint.definition.id);
    expect(new Set(ids).size).toBe(ids.length);
    const files = await routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(18);
    const listed = new Set<RouteId>();
    for (const { path, file } of files) {
      const source = await readFile(file, 'utf8');
      // One line binds the definitions; routeFile takes each one's method from its id and refuses the others.
      expect(source, `${file} exports every method through routeFile`).toContain('export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeFile(');
      const served = [...source.matchAll(/define\w*Endpoint\((\w+)\)/g)];
      expect(served.length, `${file} binds a definition`).toBeGreaterThan(0);
      for (const [, name] of served) {
        const imported = new RegExp(`import \\{ (?:[\\w, ]+, )?${name}(?:, [\\w, ]+)? \\} from '@/lib/api/([\\w/-]+)'`).exec(source);
        expect(imported, `${file} imports ${name} from lib/api`).not.toBeNull();
        const modulePath = join(__dirname, '..', `${imported![1]}.ts`);
        const exports = (await import(/* @vite-ignore */ modulePath)) as Record<string, unknown>;
        const entry = API_ENDPOINTS.find((candidate) => candidate.definition === exports[name!]);
        expect(entry, `${file}: ${name} is in the endpoint list`).toBeDefined();
        const id = entry!.definition.id;
        // A folder parameter stands for any segment ([standard] serves tk20 and its alias); literals must agree.
        const fileSegments = path.split('/');
        const routeSegments = routePath(id).split('/');
        expect(fileSegments.length, `${file} serves ${id}`).toBe(routeSegments.length);
        fileSegments.forEach((segment, index) => {
          if (!segment.startsWith('{')) expect(routeSegments[index], `${file} serves ${id}`).toBe(segment);
        });
        listed.add(id);
      }
    }
    // Every listed endpoint is served, and the list is exactly the cost table.
    expect([...listed].sort()).toEqual([...ids].sort());
    expect([...ids].sort()).toEqual([...ROUTE_IDS].sort());
  });

  it('examples satisfy the schemas they illustrate', () => {
    for (const { definition, docs } of API_ENDPOINTS) {
      const at = definition.id;
      expect(docs.response.safeParse(docs.examples.response).error, `${at} response example`).toBeUndefined();
      if (definition.body !== undefined) {
        expect(docs.examples.body, `${at} has a body example`).toBeDefined();
        expect(definition.body.safeParse(docs.examples.body).error, `${at} body example`).toBeUndefined();
      }
      if (definition.params !== undefined) {
        expect(definition.params.safeParse(docs.examples.params).error, `${at} path example`).toBeUndefined();
      }
      if (definition.query !== undefined) {
        expect(definition.query.safeParse(docs.examples.query ?? {}).error, `${at} query example`).toBeUndefined();
      }
    }
    for (const [code, error] of Object.entries(PROBLEM_EXAMPLES)) {
      expect(error.code).toBe(code);
      expect(problemResponseSchema.safeParse(problemBody(error, 'req_1')).error).toBeUndefined();
    }
  });
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the key scheme, servers and every listed route with its method', async () => {
    const document = await documentOf();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers.length).toBeGreaterThan(0);
    expect(document.components.securitySchemes.ApiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    );
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(API_ENDPOINTS.map((endpoint) => endpoint.definition.id).sort());
    expect(operations).toContain('GET /v1/usage');
    expect(operations).toContain('GET /v1/openapi.json');
  });

  it('resolves every $ref', async () => {
    const document = await documentOf();
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(50);
    for (const target of new Set(refs)) expect(resolvePointer(document, target), target).toBeDefined();
  });

  it('gives each operation its cost, security, parameters, body and every error status it can answer', async () => {
    const document = await documentOf();
    for (const endpoint of API_ENDPOINTS) {
      const { definition, docs } = endpoint;
      const operation = document.paths[routePath(definition.id)]![routeMethod(definition.id).toLowerCase()]!;
      const cost = costOf(definition.id);
      expect(operation.operationId).toBe(docs.operationId);
      expect(operation['x-cost-milli-ru']).toBe(cost);
      expect(String(operation['x-cost-ru'])).toBe(formatRu(cost));
      if (definition.auth === 'public') {
        expect(operation.security).toEqual([]);
        expect(operation.description).toContain('Free; no API key needed.');
      } else {
        expect(operation.security).toEqual([{ ApiKey: [] }]);
        if (cost > 0) expect(operation.description).toContain(`Cost: ${formatRu(cost)} RU per call.`);
      }
      const templateParams = [...routePath(definition.id).matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const pathParams = operation.parameters.filter((parameter) => parameter.in === 'path');
      expect(pathParams.map((parameter) => parameter.name).sort()).toEqual(templateParams.sort());
      for (const parameter of operation.parameters) {
        expect(parameter.schema.type ?? parameter.schema.anyOf, `${definition.id} ${parameter.name}`).toBeDefined();
        if (parameter.in === 'path') expect(parameter.required).toBe(true);
      }
      const queryNames = Object.keys(definition.query?.shape ?? {});
      const queryParams = operation.parameters.filter((parameter) => parameter.in === 'query');
      expect(queryParams.map((parameter) => parameter.name)).toEqual(queryNames);
      expect(operation.requestBody !== undefined).toBe(definition.body !== undefined);

      const statuses = new Set(problemCodesOf(endpoint).map((code) => String(PROBLEM_EXAMPLES[code].status)));
      for (const status of statuses) {
        const response = operation.responses[status] as { content: Record<string, { schema: unknown }> };
        expect(response, `${definition.id} documents ${status}`).toBeDefined();
        expect(response.content['application/problem+json']!.schema).toEqual({ $ref: '#/components/schemas/Problem' });
      }
      expect(operation.responses['200']).toBeDefined();
      expect(statuses.has('405')).toBe(true);
      if (definition.auth !== 'public') {
        for (const status of ['401', '402', '403', '429']) expect(statuses).toContain(status);
      }
      if (definition.body !== undefined) for (const status of ['413', '415']) expect(statuses).toContain(status);
      if (docs.usesNode) for (const status of ['503', '504']) expect(statuses).toContain(status);
    }
  });

  it('documents the limits and enums of the request schemas', async () => {
    const document = await documentOf();
    const address = document.paths['/v1/addresses/{address}/transactions']!.get!;
    const limit = address.parameters.find((parameter) => parameter.name === 'limit')!;
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { default: '20' } });
    expect(limit.description).toContain('1 to 100');
    const flag = address.parameters.find((parameter) => parameter.name === 'accepted_only')!;
    expect(flag.schema.enum).toEqual(['true', 'false']);
    const utxos = document.components.schemas.GetUtxosByAddressesRequest as {
      properties: { addresses: { maxItems: number; minItems: number } };
      required: string[];
    };
    expect(utxos.properties.addresses).toMatchObject({ minItems: 1, maxItems: 500 });
    expect(utxos.required).toEqual(['addresses']);
    const id = document.paths['/v1/transactions/{id}']!.get!.parameters[0]!;
    expect(id.schema.pattern).toBe('^[0-9a-fA-F]{64}$');
    expect(document.paths['/v1/rpc/submitBlock']!.post!['x-body-limit-bytes']).toBe(4 * 1024 * 1024);
  });

  it('is built the same way every time and is JSON', () => {
    const build = () =>
      buildOpenApiDocument({
        endpoints: API_ENDPOINTS,
        namedSchemas: NAMED_SCHEMAS,
        title: 't',
        version: '1',
        description: 'd',
        tags: [],
      });
    const text = stringifyJson(build());
    expect(stringifyJson(build())).toBe(text);
    expect(JSON.parse(text)).toEqual(parseJson(text));
  });
});

describe('GET /v1/openapi.json', () => {
  const context = {
    keys: createMemoryKeyStore(),
    meter: createMemoryMeter(),
    clock: () => Date.UTC(2026, 10, 22),
    logger: { error: () => undefined },
  };
  const handler = endpointDefiner(() => context)(openApiDocumentEndpoint);
  const call = (init: RequestInit = {}, query = '') =>
    handler(new Request(`http://localhost/v1/openapi.json${query}`, init), { params: Promise.resolve({}) });

  it('answers without a key, unmetered, with an ETag that revalidates to 304', async () => {
    const response = await call();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-cost-ru')).toBeNull();
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const document = (await response.json()) as OpenApiDocument;
    expect(document.openapi).toBe('3.1.0');
    const again = await call({ headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('refuses other methods, unknown parameters and keys in the URL in the problem shape', async () => {
    for (const [response, status, code] of [
      [await call({ method: 'POST' }), 405, 'method_not_allowed'],
      [await call({}, '?format=yaml'), 400, 'unknown_query_parameter'],
      [await call({}, '?api_key=dgb_x'), 400, 'api_key_in_query'],
    ] as const) {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(problemResponseSchema.parse(await response.json()).code).toBe(code);
    }
  });
});
