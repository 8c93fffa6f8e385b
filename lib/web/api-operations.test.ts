import { describe, expect, it } from 'vitest';
import { ROUTE_IDS } from '../api/keys/costs';
import { buildOpenApiDocument } from '../api/openapi/openapi';
import { API_ENDPOINTS, NAMED_SCHEMAS, OPENAPI_TAGS } from '../api/openapi/openapi-endpoints';
import { EXAMPLE_ADDRESS, EXAMPLE_TRANSACTION_ID } from '../api/openapi/openapi-examples';
import { operationGroups, operationSummaries, withLiveExamples } from './api-operations';

const document = JSON.parse(
  JSON.stringify(
    buildOpenApiDocument({ endpoints: API_ENDPOINTS, namedSchemas: NAMED_SCHEMAS, title: 't', version: '1', description: 'd', tags: OPENAPI_TAGS }),
  ),
) as unknown;

describe('operationGroups', () => {
  const groups = operationGroups(document);
  const operations = groups.flatMap((group) => group.operations);
  const byId = (id: string) => operations.find((operation) => operation.operationId === id)!;

  it('lists every route of the cost table once, grouped in the document tag order', () => {
    expect(operations.map((operation) => operation.route).sort()).toEqual([...ROUTE_IDS].sort());
    expect(groups.map((group) => group.tag)).toEqual(OPENAPI_TAGS.map((tag) => tag.name).filter((tag) => groups.some((group) => group.tag === tag)));
  });

  it('reads costs, parameters with their types, enums, required marks and examples', () => {
    const history = byId('getAddressTransactions');
    expect(history.costRu).toBe(0.5);
    expect(history.public).toBe(false);
    const address = history.parameters.find((parameter) => parameter.name === 'address')!;
    expect(address).toMatchObject({ in: 'path', required: true, type: 'string', example: EXAMPLE_ADDRESS });
    const accepted = history.parameters.find((parameter) => parameter.name === 'accepted_only')!;
    expect(accepted).toMatchObject({ in: 'query', required: false, enum: ['true', 'false'] });
    expect(byId('getOpenApiDocument').public).toBe(true);
    expect(byId('getTokenChart').parameters.find((parameter) => parameter.name === 'type')).toMatchObject({ required: true, enum: ['candles', 'stats'] });
  });

  it('resolves the body schema to its top-level fields and keeps the example', () => {
    const getBlocks = byId('getBlocks');
    expect(getBlocks.body!.fields.map((field) => [field.name, field.type, field.required])).toEqual([
      ['lowHash', 'string', false],
      ['includeBlocks', 'boolean', true],
      ['includeTransactions', 'boolean', true],
    ]);
    expect(byId('submitBlock').body!.limitBytes).toBe(4 * 1024 * 1024);
    expect(byId('getTransactions').body!.example).toEqual({ transactionIds: [EXAMPLE_TRANSACTION_ID], includePayload: false });
    expect(byId('getTransaction').errorStatuses).toContain('404');
    const [summary] = operationSummaries([{ tag: 't', description: '', operations: [byId('getTransaction')] }])[0]!.operations;
    expect(summary).toMatchObject({ problemFamilies: ['every', 'keyed', 'node'], ownProblemCodes: ['invalid_hex', 'transaction_not_found'] });
    expect(summary).not.toHaveProperty('responseExample');
  });

  it('swaps placeholder values for live ones in parameters and bodies', () => {
    const live = withLiveExamples(groups, new Map([[EXAMPLE_TRANSACTION_ID, 'cd'.repeat(32)]]));
    const liveOps = live.flatMap((group) => group.operations);
    const find = (id: string) => liveOps.find((operation) => operation.operationId === id)!;
    expect(find('getTransaction').parameters[0]!.example).toBe('cd'.repeat(32));
    expect(find('getTransactions').body!.example).toEqual({ transactionIds: ['cd'.repeat(32)], includePayload: false });
    expect(byId('getTransaction').parameters[0]!.example).toBe(EXAMPLE_TRANSACTION_ID);
  });
});
