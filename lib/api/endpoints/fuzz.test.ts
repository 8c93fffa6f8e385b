/**
 * Contract and fuzz tests of every /v1 endpoint of the endpoint list, in process, against the real route handlers and a
 * real context: the runtime's API services on an in-memory PGlite with the migrated schema, an indexer following a
 * devnet node that listens on a loopback port and is reached over wRPC.
 *   - contract: a valid request per endpoint, built from the live devnet, answers 200 with a body its documented
 *     response schema accepts;
 *   - fuzz: fast-check derives malformed requests from each endpoint's zod schemas (the parameter names of its path and
 *     query schemas, the body schema's valid seed mutated path by path) and adds transport faults (bad JSON, random
 *     bytes, wrong content types, oversize and deeply nested bodies, other methods, bad keys). Every answer must be
 *     below 500 and either the one problem shape or, when the request was in fact valid, a body the response schema
 *     accepts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, readCheckpoint, type Db } from '../../db';
import { insertWebhook } from '../../db/webhooks';
import { idHex, spend } from '../../devnet/test-support/devnet-harness';
import { MINER_KEY, startWireDevnet, wireKey, type WireDevnet } from '../../devnet/test-support/wire-devnet';
import { parseEnv } from '../../env';
import { createIndexer, type Indexer } from '../../indexer';
import { bytesToHex } from '../../kaspa/bytes';
import { transactionToRpc } from '../../rpc/convert-transaction';
import { parseJson, stringifyJson, type JsonValue } from '../../rpc/json';
import { createApiServices, type ApiServices } from '../../runtime/api-services';
import { fixedKasUsd } from '../../tokens/kas-usd';
import { EMPTY_REGISTRY } from '../../tokens/registry';
import { endpointDefiner } from '../wrapper/endpoint';
import type { RouteHandler } from '../http/http';
import { createApiKey } from '../keys/keys';
import { API_ENDPOINTS } from '../openapi/openapi-endpoints';
import { EXAMPLE_EXTENDED_PUBLIC_KEY } from '../openapi/openapi-wallet-endpoints';
import type { DocumentedEndpoint } from '../openapi/openapi';
import { problemResponseSchema } from '../http/schemas';

const RUNS_PER_ENDPOINT = 1000;
const RESPONSE_BIGINT_KEYS = new Set(['sequence', 'lockTime']);

interface Seed {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: JsonValue;
}

interface Probe {
  method: string;
  params: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

let devnet: WireDevnet;
let db: Db;
let indexer: Indexer;
let services: ApiServices;
let dataDir: string;
let apiKey: string;
const handlers = new Map<string, RouteHandler>();
const seeds = new Map<string, Seed>();
const loggedFailures: string[] = [];

async function untilIndexed(): Promise<void> {
  const { sink } = await devnet.client.call('getSink', {});
  for (let attempt = 0; attempt < 1000; attempt++) {
    const checkpoint = await readCheckpoint(db, 'virtual-chain');
    if (checkpoint !== null && bytesToHex(checkpoint.blockHash) === sink) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the index did not reach the sink');
}

function payment(toSeed: number, utxoIndex: number) {
  const utxos = devnet.node.consensus
    .getUtxosByScriptPublicKey(MINER_KEY.scriptPublicKey)
    .sort((a, b) => Number(a.entry.blockDaaScore - b.entry.blockDaaScore));
  return spend(utxos[utxoIndex]!, MINER_KEY, wireKey(toSeed).scriptPublicKey);
}

async function send(endpoint: DocumentedEndpoint, probe: Probe): Promise<Response> {
  const handler = handlers.get(endpoint.definition.id)!;
  const search = new URLSearchParams(probe.query).toString();
  const request = new Request(`http://localhost/fuzz${search === '' ? '' : `?${search}`}`, {
    method: probe.method,
    headers: probe.headers,
    body:
      probe.body === undefined || probe.method === 'GET' || probe.method === 'HEAD'
        ? undefined
        : typeof probe.body === 'string'
          ? probe.body
          : new Uint8Array(probe.body),
  });
  return handler(request, { params: Promise.resolve(probe.params) });
}

function validProbe(endpoint: DocumentedEndpoint, seed: Seed): Probe {
  const method = endpoint.definition.id.split(' ')[0]!;
  return {
    method,
    params: seed.params ?? {},
    query: Object.entries(seed.query ?? {}),
    headers: {
      'x-api-key': apiKey,
      ...(seed.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: seed.body === undefined ? undefined : stringifyJson(seed.body),
  };
}

/** A success body as its endpoint documents it: CSV text as is, JSON parsed. */
function successBody(endpoint: DocumentedEndpoint, text: string): unknown {
  return endpoint.docs.text === undefined ? parseJson(text, { bigintKeys: RESPONSE_BIGINT_KEYS }) : text;
}

