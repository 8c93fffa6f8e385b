import { describe, expect, it } from 'vitest';
import { KASPA_REST_ROUTE_COSTS } from '../api/keys/costs';
import { kaspaRestOpenApi, OPERATIONS } from './openapi';
import { KASPA_REST_ROUTES } from './routes';

describe('the /kaspa-rest OpenAPI document', () => {
  const document = kaspaRestOpenApi() as {
    paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>>;
    components: { schemas: Record<string, unknown> };
  };

  it('documents every served route but itself, with its path parameters, and every route is priced', () => {
    const served = KASPA_REST_ROUTES.map((route) => route.id).filter((id) => id !== 'GET /kaspa-rest/openapi.json');
    expect(Object.keys(OPERATIONS).sort()).toEqual([...served].sort());
    expect(Object.keys(KASPA_REST_ROUTE_COSTS).sort()).toEqual(KASPA_REST_ROUTES.map((route) => route.id).sort());
    for (const id of served) {
      const [method, path] = id.split(' ') as [string, string];
      const operation = document.paths[path.slice('/kaspa-rest'.length)]?.[method.toLowerCase()];
      expect(operation, id).toBeDefined();
      const named = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(operation!.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name)).toEqual(named);
    }
  });

  it("lists exactly the query parameters a strict route accepts", () => {
    for (const route of KASPA_REST_ROUTES) {
      if (route.strictQuery === undefined || route.id === 'GET /kaspa-rest/openapi.json') continue;
      const documented = (OPERATIONS[route.id as keyof typeof OPERATIONS].query ?? []).map((query) => query.name);
      expect(documented.sort(), route.id).toEqual([...route.strictQuery].sort());
    }
  });

  it('every schema reference resolves', () => {
    const text = JSON.stringify(document);
    for (const match of text.matchAll(/"#\/components\/schemas\/(\w+)"/g)) expect(document.components.schemas, match[1]).toHaveProperty(match[1]!);
  });
});