/** The fuzz oracle: never 5xx; success bodies satisfy the response schema; everything else is the problem shape. */
async function check(endpoint: DocumentedEndpoint, probe: Probe, response: Response): Promise<void> {
  const text = await response.text();
  const where = `${endpoint.definition.id} ${JSON.stringify({ ...probe, body: String(probe.body).slice(0, 300) })}`;
  expect(response.status, `${where} → ${text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status === 204) {
    expect(probe.method).toBe('OPTIONS');
    return;
  }
  if (response.status === 304) return;
  if (response.status === 200) {
    if (probe.method === 'HEAD') return;
    const result = endpoint.docs.response.safeParse(successBody(endpoint, text));
    expect(result.error, `${where}: success body outside the response schema`).toBeUndefined();
    return;
  }
  expect(response.headers.get('content-type'), where).toBe('application/problem+json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const problem = problemResponseSchema.parse(JSON.parse(text));
  expect(problem.status, where).toBe(response.status);
  expect(problem.requestId).toBe(response.headers.get('x-request-id'));
}

/* ---------- arbitraries derived from the schemas ---------- */

const nastyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '1e3',
    '0x10',
    '18446744073709551616',
    '99999999999999999999999',
    'NaN',
    'true',
    'null',
    '%00',
    '%E0%A4%A',
    '../../etc/passwd',
    '<script>',
    'kaspa:',
    'kaspadev:qqqqqqqq',
    'f'.repeat(63),
    'F'.repeat(64),
    'g'.repeat(64),
    'a'.repeat(5000),
  ),
);

const jsonLeaf: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
  nastyText,
);
const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

type JsonPath = (string | number)[];

function pathsOf(value: JsonValue, prefix: JsonPath = []): JsonPath[] {
  const paths: JsonPath[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...prefix, index])));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

type Mutation =
  | { kind: 'replace'; value: JsonValue }
  | { kind: 'delete' }
  | { kind: 'add'; key: string; value: JsonValue };

function mutate(value: JsonValue, path: JsonPath, mutation: Mutation): JsonValue {
  if (path.length === 0) {
    if (mutation.kind === 'replace') return mutation.value;
    if (mutation.kind === 'add' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return { ...value, [mutation.key]: mutation.value };
    }
    return mutation.kind === 'delete' ? null : value;
  }
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && mutation.kind === 'delete') copy.splice(head as number, 1);
    else copy[head as number] = mutate(copy[head as number]!, rest, mutation);
    return copy;
  }
  if (value !== null && typeof value === 'object') {
    const copy = { ...value };
    if (rest.length === 0 && mutation.kind === 'delete') delete copy[head as string];
    else copy[head as string] = mutate(copy[head as string]!, rest, mutation);
    return copy;
  }
  return value;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: jsonValue.map((value) => ({ kind: 'replace', value }) as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'delete' } as const) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'hash')), jsonValue)
      .map(([key, value]) => ({ kind: 'add', key, value }) as const),
  },
);

const OVERSIZE = new Uint8Array(4 * 1024 * 1024 + 1).fill(0x20);
const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;

function probeArbitrary(endpoint: DocumentedEndpoint, seed: Seed): fc.Arbitrary<Probe> {
  const { definition } = endpoint;
  const method = definition.id.split(' ')[0]!;
  const paramNames = Object.keys((definition.params as { shape?: object } | undefined)?.shape ?? {});
  const queryNames = Object.keys(definition.query?.shape ?? {});
  const base = validProbe(endpoint, seed);

  const params = fc.record(
    Object.fromEntries(
      paramNames.map((name) => [name, fc.oneof(fc.constant(seed.params?.[name] ?? ''), nastyText)] as const),
    ),
  ) as fc.Arbitrary<Record<string, string>>;

  const queryName = fc.oneof(
    ...(queryNames.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...queryNames) }] : []),
    { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom('api_key', 'apiKey', 'x-api-key', 'token', 'limit', 'includePayload') },
  );
  const queryValue = fc.oneof(fc.constantFrom('true', 'false', '1', '0', '100', '101'), nastyText);
  const query = fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 }).map((extra) => [...base.query, ...extra]);

  const seedBody = seed.body;
  const bodies: fc.Arbitrary<{ body?: Uint8Array | string; contentType?: string }>[] = [
    fc.string({ unit: 'binary', maxLength: 200 }).map((body) => ({ body, contentType: 'application/json' })),
    fc.uint8Array({ maxLength: 300 }).map((body) => ({ body, contentType: 'application/json' })),
    jsonValue.map((value) => ({ body: stringifyJson(value), contentType: 'application/json' })),
    fc.constantFrom(
      { body: OVERSIZE, contentType: 'application/json' },
      { body: DEEP, contentType: 'application/json' },
      { body: '', contentType: 'application/json' },
      { body: '{"a":1,}', contentType: 'application/json' },
      { body: '\uFEFF{}', contentType: 'application/json' },
      { body: new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]), contentType: 'application/json' },
    ),
    fc
      .tuple(
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/jsonx',
          'application/json-patch+json',
          'APPLICATION/JSON; charset=utf-8',
          'application/json;charset=utf-16',
          ';',
        ),
        fc.constant(seedBody === undefined ? '{}' : stringifyJson(seedBody)),
      )
      .map(([contentType, body]) => ({ body, contentType })),
  ];
  if (seedBody !== undefined) {
    const paths = pathsOf(seedBody);
    const mutated = fc
      .array(fc.tuple(fc.constantFrom(...paths), mutation), { minLength: 1, maxLength: 3 })
      .map((steps) => steps.reduce((value, [path, step]) => mutate(value, path, step), seedBody));
    bodies.push(
      mutated.map((value) => ({ body: stringifyJson(value), contentType: 'application/json' })),
      mutated.map((value) => ({ body: stringifyJson(value), contentType: 'application/json' })),
      mutated.map((value) => ({ body: stringifyJson(value), contentType: 'application/json' })),
    );
  }

  const headers = fc.oneof(
    { weight: 8, arbitrary: fc.constant<Record<string, string>>({ 'x-api-key': apiKey }) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.constantFrom('', ' ', `${apiKey}x`, apiKey.toUpperCase(), 'dgb_'), fc.string({ maxLength: 60 }))
        .map((key) => ({ 'x-api-key': key })),
    },
    { weight: 1, arbitrary: fc.constant<Record<string, string>>({}) },
  );
  const methods = fc.oneof(
    { weight: 12, arbitrary: fc.constant(method) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  );

  return fc
    .record({
      method: methods,
      params: paramNames.length > 0 ? fc.oneof(fc.constant(base.params), params) : fc.constant(base.params),
      query: fc.oneof({ weight: 1, arbitrary: fc.constant(base.query) }, { weight: 2, arbitrary: query }),
      headers,
      body: fc.oneof(...bodies),
    })
    .map(({ method: chosen, params: p, query: q, headers: h, body }) => {
      const withBody = body.contentType === undefined ? h : { ...h, 'content-type': body.contentType };
      return {
        method: chosen,
        params: p,
        query: q,
        headers: headerSafe(withBody),
        body: method === 'POST' ? body.body : undefined,
      };
    });
}

/** Header values a Request can carry (ByteString without CR/LF/NUL); others could never arrive over HTTP. */
function headerSafe(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, value.replace(/[^\x20-\x7e\t]/g, '?').trim()]),
  );
}

/* ---------- the live setup ---------- */

beforeAll(async () => {
  devnet = await startWireDevnet();
  db = await openDb({ url: 'memory://' });
  await migrate(db);
  dataDir = await mkdtemp(join(tmpdir(), 'dagboard-fuzz-'));
  services = await createApiServices({
    env: parseEnv({ DATA_DIR: dataDir }),
    db,
    rpc: devnet.client,
    embeddedDevnet: false,
    log: (line) => loggedFailures.push(line),
  });
  const fuzzKey = await createApiKey(services.context.keys, {
    name: 'fuzz',
    limits: { milliRuPerSecond: 10 ** 12, milliRuPerMonth: 10 ** 14 },
    now: new Date(),
  });
  apiKey = fuzzKey.key;
  const webhook = (id: string) =>
    db.transaction((tx) =>
      insertWebhook(tx, { id, keyId: fuzzKey.record.id, url: 'https://93.184.215.14/hook', topics: ['block'], addresses: null, secret: 'whsec_fuzz', createdAt: BigInt(Date.now()) }, 100),
    );
  const [kept, deleted] = [`wh_${'K'.repeat(22)}`, `wh_${'D'.repeat(22)}`];
  await webhook(kept);
  await webhook(deleted);
  // No token is deployed on this devnet: the token endpoints answer their documented 404 or an empty list.
  const context = { ...services.context, tokens: { registry: EMPTY_REGISTRY, kasUsd: fixedKasUsd(0.1) } };
  const define = endpointDefiner(() => context);
  for (const endpoint of API_ENDPOINTS) handlers.set(endpoint.definition.id, define(endpoint.definition as never));

  for (let i = 0; i < 14; i++) await devnet.mine();
  const mined = payment(7, 0);
  await devnet.client.call('submitTransaction', { transaction: transactionToRpc(mined), allowOrphan: false });
  await devnet.mine();
  const pending = payment(8, 1);
  await devnet.client.call('submitTransaction', { transaction: transactionToRpc(pending), allowOrphan: false });
  const fresh = payment(9, 2);

  indexer = createIndexer({ rpc: devnet.client, db, nodePollIntervalMs: 50, retryDelayMs: 50 });
  indexer.start();
  await untilIndexed();

  const genesis = bytesToHex(devnet.node.genesisHash);
  const { sink } = await devnet.client.call('getSink', {});
  const template = await devnet.client.call('getBlockTemplate', { payAddress: MINER_KEY.address, extraData: [] });
  const { header, transactions } = template.block;
  const miner = MINER_KEY.address;
  const put = (id: string, seed: Seed) => seeds.set(id, seed);
  put('GET /v1/transactions/{id}', { params: { id: idHex(mined) }, query: { include_payload: 'true' } });
  put('POST /v1/transactions', { body: { transactionIds: [idHex(mined), genesis], includePayload: true } });
  put('GET /v1/addresses/{address}/transactions', {
    params: { address: encodeURIComponent(miner) },
    query: { limit: '5' },
  });
  put('GET /v1/addresses/{address}/summary', { params: { address: encodeURIComponent(miner) } });
  put('GET /v1/blocks/daa-score/{daa_score_start}/{daa_score_end}', {
    params: { daa_score_start: '0', daa_score_end: '40' },
    query: { include_transactions: 'true' },
  });
  put('POST /v1/rpc/getBlock', { body: { hash: sink, includeTransactions: true } });
  put('POST /v1/rpc/getBlocks', { body: { lowHash: genesis, includeBlocks: true, includeTransactions: true } });
  put('POST /v1/rpc/getMempoolEntry', { body: { transactionId: idHex(pending) } });
  put('GET /v1/rpc/getMempoolEntries', { query: { includeOrphanPool: 'true' } });
  put('POST /v1/rpc/getMempoolEntriesByAddresses', { body: { addresses: [miner, wireKey(8).address] } });
  put('POST /v1/rpc/getUtxosByAddresses', { body: { addresses: [miner] } });
  put('POST /v1/wallets/summary', { body: { extendedPublicKey: EXAMPLE_EXTENDED_PUBLIC_KEY, gapLimit: 5 } });
  put('POST /v1/wallets/transactions', { body: { addresses: [miner, wireKey(8).address], limit: 5 } });
  put('POST /v1/wallets/utxos', { body: { addresses: [miner] } });
  put('POST /v1/wallets/transactions/export', { body: { addresses: [miner], from: '2020-01-01', layout: 'generic', limit: 5 } });
  put('GET /v1/addresses/{address}/transactions/export', { params: { address: miner }, query: { layout: 'koinly', limit: '5' } });
  put('GET /v1/wallets/demo', {});
  put('GET /v1/rpc/getFeeEstimate', {});
  put('GET /v1/rpc/getBlockDagInfo', {});
  put('GET /v1/supply', {});
  put('GET /v1/statistics', { query: { interval: 'hour', limit: '5' } });
  put('POST /v1/rpc/getBlockTemplate', { body: { payAddress: miner, extraData: 'fuzz' } });
  put('POST /v1/rpc/submitBlock', {
    body: parseJson(stringifyJson({ block: { header, transactions }, allowNonDAABlocks: false })),
  });
  put('POST /v1/rpc/submitTransaction', { body: parseJson(stringifyJson({ transaction: transactionToRpc(fresh) })) });
  put('POST /v1/rpc/submitTransactionReplacement', {
    body: parseJson(stringifyJson({ transaction: transactionToRpc(payment(10, 3)) })),
  });
  put('GET /v1/tokens/tk20/{ticker}/metadata', { params: { standard: 'tk20', ticker: 'DAGBRD' } });
  put('GET /v1/tokens/tk20/{ticker}/chart', {
    params: { standard: 'krc20', ticker: 'DAGBRD' },
    query: { type: 'candles', interval: '7d' },
  });
  put('GET /v1/tokens/tk20', { params: { standard: 'tk20' }, query: { limit: '5' } });
  put('GET /v1/tokens/tk20/{ticker}/holders', { params: { standard: 'tk20', ticker: 'DAGBRD' }, query: { limit: '5' } });
  put('GET /v1/tokens/tk20/{ticker}/operations', { params: { standard: 'krc20', ticker: 'DAGBRD' }, query: { limit: '5' } });
  put('GET /v1/tokens/tk20/{ticker}/fills', { params: { standard: 'tk20', ticker: 'dagbrd' }, query: { limit: '5' } });
  put('GET /v1/tokens/tk20/operations/{transactionId}', { params: { standard: 'krc20', transactionId: idHex(mined) } });
  put('GET /v1/prices/kas-usd', { query: { times: '1700000000000,1800000000000' } });
  put('GET /v1/tokens/tk20/balances/{address}', { params: { standard: 'tk20', address: encodeURIComponent(miner) } });
  // The fuzz chain runs no covenant traffic: the list answers empty, a covenant id the chain never bound is unknown.
  put('GET /v1/covenants', { query: { limit: '5' } });
  put('GET /v1/covenants/{covenantId}', { params: { covenantId: idHex(mined) } });
  put('GET /v1/covenants/{covenantId}/transactions', { params: { covenantId: idHex(mined) }, query: { limit: '5' } });
  put('GET /v1/usage', {});
  put('GET /v1/openapi.json', {});
  // A public address literal: the target check needs no DNS.
  put('POST /v1/webhooks', { body: { url: 'https://93.184.215.14/hook', topics: ['address'], addresses: [miner] } });
  put('GET /v1/webhooks', {});
  put('GET /v1/webhooks/{id}', { params: { id: kept } });
  put('DELETE /v1/webhooks/{id}', { params: { id: deleted } });
  put('GET /v1/webhooks/{id}/deliveries', { params: { id: kept }, query: { limit: '5' } });
  loggedFailures.length = 0;
}, 120_000);

afterAll(async () => {
  await indexer?.stop();
  await services?.close();
  await devnet?.close();
  await db?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

const EXPECTED_REFUSALS: Partial<Record<string, { status: number; code: string }>> = {
  'POST /v1/rpc/submitTransactionReplacement': { status: 400, code: 'transaction_rejected' },
  'GET /v1/wallets/demo': { status: 404, code: 'demo_wallet_not_found' },
  'GET /v1/covenants/{covenantId}': { status: 404, code: 'covenant_not_found' },
  'GET /v1/covenants/{covenantId}/transactions': { status: 404, code: 'covenant_not_found' },
  'GET /v1/tokens/tk20/{ticker}/metadata': { status: 404, code: 'token_not_found' },
  'GET /v1/tokens/tk20/{ticker}/chart': { status: 404, code: 'token_not_found' },
  'GET /v1/tokens/tk20/{ticker}/holders': { status: 404, code: 'token_not_found' },
  'GET /v1/tokens/tk20/{ticker}/operations': { status: 404, code: 'token_not_found' },
  'GET /v1/tokens/tk20/{ticker}/fills': { status: 404, code: 'token_not_found' },
};

describe('contract: valid requests on the live devnet', () => {
  it('has a seed for every endpoint of the list', () => {
    expect([...seeds.keys()].sort()).toEqual(API_ENDPOINTS.map((endpoint) => endpoint.definition.id).sort());
  });

  it.each(API_ENDPOINTS.map((endpoint) => [endpoint.definition.id, endpoint] as const))(
    '%s answers 200 with a body its response schema accepts',
    async (_id, endpoint) => {
      const probe = validProbe(endpoint, seeds.get(endpoint.definition.id)!);
      const response = await send(endpoint, probe);
      const text = await response.text();
      // A replacement needs a mempool transaction to replace, and a token's pages a deployed token; without them the
      // documented refusals are the answers.
      const refusal = EXPECTED_REFUSALS[endpoint.definition.id];
      if (refusal !== undefined) {
        expect(response.status, text).toBe(refusal.status);
        expect(problemResponseSchema.parse(JSON.parse(text)).code).toBe(refusal.code);
        return;
      }
      expect(response.status, text).toBe(200);
      const body = successBody(endpoint, text);
      expect(endpoint.docs.response.safeParse(body).error).toBeUndefined();
      const data = typeof body === 'string' ? body : JSON.stringify(JSON.parse(text));
      if (endpoint.docs.usesNode && endpoint.definition.id !== 'POST /v1/rpc/submitTransaction') {
        expect(data.length, 'the seed reaches real data').toBeGreaterThan(40);
      }
    },
  );
});

describe('fuzz: malformed requests', () => {
  it.each(API_ENDPOINTS.map((endpoint) => [endpoint.definition.id, endpoint] as const))(
    '%s: never a 5xx, always the problem shape or a valid success',
    async (_id, endpoint) => {
      const seed = seeds.get(endpoint.definition.id)!;
      let runs = 0;
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(probeArbitrary(endpoint, seed), async (probe) => {
          runs++;
          const response = await send(endpoint, probe);
          statuses.add(response.status);
          await check(endpoint, probe, response);
        }),
        { numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
      );
      expect(runs).toBeGreaterThanOrEqual(RUNS_PER_ENDPOINT);
      expect(loggedFailures).toEqual([]);
      // The generator reaches every layer: the method check, the query, and for keyed and body-taking endpoints the
      // key check and the body checks.
      const expected = [400, 405];
      if (endpoint.definition.auth !== 'public') expected.push(401);
      if (endpoint.definition.body !== undefined) expected.push(413, 415);
      for (const status of expected) {
        expect([...statuses], `${endpoint.definition.id} reached ${status}`).toContain(status);
      }
    },
    120_000,
  );
});
